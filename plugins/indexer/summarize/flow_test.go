package summarize

import (
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// TestFlowReads summarizes a function and describes the flow node of the
// last read of `x` (the line marked `# read`): the version-8 facts the
// evaluator narrows by.
func TestFlowReads(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"reassigned", "x = 1\nx = 'a'\nprint(x)  # read", "assign x=lit 'a'"},
		{"branches", "if c:\n    x = 1\nelse:\n    x = 'a'\nprint(x)  # read", "join(assign x=lit 1, assign x=lit 'a')"},
		{"guard", "if x is None:\n    return\nprint(x)  # read", "not (x is None) after param x"},
		{"isinstance", "if isinstance(x, str):\n    print(x)  # read", "(call isinstance) after param x"},
		{"and", "if x and y:\n    print(x)  # read", "(y) after (x) after param y"},
		{"or", "if x is None or y:\n    return\nprint(x)  # read", "not (y) after not (x is None) after param y"},
		{"not", "if not x:\n    return\nprint(x)  # read", "(x) after param x"},
		{"assert", "assert x is not None\nprint(x)  # read", "(x is not None) after param x"},
		{"loop", "x = 0\nwhile x < 3:\n    x = x + 1\nprint(x)  # read", "join(assign x=lit 0, assign x=oper +)"},
		{"augmented", "x = 0\nfor _ in c:\n    x += 1\nprint(x)  # read", "join(assign x=lit 0, augassign x=oper +)"},
		{"walrus", "if (x := f()) is not None:\n    print(x)  # read", "(x is not None) after assign x=call"},
		{"member", "if x.a is not None:\n    x.a = 1\nprint(x.a)  # read", "join(store x.a=lit 1, not (x.a is not None) after param x)"},
		{"except", "try:\n    x = 1\nexcept E:\n    x = None\nprint(x)  # read", "join(assign x=lit 1, assign x=lit None)"}, // the normal end first, as pyright joins them
		{"type is", "if type(x) is int:\n    print(x)  # read", "(call type is int) after param x"},
		{"in", "if x in ('a', 'b'):\n    print(x)  # read", "(oper in) after param x"},
		{"issubclass", "if issubclass(x, str):\n    print(x)  # read", "(call issubclass) after param x"},
		{"unreachable else", "while True:\n    x = 1\n    break\nprint(x)  # read", "assign x=lit 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "def f(x, c, y, E):\n    " + strings.ReplaceAll(c.body, "\n", "\n    ") + "\n"
			s := Summarize(parsertest.Tree(t, []byte(src)), Options{})
			roundTrip(t, s)
			line := int32(strings.Count(src[:strings.Index(src, "# read")], "\n"))
			var node int32 = -1
			for _, r := range s.Reads {
				if r.Line == line && s.Syms[symAt(s, r.Pos)].Name == "x" {
					node = r.Node
				}
			}
			if node < 0 {
				t.Fatalf("no flow read of x on line %d: %+v", line+1, s.Reads)
			}
			if got := describeFlow(s, node, 3); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestFlowKeepsWhatNarrows: a name assigned once and named by no
// condition has no flow read, nor its assignment a node (the call
// statement and the end of the body are nodes of their own).
func TestFlowKeepsWhatNarrows(t *testing.T) {
	s := Summarize(parsertest.Tree(t, []byte("def f():\n    y = 1\n    print(y)\n")), Options{})
	if len(s.Reads) != 0 {
		t.Errorf("reads %+v, want none", s.Reads)
	}
	for _, n := range s.Flow {
		if n.Kind != navindex.FlowStart && n.Kind != navindex.FlowCall && n.Kind != navindex.FlowExit {
			t.Errorf("node %+v, want only starts, calls and exits", n)
		}
	}
}

// TestFlowCallsAndExits: a function body's call statements (outside
// with blocks) are call nodes, and its returns and the end of its body
// exits after the node they are reached through; the module's code has
// neither.
func TestFlowCallsAndExits(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // the calls' callees and the exits' values, in order
	}{
		{"def f(a):\n    if a:\n        return 1\n    g()\n", []string{"call g", "exit 1", "exit end"}},
		{"def f():\n    g()\n    return\n", []string{"call g", "exit end"}},
		{"def f():\n    raise E\n", nil},
		{"def f(x):\n    with x:\n        g()\n    x = g()\n", []string{"exit end"}},
		{"g()\ndef f():\n    return g\n", []string{"exit g"}},
	} {
		s := Summarize(parsertest.Tree(t, []byte(c.src)), Options{})
		var got []string
		for _, n := range s.Flow {
			switch n.Kind {
			case navindex.FlowCall:
				callee := "?"
				if n.A >= 0 && s.Exprs[n.A].Op == navindex.ExprCall {
					if x := s.Exprs[s.Exprs[n.A].A]; x.Op == navindex.ExprSym || x.Op == navindex.ExprAttr {
						callee = x.Name
						if x.Op == navindex.ExprSym && x.A >= 0 {
							callee = s.Syms[x.A].Name
						}
					}
				}
				got = append(got, "call "+callee)
			case navindex.FlowExit:
				v := "end"
				if n.B >= 0 {
					switch x := s.Exprs[n.B]; x.Op {
					case navindex.ExprLit:
						v = x.Text
					case navindex.ExprSym:
						v = s.Syms[x.A].Name
					}
				}
				if n.Prev < 0 {
					v += " (unreached)"
				}
				got = append(got, "exit "+v)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

func symAt(s *navindex.Summary, p navindex.Pos) int32 {
	for _, o := range s.Occs {
		if o.Line == p.Line && o.Col == p.Col {
			return o.Sym
		}
	}
	return 0
}

// describeFlow renders node n and up to depth nodes before it.
func describeFlow(s *navindex.Summary, n int32, depth int) string {
	if n < 0 || depth == 0 {
		return "…"
	}
	f := &s.Flow[n]
	switch f.Kind {
	case navindex.FlowStart:
		return "start"
	case navindex.FlowAssign:
		if s.Defs[f.B].Kind == navindex.KindParameter {
			return "param " + s.Syms[f.A].Name
		}
		return "assign " + s.Syms[f.A].Name + "=" + describeExpr(s, s.Defs[f.B].Value)
	case navindex.FlowAugAssign:
		return "augassign " + s.Syms[f.A].Name + "=" + describeExpr(s, f.B)
	case navindex.FlowStore:
		return "store " + describeExpr(s, f.A) + "=" + describeExpr(s, f.B)
	case navindex.FlowCond:
		c := "(" + describeExpr(s, f.A) + ")"
		if f.B != 0 {
			c = "not " + c
		}
		return c + " after " + describeFlow(s, f.Prev, depth-1)
	case navindex.FlowJoin:
		var ps []string
		for _, p := range s.Preds(f) {
			ps = append(ps, describeFlow(s, p, depth-1))
		}
		return "join(" + strings.Join(ps, ", ") + ")"
	}
	return "?"
}

func describeExpr(s *navindex.Summary, e int32) string {
	if e < 0 {
		return "?"
	}
	x := &s.Exprs[e]
	switch x.Op {
	case navindex.ExprSym:
		return s.Syms[x.A].Name
	case navindex.ExprAttr:
		return describeExpr(s, x.A) + "." + x.Name
	case navindex.ExprLit:
		return "lit " + x.Text
	case navindex.ExprCall:
		if c := &s.Exprs[x.A]; c.Op == navindex.ExprSym && len(x.Args) > 0 {
			return "call " + s.Syms[c.A].Name
		}
		return "call"
	case navindex.ExprOper:
		if x.Name == "is" || x.Name == "is not" {
			return describeExpr(s, x.A) + " " + x.Name + " " + strings.TrimPrefix(describeExpr(s, x.B), "lit ")
		}
		return "oper " + x.Name
	}
	return "?"
}

// TestFlowOddCode: statements the flow walk follows in unusual shapes,
// and code that does not parse, give summaries that decode.
func TestFlowOddCode(t *testing.T) {
	for _, src := range []string{
		"if x is None:\n",
		"def f(x):\n    if x is None\n        return\n    return x\n",
		"def f(x):\n    while x:\n        if x: continue\n        x = x.next\n    else:\n        x = 1\n    return x\n",
		"def f(x):\n    try:\n        x = 1\n    finally:\n        x = 2\n    return x\n",
		"def f(x):\n    match x:\n        case int(y) if y > 0:\n            x = y\n        case _:\n            return\n    return x\n",
		"def f(x):\n    g = lambda y: y if y is not None else x\n    return [z for z in x if z for w in z if w is not None]\n",
		"def f(x):\n    global G\n    G = x\n    del x\n    x: int\n    return G\n",
		"class C:\n    if a is None:\n        a = 1\n    def m(self):\n        if self.a.b is not None and (c := self.a) is not None:\n            self.a.b, self.c = 1, 2\n        return self.a.b\n",
		"async def f(xs):\n    async for x in xs:\n        async with x as y:\n            if not y: break\n    return y\n",
		"def f(x):\n    x += 1\n    x.y += 1\n    x[0] = x\n    assert x, 'no'\n    return not x or x and x\n",
		"x = 1\nx = x if x else None\nif x:\n    pass\nelif x is None:\n    x = 2\nelse:\n    raise\nprint(x)\n",
	} {
		s := Summarize(parsertest.Tree(t, []byte(src)), Options{})
		roundTrip(t, s)
	}
}
