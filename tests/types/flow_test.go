package types

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// TestFlowLongModule: a read after thousands of narrowing statements
// (every one a join the walk back meets) is answered, bounded, with the
// union of what reaches it; a loop of them too.
func TestFlowLongModule(t *testing.T) {
	var b strings.Builder
	b.WriteString("v = None\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "if v is None:\n    v = %d\nelif v:\n    v = 'a'\n", i)
	}
	b.WriteString("while v:\n    v = v or None\nprint(v)\n")
	src := b.String()
	p := newProgram(t, map[string]string{"long": src})
	u := p.unit("long")
	ev := pytypes.New(p, pytypes.Options{})
	last := int32(strings.Count(src, "\n") - 1)
	for _, o := range u.s.Occs {
		if o.Line == last && o.Flags&navindex.OccDef == 0 && u.s.Syms[o.Sym].Name == "v" {
			got := ev.HoverAt(u, o)
			t.Log(got)
			if !strings.HasPrefix(got, "(variable) v: ") {
				t.Fatalf("hover %q", got)
			}
			return
		}
	}
	t.Fatal("no read of v on the last line")
}
