package summarize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// TestCallSites checks each call's argument list as recorded for
// signature help: parentheses, commas and keywords in written order, and
// the callee of its expression.
func TestCallSites(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "open-close commas keys callee"
	}{
		{"positional and keyword", "f(a, b=1)\n", []string{"0:2-0:8 [0:3] [ b] f"}},
		{"empty", "f()\n", []string{"0:2-0:2 [] [] f"}},
		{"splats", "f(*a, **k)\n", []string{"0:2-0:9 [0:4] [* **] f"}},
		{"nested, by open", "f(g(x), y)\n", []string{"0:2-0:9 [0:6] [ ] f", "0:4-0:5 [] [] g"}},
		{"method over lines", "o.m(\n  a,\n  k=2,\n)\n", []string{"0:4-3:0 [1:3 2:5] [ k] o.m"}},
		{"generator", "sum(x for x in y)\n", []string{"0:4-0:16 [] [] sum"}},
		{"called call", "f(1)(2)\n", []string{"0:2-0:3 [] [] f", "0:5-0:6 [] [] f()"}},
		{"super", "class C(B):\n    def m(self):\n        super(C, self).m()\n", []string{"2:14-2:21 [2:15] [ ] super", "2:25-2:25 [] [] ?.m"}},
		{"unclosed", "f(a, \n", []string{"0:2-0:5 [0:3] [] f"}},
		{"unclosed before a statement", "x = f(a, \ny = 2\n", []string{"0:6-1:5 [0:7] [ y] f"}},
		{"unclosed in a def", "def g():\n    return o.m(1, k=\n", []string{"1:15-1:20 [1:16] [ ] o.m"}},
		{"unclosed in unclosed", "f(a, g(b\n", []string{"0:2-0:8 [0:3] [ ] f", "0:7-0:8 [] [] g"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(parsertest.Tree(t, []byte(tt.src)), Options{})
			roundTrip(t, s)
			var got []string
			for _, c := range s.Calls {
				got = append(got, fmt.Sprintf("%d:%d-%d:%d %v %v %s", c.Open.Line, c.Open.Col, c.Close.Line, c.Close.Col, positions(c.Commas), keys(c.Keys), calleeText(s, c.Expr)))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func positions(ps []navindex.Pos) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%d:%d", p.Line, p.Col))
	}
	return "[" + strings.Join(out, " ") + "]"
}

func keys(ks []string) string { return "[" + strings.Join(ks, " ") + "]" }

// calleeText prints a call's callee: names, attributes and calls.
func calleeText(s *navindex.Summary, x int32) string {
	if x < 0 {
		return "?"
	}
	var text func(int32) string
	text = func(e int32) string {
		if e < 0 {
			return "?"
		}
		switch x := s.Exprs[e]; x.Op {
		case navindex.ExprSym:
			return s.Syms[x.A].Name
		case navindex.ExprAttr:
			return text(x.A) + "." + x.Name
		case navindex.ExprCall:
			return text(x.A) + "()"
		}
		return "?"
	}
	return text(s.Exprs[x].A)
}
