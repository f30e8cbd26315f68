package black

import (
	"fmt"
	"os"
	"strings"
	"testing"

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
	if n.IsExtra() {
		b.WriteString(" (extra)")
	}
	b.WriteByte('\n')
	for c := range n.Children() {
		dumpNode(b, c, depth+1)
	}
}

// TestDump prints the tree of $PYWS_DUMP (a file) for development.
func TestDump(t *testing.T) {
	f := os.Getenv("PYWS_DUMP")
	if f == "" {
		t.Skip("PYWS_DUMP not set")
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	dumpNode(&b, parse(t, src).Root(), 0)
	fmt.Print(b.String())
}
