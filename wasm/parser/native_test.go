//go:build pyws_native

package parser

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

// BenchmarkParseNative: the same C code compiled natively (gcc via cgo).
func BenchmarkParseNative(b *testing.B) {
	_, srcs, total := stdlibcorpus.Bench(b)
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, src := range srcs {
			if _, err := nativeParse(src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestNativeMatchesWasm checks that wasm and native blobs are identical
// for the whole stdlib.
func TestNativeMatchesWasm(t *testing.T) {
	p := newParser(t)
	n := 0
	for _, f := range stdlibcorpus.Files(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := p.Parse(context.Background(), src, 0)
		if err != nil {
			t.Fatalf("%s: wasm: %v", f, err)
		}
		nat, err := nativeParse(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(w, nat) {
			t.Errorf("%s: wasm and native blobs differ", f)
		}
		n++
	}
	t.Logf("%d files identical", n)
}
