package main

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/nesting/nestingtest"
)

// TestDeepNesting: format_document refuses a file past the nesting limits
// with PARSE_ERROR naming the line, through the SDK as in the guest; the
// check phase reports such a candidate as not parsing.
func TestDeepNesting(t *testing.T) {
	call := func(t *testing.T, phase string, src []byte) *abi.Response {
		args, _ := json.Marshal(Args{URI: "file:///w/deep.py", Phase: phase, Config: defaultConfig(t)})
		return nestingtest.Call(t, handle, "format_document", args, src)
	}
	for _, c := range nestingtest.TooDeep(10000) {
		if c.Message == "" {
			continue // formatting long flat files is TestAtLimits' business
		}
		t.Run(c.Name, func(t *testing.T) {
			resp := call(t, "format", []byte(c.Src))
			if resp.Error == nil || resp.Error.Code != "PARSE_ERROR" || !strings.Contains(resp.Error.Message, c.Message) ||
				!strings.Contains(resp.Error.Message, "at line ") {
				t.Fatalf("format: %+v, want PARSE_ERROR naming the line and %q", resp.Error, c.Message)
			}
			resp = call(t, "check", []byte(c.Src))
			if resp.Error != nil || !strings.Contains(string(resp.Result), `"parseError"`) {
				t.Fatalf("check: %+v %s, want a parseError", resp.Error, resp.Result)
			}
		})
	}
}

// TestAtLimits formats the deepest sources the limits let through: each
// is formatted (or refused for its syntax errors) and the result is
// equivalent, bounded splitting included.
func TestAtLimits(t *testing.T) {
	for _, c := range nestingtest.AtLimits() {
		t.Run(c.Name, func(t *testing.T) {
			_, err := pipeline(t, []byte(c.Src), defaultConfig(t))
			if e, ok := err.(*sdk.Error); err != nil && !(ok && e.Code == "PARSE_ERROR") {
				t.Fatal(err)
			}
		})
	}
}
