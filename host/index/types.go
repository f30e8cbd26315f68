package index

import (
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// The type evaluator (plugin-sdk/pytypes) answers what the linker alone
// cannot: the type of a value. One evaluator belongs to one link (its
// memo is dropped with the link's units); it runs over the link's
// Program, which resolves names with the linker's rules. The kernel
// asks it for:
//
//   - attributes reached through a value's type (`resp.json` is
//     Response.json when resp is known to hold a Response), at link
//     time, so definition, references and rename follow them;
//   - hover lines in pyright's notation;
//   - the classes get_type_definition answers.

// typesLocked is the current link's evaluator (made with the link, so
// readers never write it); mu held.
func (x *Index) typesLocked() *pytypes.Evaluator {
	if x.types == nil {
		return pytypes.New(x.programLocked(), pytypes.Options{})
	}
	return x.types
}

// typedAttrTarget is what attribute symbol sym of f refers to through
// the type of its receiver; tNone when the evaluator cannot tell either.
func (x *Index) typedAttrTarget(f *File, sym int32) target {
	return x.refTarget(x.typesLocked().Definition(f, sym))
}

// refTarget turns an evaluator's Ref into a link target: a workspace
// symbol, a workspace module, or something external named by its
// typeshed module and qualified name.
func (x *Index) refTarget(r pytypes.Ref) target {
	switch {
	case r.Unit != nil:
		g, ok := r.Unit.(*File)
		if !ok || r.Sym < 0 || int(r.Sym) >= len(g.S.Syms) {
			return target{}
		}
		if !g.typeshed {
			return target{kind: tSym, f: g, sym: r.Sym}
		}
		y := g.S.Syms[r.Sym]
		if y.Qual == "" || y.Kind != navindex.SymLocal && y.Kind != navindex.SymMember {
			return target{}
		}
		return target{kind: tExt, f: g, sym: r.Sym, name: g.Module + "." + y.Qual, mod: g.Module}
	case r.Module != "":
		return x.memo.moduleTarget(r.Module, false)
	}
	return target{}
}

// typeLocations are where the classes of a value are defined, for
// get_type_definition: workspace classes as locations; external is the
// first class outside the workspace ("" when every class is inside).
func (x *Index) typeLocations(classes []pytypes.Class) (locs []Location, external, module string) {
	for _, c := range classes {
		g, ok := c.Unit.(*File)
		if !ok || c.Sym < 0 || int(c.Sym) >= len(g.S.Syms) {
			continue
		}
		if g.typeshed {
			if external == "" {
				q := g.S.Syms[c.Sym].Qual
				if q == "" {
					q = g.S.Syms[c.Sym].Name
				}
				external, module = g.Module+"."+q, g.Module
			}
			continue
		}
		locs = append(locs, x.defLocations(target{kind: tSym, f: g, sym: c.Sym})...)
	}
	return locs, external, module
}
