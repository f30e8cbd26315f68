package black

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/parser"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

var (
	parserMu   sync.Mutex
	sharedPars *parser.Parser
)

// parse turns Python source into a tree through the wasm parser.
func parse(tb testing.TB, src []byte) *tree.Tree {
	tb.Helper()
	parserMu.Lock()
	defer parserMu.Unlock()
	if sharedPars == nil {
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		m, err := parser.Compile(ctx, rt)
		if err != nil {
			tb.Fatal(err)
		}
		p, err := m.New(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		sharedPars = p
	}
	blob, err := sharedPars.Parse(context.Background(), src, time.Minute)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := tree.Decode(blob, src)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

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
