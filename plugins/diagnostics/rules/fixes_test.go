package rules

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/edittest"
	"github.com/pyws/pyws/plugin-sdk/markertest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// TestFixes runs the fix fixtures (testdata/fixes/NAME.py): the `# want`
// markers are checked as for any fixture; then the fixes of the code the
// `# fix: CODE` directive names are applied one at a time, as a user
// would apply code actions (each on the file the previous one left),
// until none is left. The result must be NAME.py.golden (-update rewrites
// it), parse, and report each fixed diagnostic no more.
func TestFixes(t *testing.T) {
	markertest.Run(t, []string{"../testdata/fixes/*.py"}, func(t *testing.T, c markertest.Case) {
		runFixture(t, c)
		code, ok := markertest.Directive(c.Files[0].Src, "fix")
		if !ok || Lookup(code) == nil || Lookup(code).Fix == nil {
			t.Fatalf("`# fix: CODE` names no rule with a fix: %q", code)
		}
		cfg, env := fixtureSettings(t, c)
		src := c.Files[0].Src
		count := func(src []byte) (diags int, actions []abi.CodeAction) {
			tr := parse(t, src)
			for _, d := range Run(tr, textpos.New(src), cfg, env) {
				if d.Code == code {
					diags++
				}
			}
			if tr.Root().HasError() {
				t.Fatalf("the fixes broke the file:\n%s", src)
			}
			for _, a := range Actions(tr, textpos.New(src), cfg, env) {
				if a.Diagnostic.Code == code {
					actions = append(actions, a)
				}
			}
			return diags, actions
		}
		before, actions := count(src)
		applied := 0 // diagnostics fixed so far
		for len(actions) > 0 {
			if applied++; applied > before {
				t.Fatalf("more fixes than diagnostics: a fix does not remove its diagnostic\n%s", src)
			}
			src = []byte(edittest.Apply(t, src, actions[0].Edits))
			var after int
			after, actions = count(src)
			// A fix removes its diagnostic at least (an import fix takes
			// the other names its rule removes from the statement too).
			if after > before-applied {
				t.Fatalf("after fix %d: %d %s diagnostics, want at most %d\n%s", applied, after, code, before-applied, src)
			}
			applied = before - after
		}
		markertest.Golden(t, c.Path+".golden", src, *update)
		if applied == 0 && !strings.Contains(c.Path, "kept") {
			t.Error("no fix applied: name the fixture *_kept.py when that is the point")
		}
	})
}

// TestManualFixesNotInFixAll: the missing-argument placeholders are a
// quick fix of their own, never part of fix-all (the user fills them).
func TestManualFixesNotInFixAll(t *testing.T) {
	src := []byte("def area(w, h):\n    return w * h\n\n\narea(3)\n")
	fx := FileFixes(parse(t, src), textpos.New(src), DefaultConfig(), exampleEnv)
	if len(fx.Actions) != 1 || fx.Actions[0].Title != addMissingArguments.Title {
		t.Fatalf("actions %+v, want the placeholders' quick fix", fx.Actions)
	}
	if fx.All != nil {
		t.Errorf("fix-all %+v, want none", fx.All)
	}
}
