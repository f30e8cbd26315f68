package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCodeActions drives get_code_actions over HTTP against the packed
// diagnostics and formatter plugins: each kind, the `only` filter, the
// refusals, and every returned edit applied with apply_workspace_edit as
// it is, leaving a file that parses and no longer has what was fixed.
func TestCodeActions(t *testing.T) {
	build(t)
	ws := realDir(t, t.TempDir())
	const app = "import os\nimport sys\nfrom collections import OrderedDict, defaultdict\n\n\ndef main():\n    result = compute()\n    return sys.argv\n\n\ndef compute():\n    return defaultdict(list)\n"
	writeTree(t, ws, map[string]string{
		"app.py":         app,
		"fixall.py":      app,
		"two.py":         "from os.path import join, split\nimport sys\n\nprint(sys)\n",
		"unsorted.py":    "import sys\nimport os\n\nprint(os, sys)\n",
		"crlf.py":        "import sys\r\nimport os\r\n\r\nprint(os, sys)\r\n",
		"sections.py":    "import requests\nimport mylib\nimport os\nimport numpy\n\nprint(requests, mylib, os, numpy)\n",
		"mylib.py":       "X = 1\n",
		"broken.py":      "import os\nimport sys\ndef f(:\n    pass\n",
		"modified.py":    "import os\n",
		"calls.py":       "def area(w, h):\n    return w * h\n\n\narea(3)\n",
		"notes.txt":      "text\n",
		"pyproject.toml": "[tool.isort]\nknown_first_party = [\"requests\"]\n",
	})
	s := startServer(t, ws)
	key := s.addKey("pro", "")
	uri := func(name string) string { return fileURI(filepath.Join(ws, name)) }
	pos := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	rng := func(sl, sc, el, ec int) map[string]any {
		return map[string]any{"start": pos(sl, sc), "end": pos(el, ec)}
	}
	actions := func(name string, r map[string]any, only ...string) response {
		args := map[string]any{"uri": uri(name), "range": r}
		if only != nil {
			args["only"] = only
		}
		return s.tool(key, "get_code_actions", args)
	}
	list := func(r response) []map[string]any {
		t.Helper()
		mustStatus(t, r, 200, "")
		var out []map[string]any
		for _, a := range r.Body["actions"].([]any) {
			out = append(out, a.(map[string]any))
		}
		return out
	}
	kinds := func(acts []map[string]any) string {
		var k []string
		for _, a := range acts {
			k = append(k, a["kind"].(string))
		}
		return strings.Join(k, ",")
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(ws, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// apply sends an action's edit to apply_workspace_edit untouched.
	apply := func(a map[string]any) response {
		return s.tool(key, "apply_workspace_edit", map[string]any{"edit": a["edit"], "label": a["title"]})
	}
	mustApply := func(a map[string]any) {
		t.Helper()
		r := apply(a)
		mustStatus(t, r, 200, "")
		if r.Body["applied"] != true {
			t.Fatalf("apply %q: %s", a["title"], r.Raw)
		}
	}
	// codes lists the errors and warnings of a file (the hints about type
	// annotations are not the fixes' business), failing on a syntax
	// error: every edit must leave a file that parses.
	codes := func(name string) string {
		t.Helper()
		r := s.tool(key, "get_diagnostics", map[string]any{"uri": name})
		mustStatus(t, r, 200, "")
		var c []string
		for _, d := range r.Body["diagnostics"].([]any) {
			code := d.(map[string]any)["code"].(string)
			if code == "syntax-error" {
				t.Fatalf("%s does not parse after the edit:\n%s", name, read(name))
			}
			if d.(map[string]any)["severity"].(float64) <= 2 {
				c = append(c, code)
			}
		}
		return strings.Join(c, ",")
	}
	eventually(t, 60*time.Second, "workspace loaded", func() bool {
		return actions("app.py", rng(0, 0, 0, 0)).ErrCode() != "WORKSPACE_NOT_LOADED"
	})

	t.Run("quick fix at the cursor, applied", func(t *testing.T) {
		acts := list(actions("app.py", rng(0, 8, 0, 8)))
		if kinds(acts) != "quickfix,source.fixAll" {
			t.Fatalf("at `os`: want its quick fix and fix-all, got %s", kinds(acts))
		}
		fix := acts[0]
		diags := fix["diagnostics"].([]any)
		if fix["title"] != "Remove the unused import" || fix["isPreferred"] != true || len(diags) != 1 ||
			diags[0].(map[string]any)["code"] != "unused-import" {
			t.Fatalf("quick fix: %v", fix)
		}
		changes := fix["edit"].(map[string]any)["changes"].(map[string]any)
		if len(changes) != 1 || changes[uri("app.py")] == nil {
			t.Fatalf("want a changes map keyed by the file URI: %v", changes)
		}
		if read("app.py") != app {
			t.Fatal("get_code_actions wrote the file")
		}
		mustApply(fix)
		if got := read("app.py"); got != strings.TrimPrefix(app, "import os\n") {
			t.Fatalf("after the fix:\n%s", got)
		}
		if c := codes("app.py"); c != "unused-import,unused-variable" {
			t.Fatalf("diagnostics after the fix: %s", c)
		}
	})
	t.Run("a range selects the diagnostics it meets", func(t *testing.T) {
		// app.py lost its first line: OrderedDict is on line 1, result on 5.
		acts := list(actions("app.py", rng(1, 0, 5, 10), "quickfix"))
		if len(acts) != 2 || acts[0]["title"] != "Remove the unused import" || acts[1]["title"] != "Rename the unused variable to _" {
			t.Fatalf("want the OrderedDict and result fixes: %v", acts)
		}
		if acts[1]["isPreferred"] != nil {
			t.Fatalf("renaming is not preferred: %v", acts[1])
		}
		if acts := list(actions("app.py", rng(3, 0, 4, 0), "quickfix")); len(acts) != 0 {
			t.Fatalf("no diagnostic on lines 3-4: %v", acts)
		}
		// One at a time, each asked again on the file the last one left.
		mustApply(acts[0])
		mustApply(list(actions("app.py", rng(1, 0, 5, 10), "quickfix"))[0])
		if c := codes("app.py"); c != "" {
			t.Fatalf("diagnostics after both fixes: %s\n%s", c, read("app.py"))
		}
	})
	t.Run("missing arguments get placeholders, never in fix-all", func(t *testing.T) {
		acts := list(actions("calls.py", rng(4, 5, 4, 5)))
		if kinds(acts) != "quickfix" || acts[0]["title"] != "Add the missing argument placeholders" || acts[0]["isPreferred"] != nil {
			t.Fatalf("at area(3): want the placeholders' quick fix alone: %v", acts)
		}
		mustApply(acts[0])
		if got := read("calls.py"); got != "def area(w, h):\n    return w * h\n\n\narea(3, h=...)\n" {
			t.Fatalf("after the fix:\n%s", got)
		}
		if c := codes("calls.py"); c != "" {
			t.Fatalf("diagnostics after the fix: %s", c)
		}
	})
	t.Run("source.fixAll applies every fix at once", func(t *testing.T) {
		acts := list(actions("fixall.py", rng(0, 0, 0, 0), "source.fixAll"))
		if kinds(acts) != "source.fixAll" || acts[0]["diagnostics"] != nil {
			t.Fatalf("want fix-all alone: %v", acts)
		}
		mustApply(acts[0])
		want := "import sys\nfrom collections import defaultdict\n\n\ndef main():\n    _ = compute()\n    return sys.argv\n\n\ndef compute():\n    return defaultdict(list)\n"
		if got := read("fixall.py"); got != want {
			t.Fatalf("after fix-all:\n%s", got)
		}
		if c := codes("fixall.py"); c != "" {
			t.Fatalf("diagnostics after fix-all: %s", c)
		}
		if acts := list(actions("fixall.py", rng(0, 0, 0, 0))); len(acts) != 0 {
			t.Fatalf("nothing left to fix: %v", acts)
		}
	})
	t.Run("fix-all removes a statement whose names all go", func(t *testing.T) {
		acts := list(actions("two.py", rng(0, 0, 0, 0), "source.fixAll"))
		if len(acts) != 1 {
			t.Fatalf("fix-all: %v", acts)
		}
		mustApply(acts[0])
		if got := read("two.py"); got != "import sys\n\nprint(sys)\n" {
			t.Fatalf("after fix-all:\n%s", got)
		}
		codes("two.py")
	})
	t.Run("source.organizeImports sorts as isort", func(t *testing.T) {
		acts := list(actions("unsorted.py", rng(0, 0, 0, 0), "source"))
		if kinds(acts) != "source.organizeImports" || acts[0]["title"] != "Organize imports" {
			t.Fatalf("want organize imports alone: %v", acts)
		}
		mustApply(acts[0])
		if got := read("unsorted.py"); got != "import os\nimport sys\n\nprint(os, sys)\n" {
			t.Fatalf("after organize imports:\n%s", got)
		}
		codes("unsorted.py")
		if acts := list(actions("unsorted.py", rng(0, 0, 0, 0))); len(acts) != 0 {
			t.Fatalf("sorted imports: nothing to offer, got %v", acts)
		}
	})
	t.Run("organize imports keeps CRLF and follows the configuration", func(t *testing.T) {
		acts := list(actions("crlf.py", rng(0, 0, 0, 0), "source.organizeImports"))
		mustApply(acts[0])
		if got := read("crlf.py"); got != "import os\r\nimport sys\r\n\r\nprint(os, sys)\r\n" {
			t.Fatalf("crlf: %q", got)
		}
		// requests is first party by [tool.isort], mylib by the workspace.
		acts = list(actions("sections.py", rng(0, 0, 0, 0), "source.organizeImports"))
		mustApply(acts[0])
		if got := read("sections.py"); got != "import os\n\nimport numpy\n\nimport mylib\nimport requests\n\nprint(requests, mylib, os, numpy)\n" {
			t.Fatalf("sections:\n%s", got)
		}
	})
	t.Run("a file with syntax errors has no actions", func(t *testing.T) {
		if acts := list(actions("broken.py", rng(0, 0, 3, 0))); len(acts) != 0 {
			t.Fatalf("broken file: %v", acts)
		}
	})
	t.Run("FILE_MODIFIED when the file changed before apply", func(t *testing.T) {
		acts := list(actions("modified.py", rng(0, 0, 1, 0), "quickfix"))
		if len(acts) != 1 {
			t.Fatalf("want the fix of the unused import: %v", acts)
		}
		if err := os.WriteFile(filepath.Join(ws, "modified.py"), []byte("import os\nx = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := apply(acts[0]); !strings.Contains(string(r.Raw), "FILE_MODIFIED") {
			t.Fatalf("want FILE_MODIFIED: %s", r.Raw)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		for _, c := range []struct {
			name, file  string
			rng         map[string]any
			only        []string
			code, param string
		}{
			{"end before start", "two.py", rng(1, 0, 0, 3), nil, "INVALID_PARAMETER", "range.end"},
			{"end before start on one line", "two.py", rng(0, 5, 0, 3), nil, "INVALID_PARAMETER", "range.end"},
			{"line past the end", "two.py", rng(0, 0, 40, 0), nil, "INVALID_POSITION", "range.end"},
			{"character past the line", "two.py", rng(0, 99, 0, 99), nil, "INVALID_POSITION", "range.start"},
			{"negative line", "two.py", rng(-1, 0, 0, 0), nil, "INVALID_PARAMETER", "range.start.line"},
			{"missing end", "two.py", map[string]any{"start": pos(0, 0)}, nil, "INVALID_PARAMETER", "range.end"},
			{"unknown kind", "two.py", rng(0, 0, 0, 0), []string{"source", "refactor.extract"}, "INVALID_PARAMETER", "only[1]"},
			{"missing file", "nope.py", rng(0, 0, 0, 0), nil, "FILE_NOT_FOUND", ""},
			{"not Python", "notes.txt", rng(0, 0, 0, 0), nil, "INVALID_PYTHON", ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := actions(c.file, c.rng, c.only...)
				mustStatus(t, r, r.Status, c.code)
				if r.Status < 400 {
					t.Fatalf("status %d: %s", r.Status, r.Raw)
				}
				if c.param != "" && jget(r.Body, "error", "details", "parameter") != c.param {
					t.Fatalf("want details.parameter %q: %s", c.param, r.Raw)
				}
				if c.name == "unknown kind" {
					for _, k := range []string{"quickfix", "source", "source.organizeImports", "source.fixAll"} {
						if !strings.Contains(string(r.Raw), `"`+k+`"`) {
							t.Fatalf("the refusal lists no allowed kind %q: %s", k, r.Raw)
						}
					}
				}
			})
		}
	})
}
