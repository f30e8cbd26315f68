//go:build !wasip1

package main

import (
	"encoding/json"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/nesting/nestingtest"
)

// TestDeepNesting: a file past the nesting limits is indexed with an
// empty summary, through the SDK as in the guest; flat files as long keep
// their symbols.
func TestDeepNesting(t *testing.T) {
	empty := navindex.Encode(&navindex.Summary{})
	for _, c := range nestingtest.TooDeep(10000) {
		t.Run(c.Name, func(t *testing.T) {
			resp := nestingtest.Call(t, handle, "index_files", json.RawMessage(`{}`), []byte(c.Src))
			if resp.Error != nil {
				t.Fatalf("%s: %s", resp.Error.Code, resp.Error.Message)
			}
			var r result
			if err := json.Unmarshal(resp.Result, &r); err != nil || len(r.Summaries) != 1 {
				t.Fatalf("result %.200s: %v", resp.Result, err)
			}
			if isEmpty := string(r.Summaries[0]) == string(empty); isEmpty != (c.Message != "") {
				t.Fatalf("empty summary %v, refused %v", isEmpty, c.Message != "")
			}
		})
	}
}
