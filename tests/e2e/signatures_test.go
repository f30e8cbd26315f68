package e2e

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestSignatureHelp: get_signature_help over HTTP, on docs/api.md's
// example, a stdlib overload's keyword, a call still being typed in a
// file with a syntax error, outside any call, and a position outside the
// file.
func TestSignatureHelp(t *testing.T) {
	s, ws, key := navSetup(t, map[string]string{
		"app.py":        "def area(width: int, height: int = 1) -> int:\n    \"\"\"Width times height.\"\"\"\n    return width * height\n\narea(3, height=2)\n",
		"typing_now.py": "from app import area\nimport sys\n\nprint('x', file=sys.stderr)\narea(2, \n",
	})
	cases := []struct {
		name       string
		rel        string
		line, char int
		want       string // the whole result, as JSON
	}{
		{"docs/api.md's example", "app.py", 4, 10,
			`{"signatures":[{"label":"(width: int, height: int = 1) -> int","documentation":"Width times height.","parameters":[{"label":"width: int"},{"label":"height: int = 1"}]}],"activeSignature":0,"activeParameter":1}`},
		{"outside any call", "app.py", 4, 0, `{"signatures":[],"activeSignature":0,"activeParameter":-1}`},
		{"a call being typed, imported from another file", "typing_now.py", 4, 8,
			`{"signatures":[{"label":"(width: int, height: int = 1) -> int","documentation":"Width times height.","parameters":[{"label":"width: int"},{"label":"height: int = 1"}]}],"activeSignature":0,"activeParameter":1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.tool(key, "get_signature_help", at(ws, c.rel, c.line, c.char))
			mustStatus(t, r, 200, "")
			var want map[string]any
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Body, want) {
				t.Errorf("got  %s\nwant %s", r.Raw, c.want)
			}
		})
	}
	// print's first overload, the cursor on file=: its fourth parameter.
	r := s.tool(key, "get_signature_help", at(ws, "typing_now.py", 3, 17))
	mustStatus(t, r, 200, "")
	sigs, _ := r.Body["signatures"].([]any)
	if len(sigs) != 2 || r.Body["activeParameter"] != float64(3) {
		t.Fatalf("print's signatures: %s", r.Raw)
	}
	mustStatus(t, s.tool(key, "get_signature_help", at(ws, "app.py", 50, 0)), 400, "INVALID_POSITION")
}
