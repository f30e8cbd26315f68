package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFormatDocument drives format_document over HTTP against the packed
// formatter plugin: edits applied with apply_workspace_edit give exactly
// the isort+black output recorded in plugins/formatter/testdata.
func TestFormatDocument(t *testing.T) {
	build(t)
	src, err := os.ReadFile(filepath.Join(repoRoot, "plugins/formatter/testdata/black_changes.py"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(repoRoot, "plugins/formatter/testdata/black_changes.py.golden"))
	if err != nil {
		t.Fatal(err)
	}
	ws := realDir(t, t.TempDir())
	big := "x = 1\n" + strings.Repeat("y = 'a long enough line of python source code'\n", 2500)
	writeTree(t, ws, map[string]string{
		"messy.py":       string(src),
		"clean.py":       string(want),
		"again.py":       string(src),
		"tabs.py":        "def f(a):\n    if a:\n        return 1\n",
		"broken.py":      "x = 1\ndef f(:\n    pass\n",
		"big.py":         big,
		"crlf.py":        "import sys\r\nimport os\r\nx = {'a':1}\r\n",
		"notes.txt":      "text\n",
		"pyproject.toml": "[tool.black]\nline-length = 100\n",
	})
	s := startServer(t, ws)
	pro := s.addKey("pro", "")
	free := s.addKey("free", "")
	uri := func(name string) string { return fileURI(filepath.Join(ws, name)) }

	format := func(key, name string, options any) response {
		args := map[string]any{"uri": uri(name)}
		if options != nil {
			args["options"] = options
		}
		return s.tool(key, "format_document", args)
	}
	apply := func(name string, edits any) response {
		return s.tool(pro, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": map[string]any{uri(name): edits}}})
	}
	// The workspace loads (and indexes) in the background first.
	eventually(t, 60*time.Second, "workspace loaded", func() bool {
		return format(pro, "clean.py", nil).ErrCode() != "WORKSPACE_NOT_LOADED"
	})
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(ws, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	t.Run("format then apply gives isort+black output", func(t *testing.T) {
		// line-length 88 from the request: pyproject's 100 would change the output.
		r := format(pro, "messy.py", map[string]any{"lineLength": 88})
		mustStatus(t, r, 200, "")
		edits := r.Body["edits"].([]any)
		if len(edits) < 2 || r.Body["totalEdits"] != float64(len(edits)) {
			t.Fatalf("want several minimal edits and a matching totalEdits: %s", r.Raw)
		}
		if read("messy.py") != string(src) {
			t.Fatal("format_document wrote the file")
		}
		a := apply("messy.py", edits)
		mustStatus(t, a, 200, "")
		if a.Body["applied"] != true {
			t.Fatalf("apply: %s", a.Raw)
		}
		if got := read("messy.py"); got != string(want) {
			t.Fatalf("applied result differs:\n%s\nwant\n%s", got, want)
		}
		// Idempotent: formatting the result again yields nothing.
		again := format(pro, "messy.py", map[string]any{"lineLength": 88})
		mustStatus(t, again, 200, "")
		if n := len(again.Body["edits"].([]any)); n != 0 {
			t.Fatalf("second format gave %d edits: %s", n, again.Raw)
		}
	})
	t.Run("already formatted file gives zero edits", func(t *testing.T) {
		r := format(pro, "clean.py", map[string]any{"lineLength": 88})
		mustStatus(t, r, 200, "")
		if len(r.Body["edits"].([]any)) != 0 || r.Body["totalEdits"] != 0.0 {
			t.Fatalf("edits on a formatted file: %s", r.Raw)
		}
	})
	t.Run("tabs when insertSpaces is false", func(t *testing.T) {
		r := format(pro, "tabs.py", map[string]any{"insertSpaces": false})
		mustStatus(t, r, 200, "")
		mustStatus(t, apply("tabs.py", r.Body["edits"]), 200, "")
		if got := read("tabs.py"); got != "def f(a):\n\tif a:\n\t\treturn 1\n" {
			t.Fatalf("tab-indented result: %q", got)
		}
	})
	t.Run("crlf line endings are kept", func(t *testing.T) {
		r := format(pro, "crlf.py", nil)
		mustStatus(t, r, 200, "")
		mustStatus(t, apply("crlf.py", r.Body["edits"]), 200, "")
		if got := read("crlf.py"); got != "import os\r\nimport sys\r\n\r\nx = {\"a\": 1}\r\n" {
			t.Fatalf("crlf result: %q", got)
		}
	})
	t.Run("FILE_MODIFIED when the file changed before apply", func(t *testing.T) {
		r := format(pro, "again.py", nil)
		mustStatus(t, r, 200, "")
		if err := os.WriteFile(filepath.Join(ws, "again.py"), append(src, "z = 3\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		before := fileBytes(t, filepath.Join(ws, "again.py"))
		a := apply("again.py", r.Body["edits"])
		if a.ErrCode() != "FILE_MODIFIED" && jget(a.Body, "failureReason") == nil {
			t.Fatalf("apply after change: %s", a.Raw)
		}
		if !strings.Contains(string(a.Raw), "FILE_MODIFIED") {
			t.Fatalf("want FILE_MODIFIED: %s", a.Raw)
		}
		mustBeUnchanged(t, before)
	})
	t.Run("INVALID_OPTIONS", func(t *testing.T) {
		for _, c := range []struct {
			options any
			option  string
		}{
			{map[string]any{"tabSize": 0}, "tabSize"},
			{map[string]any{"lineLength": 5000}, "lineLength"},
			{map[string]any{"insertSpaces": "no"}, "insertSpaces"},
			{map[string]any{"indentStyle": "tab"}, "indentStyle"},
			{"wide", "options"},
		} {
			r := format(pro, "clean.py", c.options)
			mustStatus(t, r, 400, "INVALID_OPTIONS")
			if d := r.ErrDetails(); d["option"] != c.option || d["reason"] == nil {
				t.Fatalf("details %v, want option %s: %s", d, c.option, r.Raw)
			}
		}
	})
	t.Run("PARSE_ERROR with the first error position", func(t *testing.T) {
		r := format(pro, "broken.py", nil)
		mustStatus(t, r, 422, "PARSE_ERROR")
		if d := r.ErrDetails(); d["line"] != 1.0 || d["character"] == nil {
			t.Fatalf("details: %s", r.Raw)
		}
	})
	t.Run("FILE_TOO_LARGE for a free key over 100 KiB", func(t *testing.T) {
		r := format(free, "big.py", nil)
		mustStatus(t, r, 413, "FILE_TOO_LARGE")
		if d := r.ErrDetails(); d["limit"] != float64(100*1024) || d["size"] != float64(len(big)) {
			t.Fatalf("details: %s", r.Raw)
		}
		mustStatus(t, format(pro, "big.py", nil), 200, "")
	})
	t.Run("FILE_NOT_FOUND and INVALID_PYTHON", func(t *testing.T) {
		mustStatus(t, format(pro, "missing.py", nil), 404, "FILE_NOT_FOUND")
		r := format(pro, "notes.txt", nil)
		if r.ErrCode() != "INVALID_PYTHON" {
			t.Fatalf("notes.txt: %s", r.Raw)
		}
	})
}
