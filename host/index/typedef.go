package index

import (
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// TypeDefinition answers get_type_definition: where the classes of the
// value at the hit are defined (one per member of a union), from the
// type evaluator. What has no class answers as pyright does: a function
// is its def, a module its file. A value whose only classes are outside
// the workspace is EXTERNAL_DEFINITION with the first one's qualified
// name (details "symbols" lists every class of a union, str | None
// giving builtins.str and types.NoneType). A union of classes on both
// sides answers the workspace's locations and, in external, the
// qualified names of the others (Node | None: Node's class and
// types.NoneType), as pyright lists both. A value of unknown type is
// the name's own declarations, as pyright answers, and
// NO_DEFINITION_FOUND when it has none.
func (x *Index) TypeDefinition(h *Hit) ([]Location, []string, error) {
	// The linker's fallback fills its memo: exclusive.
	x.mu.Lock()
	defer x.mu.Unlock()
	h, err := x.current(h)
	if err != nil {
		return nil, nil, err
	}
	name := h.f.S.Syms[h.o.Sym].Name
	ev := x.typesLocked()
	t := ev.TypeAt(h.f, h.o)
	if p := x.follow(h.t); p.kind == tSym && h.f.S.Syms[h.o.Sym].Kind == navindex.SymLocal {
		// A property named at its def or in its class's body: pyright
		// answers its declarations (getter and setter).
		if k, ok := p.f.defKind(p.sym); ok && k == navindex.KindProperty {
			if locs := x.defLocations(p); len(locs) > 0 {
				return locs, nil, nil
			}
		}
	}
	if t.IsSelf() || declaredByName(t) {
		// A type no class declares (self's synthesized Self, Any, a
		// type variable's value): pyright falls back to the name's own
		// declarations.
		if p := x.follow(h.t); p.kind == tSym {
			if locs := x.defLocations(p); len(locs) > 0 {
				return locs, nil, nil
			}
		}
	}
	classes := ev.Classes(t)
	locs, first, module := x.typeLocations(classes)
	if len(locs) > 0 {
		return locs, externalNames(classes), nil
	}
	if first != "" {
		return nil, nil, fault.New(fault.ExternalDefinition, fault.Details{"module": module, "symbol": first, "symbols": externalNames(classes)},
			"the type of %s, %s, is defined outside the workspace, in %s", name, first, module)
	}
	v := x.memo.targetValue(x.follow(h.t))
	switch v.kind {
	case vClass, vInstance, vFunction:
		if locs := x.defLocations(target{kind: tSym, f: v.f, sym: v.sym}); len(locs) > 0 {
			return locs, nil, nil
		}
	case vModule:
		if fs := x.mods.byName[v.name]; len(fs) > 0 {
			return []Location{{Abs: fs[0].Abs, Rel: fs[0].Rel}}, nil, nil
		}
	case vExt:
		return nil, nil, fault.New(fault.ExternalDefinition, fault.Details{"module": v.mod, "symbol": v.name},
			"the type of %s, %s, is defined outside the workspace, in %s", name, v.name, v.mod)
	}
	if p := x.follow(h.t); p.kind == tSym {
		// A type nothing declares (pyws or pyright cannot tell it):
		// pyright's fallback, the name's own declarations.
		if locs := x.defLocations(p); len(locs) > 0 {
			return locs, nil, nil
		}
	}
	return nil, nil, fault.New(fault.NoDefinitionFound, fault.Details{"name": name},
		"cannot tell the type of %s", name)
}

// declaredByName reports a type that has no class of its own to go to:
// Any, a type variable, or type[T] of one.
func declaredByName(t pytypes.Type) bool {
	switch t.Kind() {
	case pytypes.KindAny, pytypes.KindTypeVar:
		return true
	case pytypes.KindClass:
		return !t.Class().Valid() && len(t.Args()) == 1 && t.Args()[0].Kind() == pytypes.KindTypeVar
	}
	return false
}

// externalNames are the qualified names of the classes outside the
// workspace (typeshed's), in order: "builtins.str", "types.NoneType".
func externalNames(classes []pytypes.Class) []string {
	var out []string
	for _, c := range classes {
		g, ok := c.Unit.(*File)
		if !ok || !g.typeshed || c.Sym < 0 || int(c.Sym) >= len(g.S.Syms) {
			continue
		}
		q := g.S.Syms[c.Sym].Qual
		if q == "" {
			q = g.S.Syms[c.Sym].Name
		}
		out = append(out, g.Module+"."+q)
	}
	return out
}
