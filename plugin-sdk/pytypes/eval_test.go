package pytypes

import (
	"testing"
)

// evalCase is a workspace module and the printed types of some of its
// module-level names.
type evalCase struct {
	name string
	src  string
	want map[string]string
}

func runEvalCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := programWith(map[string]string{"m.py": c.src})
			u := p.unit("m")
			ev := New(p, Options{})
			for name, want := range c.want {
				got := ev.Print(ev.SymType(u, symNamed(t, u, 0, name)))
				if got != want {
					t.Errorf("%s: got %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestLiteralsAndDisplays(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"literals widen", "x = 10\ns = 'a'\nb = True\nf = 1.5\nn = None\nby = b'x'", map[string]string{"x": "int", "s": "str", "b": "bool", "f": "float", "n": "None", "by": "bytes"}},
		{"constants keep literals", "X = 10\nNAME = 'a'\nNEG = -1", map[string]string{"X": "Literal[10]", "NAME": "Literal['a']", "NEG": "Literal[-1]"}},
		{"displays", "a = [1, 2]\nd = {'a': 1}\nt = (1, 'a')\nm = [1, 'a']\ne = []\ns = {1}\ned = {}", map[string]string{
			"a": "list[int]", "d": "dict[str, int]", "t": "tuple[int, str]", "m": "list[int | str]", "e": "list[Unknown]", "s": "set[int]", "ed": "dict[Unknown, Unknown]"}},
		{"several bindings", "x = 1\nx = 'a'\nx = None", map[string]string{"x": "int | str | None"}},
		{"conditional", "x = 1 if c else 'a'", map[string]string{"x": "int | str"}},
		{"comprehension", "xs = [1]\nys = [str(x) for x in xs]\nzs = {k: 1 for k in xs}", map[string]string{"ys": "list[str]", "zs": "dict[Unknown, int]"}},
	})
}
