package summarize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// TestSites checks the checked sites a file lists for type-mismatch:
// kind, span (the value's first line) and what each refers to.
func TestSites(t *testing.T) {
	tests := []struct {
		name, src string
		stub      bool
		want      []string // "kind line:col-end what"
	}{
		{"annotated and plain assignments", "count: int = 'x'\ncount = 2\n", false, []string{"assign 0:13-16 count", "assign 1:8-9 count"}},
		{"unpacked targets are not sites", "a, b = 1, 2\n", false, nil},
		{"annotated attribute", "class C:\n    def __init__(self):\n        self.x: int = 'a'\n        self.y = 1\n", false, []string{"assign 2:22-25 x", "attribute 3:17-18 y"}},
		{"attribute stores of one target", "o.a = 1\no.b, c = 1, 2\no.c = d = 3\no.d += 1\nf().e = (\n  4)\n", false, []string{"attribute 0:6-7 a", "assign 2:10-11 d", "attribute 4:8-9 e"}},
		{"returns of an annotated def", "def f() -> int:\n    if x:\n        return 'a'\n    return (\n        1)\n", false, []string{"return 2:15-18 f", "return 3:11-12 f"}},
		{"no returns of an unannotated def or a generator", "def f():\n    return 1\ndef g() -> int:\n    yield 1\n    return 2\n", false, nil},
		{"arguments by Args index", "f(a, *b, c, k=d, **e)\n", false, []string{"argument 0:2-3 f[0]", "argument 0:9-10 f[2]", "argument 0:14-15 f[3]"}},
		{"stubs have none", "x: int = 1\ndef f() -> int: ...\nf(1)\n", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(parsertest.Tree(t, []byte(tt.src)), Options{IsStub: tt.stub})
			roundTrip(t, s)
			var got []string
			for _, st := range s.Sites {
				what := ""
				switch st.Kind {
				case navindex.SiteAssign, navindex.SiteReturn:
					what = s.Syms[s.Defs[st.Def].Sym].Name
				case navindex.SiteArgument:
					what = fmt.Sprintf("%s[%d]", calleeText(s, st.Value), st.Arg)
				case navindex.SiteAttribute:
					what = s.Syms[st.Sym].Name
				}
				got = append(got, fmt.Sprintf("%s %d:%d-%d %s", [...]string{"assign", "return", "argument", "attribute"}[st.Kind], st.Span.Line, st.Span.Col, st.Span.End, what))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
