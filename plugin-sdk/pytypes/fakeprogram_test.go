package pytypes

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// The tests' Program: modules made of summaries that sketchSummary
// builds from a small subset of Python (see sketch_test.go), linked the
// way the kernel links them.

type fakeUnit struct {
	mod  string
	s    *navindex.Summary
	stub bool
}

func (u *fakeUnit) Summary() *navindex.Summary { return u.s }
func (u *fakeUnit) ModuleName() string         { return u.mod }
func (u *fakeUnit) IsStub() bool               { return u.stub }

type fakeProgram struct {
	mods map[string]*fakeUnit
}

func newProgram(files map[string]string) *fakeProgram {
	p := &fakeProgram{mods: map[string]*fakeUnit{}}
	for name := range files {
		mod, stub := strings.TrimSuffix(name, ".pyi"), strings.HasSuffix(name, ".pyi")
		mod = strings.TrimSuffix(mod, ".py")
		p.mods[mod] = &fakeUnit{mod: mod, stub: stub}
	}
	for _, u := range p.mods {
		src := files[u.mod+".py"]
		if u.stub {
			src = files[u.mod+".pyi"]
		}
		u.s = sketchSummary(src, u.mod, p)
	}
	return p
}

func (p *fakeProgram) unit(mod string) *fakeUnit { return p.mods[mod] }

func (p *fakeProgram) Module(mod string) []Unit {
	if u, ok := p.mods[mod]; ok {
		return []Unit{u}
	}
	return nil
}

func (p *fakeProgram) Resolve(u Unit, sym int32) Ref {
	s := u.Summary()
	if sym < 0 || int(sym) >= len(s.Syms) {
		return Ref{}
	}
	for hops := 0; hops < 32; hops++ {
		sy := s.Syms[sym]
		switch sy.Kind {
		case navindex.SymLocal:
			if sy.Target < 0 {
				return Ref{Unit: u, Sym: sym}
			}
			sym = sy.Target
			continue
		case navindex.SymImport:
			if sy.Name == "" {
				return Ref{Module: sy.Module}
			}
			return p.ModuleMember(sy.Module, sy.Name)
		case navindex.SymBuiltin:
			return p.ModuleMember("builtins", sy.Name)
		}
		return Ref{}
	}
	return Ref{}
}

func (p *fakeProgram) ModuleMember(mod, name string) Ref {
	u, ok := p.mods[mod]
	if ok && u.s != nil {
		for i, sy := range u.s.Syms {
			if sy.Kind == navindex.SymLocal && sy.Scope == 0 && sy.Name == name {
				if sy.Target >= 0 {
					return p.Resolve(u, int32(i))
				}
				return Ref{Unit: u, Sym: int32(i)}
			}
		}
	}
	if _, ok := p.mods[mod+"."+name]; ok {
		return Ref{Module: mod + "." + name}
	}
	return Ref{}
}
