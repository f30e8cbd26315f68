package index

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// FileImports is what the index knows of one file's imports, for an
// analyzer that judges them (get_diagnostics: import-not-found, and the
// workspace modules whose signatures it reads). It comes from the file's
// summary and the module map navigation links with, so both tools agree
// on what an import names.
type FileImports struct {
	// Module is the file's dotted module name, "" when its path is not
	// importable (a segment that is no identifier, an __init__ at the
	// root).
	Module string
	IsInit bool
	// Imports has one entry per module an import statement names (each
	// dotted prefix of `import a.b.c` too), in order of first appearance.
	Imports []Import
}

// Import is one imported module and how the workspace answers it.
type Import struct {
	Level  int
	Module string // as written, without the dots
	// Status is abi.ImportFound (a workspace module or package, a compiled
	// extension module included), abi.ImportTopOnly (its top-level
	// package is the workspace's, the module is not; for a relative
	// import: nothing in the workspace) or abi.ImportAbsent (not the
	// workspace's, or a relative import that cannot be resolved: the
	// analyzer does not judge those).
	Status int
	// Name is the absolute module as the importing file names it: the
	// module as written, or a relative import resolved against Module;
	// "" when it cannot be resolved.
	Name string
	// Rel is the workspace file that defines the module (its stub when
	// it has one), "" for none (a namespace package, an extension
	// module, not the workspace's).
	Rel       string
	RelIsInit bool
	// NamesUsed says a name this import statement binds from the module
	// (`from m import x`) is used in the file outside import statements.
	NamesUsed bool
}

// Spec is the import as written: its dots and module ("..pkg.mod").
func (im Import) Spec() string { return strings.Repeat(".", im.Level) + im.Module }

// Imports returns the imports of the file at abs, whose current text is
// text: a file changed since it was indexed is summarized again first.
func (x *Index) Imports(ctx context.Context, abs string, text []byte) (*FileImports, error) {
	if err := x.EnsureFile(ctx, abs, text); err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.files[x.rel(abs)]
	if f == nil {
		return &FileImports{}, nil
	}
	out := &FileImports{IsInit: f.IsInit}
	if x.mods.named(f.Module, f) {
		out.Module = f.Module
	}
	type spec struct {
		level  int32
		module string
	}
	at := map[spec]int{}
	add := func(level int32, module string) int {
		k := spec{level, module}
		if i, ok := at[k]; ok {
			return i
		}
		at[k] = len(out.Imports)
		out.Imports = append(out.Imports, x.resolveImport(f, level, module))
		return at[k]
	}
	used := usedImports(f.S)
	for id, y := range f.S.Syms {
		if y.Kind != navindex.SymImport {
			continue
		}
		i := add(y.Level, y.Module)
		if y.Name != "" && used[int32(id)] {
			out.Imports[i].NamesUsed = true
		}
	}
	for _, s := range f.S.Stars {
		add(s.Level, s.Module)
	}
	return out, nil
}

// usedImports returns the SymImports of from-imported names that a
// symbol bound by the import refers to outside import statements.
func usedImports(s *navindex.Summary) map[int32]bool {
	readLocal := make([]bool, len(s.Syms))
	for _, o := range s.Occs {
		if o.Flags&navindex.OccImport == 0 && int(o.Sym) < len(readLocal) && o.Sym >= 0 {
			readLocal[o.Sym] = true
		}
	}
	used := map[int32]bool{}
	for id, y := range s.Syms {
		if y.Kind == navindex.SymLocal && y.Target >= 0 && readLocal[id] {
			used[y.Target] = true
		}
	}
	return used
}

// named reports whether name is one of f's importable names.
func (m *moduleMap) named(name string, f *File) bool {
	return name != "" && slices.Contains(m.byName[name], f)
}

// resolveImport answers one import of f. Absolute imports resolve as
// navigation links them (moduleMap.absolute: the workspace's names, then
// the importing file's directory); relative ones against f's module, as
// the analyzer's semantic model resolves them.
func (x *Index) resolveImport(f *File, level int32, module string) Import {
	im := Import{Level: int(level), Module: module}
	if level > 0 {
		name, ok := x.mods.absolute(f, level, module)
		switch {
		case !ok:
			return im // above the top-level package: not judged
		case module == "":
			im.Status = abi.ImportFound // the importing file's own package
		case x.mods.exists(name) || x.extensionModule(name):
			im.Status = abi.ImportFound
		default:
			im.Status = abi.ImportTopOnly
		}
		im.Name = name
		im.Rel, im.RelIsInit = x.mods.file(name)
		return im
	}
	im.Name = module
	found, _ := x.mods.absolute(f, 0, module)
	top, _, _ := strings.Cut(module, ".")
	localTop := ""
	if local, _ := strings.CutSuffix(found, "."+module); local != found {
		localTop = local + "." + top
	}
	switch {
	case x.mods.exists(found):
		im.Status = abi.ImportFound
		im.Rel, im.RelIsInit = x.mods.file(found)
	case x.mods.exists(top) || localTop != "" && x.mods.exists(localTop):
		im.Status = abi.ImportTopOnly
		if x.extensionModule(module) || x.extensionModule("src."+module) || x.localExtension(f, module) {
			im.Status = abi.ImportFound
		}
	}
	return im
}

// file is the file defining module name (a stub first), "" for none.
func (m *moduleMap) file(name string) (rel string, isInit bool) {
	if fs := m.byName[name]; len(fs) > 0 {
		return fs[0].Rel, fs[0].IsInit
	}
	return "", false
}

// localExtension is extensionModule for module in f's directory.
func (x *Index) localExtension(f *File, module string) bool {
	d := path.Dir(f.Stem)
	if f.IsInit {
		d = path.Dir(d)
	}
	pd, ok := dotted(d)
	return ok && pd != "" && x.extensionModule(pd+"."+module)
}

// extensionModule reports whether a compiled extension module (name.*.so,
// name.pyd) exists at the dotted path name from the workspace root: the
// module map only knows Python sources.
func (x *Index) extensionModule(name string) bool {
	if x.cfg.ListDir == nil {
		return false
	}
	parts := strings.Split(name, ".")
	names, err := x.cfg.ListDir(strings.Join(parts[:len(parts)-1], "/"))
	if err != nil {
		return false
	}
	last := parts[len(parts)-1]
	for _, n := range names {
		if strings.HasPrefix(n, last+".") && (strings.HasSuffix(n, ".so") || strings.HasSuffix(n, ".pyd")) {
			return true
		}
	}
	return false
}
