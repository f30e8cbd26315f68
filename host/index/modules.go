package index

import (
	"path"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// moduleMap maps dotted module names to the files defining them.
//
// A file's names: its path from the workspace root as a dotted name
// (namespace packages included: pyright resolves imports from the
// execution root, which is the workspace root); the same path below a
// top-level src/ directory; and, for a file inside a chain of regular
// packages, the chain from its top package (so a package nested below a
// plain directory imports as it would once installed). Its canonical name
// (File.Module) is the last of these that exists: what code importing it
// most likely writes. A module with both a stub and a source resolves to
// the stub first, as pyright's imports do.
type moduleMap struct {
	byName map[string][]*File // .py before .pyi
	pkgs   map[string]bool    // every dotted directory prefix (namespace packages)
	// stubs are the typeshed units loaded for this link, by module: what
	// a module the workspace does not have links into. Never part of
	// exists: the workspace's answers (imports, diagnostics) are its own.
	stubs map[string]*File

	// An early index's map holds some of the workspace's files
	// (partOf): exists and pkgs answer as the whole workspace's map
	// does, so every import resolves as in the complete index, and a
	// module some of whose files are not held is lacking: looking it up
	// (modules) records it in missed, the files the early index must add
	// before its answer can be the complete index's.
	lacking map[string]bool
	whole   *moduleMap
	missMu  sync.Mutex
	missed  map[string]bool
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r))) {
			continue
		}
		return false
	}
	return true
}

// dotted turns a slash path of identifiers into a dotted name.
func dotted(p string) (string, bool) {
	if p == "" || p == "." {
		return "", true
	}
	parts := strings.Split(p, "/")
	for _, s := range parts {
		if !isIdent(s) {
			return "", false
		}
	}
	return strings.Join(parts, "."), true
}

func newModuleMap(files map[string]*File) *moduleMap {
	m := &moduleMap{byName: map[string][]*File{}, pkgs: map[string]bool{}}
	inits := map[string]bool{} // directories holding __init__.py(i)
	for _, f := range files {
		if f.IsInit {
			inits[path.Dir(f.Rel)] = true
		}
	}
	add := func(name string, f *File) {
		if name == "" {
			return
		}
		m.byName[name] = append(m.byName[name], f)
		for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
			m.pkgs[name[:i]] = true
		}
		if f.IsInit {
			m.pkgs[name] = true
		}
	}
	for _, f := range files {
		stem := f.Stem
		if f.IsInit {
			stem = path.Dir(stem)
			if stem == "." {
				continue // an __init__ at the root names no module
			}
		}
		var names []string
		if n, ok := dotted(stem); ok {
			names = append(names, n)
		}
		if rest, ok := strings.CutPrefix(stem, "src/"); ok {
			if n, ok := dotted(rest); ok {
				names = append(names, n)
			}
		}
		// The chain of regular packages containing the file.
		dir := path.Dir(f.Rel)
		top := ""
		for d := dir; d != "." && inits[d]; d = path.Dir(d) {
			top = d
		}
		if top != "" && path.Dir(top) != "." {
			rest := strings.TrimPrefix(stem, path.Dir(top)+"/")
			if n, ok := dotted(rest); ok {
				names = append(names, n)
			}
		}
		seen := map[string]bool{}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				add(n, f)
				f.Module = n
			}
		}
		if f.Module == "" {
			f.Module = strings.ReplaceAll(stem, "/", ".")
		}
	}
	for _, fs := range m.byName {
		sort.SliceStable(fs, func(i, j int) bool {
			if fs[i].stub != fs[j].stub {
				return fs[i].stub // imports resolve to the stub, as in pyright
			}
			return fs[i].Rel < fs[j].Rel
		})
	}
	return m
}

// exists reports whether name is a module or package of the workspace.
func (m *moduleMap) exists(name string) bool {
	if m.whole != nil {
		return m.whole.exists(name)
	}
	return len(m.byName[name]) > 0 || m.pkgs[name]
}

// modules are the files of module name (.py before .pyi); in a part of
// the workspace's map, a lookup of a module it lacks files of is
// recorded.
func (m *moduleMap) modules(name string) []*File {
	if m.lacking[name] {
		m.missMu.Lock()
		if m.missed == nil {
			m.missed = map[string]bool{}
		}
		m.missed[name] = true
		m.missMu.Unlock()
	}
	return m.byName[name]
}

// takeMissed returns the lacking modules looked up since the last call.
func (m *moduleMap) takeMissed() []string {
	m.missMu.Lock()
	defer m.missMu.Unlock()
	out := make([]string, 0, len(m.missed))
	for name := range m.missed {
		out = append(out, name)
	}
	m.missed = nil
	sort.Strings(out)
	return out
}

// partOf is whole's map restricted to files, a subset of the files it
// maps (by Rel; others are left out): each file keeps the module name
// it has in whole (a package's __init__ left out would otherwise rename
// the modules below it), and exists and pkgs answer as whole does.
func partOf(whole *moduleMap, files map[string]*File) *moduleMap {
	m := &moduleMap{byName: map[string][]*File{}, pkgs: whole.pkgs, lacking: map[string]bool{}, whole: whole}
	for name, fs := range whole.byName {
		for _, g := range fs {
			if f := files[g.Rel]; f != nil {
				f.Module = g.Module
				m.byName[name] = append(m.byName[name], f)
			} else {
				m.lacking[name] = true
			}
		}
	}
	return m
}

// absolute resolves an import's module as written in file f (level dots,
// module) to an absolute dotted name. For an absolute import that the
// root does not know, the importing file's directory is tried too (as
// pyright does for local imports).
func (m *moduleMap) absolute(f *File, level int32, module string) (string, bool) {
	if level == 0 && f.typeshed {
		return module, module != "" // a stub imports the standard library only
	}
	if level == 0 {
		if module == "" {
			return "", false
		}
		if m.exists(module) {
			return module, true
		}
		top := module
		if i := strings.IndexByte(top, '.'); i >= 0 {
			top = top[:i]
		}
		if d := path.Dir(f.Stem); d != "." && !stdlibModules[top] {
			if f.IsInit {
				d = path.Dir(d)
			}
			if pd, ok := dotted(d); ok && pd != "" {
				if cand := pd + "." + module; m.exists(cand) {
					return cand, true
				}
			}
		}
		return module, true
	}
	return relativeModule(f, level, module)
}

// relativeModule resolves an import of f with level dots (at least one)
// against f's module; a level 0 import is module itself.
func relativeModule(f *File, level int32, module string) (string, bool) {
	if level == 0 {
		return module, module != ""
	}
	pkg := f.Module
	if !f.IsInit {
		if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
			pkg = pkg[:i]
		} else {
			pkg = ""
		}
	}
	for up := level - 1; up > 0; up-- {
		if pkg == "" {
			return "", false
		}
		if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
			pkg = pkg[:i]
		} else {
			pkg = ""
		}
	}
	switch {
	case pkg == "" && module == "":
		return "", false
	case pkg == "":
		return module, true
	case module == "":
		return pkg, true
	}
	return pkg + "." + module, true
}
