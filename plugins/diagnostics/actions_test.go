package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/edittest"
	"github.com/pyws/pyws/plugin-sdk/markertest"
	"github.com/pyws/pyws/plugin-sdk/nesting/nestingtest"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

var update = flag.Bool("update", false, "rewrite testdata/actions/*.golden")

// TestCodeActions calls get_code_actions through the SDK on each
// testdata/actions/*.py and compares what it answers (every action with
// its diagnostic and edits, then the file after the fix-all edit) with
// NAME.py.golden (-update rewrites it). The fix-all result must parse
// and have fewer fixes left, and every action must apply on its own.
func TestCodeActions(t *testing.T) {
	paths, _ := filepath.Glob("testdata/actions/*.py")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			c, err := markertest.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			src := c.Files[0].Src
			r := callCodeActions(t, src)
			var b strings.Builder
			for _, a := range r.Actions {
				d := a.Diagnostic
				fmt.Fprintf(&b, "%s (preferred %v)\n  %s %s %q\n", a.Title, a.IsPreferred, d.Code, rangeText(d.Range), d.Message)
				for _, e := range a.Edits {
					fmt.Fprintf(&b, "  edit %s %q\n", rangeText(e.Range), e.NewText)
				}
				edittest.Apply(t, src, a.Edits)
			}
			if r.FixAll == nil {
				b.WriteString("no fix-all\n")
			} else {
				fixed := edittest.Apply(t, src, r.FixAll)
				if parsertest.Tree(t, []byte(fixed)).Root().HasError() {
					t.Errorf("the fix-all edit leaves a file that does not parse:\n%s", fixed)
				}
				// Fixing may uncover more (the first of two `import os` is
				// unused once the second goes): the golden file shows what.
				again := callCodeActions(t, []byte(fixed))
				if len(again.Actions) >= len(r.Actions) {
					t.Errorf("fix-all fixed nothing: %+v", again.Actions)
				}
				fmt.Fprintf(&b, "fix-all, leaving %d fixes:\n%s", len(again.Actions), fixed)
			}
			markertest.Golden(t, path+".golden", []byte(b.String()), *update)
		})
	}
}

func callCodeActions(t *testing.T, src []byte) codeActionsResult {
	t.Helper()
	resp := nestingtest.Call(t, handle, "get_code_actions", json.RawMessage(`{"pyws":{"module":"deep"}}`), src)
	if resp.Error != nil {
		t.Fatalf("%s: %s", resp.Error.Code, resp.Error.Message)
	}
	var r codeActionsResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func rangeText(r abi.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

// TestCodeActionsTooDeep: a file past CPython's nesting limits does not
// parse, so it has no fixes (not an error).
func TestCodeActionsTooDeep(t *testing.T) {
	for _, c := range nestingtest.TooDeep(10000) {
		if c.Message == "" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if r := callCodeActions(t, []byte("import os\n"+c.Src)); len(r.Actions) != 0 || r.FixAll != nil {
				t.Fatalf("got %+v", r)
			}
		})
	}
}
