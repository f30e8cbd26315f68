package pytypes

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Attribute is one attribute a value offers after `value.`, for
// completion.
type Attribute struct {
	Name string
	// Ref is the declaring symbol (a module's member may be a submodule:
	// Ref.Module).
	Ref Ref
	// Depth is the declaring class's position in the MRO (0: the class
	// itself); a module's own names are 0, what every module object has
	// (types.ModuleType's) and a class object's metaclass attributes come
	// after the class's own, deeper.
	Depth int
}

// Attributes lists the attributes of a value of type t, each name once
// (the first declaration along the MRO): a class's own and inherited
// members, a class object's also type's, a module's names (a stub's
// private names and the imports it does not re-export left out), every
// member of a union (None's aside). Unknown types have none.
func (e *Evaluator) Attributes(t Type) []Attribute {
	q := e.query()
	seen := map[string]bool{}
	var out []Attribute
	q.attributes(t, seen, &out, 0)
	return out
}

func (q *query) attributes(t Type, seen map[string]bool, out *[]Attribute, depth int) {
	if depth > 4 {
		return
	}
	addClass := func(c Class, base int) {
		info := q.class(c)
		if info == nil {
			return
		}
		for i, m := range info.mro {
			mi := q.class(m.Class())
			if mi == nil {
				continue
			}
			for name, sym := range q.members(mi) {
				if !seen[name] {
					seen[name] = true
					*out = append(*out, Attribute{Name: name, Ref: Ref{Unit: mi.c.Unit, Sym: sym}, Depth: base + i})
				}
			}
		}
	}
	switch t.Kind() {
	case KindModule:
		q.moduleAttributes(t.Text(), seen, out, 0)
		for _, name := range implicitModuleNames {
			if !seen[name] {
				seen[name] = true
				*out = append(*out, Attribute{Name: name, Depth: 1})
			}
		}
		if mt := q.moduleClass("types", "ModuleType"); mt.Valid() {
			addClass(mt, 1)
		}
	case KindInstance, KindLiteral, KindSelf, KindTuple:
		c := t.Class()
		if !c.Valid() && t.Kind() == KindTuple {
			c = q.builtinClass("tuple")
		}
		addClass(c, 0)
	case KindClass:
		c := t.Class()
		if !c.Valid() && len(t.Args()) == 1 && t.Args()[0].Kind() == KindSelf {
			c = t.Args()[0].Class()
		}
		addClass(c, 0)
		if tc := q.builtinClass("type"); tc.Valid() {
			addClass(tc, maxMRO)
		}
	case KindUnion:
		for _, m := range t.Args() {
			if m.Kind() != KindNone {
				q.attributes(m, seen, out, depth+1)
			}
		}
	}
}

// implicitModuleNames are what every module binds without saying so, as
// pyright lists them.
var implicitModuleNames = []string{"__name__", "__qualname__", "__file__", "__doc__", "__package__", "__path__",
	"__loader__", "__spec__", "__dict__", "__builtins__", "__cached__", "__annotations__"}

// moduleAttributes adds the module-level names of mod's units and what
// their star imports bring (public names, or __all__), a stub's imports
// that do not re-export aside.
func (q *query) moduleAttributes(mod string, seen map[string]bool, out *[]Attribute, depth int) {
	if depth > 4 {
		return
	}
	for _, u := range q.e.prog.Module(mod) {
		s := u.Summary()
		ix := q.e.index(u)
		if len(ix.scopeSyms) == 0 {
			continue
		}
		all := map[string]bool{}
		for _, n := range s.All {
			all[n] = true
		}
		for _, sym := range ix.scopeSyms[0] {
			y := &s.Syms[sym]
			if seen[y.Name] || depth > 0 && !starExported(s, y.Name, all) {
				continue
			}
			if u.IsStub() && !all[y.Name] && q.privateImport(u, sym) {
				continue
			}
			seen[y.Name] = true
			*out = append(*out, Attribute{Name: y.Name, Ref: Ref{Unit: u, Sym: sym}})
		}
		for _, st := range s.Stars {
			for _, b := range importBases(u, st.Level, st.Module) {
				if len(q.e.prog.Module(b)) > 0 {
					q.moduleAttributes(b, seen, out, depth+1)
					break
				}
			}
		}
	}
}

// starExported reports whether `from m import *` brings name: m's
// __all__ when known, else its names without a leading underscore.
func starExported(s *navindex.Summary, name string, all map[string]bool) bool {
	if s.AllKnown {
		return all[name]
	}
	return !strings.HasPrefix(name, "_")
}

// privateImport reports a stub's name bound only by imports. The summary
// does not tell `from m import x as x` (a re-export) from `from m import
// x`, so a stub's imported names count only through __all__.
func (q *query) privateImport(u Unit, sym int32) bool {
	if u.Summary().Syms[sym].Target < 0 {
		return false
	}
	for _, d := range q.e.index(u).defsOf[sym] {
		if !u.Summary().Defs[d].Import {
			return false
		}
	}
	return true
}

// CallResult is what calling a value of type t gives when the arguments
// are not known (a receiver written `f().`): the overload the empty
// argument list selects, else the first def's declared or inferred
// return.
func (e *Evaluator) CallResult(t Type) Type {
	q := e.query()
	if r := q.call(t, nil); !r.IsUnknown() {
		return r
	}
	f := t.Func()
	if f == nil && t.Kind() == KindOverloaded && len(t.Args()) > 0 {
		f = t.Args()[0].Func()
	}
	if f != nil {
		return q.returnOf(f, nil)
	}
	return unknownType
}

// InstanceOf is an instance of class object t (`x: C` holds what C() gives,
// for a string literal receiver the kernel finds str); Unknown for
// anything else.
func (e *Evaluator) InstanceOf(t Type) Type {
	if t.Kind() == KindClass && t.Class().Valid() {
		return Instance(t.Class(), t.Args()...)
	}
	return unknownType
}
