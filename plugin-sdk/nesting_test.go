package sdk

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// TestTooDeepWithholdsTree: the handler of a file past a nesting limit
// gets TooDeep and no tree; a file within the limits gets its tree.
func TestTooDeepWithholdsTree(t *testing.T) {
	for _, c := range []struct {
		src     string
		message string
	}{
		{"x = " + strings.Repeat("(", 201) + strings.Repeat(")", 201) + "\n", nesting.MessageBrackets},
		{"x = " + strings.Repeat("-", 2000) + "x\n", nesting.MessageTreeDepth},
		{"x = " + strings.Repeat("(", 200) + strings.Repeat(")", 200) + "\n", ""},
	} {
		src := []byte(c.src)
		blob, err := parsertest.Blob(src)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := abi.EncodeRequest(&abi.Request{Tool: "t", Files: []abi.File{{Path: "a.py", Source: src, Tree: blob}}})
		if err != nil {
			t.Fatal(err)
		}
		var got File
		handle(func(r *Request) (any, error) { got = r.Files[0]; return nil, nil }, msg)
		switch {
		case c.message == "" && (got.TooDeep != nil || got.Tree == nil):
			t.Errorf("%.20q: TooDeep %+v, tree %v", c.src, got.TooDeep, got.Tree != nil)
		case c.message != "" && (got.TooDeep == nil || got.TooDeep.Message != c.message || got.Tree != nil):
			t.Errorf("%.20q: TooDeep %+v, tree %v; want %q and no tree", c.src, got.TooDeep, got.Tree != nil, c.message)
		}
	}
}
