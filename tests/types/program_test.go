package types

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
	"github.com/pyws/pyws/plugin-sdk/typeshed"
	"github.com/pyws/pyws/plugins/indexer/summarize"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// unit is one natively summarized file.
type unit struct {
	mod     string
	s       *navindex.Summary
	stub    bool
	pkgInit bool // an __init__: relative imports start from the module itself
	// names are the module-level symbols with a live binding, by name.
	names map[string]int32
}

func (u *unit) Summary() *navindex.Summary { return u.s }
func (u *unit) ModuleName() string         { return u.mod }
func (u *unit) IsStub() bool               { return u.stub }

// program links fixture modules and typeshed's stdlib stubs for Python
// 3.13, summarizing a stub the first time a module is asked for: a
// stand-in for the kernel's index, linking the way it does (imports,
// re-exports, star imports, submodules).
type program struct {
	tb    testing.TB
	sum   *nativeindex.Summarizer
	stubs *typeshed.Stubs

	mu    sync.Mutex
	units map[string]*unit // nil: no such module
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func newProgram(tb testing.TB, fixtures map[string]string) *program {
	dir := filepath.Join(repoRoot(), "bin", "typeshed")
	stubs, err := typeshed.Open(os.DirFS(dir))
	if err != nil {
		tb.Skipf("no typeshed stubs (make stubs): %v", err)
	}
	sum, err := nativeindex.New(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	p := &program{tb: tb, sum: sum, stubs: stubs, units: map[string]*unit{}}
	// Before summarizing everything: does the indexer emit v5 facts?
	if !hasV5Facts(p.summarize("probe", []byte("x: int = 1\n"), false, false).s) {
		tb.Skip("the indexer does not emit navindex v5 facts yet")
	}
	for mod, src := range fixtures {
		p.units[mod] = p.summarize(mod, []byte(src), false, false)
	}
	return p
}

func (p *program) summarize(mod string, src []byte, stub, pkgInit bool) *unit {
	t, err := p.sum.Parse(context.Background(), src)
	if err != nil {
		p.tb.Fatalf("%s: %v", mod, err)
	}
	s := summarize.Summarize(t, summarize.Options{IsStub: stub, IsPackageInit: pkgInit, PythonMinor: 13})
	// Through the wire format, as the kernel stores summaries.
	s, err = navindex.Decode(navindex.Encode(s))
	if err != nil {
		p.tb.Fatalf("%s: %v", mod, err)
	}
	u := &unit{mod: mod, s: s, stub: stub, pkgInit: pkgInit, names: map[string]int32{}}
	for _, d := range s.Defs {
		if sy := s.Syms[d.Sym]; sy.Kind == navindex.SymLocal && sy.Scope == 0 && d.Flags&navindex.DefStaticFalse == 0 {
			u.names[sy.Name] = d.Sym
		}
	}
	return u
}

func (p *program) unit(mod string) *unit {
	p.mu.Lock()
	u, ok := p.units[mod]
	p.mu.Unlock()
	if ok {
		return u
	}
	if file, err := p.stubs.ModuleFile(mod, typeshed.Version{Major: 3, Minor: 13}); err == nil {
		if src, err := p.stubs.ReadFile(file); err == nil {
			u = p.summarize(mod, src, true, strings.HasSuffix(file, "__init__.pyi"))
		}
	}
	p.mu.Lock()
	p.units[mod] = u
	p.mu.Unlock()
	return u
}

func (p *program) Module(mod string) []pytypes.Unit {
	if u := p.unit(mod); u != nil {
		return []pytypes.Unit{u}
	}
	return nil
}

func (p *program) Resolve(u pytypes.Unit, sym int32) pytypes.Ref {
	return p.resolve(u, sym, 0)
}

func (p *program) resolve(u pytypes.Unit, sym int32, depth int) pytypes.Ref {
	s := u.Summary()
	if depth > 16 || sym < 0 || int(sym) >= len(s.Syms) {
		return pytypes.Ref{}
	}
	sy := s.Syms[sym]
	switch sy.Kind {
	case navindex.SymLocal:
		if sy.Target < 0 {
			return pytypes.Ref{Unit: u, Sym: sym}
		}
		return p.resolve(u, sy.Target, depth+1)
	case navindex.SymImport:
		mod := absolute(p.packageOf(u), sy.Module, sy.Level)
		if sy.Name == "" {
			return pytypes.Ref{Module: mod}
		}
		// `from . import path` in a package names its submodule first.
		if sy.Level > 0 && p.unit(mod+"."+sy.Name) != nil {
			return pytypes.Ref{Module: mod + "." + sy.Name}
		}
		return p.member(mod, sy.Name, depth+1)
	case navindex.SymBuiltin:
		return p.member("builtins", sy.Name, depth+1)
	case navindex.SymUnresolved:
		for _, st := range s.Stars {
			if r := p.member(absolute(p.packageOf(u), st.Module, st.Level), sy.Name, depth+1); r.Found() {
				return r
			}
		}
	}
	return pytypes.Ref{}
}

// packageOf is the package u's relative imports start from, with a
// trailing dot-less name: the module itself for an __init__.
func (p *program) packageOf(u pytypes.Unit) string {
	if x, ok := u.(*unit); ok && x.pkgInit {
		return u.ModuleName() + ".__init__"
	}
	return u.ModuleName()
}

// absolute is an import's module made absolute from importer.
func absolute(importer, mod string, level int32) string {
	if level == 0 {
		return mod
	}
	parts := strings.Split(importer, ".")
	if int(level) > len(parts) {
		return mod
	}
	base := strings.Join(parts[:len(parts)-int(level)], ".")
	if mod == "" {
		return base
	}
	if base == "" {
		return mod
	}
	return base + "." + mod
}

func (p *program) ModuleMember(mod, name string) pytypes.Ref { return p.member(mod, name, 0) }

func (p *program) member(mod, name string, depth int) pytypes.Ref {
	u := p.unit(mod)
	if u == nil || depth > 16 {
		return pytypes.Ref{}
	}
	if sym, ok := u.names[name]; ok {
		return p.resolve(u, sym, depth+1)
	}
	for _, st := range u.s.Stars {
		if r := p.member(absolute(p.packageOf(u), st.Module, st.Level), name, depth+1); r.Found() {
			return r
		}
	}
	if p.unit(mod+"."+name) != nil {
		return pytypes.Ref{Module: mod + "." + name}
	}
	return pytypes.Ref{}
}
