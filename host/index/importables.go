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
type importables map[string][]string

// importablesLocked is the current link's table, built once per link with
// the usage counts; mu held (read).
func (x *Index) importablesLocked() importables {
	u := x.usageLocked()
	x.usageMu.Lock()
	defer x.usageMu.Unlock()
	if u.importable != nil {
		return u.importable
	}
	t := importables{}
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
			t[y.Name] = append(t[y.Name], f.Module)
		}
	}
	for _, f := range x.sorted {
		add(f)
	}
	nws := map[string]int{}
	for name, mods := range t {
		nws[name] = len(mods)
	}
	for _, f := range x.mods.stubs {
		add(f)
	}
	for name, mods := range t {
		ws, std := mods[:nws[name]], mods[nws[name]:]
		for _, g := range [][]string{ws, std} {
			sort.Slice(g, func(i, j int) bool {
				if len(g[i]) != len(g[j]) {
					return len(g[i]) < len(g[j])
				}
				return g[i] < g[j]
			})
		}
		t[name] = compact(mods)
	}
	u.importable = t
	return t
}

// compact drops repeated modules (a .py and its .pyi define the same
// names), keeping the first of each.
func compact(mods []string) []string {
	seen := map[string]bool{}
	out := mods[:0]
	for _, m := range mods {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
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
		if st := x.memo.st[f]; st != nil && st.tstate[o.Sym] == 2 && st.tgt[o.Sym].kind != tNone {
			continue // a star import provides it
		}
		mods := table[y.Name]
		if len(mods) != 1 || mods[0] == f.Module {
			continue
		}
		seen[o.Span] = true
		out = append(out, MissingImport{Name: y.Name, Module: mods[0], Span: o.Span})
	}
	return out
}
