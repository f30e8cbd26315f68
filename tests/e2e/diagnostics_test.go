package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

func TestDiagnosticsThroughPlugin(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"ok.py":        "def f(x: int) -> int:\n    return x + 1\n",
		"broken.py":    "def f(x)\n    return x\n",
		"unmatched.py": "x = 1\ny = '😀é' + 1)\n",
		"notes.txt":    "just text\n",
		"binary.py":    "x = 1\x00\x01\n",
		"script":       "#!/usr/bin/env python3\nprint('hi'\n",
		"pkg/stub.pyi": "def g() -> int: ...\n",
	})
	s := startServer(t, ws)
	key := s.addKey("pro", "")
	waitIndexed(t, s, key)

	t.Run("valid file has no syntax errors", func(t *testing.T) {
		r := s.tool(key, "get_diagnostics", map[string]any{"uri": "file://" + filepath.Join(ws, "ok.py")})
		mustStatus(t, r, 200, "")
		if n := len(r.Body["diagnostics"].([]any)); n != 0 {
			t.Fatalf("diagnostics on a valid file: %s", r.Raw)
		}
		if r.Body["errorCount"] != 0.0 || r.Body["warningCount"] != 0.0 {
			t.Fatalf("counts: %s", r.Raw)
		}
	})
	t.Run("syntax errors with ranges", func(t *testing.T) {
		r := s.do("POST", "/v1/tools/get_diagnostics", key, map[string]any{"uri": "broken.py"})
		mustStatus(t, r, 200, "")
		diags := r.Body["diagnostics"].([]any)
		if len(diags) != 1 {
			t.Fatalf("want exactly the missing ':': %s", r.Raw)
		}
		first := diags[0].(map[string]any)
		if first["code"] != "syntax-error" || first["severity"] != 1.0 || first["source"] != "pyws" ||
			!strings.Contains(first["message"].(string), ":") {
			t.Fatalf("first diagnostic: %v", first)
		}
		if start := first["range"].(map[string]any)["start"].(map[string]any); start["line"] != 0.0 || start["character"] != 8.0 {
			t.Fatalf("missing ':' should be reported at 0:8: %v", first)
		}
		if r.Body["errorCount"].(float64) != float64(len(diags)) {
			t.Fatalf("errorCount %v for %d errors", r.Body["errorCount"], len(diags))
		}
		// The severity filter keeps errors for "error" and drops them for "warning".
		w := s.tool(key, "get_diagnostics", map[string]any{"uri": "broken.py", "severity": "warning"})
		mustStatus(t, w, 200, "")
		if len(w.Body["diagnostics"].([]any)) != 0 || w.Body["errorCount"].(float64) != float64(len(diags)) {
			t.Fatalf("warning filter: %s", w.Raw)
		}
	})
	t.Run("positions count UTF-16 units", func(t *testing.T) {
		r := s.tool(key, "get_diagnostics", map[string]any{"uri": "unmatched.py"})
		mustStatus(t, r, 200, "")
		diags := r.Body["diagnostics"].([]any)
		if len(diags) == 0 {
			t.Fatalf("unmatched ')' not reported: %s", r.Raw)
		}
		d := diags[0].(map[string]any)
		start := d["range"].(map[string]any)["start"].(map[string]any)
		// "y = '😀é' + 1" is 13 UTF-16 units: the emoji counts two.
		want := float64(utf16Len("y = '😀é' + 1"))
		if start["line"] != 1.0 || start["character"] != want || !strings.Contains(d["message"].(string), ")") {
			t.Fatalf("unmatched ')' at %v, want 1:%v: %v", start, want, d)
		}
	})
	t.Run("python script without extension", func(t *testing.T) {
		r := s.tool(key, "get_diagnostics", map[string]any{"uri": "script"})
		mustStatus(t, r, 200, "")
		if len(r.Body["diagnostics"].([]any)) == 0 {
			t.Fatalf("unclosed call not reported: %s", r.Raw)
		}
	})
	t.Run("stub file", func(t *testing.T) {
		mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "pkg/stub.pyi"}), 200, "")
	})
	t.Run("errors", func(t *testing.T) {
		mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "notes.txt"}), 422, "INVALID_PYTHON")
		mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "binary.py"}), 422, "INVALID_PYTHON")
		mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "missing.py"}), 404, "FILE_NOT_FOUND")
		mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "../outside.py"}), 403, "PERMISSION_DENIED")
		mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "ok.py", "severity": "fatal"}), 400, "INVALID_PARAMETER")
	})
}
