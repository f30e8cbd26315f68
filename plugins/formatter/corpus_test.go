package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugins/formatter/equiv"
)

// TestEquivCorpus checks the safety check against real isort+black
// output: with PYWS_EQUIV_CORPUS=<dir> holding orig/ and ref/ trees (the
// same files before and after `isort --profile black . && black .`), every
// pair must have equal signatures, and the first differing item is shown
// otherwise. tests/differential/format prepares such trees.
func TestEquivCorpus(t *testing.T) {
	root := os.Getenv("PYWS_EQUIV_CORPUS")
	if root == "" {
		t.Skip("PYWS_EQUIV_CORPUS not set")
	}
	n := 0
	filepath.WalkDir(filepath.Join(root, "orig"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		rel, _ := filepath.Rel(filepath.Join(root, "orig"), p)
		src, _ := os.ReadFile(p)
		ref, err := os.ReadFile(filepath.Join(root, "ref", rel))
		if err != nil {
			return nil
		}
		n++
		ta, tb := parse(t, src), parse(t, ref)
		if ta.Root().HasError() || tb.Root().HasError() {
			return nil
		}
		if equiv.Signature(ta) != equiv.Signature(tb) {
			a := strings.Split(equiv.Canonical(ta), "\n")
			b := strings.Split(equiv.Canonical(tb), "\n")
			for i := range a {
				if i >= len(b) || a[i] != b[i] {
					t.Errorf("%s: item %d: %q vs %q", rel, i, a[i], b[min(i, len(b)-1)])
					break
				}
			}
		}
		return nil
	})
	if n == 0 {
		t.Fatalf("no orig/ and ref/ pairs under %s", root)
	}
	t.Logf("%d files compared", n)
}
