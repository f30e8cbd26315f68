package types

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// overloadsSource has overloaded functions called with known and
// unknown arguments (pyright 1.1.414's hovers in the cases below).
const overloadsSource = `import ast
from typing import TypeVar, overload

T = TypeVar("T", bound=int)

@overload
def g(x: T) -> T: ...
@overload
def g(x: str) -> bytes: ...
def g(x): return x

@overload
def f(x: int, y: int) -> int: ...
@overload
def f(x: str, y: int) -> str: ...
@overload
def f(x: bytes) -> bytes: ...
def f(x, y=0): return x

class C:
    @overload
    def m(self, x: int, y: int) -> int: ...
    @overload
    def m(self, x: str, y: int) -> str: ...
    @overload
    def m(self, x: bytes) -> bytes: ...
    def m(self, x, y=0): return x

def use(a, b, c: C):
    f(a, b)
    f(a)
    f(1, a)
    c.m(a, 1)
    c.m(a)
    ast.parse(a, mode="eval")
    g("s")
    g(True)
    ast.parse("s")
`

// TestOverloadsAtCalls: hovered at a call, an overloaded name shows the
// overload the call uses, or the overloads it may use when an unknown
// argument makes the choice ambiguous (pyright's overloadsUsedForCall);
// an argument outside a type variable's bound does not match it.
func TestOverloadsAtCalls(t *testing.T) {
	p := newProgram(t, map[string]string{"ovl": overloadsSource})
	ev := pytypes.New(p, pytypes.Options{})
	u := p.unit("ovl")
	lines := strings.Split(overloadsSource, "\n")
	for _, c := range []struct {
		line, name, want string
	}{
		{"    f(a, b)", "f", "(function) \ndef f(x: int, y: int) -> int: ...\n\ndef f(x: str, y: int) -> str: ..."},
		{"    f(a)", "f", "(function) def f(x: bytes) -> bytes"},
		{"    f(1, a)", "f", "(function) def f(x: int, y: int) -> int"},
		{"    c.m(a, 1)", "m", "(method) \ndef m(x: int, y: int) -> int: ...\n\ndef m(x: str, y: int) -> str: ..."},
		{"    c.m(a)", "m", "(method) def m(x: bytes) -> bytes"},
		// Six overloads, three of which take a mode="eval" keyword; the
		// first's type variable is ast.pyi's `TypeVar as _TypeVar` (Python 3.13
		// here: the optimize parameter).
		{`    ast.parse(a, mode="eval")`, "parse", "(function) \n" +
			`def parse(source: _T@parse, filename: str | bytes | PathLike[Any] = "<unknown>", mode: Literal['exec', 'eval', 'func_type', 'single'] = "exec", *, type_comments: bool = False, feature_version: int | tuple[int, int] | None = None, optimize: Literal[-1, 0, 1, 2] = -1) -> _T@parse: ...` + "\n\n" +
			`def parse(source: str | ReadableBuffer, *, mode: Literal['eval'], type_comments: bool = False, feature_version: int | tuple[int, int] | None = None, optimize: Literal[-1, 0, 1, 2] = -1) -> Expression: ...` + "\n\n" +
			`def parse(source: str | ReadableBuffer, filename: str | bytes | PathLike[Any] = "<unknown>", mode: str = "exec", *, type_comments: bool = False, feature_version: int | tuple[int, int] | None = None, optimize: Literal[-1, 0, 1, 2] = -1) -> mod: ...`},
		// A type variable's bound takes only what it names.
		{`    g("s")`, "g", "(function) def g(x: str) -> bytes"},
		{`    g(True)`, "g", "(function) def g(x: T@g) -> T@g"},
		{`    ast.parse("s")`, "parse", `(function) def parse(source: str | ReadableBuffer, filename: str | bytes | PathLike[Any] = "<unknown>", mode: Literal['exec'] = "exec", *, type_comments: bool = False, feature_version: int | tuple[int, int] | None = None, optimize: Literal[-1, 0, 1, 2] = -1) -> Module`},
	} {
		line := int32(-1)
		for i, l := range lines {
			if l == c.line {
				line = int32(i)
			}
		}
		got, found := "", false
		for _, o := range u.s.Occs {
			if o.Line == line && o.Flags&navindex.OccDef == 0 && u.s.Syms[o.Sym].Name == c.name {
				got, found = ev.HoverAt(u, o), true
				break
			}
		}
		if !found {
			t.Errorf("%s: no read of %s", c.line, c.name)
		} else if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.line, got, c.want)
		}
	}
}
