package pysem

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/dump/*.dump")

// TestDump pins the whole model (scopes, bindings, references and what
// they resolve to, attributes) of the files in testdata/dump, one .dump
// golden each. To see the model of some code, add a file and run with
// -update.
func TestDump(t *testing.T) {
	files, _ := filepath.Glob("testdata/dump/*.py")
	if len(files) == 0 {
		t.Fatal("no testdata/dump/*.py")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := dump(Analyze(parse(t, string(src)), optsFor(f)))
			golden := strings.TrimSuffix(f, ".py") + ".dump"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range max(len(gl), len(wl)) {
					if i >= len(gl) || i >= len(wl) || gl[i] != wl[i] {
						t.Fatalf("model differs from %s at line %d:\n got: %s\nwant: %s", golden, i+1, line(gl, i), line(wl, i))
					}
				}
			}
		})
	}
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}
