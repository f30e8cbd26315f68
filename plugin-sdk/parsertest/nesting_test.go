package parsertest

import (
	"strings"
	"testing"
)

// TestDeepNesting: the path before any guest takes 100,000 levels of
// nesting (brackets, operators) without a trap: the parser module
// flattens with its own heap stack, and tree.Decode finds parents
// without recursion. The tree keeps its full depth; refusing it is the
// guests' business (plugin-sdk/nesting).
func TestDeepNesting(t *testing.T) {
	const n = 100000
	for name, src := range map[string]string{
		"parentheses": "x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n",
		"brackets":    "x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"unclosed":    "x = " + strings.Repeat("(", n) + "\n",
		"not":         "x = " + strings.Repeat("not ", n) + "x\n",
		"unary minus": "x = " + strings.Repeat("-", n) + "x\n",
	} {
		tr := Tree(t, []byte(src))
		depth := 0
		for n := tr.Root(); !n.IsNull(); n = n.NamedChild(n.NamedChildCount() - 1) {
			depth++
			if n.NamedChildCount() == 0 {
				break
			}
		}
		if name != "unclosed" && depth < n {
			t.Errorf("%s: named depth %d, want at least %d", name, depth, n)
		}
	}
}
