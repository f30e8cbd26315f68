package pytypes

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

func TestHoverLine(t *testing.T) {
	src := `
import os
from typing import TypeAlias
from os import path
x = 10
X = 10
names = ['a']
Alias: TypeAlias = int | str
class C:
    @property
    def p(self) -> int: ...
    def m(self, a: int) -> None: ...
def f(a: int, b=None) -> str: ...
def g():
    return 1
opt: int | None = None
`
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	cases := []struct{ name, want string }{
		{"x", "(variable) x: Literal[10]"}, // at its assignment (pyright on the scopes fixture: counter = 0)
		{"X", "(constant) X: Literal[10]"},
		{"names", "(variable) names: list[str]"},
		{"Alias", "(type) Alias = int | str"},
		{"C", "(class) C"},
		{"p", "(property) p: (self: Self@C) -> int"}, // at its def, the getter (pyright on requests)
		{"m", "(method) def m(self: Self@C, a: int) -> None"},
		{"f", "(function) def f(a: int, b: Unknown | None = None) -> str"},
		{"g", "(function) def g() -> Literal[1]"},
		{"os", "(module) os"},
		{"path", "(module) path"},
		{"opt", "(variable) opt: None"}, // narrowed to the value at its binding (pyright)
	}
	for _, c := range cases {
		sym := symNamed(t, u, -1, c.name)
		if got := ev.HoverLine(u, sym, lastDef(u, sym)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// A bound method hovers without self, its class's arguments in place.
func TestHoverBoundMethod(t *testing.T) {
	p := programWith(map[string]string{"m.py": "xs = ['a']\nxs.append('b')\ns = ', '.join(xs)"})
	u := p.unit("m")
	ev := New(p, Options{})
	var appendSym, joinSym int32 = -1, -1
	for i, sy := range u.Summary().Syms {
		_ = sy
		if sy.Kind == navindex.SymLocal {
			continue
		}
		switch sy.Name {
		case "append":
			appendSym = int32(i)
		case "join":
			joinSym = int32(i)
		}
	}
	if appendSym < 0 {
		// The sketch describes attributes as expressions; make the attribute symbols a summary would have.
		appendSym = addAttrSym(u, "append")
		joinSym = addAttrSym(u, "join")
	}
	if got, want := ev.HoverLine(u, appendSym, -1), "(method) def append(object: str, /) -> None"; got != want {
		t.Errorf("append:\n got %s\nwant %s", got, want)
	}
	if got, want := ev.HoverLine(u, joinSym, -1), "(method) def join(iterable: Iterable[str], /) -> str"; got != want {
		t.Errorf("join:\n got %s\nwant %s", got, want)
	}
}

// addAttrSym adds a SymAttr for the first ExprAttr named name.
func addAttrSym(u *fakeUnit, name string) int32 {
	for _, x := range u.s.Exprs {
		if x.Op == navindex.ExprAttr && x.Name == name {
			u.s.Syms = append(u.s.Syms, navindex.Sym{Kind: navindex.SymAttr, Name: name, Recv: x.A, Scope: -1, Class: -1, Target: -1, Value: -1})
			return int32(len(u.s.Syms) - 1)
		}
	}
	return -1
}

func TestMemberRef(t *testing.T) {
	src := "class Response:\n    def json(self) -> dict: ...\nclass Session:\n    def get(self, url: str) -> Response: ...\ns = Session()\nresp = s.get('u')"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	resp := ev.SymType(u, symNamed(t, u, 0, "resp"))
	m := ev.Member(resp, "json")
	if !m.Found() || m.Ref.Unit != Unit(u) || u.s.Syms[m.Ref.Sym].Name != "json" || m.Class.Name() != "Response" {
		t.Fatalf("json: %+v", m)
	}
	if got, want := ev.Print(m.Type), "() -> dict[Unknown, Unknown]"; got != want {
		t.Errorf("bound json prints %q, want %q", got, want)
	}
	jsonAttr := addAttrSym(u, "get")
	if r := ev.Definition(u, jsonAttr); r.Unit != Unit(u) || u.s.Syms[r.Sym].Name != "get" {
		t.Errorf("definition of s.get: %+v", r)
	}
	cs := ev.TypeDefinition(u, symNamed(t, u, 0, "resp"))
	if len(cs) != 1 || cs[0].Name() != "Response" {
		t.Errorf("classes %v", cs)
	}
	if got := ev.Signature(m.Type); got != "def json() -> dict[Unknown, Unknown]" {
		t.Errorf("signature %q", got)
	}
}

func TestConstructorAndFunctionVariables(t *testing.T) {
	src := "class C:\n    def __init__(self, x: int, y: str = 'a') -> None: ...\nclass D: ...\ndef f(a: int) -> str: ...\ng = f\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	c := Class{Unit: u, Sym: symNamed(t, u, 0, "C")}
	if got, want := ev.ConstructorLine(c), "class C(x: int, y: str = 'a')"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	d := Class{Unit: u, Sym: symNamed(t, u, 0, "D")}
	if got, want := ev.ConstructorLine(d), "class D()"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	g := symNamed(t, u, 0, "g")
	if got, want := ev.HoverLine(u, g, lastDef(u, g)), "(variable) def g(a: int) -> str"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// At its assignment, a function's or module's variable shows the literal
// it was narrowed to; a class variable its declared, widened type
// (pyright's answers on requests and django, and pyright 1.1.414 on
// this source).
func TestHoverNarrowedAtAssignment(t *testing.T) {
	src := "def f():\n    path = '/'\nclass C:\n    function = 'JSONB_AGG'\nMEDIA_TYPES = ('css', 'js')\npair = (1, 'a')\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	for name, want := range map[string]string{
		"path": "(variable) path: Literal['/']", "function": "(variable) function: str",
		"MEDIA_TYPES": "(constant) MEDIA_TYPES: tuple[Literal['css'], Literal['js']]", "pair": "(variable) pair: tuple[Literal[1], Literal['a']]",
	} {
		sym := symNamed(t, u, -1, name)
		if got := ev.HoverLine(u, sym, lastDef(u, sym)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// pyright's answers on django: implicit class aliases, gradual *args
// and **kwargs.
func TestHoverAliasesAndGradualArgs(t *testing.T) {
	src := "class InterfaceError: ...\nclass C:\n    error_class = InterfaceError\n    def __init__(self, *args, **kwargs):\n        pass\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	for name, want := range map[string]string{
		"error_class": "(type) error_class = InterfaceError",
		"__init__":    "(method) def __init__(self: Self@C, ...) -> None",
	} {
		sym := symNamed(t, u, -1, name)
		if got := ev.HoverLine(u, sym, lastDef(u, sym)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// A keyword argument hovers as the parameter it names: its declared
// type, or the type inferred from its default, else the argument's; Any
// when the callee is Unknown (pyright on django, requests, flask).
func TestHoverKeywordArguments(t *testing.T) {
	p := programWith(map[string]string{"m.py": "from typing import Any\ndef f(raster: bool = False): ...\nf(raster=True)\ndef g(id): ...\ng(id='admin.E118')\ndef k(**kwargs: Any): ...\nk(as_attachment=True)\nunknown(stream=1)\n" +
		"def h(auto=False, dep=None): ...\nh(auto=True)\nh(dep=1)\nclass Field:\n    def __init__(self, *args, **kwargs): ...\nField(max_length=100)\nclass Alter:\n    def __init__(self, model_name): ...\nAlter(model_name='site')\ntry:\n    from missing import socks\nexcept ImportError:\n    def socks(*args, **kwargs): ...\nsocks(password='')\n"})
	u := p.unit("m")
	ev := New(p, Options{})
	keyword := func(name string) int32 {
		for _, x := range u.s.Exprs {
			if x.Op == navindex.ExprCall && len(x.Keys) == 1 && x.Keys[0] == name {
				u.s.Syms = append(u.s.Syms, navindex.Sym{Kind: navindex.SymKeyword, Name: name, Recv: x.A, Scope: -1, Class: -1, Target: -1, Value: -1})
				return int32(len(u.s.Syms) - 1)
			}
		}
		t.Fatalf("no call with keyword %s", name)
		return -1
	}
	if got, want := ev.HoverLine(u, keyword("raster"), -1), "(parameter) raster: bool"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := ev.HoverLine(u, keyword("id"), -1), "(parameter) id: Literal['admin.E118']"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// No parameter has the name: pyright's fallback label, with
	// **kwargs's declared type or the argument's (flask, requests).
	if got, want := ev.HoverLine(u, keyword("as_attachment"), -1), "(function) as_attachment: Any"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for name, want := range map[string]string{
		"stream":     "(function) stream: Any", // the callee is Unknown
		"auto":       "(parameter) auto: bool",
		"max_length": "(function) max_length: Literal[100]", // an __init__'s **kwargs
		"model_name": "(parameter) model_name: str",
		"dep":        "(parameter) dep: Unknown | None",
		"password":   "(function) password: Any", // Unknown | def socks(**kwargs)
	} {
		if got := ev.HoverLine(u, keyword(name), -1); got != want {
			t.Errorf("%s: got %s, want %s", name, got, want)
		}
	}
}

// None's class is types.NoneType, as pyright's type definition answers
// for an Optional value.
func TestClassesOfOptional(t *testing.T) {
	p := programWith(map[string]string{"m.py": "class C: ...\nx: C | None = None\n", "types.pyi": "class NoneType: ...\n"})
	u := p.unit("m")
	ev := New(p, Options{})
	var names []string
	for _, c := range ev.TypeDefinition(u, symNamed(t, u, 0, "x")) {
		names = append(names, c.Unit.ModuleName()+"."+c.Name())
	}
	if got, want := strings.Join(names, " "), "m.C types.NoneType"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Attributes no declaration names (of Any, through __getattr__) hover
// with pyright's fallback label; a submodule a package re-exports
// through a relative import prints as the import wrote it (os.path is
// Module("..path")).
func TestHoverUndeclaredAttributes(t *testing.T) {
	p := programWith(map[string]string{
		"m.py":         "import pkg\nfrom typing import Any\nclass Lazy:\n    def __getattr__(self, name: str) -> int: ...\ndef f(a: Any, lazy: Lazy):\n    a.encode\n    lazy.search\n    pkg.path\n",
		"pkg.pyi":      "from . import path as _path\npath = _path\n",
		"pkg.path.pyi": "def join(a: str) -> str: ...\n",
	})
	u := p.unit("m")
	ev := New(p, Options{})
	for name, want := range map[string]string{
		"encode": "(function) encode: Any",
		"search": "(function) search: int",
	} {
		if got := ev.HoverLine(u, addAttrSym(u, name), -1); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	imp := navindex.Sym{Kind: navindex.SymImport, SymModule: &navindex.SymModule{Level: 1}, Name: "path"}
	if got, want := ev.Print(asImported(ModuleType("os.path"), &imp)), `Module("..path")`; got != want {
		t.Errorf("os.path: got %s, want %s", got, want)
	}
}

// A type variable is scoped to the outermost function whose signature
// binds it: an inner def's T is the outer's, and T named in a signature
// prints type[T@f] (pyright on flask's scaffold.route).
func TestHoverTypeVarScopes(t *testing.T) {
	src := "from typing import TypeVar\nT = TypeVar('T')\ndef route(rule: str) -> T:\n    def decorator(f: T) -> T: ...\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	route := symNamed(t, u, 0, "route")
	body := u.s.Defs[lastDef(u, route)].Body
	// The sketch keeps no positions: the lines of the defs.
	u.s.Defs[lastDef(u, route)].Name.Line = 2
	u.s.Defs[lastDef(u, symNamed(t, u, body, "decorator"))].Name.Line = 3
	f := symNamed(t, u, -1, "f")
	if got, want := ev.HoverLine(u, f, lastDef(u, f)), "(parameter) f: T@route"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	tv := symNamed(t, u, 0, "T")
	for _, o := range []navindex.Occ{
		{Span: navindex.Span{Line: 2, Col: 24, End: 25}, Sym: tv, Scope: 0},    // route's return annotation
		{Span: navindex.Span{Line: 3, Col: 21, End: 22}, Sym: tv, Scope: body}, // decorator's parameter
	} {
		if got, want := ev.HoverAt(u, o), "(constant) T: type[T@route]"; got != want {
			t.Errorf("line %d: got %s, want %s", o.Line, got, want)
		}
	}
	if got, want := ev.HoverAt(u, navindex.Occ{Span: navindex.Span{Line: 1}, Sym: tv, Scope: 0}), "(constant) T: type[T]"; got != want {
		t.Errorf("outside a def: got %s, want %s", got, want)
	}
}

// pyright's answers on flask: an annotation's union leaves out a class
// it cannot resolve, Tuple[X, ...] prints as written, a property named
// in its class body is the property object, and `import m` of a module
// that is not there hovers with the import label.
func TestHoverDeclaredForms(t *testing.T) {
	src := `import click
from typing import Tuple, Union
from werkzeug import InternalServerError
def f(args: Tuple[int, ...], e: Union[InternalServerError, str]):
    click
class C:
    @property
    def name(self) -> str: ...
    @name.setter
    def name(self, v: str) -> None: ...
`
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	for _, c := range []struct{ name, want string }{
		{"args", "(parameter) args: Tuple[int, ...]"},
		{"e", "(parameter) e: str"},
	} {
		sym := symNamed(t, u, -1, c.name)
		if got := ev.HoverLine(u, sym, lastDef(u, sym)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	if got, want := ev.HoverLine(u, symNamed(t, u, 0, "click"), -1), `(import) click: Module("click")`; got != want {
		t.Errorf("click: got %s, want %s", got, want)
	}
	if got, want := ev.HoverLine(u, symNamed(t, u, -1, "name"), -1), "(property) name: property"; got != want {
		t.Errorf("name: got %s, want %s", got, want)
	}
}

// An overloaded function imported or applied as a decorator hovers with
// every overload, as pyright shows flask's contextmanager and
// dataclass; used otherwise, with the first.
func TestHoverOverloadsShown(t *testing.T) {
	p := programWith(map[string]string{
		"lib.pyi": "from typing import overload\n@overload\ndef conv(x: int) -> int: ...\n@overload\ndef conv(x: str) -> str: ...\n",
		"m.py":    "from lib import conv\n@conv\ndef f(): ...\n",
		"n.py":    "from lib import conv\nconv\n",
	})
	all := "(function) \ndef conv(x: int) -> int: ...\n\ndef conv(x: str) -> str: ..."
	for _, c := range []struct {
		mod   string
		flags uint8
		want  string
	}{
		{"m", navindex.OccImport, all},
		{"m", 0, all}, // a decorator
		{"n", 0, "(function) def conv(x: int) -> int"},
	} {
		u := p.unit(c.mod)
		ev := New(p, Options{})
		o := navindex.Occ{Sym: symNamed(t, u, 0, "conv"), Flags: c.flags}
		if got := ev.HoverAt(u, o); got != c.want {
			t.Errorf("%s flags %d:\n got %q\nwant %q", c.mod, c.flags, got, c.want)
		}
	}
}

// An unknown argument leaves the overload a call picks ambiguous only
// when the overloads that take the call differ in its parameter's type:
// getattr(unknown, "a", {}) shows the dict overload (pyright on requests).
func TestHoverOverloadOfUnknownArgument(t *testing.T) {
	lib := "from typing import overload, TypeVar\nT = TypeVar('T')\n@overload\ndef get(o: object, name: str, /) -> int: ...\n@overload\ndef get(o: object, name: str, d: list[int], /) -> list[int]: ...\n@overload\ndef get(o: object, name: str, d: T, /) -> T: ...\n"
	// Ambiguous, the overloads that take the call (pyright's
	// overloadsUsedForCall), not the two-argument one.
	used := "(function) \ndef get(o: object, name: str, d: list[int], /) -> list[int]: ...\n\ndef get(o: object, name: str, d: T@get, /) -> T@get: ..."
	for _, c := range []struct{ call, want string }{
		{"get(nowhere, 'a', [1])", "(function) def get(o: object, name: str, d: list[int], /) -> list[int]"},
		{"get(1, 'a', nowhere)", used},
		{"get(nowhere, 'a')", "(function) def get(o: object, name: str, /) -> int"},
	} {
		p := programWith(map[string]string{"lib.pyi": lib, "m.py": "from lib import get\n" + c.call + "\n"})
		u := p.unit("m")
		o := navindex.Occ{Sym: symNamed(t, u, 0, "get")}
		if got := New(p, Options{}).HoverAt(u, o); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.call, got, c.want)
		}
	}
}

// A method called on a union receiver shows, for each overloaded member,
// the overload the call picks (pyright on requests' key.strip(chars)).
func TestHoverOverloadInUnionReceiver(t *testing.T) {
	src := "from typing import Any\ndef f(a: Any, s: str, c: bool):\n    x = s if c else a\n    x.join(['a'])\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	if got, want := New(p, Options{}).HoverLine(u, addAttrSym(u, "join"), -1), "(method) join: ((iterable: Iterable[str], /) -> str) | Any"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// *args: Any with **kwargs: Any print as "..." (flask's NullSession
// methods), and an uncalled overloaded method shows the first overload
// its receiver takes (a str's join is not the LiteralString one).
func TestHoverGradualAndReceiverOverloads(t *testing.T) {
	src := "from typing import Any\nclass C:\n    def fail(self, *args: Any, **kwargs: Any) -> None: ...\ndef f(s: str):\n    s.join\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	fail := symNamed(t, u, -1, "fail")
	if got, want := ev.HoverLine(u, fail, lastDef(u, fail)), "(method) def fail(self: Self@C, ...) -> None"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := ev.HoverLine(u, addAttrSym(u, "join"), -1), "(method) def join(iterable: Iterable[str], /) -> str"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// cls's attributes fall back to the metaclass's (type's), and a
// keyword argument holds its parameter's declared type (what
// get_type_definition answers for it, pyright on flask and django).
func TestClsMetaclassAndKeywordTypes(t *testing.T) {
	src := "class C:\n    @classmethod\n    def m(cls):\n        cls.__name__\ndef f(level: int = 1): ...\nf(level=2)\n"
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	if got, want := ev.HoverLine(u, addAttrSym(u, "__name__"), -1), "(property) __name__: str"; got != want {
		t.Errorf("cls.__name__: got %s, want %s", got, want)
	}
	var kw int32 = -1
	for _, x := range u.s.Exprs {
		if x.Op == navindex.ExprCall && len(x.Keys) == 1 && x.Keys[0] == "level" {
			u.s.Syms = append(u.s.Syms, navindex.Sym{Kind: navindex.SymKeyword, Name: "level", Recv: x.A, Scope: -1, Class: -1, Target: -1, Value: -1})
			kw = int32(len(u.s.Syms) - 1)
		}
	}
	if got, want := ev.Print(ev.SymType(u, kw)), "int"; got != want {
		t.Errorf("level=: got %s, want %s", got, want)
	}
}

// typing's List used as a value is the class it aliases, printed as
// pyright does (flask's ctx.py), and its type definition is list.
func TestTypingAliasAsValue(t *testing.T) {
	p := programWith(map[string]string{
		"m.py": "from typing import List\nx = List\n",
	})
	u := p.unit("m")
	ev := New(p, Options{})
	x := symNamed(t, u, 0, "x")
	if got, want := ev.Print(ev.SymType(u, x)), "type[List[_T@list]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if cs := ev.TypeDefinition(u, x); len(cs) != 1 || cs[0].Name() != "list" {
		t.Errorf("classes %v", cs)
	}
}

// A class whose __new__ says what it makes, called with an argument of
// unknown type, leaves its type variables Unknown (enumerate(words) of
// django's html.py); a Final variable hovers as a constant.
func TestUnsolvedNewAndFinalLabel(t *testing.T) {
	src := `from typing import Generic, TypeVar, Iterable, Final
T = TypeVar("T")
class Box(Generic[T]):
    def __new__(cls, items: Iterable[T]) -> Box[T]: ...
def f(words):
    b = Box(words)
whitespace: Final = " "
`
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	if got, want := ev.Print(ev.SymType(u, symNamed(t, u, -1, "b"))), "Box[Unknown]"; got != want {
		t.Errorf("b: got %s, want %s", got, want)
	}
	ws := symNamed(t, u, 0, "whitespace")
	if got, want := ev.HoverLine(u, ws, lastDef(u, ws)), "(constant) whitespace: Literal[' ']"; got != want {
		t.Errorf("whitespace: got %s, want %s", got, want)
	}
}

// Unannotated *args and **kwargs are a tuple and a dict in the body,
// so kwargs.get is dict's (pyright on django's auth backends).
func TestUnannotatedStarParams(t *testing.T) {
	p := programWith(map[string]string{"m.py": "def f(*args, **kwargs):\n    pass\n"})
	u := p.unit("m")
	ev := New(p, Options{})
	for name, want := range map[string]string{"args": "tuple[Unknown, ...]", "kwargs": "dict[str, Unknown]"} {
		if got := ev.Print(ev.SymType(u, symNamed(t, u, -1, name))); got != want {
			t.Errorf("%s: got %s, want %s", name, got, want)
		}
	}
}

// A class variable its class leaves undeclared takes a base's declared
// type (django's output_field = BinaryField() over a cached_property),
// unless the value assigned fits it (flask's NullSession.popitem = _fail).
func TestInheritedClassVariableDeclaration(t *testing.T) {
	src := `class Prop:
    def __init__(self, f) -> None: ...
class Field: ...
class Base:
    @Prop
    def output_field(self) -> Field: ...
    def pop(self) -> int: ...
class Sub(Base):
    output_field = Field()
    def _fail(self) -> int: ...
    pop = _fail
`
	p := programWith(map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	for name, want := range map[string]string{
		"output_field": "(variable) output_field: Prop",
		"pop":          "(variable) def pop(self: Self@Sub) -> int",
	} {
		var sym int32 = -1
		for i, sy := range u.s.Syms {
			if sy.Kind == navindex.SymLocal && sy.Name == name && classBinding(u, int32(i)) == "Sub" {
				sym = int32(i)
			}
		}
		if got := ev.HoverLine(u, sym, lastDef(u, sym)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// classBinding names the class whose body binds sym, "" at module level.
func classBinding(u *fakeUnit, sym int32) string {
	for _, d := range u.s.Defs {
		if d.Kind == navindex.KindClass && d.Body == u.s.Syms[sym].Scope {
			return u.s.Syms[d.Sym].Name
		}
	}
	return ""
}

// An unannotated parameter's type comes from its default as pyright
// infers it (inferParameterTypeFromDefaultValue): None and a private
// class's instance (a sentinel) are joined with Unknown, a stub's `...`
// is an Any printed "...", a source file's `...` is EllipsisType.
func TestParameterTypesFromDefaults(t *testing.T) {
	lib := "class _Missing: ...\n_missing: _Missing\ndef g(a=..., b=_missing, c=None, d=1) -> None: ...\n"
	src := "from lib import g\ng(1)\nclass _M: ...\n_m = _M()\nclass Pub: ...\ndef f(a=..., b=_m, c=Pub(), d=None):\n    return a\nf()\n"
	p := programWith(map[string]string{"lib.pyi": lib, "m.py": src})
	u := p.unit("m")
	for _, c := range []struct{ name, want string }{
		{"g", "(function) def g(a: ... = ..., b: _Missing | Unknown = _missing, c: Unknown | None = None, d: int = 1) -> None"},
		{"f", "(function) def f(a: EllipsisType = ..., b: _M | Unknown = _m, c: Pub = Pub(), d: Unknown | None = None) -> EllipsisType"},
	} {
		o := navindex.Occ{Sym: symNamed(t, u, 0, c.name)}
		if got := New(p, Options{}).HoverAt(u, o); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
