package diagdiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugins/diagnostics/rules"
)

// TestSyntaxErrors: every snippet of testdata/broken (each one a syntax
// error CPython rejects) gets at least one syntax-error and nothing else;
// every valid file of the corpus and of the rule fixtures gets none.
func TestSyntaxErrors(t *testing.T) {
	codes := func(path string) map[string]int {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tr := parsertest.Tree(t, src)
		out := map[string]int{}
		for _, d := range rules.Run(tr, textpos.New(src), rules.DefaultConfig(), rules.Env{Path: filepath.Base(path)}) {
			out[d.Code]++
		}
		return out
	}
	broken, _ := filepath.Glob(filepath.Join("testdata", "broken", "*.py"))
	if len(broken) < 20 {
		t.Fatalf("%d broken snippets", len(broken))
	}
	for _, b := range broken {
		c := codes(b)
		if c["syntax-error"] == 0 || len(c) != 1 {
			t.Errorf("%s: %v, want syntax-error only", b, c)
		}
	}
	valid, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.py"))
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "..", "plugins", "diagnostics", "testdata", "*.py"))
	for _, v := range append(valid, fixtures...) {
		if filepath.Base(v) == "syntax_only.py" {
			continue
		}
		if c := codes(v); c["syntax-error"] > 0 {
			t.Errorf("%s: %d syntax-error on a valid file", v, c["syntax-error"])
		}
	}
}
