package pysem

import (
	"testing"
)

// Each case: Python source and expectations "name#k -> want" where k
// counts whole-word occurrences of name in the source (1-based) and want
// is builtin, implicit, undef, none, or "name#j" (the binding at the j-th
// occurrence), "!" marking Unbound.
var semanticsCases = []struct {
	name  string
	src   string
	opts  Options
	specs []string
}{
	{"legb", `
x = 1
def f():
    y = 2
    def g():
        return x, y, len
    return g
`, Options{}, []string{"x#2 -> x#1", "y#2 -> y#1", "len#1 -> builtin"}},

	{"class body invisible from methods", `
a = 1
class C:
    a = 2
    b = a
    def m(self):
        return a
    lam = lambda: a
    comp = [a for _ in range(3)]
    first = [i for i in a]
`, Options{}, []string{"a#3 -> a#2", "a#4 -> a#1", "a#5 -> a#1", "a#6 -> a#1", "a#7 -> a#2"}},

	{"class body reads global before local binding", `
x = 1
class A:
    x = x
`, Options{}, []string{"x#3 -> x#1"}},

	{"comprehension variables are local", `
def f(items):
    out = [item for item in items]
    return item
`, Options{}, []string{"item#1 -> item#2", "item#3 -> undef", "items#2 -> items#1"}},

	{"function local for whole body (UnboundLocal)", `
x = 1
def f():
    print(x)
    x = 2
    return x
`, Options{}, []string{"x#2 -> x#3!", "x#4 -> x#3"}},

	{"use before def at module level", `
print(v)
v = 1
print(v)
`, Options{}, []string{"v#1 -> v#2!", "v#3 -> v#2"}},

	{"defaults decorators annotations in enclosing scope", `
T = int
def deco(f): return f
class K:
    T = str
    D = 3
    @deco
    def m(self, a: T = D) -> T:
        T = 1
        return a
`, Options{}, []string{"deco#2 -> deco#1", "T#3 -> T#2", "D#2 -> D#1", "T#4 -> T#2"}},

	{"future annotations deferred", `
from __future__ import annotations
def f(a: Later) -> Later: ...
class Later: ...
`, Options{}, []string{"Later#1 -> Later#3", "Later#2 -> Later#3"}},

	{"eager annotations are positional", `
def f(a: Later): ...
class Later: ...
`, Options{}, []string{"Later#1 -> Later#2!"}},

	{"global and nonlocal", `
counter = 0
def inc():
    global counter
    counter += 1
def outer():
    n = 0
    def inner():
        nonlocal n
        n = n + 1
        return n
    return inner
`, Options{}, []string{"counter#2 -> counter#1", "counter#3 -> counter#1", "n#2 -> n#1", "n#4 -> n#1", "n#5 -> n#3"}},

	{"del unbinds", `
def f():
    x = 1
    del x
    return x
`, Options{}, []string{"x#2 -> x#1", "x#3 -> x#1!"}},

	{"walrus in comprehension binds in function", `
def f(data):
    if any((hit := d) > 3 for d in data):
        return hit
    [y for x in data if (y := x)]
`, Options{}, []string{"hit#2 -> hit#1", "y#1 -> y#2"}},

	{"except alias unbound after handler", `
def f():
    try:
        pass
    except ValueError as err:
        print(err)
    return err
`, Options{}, []string{"err#2 -> err#1", "err#3 -> err#1!"}},

	{"match captures", `
def f(p):
    match p:
        case Point(x=0, y=yy) as pt:
            return yy, pt
        case [first, *rest]:
            return first, rest
        case {"k": v, **kw}:
            return v, kw
        case Color.RED:
            return Color
        case other:
            return other
`, Options{}, []string{"yy#2 -> yy#1", "pt#2 -> pt#1", "rest#2 -> rest#1", "kw#2 -> kw#1",
		"v#2 -> v#1", "other#2 -> other#1", "Point#1 -> undef", "Color#1 -> undef", "first#2 -> first#1"}},

	{"pep695", `
class Box[T](Base[T]):
    def get[S](self, s: S) -> T: ...
def ident[U: int](u: U) -> U: return u
type Alias[V] = list[V] | Alias[V]
`, Options{}, []string{"T#2 -> T#1", "T#3 -> T#1", "S#2 -> S#1", "U#2 -> U#1", "U#3 -> U#1",
		"V#2 -> V#1", "Alias#2 -> Alias#1", "int#1 -> builtin", "Base#1 -> undef"}},

	{"__class__ and class dunders and module dunders", `
class A:
    q = __qualname__
    def m(self):
        return __class__, __name__
print(__file__, __path__)
`, Options{}, []string{"__qualname__#1 -> implicit", "__class__#1 -> implicit", "__name__#1 -> implicit",
		"__file__#1 -> implicit", "__path__#1 -> undef"}},

	{"__path__ in package init", `print(__path__)`, Options{IsPackageInit: true}, []string{"__path__#1 -> implicit"}},

	{"builtins per version", `
aiter
ExceptionGroup
PythonFinalizationError
reveal_type
WindowsError
`, Options{PythonMinor: 10}, []string{"aiter#1 -> builtin", "ExceptionGroup#1 -> undef",
		"PythonFinalizationError#1 -> undef", "reveal_type#1 -> undef", "WindowsError#1 -> builtin"}},

	{"builtins 3.13", `ExceptionGroup, PythonFinalizationError`, Options{PythonMinor: 13},
		[]string{"ExceptionGroup#1 -> builtin", "PythonFinalizationError#1 -> builtin"}},

	{"imports", `
import os
import a.b.c
import a.b as ab
from . import sib
from ..pkg import thing as th
from m import *
os, a, ab, sib, th
`, Options{}, []string{"os#2 -> os#1", "a#3 -> a#1", "ab#2 -> ab#1", "sib#2 -> sib#1", "th#2 -> th#1"}},

	{"string annotations", `
from typing import cast, TypeVar, List
class Foo: ...
x: "Foo" = None
def f(a: "List[Foo]", b: 'mod.Foo | None') -> "Foo": ...
y = cast("Foo", x)
T = TypeVar("T", bound="Foo")
s = "Foo"
# Foo in a comment
z: Literal["Foo"]
w: Annotated[int, "Foo"]
`, Options{}, []string{"Foo#2 -> Foo#1", "Foo#3 -> Foo#1", "List#2 -> List#1", "Foo#5 -> Foo#1",
		"Foo#6 -> Foo#1", "Foo#7 -> Foo#1", "Foo#8 -> none", "Foo#9 -> none", "Foo#10 -> none",
		"Foo#11 -> none", "mod#1 -> undef"}},

	{"type comments", `
from typing import List
def f(a):
    # type: (int) -> List[int]
    x = []  # type: List[str]
    return x  # type: ignore
`, Options{}, []string{"List#2 -> List#1", "List#3 -> List#1"}},

	{"lambda and defaults", `
k = 1
f = lambda a, b=k: a + b + k
`, Options{}, []string{"k#2 -> k#1", "a#2 -> a#1", "b#2 -> b#1", "k#3 -> k#1"}},

	{"recursion and forward refs in functions", `
def f(n):
    return g(n)
def g(n):
    return f(n - 1)
`, Options{}, []string{"g#1 -> g#2", "f#2 -> f#1"}},

	{"try import error and TYPE_CHECKING", `
from typing import TYPE_CHECKING
try:
    import json
except ImportError:
    json = None
if TYPE_CHECKING:
    from x import Y
json, Y
`, Options{}, []string{"json#3 -> json#2", "Y#2 -> Y#1"}},

	{"aug assign reads previous binding", `
def f():
    total = 0
    total += 1
    return total
`, Options{}, []string{"total#2 -> total#1", "total#3 -> total#2"}},

	{"stub forward refs", `
def f() -> Later: ...
x: Later
class Later(Base): ...
class Base: ...
`, Options{IsStub: true}, []string{"Later#1 -> Later#3", "Base#1 -> Base#2"}},

	{"with and for targets", `
with open(p) as fh, ctx() as (a, b):
    for i, (j, k) in enumerate(fh):
        print(a, b, i, j, k)
`, Options{}, []string{"fh#2 -> fh#1", "a#2 -> a#1", "k#2 -> k#1", "p#1 -> undef"}},

	{"syntax errors do not crash", `
def f(:
    return x
class
y = undefined_thing
`, Options{}, []string{"x#1 -> undef", "undefined_thing#1 -> none"}},

	{"type(x).y is not a type alias", `
type(m).attr = 1
`, Options{}, []string{"m#1 -> undef"}},
}

func TestSemantics(t *testing.T) {
	for _, c := range semanticsCases {
		t.Run(c.name, func(t *testing.T) {
			checkRefs(t, c.src, c.opts, c.specs)
		})
	}
}

func TestAll(t *testing.T) {
	src := `
from .a import x, y
from . import sub
__all__ = ["x", 'y']
__all__ += ["z"]
__all__.extend(["w"])
__all__.append("sub")
__all__ = __all__ + other.__all__
z = w = 1
`
	m := checkRefs(t, src, Options{}, []string{"x#2 -> x#1", "y#2 -> y#1", "z#1 -> z#2", "sub#2 -> sub#1"})
	if m.All == nil || !m.All.Partial {
		t.Fatalf("All = %+v", m.All)
	}
	var names []string
	for _, n := range m.All.Names {
		names = append(names, n.Name)
		if got := src[n.Start:n.End]; got != n.Name {
			t.Errorf("entry %q at %q", n.Name, got)
		}
	}
	if got := len(names); got != 5 {
		t.Errorf("names %v", names)
	}
}

func TestClassFeatures(t *testing.T) {
	src := `
from dataclasses import dataclass
@dataclass
class P(Base, metaclass=Meta):
    """A point."""
    x: int
    y: int = 0
    """The y."""
    def __init__(self, v):
        "Init."
        self.v = v
        self.w += 1
    @property
    def area(self):
        return self.v
    @area.setter
    def area(self, val):
        self.v = val
    @classmethod
    def make(cls):
        cls.count = 1
    @staticmethod
    def util(a):
        a.z = 1
`
	m := Analyze(parse(t, src), Options{})
	var cls *Binding
	for _, b := range m.Bindings {
		if b.Name == "P" {
			cls = b
		}
	}
	if cls == nil || cls.Docstring != "A point." || len(cls.Bases) != 1 || len(cls.Keywords) != 1 || !cls.HasDecorator("dataclass") {
		t.Fatalf("class binding %+v", cls)
	}
	mem := m.Members(cls)
	if mem["x"][0].Kind != BindAnnotated || mem["x"][0].IsDefinition() || mem["y"][0].Docstring != "The y." {
		t.Errorf("fields: %+v %+v", mem["x"][0], mem["y"][0])
	}
	area := mem["area"]
	if len(area) != 2 || area[0].PropertyRole != PropertyGetter || area[1].PropertyRole != PropertySetter || area[1].Property != area[0] {
		t.Errorf("property group: %+v", area)
	}
	if mem["__init__"][0].Docstring != "Init." {
		t.Errorf("method doc %q", mem["__init__"][0].Docstring)
	}
	ia := m.InstanceAttrs(cls)
	if len(ia["v"]) != 2 || len(ia["w"]) != 1 || ia["count"] != nil || ia["z"] != nil {
		t.Errorf("instance attrs: %v", ia)
	}
	if mk := mem["make"][0].Body; mk.Method != ClassMethod || mk.Self == nil || mk.Self.Name != "cls" {
		t.Errorf("classmethod scope %+v", mk)
	}
	if u := mem["util"][0].Body; u.Method != StaticMethod || u.Self != nil {
		t.Errorf("staticmethod scope %+v", u)
	}
}

func TestAtAndScopeAt(t *testing.T) {
	src := "import os.path as osp\ndef f(a):\n    return osp.join(a)\n"
	m := Analyze(parse(t, src), Options{})
	b, r, a := m.At(occ(src, "osp", 2) + 1)
	if b != nil || r == nil || r.Binding == nil || r.Binding.Name != "osp" || a != nil {
		t.Fatalf("At osp: %v %v %v", b, r, a)
	}
	if r.Binding.Import.Module != "os.path" || r.Binding.Import.Prefix(0) != "os" {
		t.Errorf("import %+v", r.Binding.Import)
	}
	_, _, a = m.At(occ(src, "join", 1))
	if a == nil || a.Name != "join" || a.ObjectBinding != r.Binding {
		t.Errorf("attr %+v", a)
	}
	b, _, _ = m.At(occ(src, "a", 1))
	if b == nil || b.Kind != BindParameter {
		t.Errorf("param %+v", b)
	}
	if s := m.ScopeAt(occ(src, "return", 1)); s.Kind != ScopeFunction {
		t.Errorf("ScopeAt = %v", s.Kind)
	}
	if got := m.ScopeAt(0); got != m.Root {
		t.Errorf("ScopeAt(0) = %v", got.Kind)
	}
	fs := m.ScopeAt(occ(src, "return", 1))
	if fs.Lookup("osp", occ(src, "return", 1)) != r.Binding || !fs.Resolve("len", 0).Builtin {
		t.Errorf("Lookup")
	}
}

func TestImportAbsolute(t *testing.T) {
	cases := []struct {
		im       Import
		importer string
		pkg      bool
		want     string
		ok       bool
	}{
		{Import{Module: "a.b"}, "", false, "a.b", true},
		{Import{Level: 1, Module: "m"}, "pkg.mod", false, "pkg.m", true},
		{Import{Level: 1}, "pkg.mod", false, "pkg", true},
		{Import{Level: 1, Module: "m"}, "pkg", true, "pkg.m", true},
		{Import{Level: 2, Module: "x"}, "a.b.c", false, "a.x", true},
		{Import{Level: 3}, "a.b", false, "", false},
		{Import{Level: 1}, "", false, "", false},
	}
	for _, c := range cases {
		got, ok := c.im.Absolute(c.importer, c.pkg)
		if got != c.want || ok != c.ok {
			t.Errorf("%+v from %q: got %q %v want %q %v", c.im, c.importer, got, ok, c.want, c.ok)
		}
	}
}

func TestCleanDoc(t *testing.T) {
	got := CleanDoc("  Summary.\n\n    Body line\n      indented\n    ")
	want := "Summary.\n\nBody line\n  indented"
	if got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// TestSkipDocstrings: the docstrings' nodes stay, their cleaned text is
// left out, and nothing else of the model changes.
func TestSkipDocstrings(t *testing.T) {
	src := `"""Module."""
def f():
    """Function."""
class C:
    """Class."""
    x = 1
    """Attribute."""
`
	tr := parse(t, src)
	whole, skipped := Analyze(tr, Options{}), Analyze(tr, Options{SkipDocstrings: true})
	if whole.Docstring != "Module." || skipped.Docstring != "" || skipped.DocNode != whole.DocNode {
		t.Errorf("module: %q %v, skipped %q %v", whole.Docstring, whole.DocNode, skipped.Docstring, skipped.DocNode)
	}
	if len(whole.Bindings) != len(skipped.Bindings) {
		t.Fatalf("%d bindings, skipped %d", len(whole.Bindings), len(skipped.Bindings))
	}
	docs := 0
	for i, b := range whole.Bindings {
		s := skipped.Bindings[i]
		if b.Docstring != "" {
			docs++
		}
		if s.Name != b.Name || s.Docstring != "" || s.DocNode != b.DocNode {
			t.Errorf("%s: %q %v, skipped %s %q %v", b.Name, b.Docstring, b.DocNode, s.Name, s.Docstring, s.DocNode)
		}
	}
	if docs != 3 {
		t.Errorf("%d bindings with a docstring, want 3 (f, C, x)", docs)
	}
}

func TestFlagsAndImports(t *testing.T) {
	src := `from __future__ import annotations
import typing
import a.b.c
from .m import *
try:
    import json
except ImportError:
    json = None
if typing.TYPE_CHECKING:
    from x import Y
for i in range(3):
    z = i
`
	m := Analyze(parse(t, src), Options{})
	if !m.Future["annotations"] || !m.HasStarImport {
		t.Errorf("future %v star %v", m.Future, m.HasStarImport)
	}
	by := map[string][]*Binding{}
	for _, b := range m.Bindings {
		by[b.Name] = append(by[b.Name], b)
	}
	if j := by["json"]; len(j) != 2 || !j[0].InTryImportError || !j[1].InTryImportError || !j[0].Conditional {
		t.Errorf("json %+v", j)
	}
	if y := by["Y"]; len(y) != 1 || !y[0].InTypeChecking {
		t.Errorf("Y %+v", y)
	}
	if z := by["z"]; len(z) != 1 || !z[0].Conditional {
		t.Errorf("z %+v", z)
	}
	if a := by["a"]; len(a) != 1 || a[0].Import.Module != "a.b.c" || len(a[0].Import.ModuleNodes) != 3 || a[0].Import.Prefix(1) != "a.b" {
		t.Errorf("a %+v", a)
	}
	var star *Import
	for _, im := range m.Imports {
		if im.Star {
			star = im
		}
	}
	if star == nil || star.Level != 1 || star.Module != "m" || star.Binding != nil {
		t.Errorf("star %+v", star)
	}
}
