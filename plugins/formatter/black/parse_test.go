package black

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/markertest"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// parse turns Python source into a tree through the wasm parser.
func parse(tb testing.TB, src []byte) *tree.Tree { return parsertest.Tree(tb, src) }

func dumpNode(b *strings.Builder, n tree.Node, depth int) {
	fmt.Fprintf(b, "%s%s", strings.Repeat("  ", depth), n.Kind())
	if f := n.FieldName(); f != "" {
		fmt.Fprintf(b, " [%s]", f)
	}
	if n.ChildCount() == 0 {
		fmt.Fprintf(b, " %q", n.Text())
	}
	for _, flag := range []struct {
		set  bool
		name string
	}{{n.IsExtra(), "extra"}, {n.IsMissing(), "missing"}, {n.IsError(), "error"}, {n.HasError(), "has error"}} {
		if flag.set {
			b.WriteString(" (" + flag.name + ")")
		}
	}
	b.WriteByte('\n')
	for c := range n.Children() {
		dumpNode(b, c, depth+1)
	}
}

// TestTreeShapes pins the trees the engine reads (kinds, field names,
// comments as extras, string parts, error nodes) for the snippets in
// testdata/trees: a parser change that alters them fails here, before it
// shows as a formatting difference. To see the tree of some code, add a
// snippet and run with -update.
func TestTreeShapes(t *testing.T) {
	markertest.Run(t, []string{"testdata/trees/*.py"}, func(t *testing.T, c markertest.Case) {
		var b strings.Builder
		dumpNode(&b, parse(t, c.Files[0].Src).Root(), 0)
		markertest.Golden(t, strings.TrimSuffix(c.Path, ".py")+".tree", []byte(b.String()), *update)
	})
}
