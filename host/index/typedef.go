package index

import (
	"github.com/pyws/pyws/host/fault"
)

// TypeDefinition answers get_type_definition: where the class of the
// value at the hit is defined. A class name is its own type, a function
// too (as pyright answers); a module is its file; a class outside the workspace is EXTERNAL_DEFINITION with its
// qualified name.
func (x *Index) TypeDefinition(h *Hit) ([]Location, error) {
	// Evaluating a value fills the linker's memo: exclusive.
	x.mu.Lock()
	defer x.mu.Unlock()
	h, err := x.current(h)
	if err != nil {
		return nil, err
	}
	name := h.f.S.Syms[h.o.Sym].Name
	v := x.memo.targetValue(x.follow(h.t))
	switch v.kind {
	case vClass, vInstance, vFunction:
		if locs := x.defLocations(target{kind: tSym, f: v.f, sym: v.sym}); len(locs) > 0 {
			return locs, nil
		}
	case vModule:
		if fs := x.mods.byName[v.name]; len(fs) > 0 {
			return []Location{{Abs: fs[0].Abs, Rel: fs[0].Rel}}, nil
		}
	case vExt:
		return nil, fault.New(fault.ExternalDefinition, fault.Details{"module": v.mod, "symbol": v.name},
			"the type of %s, %s, is defined outside the workspace, in %s", name, v.name, v.mod)
	}
	return nil, fault.New(fault.NoDefinitionFound, fault.Details{"name": name},
		"cannot tell the type of %s", name)
}
