package main

import (
	"encoding/json"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/nesting/nestingtest"
)

// TestDeepNesting: a file past CPython's nesting limits gets one
// syntax-error diagnostic with CPython's message at CPython's position,
// through the SDK as in the guest; flat files as long are analysed.
func TestDeepNesting(t *testing.T) {
	for _, c := range nestingtest.TooDeep(10000) {
		t.Run(c.Name, func(t *testing.T) {
			resp := nestingtest.Call(t, handle, "get_diagnostics", json.RawMessage(`{"pyws":{"module":"deep"}}`), []byte(c.Src))
			if resp.Error != nil {
				t.Fatalf("%s: %s", resp.Error.Code, resp.Error.Message)
			}
			var r result
			if err := json.Unmarshal(resp.Result, &r); err != nil {
				t.Fatal(err)
			}
			if c.Message == "" {
				for _, d := range r.Diagnostics {
					if d.Code == "syntax-error" {
						t.Fatalf("flat source got %+v", d)
					}
				}
				return
			}
			if len(r.Diagnostics) != 1 || r.Diagnostics[0].Code != "syntax-error" || r.Diagnostics[0].Message != c.Message {
				t.Fatalf("got %+v, want one syntax-error %q", r.Diagnostics, c.Message)
			}
		})
	}
	// CPython 3.11: "too many nested parentheses" at line 1, offset 205
	// (1-based) for 10,000 parentheses after "x = ".
	resp := nestingtest.Call(t, handle, "get_diagnostics", nil, []byte(nestingtest.TooDeep(10000)[0].Src))
	var r result
	json.Unmarshal(resp.Result, &r)
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Range != (abi.Range{Start: abi.Position{Line: 0, Character: 204}, End: abi.Position{Line: 0, Character: 205}}) {
		t.Fatalf("parentheses: %+v, want the 201st parenthesis (0:204-0:205)", r.Diagnostics)
	}
}
