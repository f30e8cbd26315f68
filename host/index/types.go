package index

import (
	"sync"

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
//     Response.json when resp is known to hold a Response), when a
//     query needs them (typedAttrs), so definition, references and
//     rename follow them;
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

// typedAttrs are the attribute symbols of a link the linker left
// unresolved (`resp.json` where only the evaluator knows resp holds a
// Response). Resolving them all at link time cost Django 0.5-1 s per edit
// under the write lock; instead a query resolves what it needs: the hit
// itself, and for references the candidates spelled like the symbol.
// Results are kept for the link's lifetime.
type typedAttrs struct {
	byName map[string][]symRef  // candidates by attribute name; written only by the link
	occs   map[symRef][]int32   // their occurrences; written only by the link
	mu     sync.Mutex           // guards resolved
	done   map[symRef]typedAttr // resolved so far
}

type symRef struct {
	f   *File
	sym int32
}

// typedAttr is a resolved candidate: its target and that target's key
// ("" when the evaluator cannot tell either).
type typedAttr struct {
	t   target
	key string
}

func newTypedAttrs() *typedAttrs {
	return &typedAttrs{byName: map[string][]symRef{}, occs: map[symRef][]int32{}, done: map[symRef]typedAttr{}}
}

func (a *typedAttrs) add(name string, f *File, sym int32) {
	r := symRef{f, sym}
	a.byName[name] = append(a.byName[name], r)
	a.occs[r] = nil
}

// addOcc records occurrence occ of sym when sym is a candidate.
func (a *typedAttrs) addOcc(f *File, sym, occ int32) {
	r := symRef{f, sym}
	if occs, ok := a.occs[r]; ok {
		a.occs[r] = append(occs, occ)
	}
}

// typedAttr resolves candidate r through the evaluator, once per link;
// mu held for reading (the evaluator and the link's Program lock for
// themselves).
func (x *Index) typedAttr(r symRef) typedAttr {
	a := x.typed
	a.mu.Lock()
	got, ok := a.done[r]
	a.mu.Unlock()
	if ok {
		return got
	}
	got.t = x.typedAttrTarget(r.f, r.sym)
	got.key = x.keyString(got.t)
	a.mu.Lock()
	a.done[r] = got
	a.mu.Unlock()
	return got
}

// typedHit fills in the target and key of a hit on a candidate the link
// left unresolved. A key no linked occurrence has is kept as text
// (h.typedKey) for refsOf.
func (x *Index) typedHit(h *Hit) {
	if x.typed == nil {
		return
	}
	r := symRef{h.f, h.o.Sym}
	if _, ok := x.typed.occs[r]; !ok {
		return
	}
	got := x.typedAttr(r)
	if got.t.kind == tNone {
		return
	}
	h.t = got.t
	if id, ok := x.keyIDs[got.key]; ok {
		h.key = id
	} else {
		h.typedKey = got.key
	}
}

// typedRefs are the candidates' occurrences whose receiver's type makes
// them the symbol keyed key, named name.
func (x *Index) typedRefs(key string, names ...string) []occRef {
	if x.typed == nil || key == "" {
		return nil
	}
	var out []occRef
	seen := ""
	for _, name := range names {
		if name == seen {
			continue
		}
		seen = name
		for _, r := range x.typed.byName[name] {
			if x.typedAttr(r).key != key {
				continue
			}
			for _, occ := range x.typed.occs[r] {
				out = append(out, occRef{file: r.f, occ: occ})
			}
		}
	}
	return out
}

// TypeFindings are the errors the evaluator is sure of in file abs
// (pytypes.Evaluator.Check), for get_diagnostics; nil when abs is not
// indexed.
func (x *Index) TypeFindings(abs string) []pytypes.Finding {
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.files[x.rel(abs)]
	if f == nil || !x.linked || f.S == nil {
		return nil
	}
	if x.findings == nil { // an index linked without the evaluator's memo
		return x.typesLocked().Check(f)
	}
	return x.findings.of(f, x.typesLocked().Check)
}

// findingsMemo keeps each file's type findings for one link: a file's
// get_diagnostics and every get_code_actions on it ask for them before
// the answer cache can answer, and a file's check costs about a
// millisecond warm (tens cold) while nothing it depends on has changed.
// Made with the link and dropped with it, so an edit anywhere starts
// afresh; the first answer stands for the link, so repeated calls agree.
type findingsMemo struct {
	mu     sync.Mutex
	byFile map[*File][]pytypes.Finding
}

func newFindingsMemo() *findingsMemo {
	return &findingsMemo{byFile: map[*File][]pytypes.Finding{}}
}

// of returns f's findings, checking f with check the first time. Two
// callers may check the same file at once; both answers are the link's.
func (m *findingsMemo) of(f *File, check func(pytypes.Unit) []pytypes.Finding) []pytypes.Finding {
	m.mu.Lock()
	found, ok := m.byFile[f]
	m.mu.Unlock()
	if ok {
		return found
	}
	found = check(f)
	m.mu.Lock()
	m.byFile[f] = found
	m.mu.Unlock()
	return found
}
