package rules

import (
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"

	"github.com/pyws/pyws/plugins/diagnostics/syntax"
)

// Run returns all diagnostics of a file. A file with syntax errors
// (package syntax: ERROR and MISSING nodes, plus what tree-sitter accepts
// but CPython rejects) gets only its syntax-error diagnostics: semantic
// rules on a tree the parser had to repair would report its guesses
// (pyflakes, too, stops at a syntax error). Suppression comments do not
// hide syntax errors.
func Run(t *tree.Tree, idx *textpos.Index, cfg Config, env Env) []abi.Diagnostic {
	if d := syntax.Check(t, idx); len(d) > 0 || t.Root().HasError() {
		if d == nil {
			d = []abi.Diagnostic{}
		}
		return d
	}
	return Check(t, idx, cfg, env)
}
