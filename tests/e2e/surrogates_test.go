package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditTextNotAltered: newText holding a lone surrogate escape or bytes
// that are not UTF-8 is refused with INVALID_PARAMETER naming the file
// and the edit, and nothing is written (encoding/json would have applied
// U+FFFD); a surrogate pair is applied as the character it encodes.
func TestEditTextNotAltered(t *testing.T) {
	ws := realDir(t, t.TempDir())
	writeTree(t, ws, map[string]string{"a.py": "x = 1\n", "b.py": "y = 2\n"})
	s := startServer(t, ws)
	key := s.addKeyReady("pro", ws)
	a, b := fileURI(filepath.Join(ws, "a.py")), fileURI(filepath.Join(ws, "b.py"))
	before := fileBytes(t, filepath.Join(ws, "a.py"), filepath.Join(ws, "b.py"))
	body := func(newText string) string {
		return fmt.Sprintf(`{"edit":{"changes":{%q:[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"ok"}],`+
			`%q:[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"#"},`+
			`{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},"newText":"%s"}]}}}`, a, b, newText)
	}
	want := fmt.Sprintf("edit.changes[%q][1].newText", b)
	for _, bad := range []string{`\ud800x`, `x\udc00`, "x\xffy"} {
		for _, route := range []string{"/v1/tools/apply_workspace_edit", "/v1/tools/call"} {
			raw := body(bad)
			if route == "/v1/tools/call" {
				raw = `{"name":"apply_workspace_edit","arguments":` + raw + `}`
			}
			r := s.do("POST", route, key, raw)
			mustStatus(t, r, 400, "INVALID_PARAMETER")
			if p := r.ErrDetails()["parameter"]; p != want {
				t.Errorf("%q via %s: parameter %v, want %s", bad, route, p, want)
			}
			mustBeUnchanged(t, before)
		}
	}
	r := s.do("POST", "/v1/tools/apply_workspace_edit", key, body(`\ud83d\ude00`))
	mustApplied(t, r, 2, 3)
	mustContent(t, filepath.Join(ws, "b.py"), "#y😀 = 2\n")
	if !strings.HasPrefix(string(fileBytes(t, filepath.Join(ws, "a.py"))[filepath.Join(ws, "a.py")]), "ok") {
		t.Error("a.py not edited")
	}
}
