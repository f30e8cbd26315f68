package parsertest

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite generated testdata")

// TestTreeTestdata keeps plugin-sdk/tree/testdata/sample.blob (a real
// blob that package tree tests and fuzzes without running wasm) in step
// with the parser module. -update rewrites it.
func TestTreeTestdata(t *testing.T) {
	const dir = "../tree/testdata/"
	src, err := os.ReadFile(dir + "sample.py")
	if err != nil {
		t.Fatal(err)
	}
	blob, err := Blob(src)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(dir+"sample.blob", blob, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(dir + "sample.blob")
	if err != nil || !bytes.Equal(old, blob) {
		t.Fatalf("%ssample.blob is stale (%v): run go test ./plugin-sdk/parsertest -run TestTreeTestdata -update", dir, err)
	}
}
