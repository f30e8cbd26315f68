package summarize

import (
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want []string // substrings, in order
		not  []string
	}{
		{"empty", "", nil, []string{"**"}},
		{"plain prose kept", "Just a sentence.\n\nAnd another.", []string{"Just a sentence.\n\nAnd another."}, []string{"**"}},
		{"google", "Add numbers.\n\nArgs:\n    a (int): first.\n    b: second,\n        continued.\n\nReturns:\n    int: the sum.\n\nRaises:\n    ValueError: when negative.\n\nExample:\n    >>> add(1, 2)\n    3",
			[]string{"Add numbers.", "**Args:**", "- `a` (`int`): first.", "- `b`: second, continued.", "**Returns:**", "the sum", "**Raises:**", "- `ValueError`: when negative.", "**Example:**", "```python\n>>> add(1, 2)\n3\n```"}, nil},
		{"numpy", "Add numbers.\n\nParameters\n----------\na : int\n    First.\nb : float, optional\n    Second.\n\nReturns\n-------\nint\n    The sum.\n\nRaises\n------\nValueError\n    When negative.",
			[]string{"Add numbers.", "**Args:**", "- `a` (`int`): First.", "- `b` (`float, optional`): Second.", "**Returns:**", "- `int`: The sum.", "**Raises:**", "- `ValueError`: When negative."}, []string{"----"}},
		{"rest", "Add numbers.\n\n:param a: first.\n:type a: int\n:param str b: second.\n:returns: the sum.\n:rtype: int\n:raises ValueError: when negative.",
			[]string{"Add numbers.", "**Args:**", "- `a` (`int`): first.", "- `b` (`str`): second.", "**Returns:**", "- `int`: the sum.", "**Raises:**", "- `ValueError`: when negative."}, []string{":param"}},
		{"doctest in prose fenced", "Use it:\n\n>>> f()\n1\n\nDone.", []string{"```python\n>>> f()\n1\n```", "Done."}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Markdown(c.doc)
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Fatalf("unexpected %q in:\n%s", n, got)
				}
			}
		})
	}
}

func TestAppendOneLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"(a, b)", "(a, b)"},
		{"(\n    self,\n    a: int = 1,  # the a\n    *args,\n)", "(self, a: int = 1, *args)"},
		{"(x='#not a comment')", "(x='#not a comment')"},
		{"Dict[\n str, int\n]", "Dict[str, int]"},
		// pyright 1.1.414's hover and signature help: a one-element
		// tuple keeps its comma, numbers print as their values
		// (`def f(*, f=0x10, g=1e3, h=(1,), i=-180.0, j=1_000, k=2.50)`
		// is `(*, f: int = 16, g: float = 1000, h: Unknown = (1, ),
		// i: float = -180, j: int = 1000, k: float = 2.5)`).
		{`("__dict__",)`, `("__dict__", )`},
		{"(a, b,)", "(a, b)"},
		{"f(a,)", "f(a)"},
		{"[a,]", "[a]"},
		{"((a,), [b,])", "((a, ), [b])"},
		{"(extent=(-180.0, -90.0, 180.0, 90.0), tolerance=0.05)", "(extent=(-180, -90, 180, 90), tolerance=0.05)"},
		{"(a=0x10, b=1_000, c=1e3, d=2j, e=1e-7, f=x1.real, k=2.50)", "(a=16, b=1000, c=1000, d=2j, e=1e-7, f=x1.real, k=2.5)"},
	}
	for _, c := range cases {
		if got := string(appendOneLine([]byte("x"), []byte(c.in))); got != "x"+c.want {
			t.Errorf("appendOneLine(x, %q) = %q, want x%q", c.in, got, c.want)
		}
	}
}
