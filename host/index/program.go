package index

import (
	"sync"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// Program is the type evaluator's view of one link of the index
// (pytypes.Program): its units are the workspace's *File and the typeshed
// units the link loaded, and it resolves with the same linker rules as
// navigation. A Program belongs to one link: get it with Index.View,
// which holds the index's read lock so no relink changes the units under
// it.
//
// Queries run concurrently under that read lock, and a Resolve may
// compute what the link itself never needed (a member of a stub class, a
// symbol of a stub nobody referred to), which writes a linker's memo. So
// a Program has its own linker, not the index's, guarded by its own
// mutex: the index's memo is only written under the write lock (relink,
// rename), and a shared stub File is never written by either.
type Program struct {
	files map[string]*File
	mods  *moduleMap

	mu sync.Mutex
	l  *linker
}

var _ pytypes.Program = (*Program)(nil)

func newProgram(files map[string]*File, mods *moduleMap) *Program {
	return &Program{files: files, mods: mods, l: &linker{mods: mods, st: map[*File]*linkState{}, stubStars: true}}
}

// View calls fn with the index's current Program, holding the index's
// read lock: fn must not call the index's other methods (a writer
// waiting between two read locks would deadlock them). Without a built
// index fn gets an empty Program.
func (x *Index) View(fn func(p *Program)) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	fn(x.programLocked())
}

// programLocked is the current Program; mu held (read or write).
func (x *Index) programLocked() *Program {
	if x.prog == nil {
		return newProgram(nil, newModuleMap(nil))
	}
	return x.prog
}

// Unit returns the workspace file rel (slash-separated, relative to the
// root), nil when the index has none.
func (p *Program) Unit(rel string) *File { return p.files[rel] }

// Resolve implements pytypes.Program: symbol sym of u followed through
// imports (aliased ones too: `import numpy as np` resolves to the
// module), re-exports and star imports (a workspace file's star import
// of a stdlib module too, which navigation does not link); a builtin is
// the builtins stub's symbol. What the stubs do not define, and attributes and keyword
// arguments (the evaluator's), resolve to nothing.
func (p *Program) Resolve(u pytypes.Unit, sym int32) pytypes.Ref {
	f, ok := u.(*File)
	if !ok || f == nil || sym < 0 || int(sym) >= len(f.S.Syms) {
		return pytypes.Ref{}
	}
	switch f.S.Syms[sym].Kind {
	case navindex.SymAttr, navindex.SymKeyword:
		return pytypes.Ref{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ref(p.l.symTarget(f, sym))
}

// ModuleMember implements pytypes.Program: the workspace's module first,
// else the stub's.
func (p *Program) ModuleMember(mod, name string) pytypes.Ref {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ref(p.l.moduleMember(mod, name, 0, false))
}

// Module implements pytypes.Program: the workspace's files of mod (its
// stub first), else the typeshed unit, else nil.
func (p *Program) Module(mod string) []pytypes.Unit {
	var out []pytypes.Unit
	for _, f := range p.mods.modules(mod) {
		out = append(out, f)
	}
	if len(out) == 0 {
		if g := p.mods.stubs[mod]; g != nil {
			out = append(out, g)
		}
	}
	return out
}

// ref turns a link target into a Ref, following an import bound under
// another name to what it imports. mu held.
func (p *Program) ref(t target) pytypes.Ref {
	for range 8 {
		if t.kind != tSym {
			break
		}
		y := t.f.S.Syms[t.sym]
		if y.Kind != navindex.SymLocal || y.Target < 0 {
			break
		}
		if _, ok := t.f.defKind(t.sym); ok {
			break // also bound by an assignment, def or class
		}
		next := p.l.symTarget(t.f, y.Target)
		if next.kind == tNone {
			break
		}
		t = next
	}
	switch t.kind {
	case tSym:
		return pytypes.Ref{Unit: t.f, Sym: t.sym}
	case tModule:
		return pytypes.Ref{Module: t.name}
	case tExt, tBuiltin:
		if t.f != nil {
			return pytypes.Ref{Unit: t.f, Sym: t.sym}
		}
		if t.smod != "" {
			return pytypes.Ref{Module: t.smod}
		}
	}
	return pytypes.Ref{}
}

// File is the file of the hit (a pytypes.Unit).
func (h *Hit) File() *File { return h.f }

// Occ is the hit's occurrence in its file's summary.
func (h *Hit) Occ() navindex.Occ { return h.o }
