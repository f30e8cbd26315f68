package index

import (
	"sort"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// importables maps a public name to the modules that define it at module
// level, for completions that add their import and the quick fix that
// adds a missing one: the workspace's modules first, then the standard
// library's stubs this link loaded (the closure of what the workspace
// imports; typeshed's other modules are not summarized until something
// imports them), each group by module name length, then name.
type importables struct {
	defs map[string][]importable
	// lower are the names lowercased with their names, sorted: a prefix
	// typed in any case is a range.
	lower []lowerName
}

type importable struct {
	f   *File
	sym int32
}

type lowerName struct{ lower, name string }

// withPrefix returns the range of lower whose names start with prefix,
// case-insensitively.
func (t *importables) withPrefix(prefix string) []lowerName {
	p := strings.ToLower(prefix)
	i := sort.Search(len(t.lower), func(i int) bool { return t.lower[i].lower >= p })
	j := i + sort.Search(len(t.lower)-i, func(k int) bool { return !strings.HasPrefix(t.lower[i+k].lower, p) })
	return t.lower[i:j]
}

// importablesLocked is the current link's table, built once per link with
// the usage counts; mu held (read).
func (x *Index) importablesLocked() *importables {
	u := x.usageLocked()
	x.usageMu.Lock()
	defer x.usageMu.Unlock()
	if u.importable != nil {
		return u.importable
	}
	t := &importables{defs: map[string][]importable{}}
	add := func(f *File) {
		if f.Module == "" || strings.HasPrefix(f.Module, "_") || strings.Contains(f.Module, "._") {
			return
		}
		all := map[string]bool{}
		for _, n := range f.S.All {
			all[n] = true
		}
		for s, y := range f.S.Syms {
			if y.Kind != navindex.SymLocal || y.Scope != 0 || strings.HasPrefix(y.Name, "_") || f.S.AllKnown && !all[y.Name] {
				continue
			}
			if d, ok := f.defKind(int32(s)); !ok || d == navindex.KindModule || d == navindex.KindParameter {
				continue // bound by imports only: not where the name is defined
			}
			t.defs[y.Name] = append(t.defs[y.Name], importable{f, int32(s)})
		}
	}
	for _, f := range x.sorted {
		add(f)
	}
	nws := map[string]int{}
	for name, defs := range t.defs {
		nws[name] = len(defs)
	}
	for _, f := range x.mods.stubs {
		add(f)
	}
	for name, defs := range t.defs {
		for _, g := range [][]importable{defs[:nws[name]], defs[nws[name]:]} {
			sort.Slice(g, func(i, j int) bool {
				a, b := g[i].f.Module, g[j].f.Module
				if len(a) != len(b) {
					return len(a) < len(b)
				}
				return a < b || a == b && !g[i].f.stub && g[j].f.stub
			})
		}
		t.defs[name] = oneEach(defs)
		t.lower = append(t.lower, lowerName{strings.ToLower(name), name})
	}
	sort.Slice(t.lower, func(i, j int) bool {
		a, b := t.lower[i], t.lower[j]
		return a.lower < b.lower || a.lower == b.lower && a.name < b.name
	})
	u.importable = t
	return t
}

// oneEach keeps the first definition of each module (a .py and its .pyi
// define the same names; the source comes first).
func oneEach(defs []importable) []importable {
	seen := map[string]bool{}
	out := defs[:0]
	for _, d := range defs {
		if !seen[d.f.Module] {
			seen[d.f.Module] = true
			out = append(out, d)
		}
	}
	return out
}

// MissingImport is a name the file reads but nothing binds, and the one
// module that defines it.
type MissingImport struct {
	Name, Module string
	Span         navindex.Span
}

// MissingImports lists the names of abs read between the positions
// (start and end line, inclusive of the lines) that nothing in the file,
// its star imports or the builtins binds, and that exactly one workspace
// or standard-library module defines: what the add-import quick fix
// offers. A name several modules define is left out (which one is
// meant is the user's choice).
func (x *Index) MissingImports(abs string, startLine, endLine int) []MissingImport {
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.files[x.rel(abs)]
	if f == nil || !x.linked {
		return nil
	}
	table := x.importablesLocked()
	var out []MissingImport
	seen := map[navindex.Span]bool{}
	for _, o := range f.S.Occs {
		if int(o.Line) < startLine || int(o.Line) > endLine || o.Sym < 0 || int(o.Sym) >= len(f.S.Syms) || seen[o.Span] {
			continue
		}
		y := f.S.Syms[o.Sym]
		if y.Kind != navindex.SymUnresolved || o.Flags&(navindex.OccDef|navindex.OccImport|navindex.OccAll) != 0 {
			continue
		}
		if t, ok := x.memo.linked(f, o.Sym); ok && t.kind != tNone {
			continue // a star import provides it
		}
		defs := table.defs[y.Name]
		if len(defs) != 1 || defs[0].f.Module == f.Module {
			continue
		}
		seen[o.Span] = true
		out = append(out, MissingImport{Name: y.Name, Module: defs[0].f.Module, Span: o.Span})
	}
	return out
}
