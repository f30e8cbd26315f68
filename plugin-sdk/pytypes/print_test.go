package pytypes

import "testing"

func TestPrint(t *testing.T) {
	p := programWith(nil)
	ev := New(p, Options{})
	q := ev.query()
	cls := func(mod, name string) Class {
		c := q.moduleClass(mod, name)
		if !c.Valid() {
			t.Fatalf("no class %s.%s", mod, name)
		}
		return c
	}
	intT, strT := Instance(cls("builtins", "int")), Instance(cls("builtins", "str"))
	lit := func(c, text string) Type { return Literal(cls("builtins", c), text) }
	tupleC := cls("builtins", "tuple")
	cases := []struct {
		name string
		t    Type
		want string
	}{
		{"unknown", Unknown(), "Unknown"},
		{"any", AnyType(), "Any"},
		{"none", NoneType(), "None"},
		{"never", NeverType(), "Never"},
		{"noreturn", NoReturnType(), "NoReturn"},
		{"module", ModuleType("os.path"), `Module("os.path")`},
		{"instance", intT, "int"},
		{"generic", Instance(cls("builtins", "list"), strT), "list[str]"},
		{"dict", Instance(cls("builtins", "dict"), strT, AnyType()), "dict[str, Any]"},
		{"optional", Union(strT, NoneType()), "str | None"},
		{"none first", Union(NoneType(), strT), "str | None"},
		{"literal", lit("int", "10"), "Literal[10]"},
		{"literals merged", Union(lit("str", "'a'"), lit("str", "'b'")), "Literal['a', 'b']"},
		{"literals after others", Union(lit("int", "1"), strT, NoneType(), lit("int", "2")), "str | Literal[1, 2] | None"},
		{"literal absorbed", Union(lit("int", "1"), intT), "int"},
		{"bool literals make bool", Union(lit("bool", "True"), lit("bool", "False")), "bool"},
		{"flattened", Union(intT, Union(strT, intT)), "int | str"},
		{"class object", ClassObject(cls("builtins", "str")), "type[str]"},
		{"typevar", TypeVarType("T", "func"), "T@func"},
		{"self", SelfType(cls("builtins", "list")), "Self@list[_T@list]"},
		{"self of a plain class", SelfType(cls("builtins", "int")), "Self@int"},
		{"generic class object", ClassObject(cls("builtins", "list")), "type[list[Unknown]]"},
		{"type of self", classObjectOf(SelfType(cls("builtins", "list"))), "type[Self@list[_T@list]]"},
		{"tuple", TupleType(tupleC, intT, strT), "tuple[int, str]"},
		{"homogeneous tuple", HomogeneousTuple(tupleC, intT), "tuple[int, ...]"},
		{"empty tuple", TupleType(tupleC), "tuple[()]"},
		{"callable", CallableType([]Type{intT}, strT, false), "(int) -> str"},
		{"callable any params", CallableType(nil, Union(strT, NoneType()), true), "(...) -> (str | None)"},
		{"callable in union", Union(CallableType(nil, intT, true), NoneType()), "((...) -> int) | None"},
		{"unknown in union", Union(Unknown(), NoneType()), "Unknown | None"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ev.Print(c.t); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestPrintSignatures(t *testing.T) {
	src := `
from typing import TypeVar, Iterable
T = TypeVar("T")
def f(a: int, b: str = 'x', *args: int, c: bool, **kw: str) -> str | None: ...
def g(a, /, b=0, c=None, *, d: int = 1): ...
def ident(x: T) -> T: ...
def noret():
    raise ValueError
class C:
    def m(self, x: int) -> None: ...
    @classmethod
    def make(cls) -> None: ...
`
	p := programWith(map[string]string{"m.pyi": src})
	u := p.unit("m")
	ev := New(p, Options{})
	cases := map[string]string{
		"f":     "(function) def f(a: int, b: str = 'x', *args: int, c: bool, **kw: str) -> (str | None)",
		"g":     "(function) def g(a: Unknown, /, b: int = 0, c: Unknown | None = None, *, d: int = 1) -> Unknown",
		"ident": "(function) def ident(x: T@ident) -> T@ident",
	}
	for name, want := range cases {
		sym := symNamed(t, u, 0, name)
		if got := ev.HoverLine(u, sym, lastDef(u, sym)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	m := symNamed(t, u, -1, "m")
	if got, want := ev.HoverLine(u, m, lastDef(u, m)), "(method) def m(self: Self@C, x: int) -> None"; got != want {
		t.Errorf("m:\n got %s\nwant %s", got, want)
	}
	mk := symNamed(t, u, -1, "make")
	if got, want := ev.HoverLine(u, mk, lastDef(u, mk)), "(method) def make(cls: type[Self@C]) -> None"; got != want {
		t.Errorf("make:\n got %s\nwant %s", got, want)
	}
}

func TestIsSelf(t *testing.T) {
	c := Class{Unit: nil, Sym: 3}
	cases := []struct {
		name string
		t    Type
		want bool
	}{
		{"Self", SelfType(c), true},
		{"type[Self]", ClassObject(Class{}, SelfType(c)), true},
		{"an instance", Instance(c), false},
		{"a class object", ClassObject(c), false},
		{"type[Unknown]", ClassObject(Class{}, Unknown()), false},
		{"None", NoneType(), false},
	}
	for _, k := range cases {
		if got := k.t.IsSelf(); got != k.want {
			t.Errorf("%s: IsSelf %v, want %v", k.name, got, k.want)
		}
	}
}
