// Command diagnostics is the analyzer plugin behind get_diagnostics. It
// receives one file with its syntax tree and returns its diagnostics; the
// kernel validates them, filters by severity and counts them.
package main

import (
	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"

	"github.com/pyws/pyws/plugins/diagnostics/syntax"
)

func init() { sdk.Serve(handle) }

func main() {}

type result struct {
	Diagnostics []abi.Diagnostic `json:"diagnostics"`
}

func handle(req *sdk.Request) (any, error) {
	if len(req.Files) != 1 {
		return nil, sdk.Errorf("INVALID_PARAMETER", nil, "get_diagnostics takes exactly one file, got %d", len(req.Files))
	}
	f := req.Files[0]
	if f.Tree == nil {
		return nil, sdk.Errorf("PARSE_ERROR", map[string]any{"uri": f.URI}, "no syntax tree for %s", f.Path)
	}
	diags := syntax.Check(f.Tree, textpos.New(f.Source))
	if diags == nil {
		diags = []abi.Diagnostic{}
	}
	return result{Diagnostics: diags}, nil
}
