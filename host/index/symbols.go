package index

import (
	"slices"
	"sort"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Symbol is one named definition of the workspace: what find_symbols
// lists, get_document_symbols nests, and a dotted name addresses.
type Symbol struct {
	// Name is the symbol's own name; Container the qualified name of the
	// class or function it is defined in ("" at module level); Module
	// the file's dotted module.
	Name, Container, Module string
	// Kind is class, function, method, property, variable or attribute
	// (a variable of a class body, or an instance attribute); module for
	// a call hierarchy's top-level code.
	Kind string
	// Signature is the one-line declaration ("def f(a: int) -> str",
	// "class C(Base)", "x: int").
	Signature string
	Location
	// Extent is the statement that defines it (zero when unknown).
	Extent navindex.Extent
}

// Qualified is the symbol's dotted name from the module on.
func (s Symbol) Qualified() string {
	if s.Kind == "module" {
		return s.Module
	}
	q := s.Module
	if s.Container != "" {
		q += "." + s.Container
	}
	return q + "." + s.Name
}

// SymbolKinds are the kinds a Symbol can have, for find_symbols' kind.
var SymbolKinds = []string{"class", "function", "method", "property", "variable", "attribute"}

// fileSymbols lists f's symbols other modules can reach (those with a
// qualified name, parameters and imports left out) in declaration order.
func fileSymbols(f *File) []Symbol {
	f.prepare()
	var out []Symbol
	for i, y := range f.S.Syms {
		if (y.Kind != navindex.SymLocal && y.Kind != navindex.SymMember) || y.Qual == "" || strings.ContainsRune(y.Qual, '(') {
			continue
		}
		d, ok := firstDef(f, int32(i))
		if !ok {
			continue
		}
		s := Symbol{Name: y.Name, Module: f.Module, Kind: d.Kind.String(), Signature: d.Sig, Location: Location{Abs: f.Abs, Rel: f.Rel, Span: d.Name}, Extent: d.Extent}
		if dot := strings.LastIndexByte(y.Qual, '.'); dot >= 0 {
			s.Container = y.Qual[:dot]
		}
		if s.Kind == "variable" && (y.Kind == navindex.SymMember || s.Container != "" && f.isClass(s.Container)) {
			s.Kind = "attribute"
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return spanBefore(out[i].Span, out[j].Span) })
	return out
}

// firstDef is the first definition of sym that is not an import.
func firstDef(f *File, sym int32) (navindex.Def, bool) {
	for _, d := range f.defs.of(sym) {
		if df := f.S.Defs[d]; !df.Import && df.Kind != navindex.KindParameter {
			return df, true
		}
	}
	return navindex.Def{}, false
}

// isClass reports whether qual names a class of f.
func (f *File) isClass(qual string) bool {
	sym, ok := f.qual(qual)
	if !ok {
		return false
	}
	d, ok := firstDef(f, sym)
	return ok && d.Kind == navindex.KindClass
}

// OutlineSymbol is a Symbol with the symbols defined inside it.
type OutlineSymbol struct {
	Symbol
	Children []*OutlineSymbol
}

// Outline is the file's symbols nested by container: classes with their
// methods and attributes, functions, module variables; nil for a file
// the index does not have.
func (x *Index) Outline(abs string) []*OutlineSymbol {
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.files[x.rel(abs)]
	if f == nil {
		return nil
	}
	byQual := map[string]*OutlineSymbol{}
	var top []*OutlineSymbol
	for _, s := range fileSymbols(f) {
		o := &OutlineSymbol{Symbol: s}
		qual := s.Name
		if s.Container != "" {
			qual = s.Container + "." + s.Name
		}
		byQual[qual] = o
		if parent := byQual[s.Container]; s.Container != "" && parent != nil {
			parent.Children = append(parent.Children, o)
		} else if s.Container == "" {
			top = append(top, o)
		}
	}
	return top
}

// Lookup finds the symbol a dotted name addresses: "package.module.Class.method",
// a module ("package.module", standing where the workspace first names it), or a name relative to the module of the file fromAbs ("" none) or,
// failing that, one whose qualified name in its module is unique in the
// workspace ("Class.method"). The Hit is the symbol's declaration, so every
// navigation query takes it as if asked at that position. An unknown or
// ambiguous name is NO_SYMBOL_FOUND with candidates in its details.
func (x *Index) Lookup(name, fromAbs string) (*Hit, error) {
	x.ensureSymbolTable() // for the candidates of an unknown name
	x.mu.RLock()
	defer x.mu.RUnlock()
	parts := strings.Split(name, ".")
	if !x.linked || slices.ContainsFunc(parts, func(p string) bool { return !isIdent(p) }) {
		return nil, x.noSuchSymbol(name, nil)
	}
	type match struct {
		f   *File
		sym int32
	}
	var found []match
	inFile := func(f *File, qual string) bool {
		f.prepare()
		if sym, ok := f.qual(qual); ok && f.Abs != "" {
			found = append(found, match{f, sym})
			return true
		}
		return false
	}
	if f := x.files[x.rel(fromAbs)]; fromAbs != "" && f != nil && inFile(f, name) {
		return x.declHit(f, found[0].sym, name)
	}
	// The longest module prefix that holds the rest; a source before its stub.
	for i := len(parts) - 1; i >= 1 && len(found) == 0; i-- {
		fs := slices.Clone(x.mods.byName[strings.Join(parts[:i], ".")])
		sort.SliceStable(fs, func(a, b int) bool { return !fs[a].stub && fs[b].stub })
		for _, f := range fs {
			if inFile(f, strings.Join(parts[i:], ".")) {
				break
			}
		}
	}
	if len(found) == 0 {
		// A name without its module: where it is defined, not where
		// it is imported or re-exported.
		for _, f := range x.sorted {
			if !f.stub && inFile(f, name) {
				if _, ok := firstDef(f, found[len(found)-1].sym); !ok {
					found = found[:len(found)-1]
				}
			}
		}
	}
	switch len(found) {
	case 0:
		if h := x.moduleHit(name); h != nil {
			return h, nil
		}
		return nil, x.noSuchSymbol(name, nil)
	case 1:
		return x.declHit(found[0].f, found[0].sym, name)
	}
	var cands []string
	for _, m := range found {
		cands = append(cands, m.f.Module+"."+name)
	}
	return nil, x.noSuchSymbol(name, cands)
}

// moduleHit is, for the dotted name of a workspace module, the first
// place the workspace names it (an import, or an attribute of its
// package): a module has no declaration of its own to stand at, and every
// query asked there answers for the module (its references are every
// import and use of it, its definition the module's file). nil when no
// such module exists or nothing names it.
func (x *Index) moduleHit(name string) *Hit {
	fs := x.mods.modules(name)
	if len(fs) == 0 {
		return nil
	}
	id, ok := x.keyIDs["m:"+fs[0].Module]
	if !ok {
		return nil
	}
	for _, r := range x.inv[id] {
		o := r.file.S.Occs[r.occ]
		if h := x.atLocked(r.file.Abs, int(o.Line), int(o.Col)); h != nil && h.key == id {
			return h
		}
	}
	return nil
}

// declHit is the occurrence at sym's declaration in f.
func (x *Index) declHit(f *File, sym int32, name string) (*Hit, error) {
	sp, _ := declOf(f, sym)
	if h := x.atLocked(f.Abs, int(sp.Line), int(sp.Col)); h != nil {
		return h, nil
	}
	return nil, x.noSuchSymbol(name, nil)
}

// noSuchSymbol is NO_SYMBOL_FOUND for a name: ambiguous between cands,
// or unknown (then the closest names find_symbols knows are offered).
func (x *Index) noSuchSymbol(name string, cands []string) error {
	if len(cands) > 0 {
		return fault.New(fault.NoSymbolFound, fault.Details{"symbol": name, "reason": "ambiguous", "candidates": cands},
			"%s names %d symbols; give one of the candidates", name, len(cands))
	}
	// The names find_symbols gives for the last part, or for shorter and
	// shorter prefixes of it (a misspelt "Itm" still offers "Item").
	last := name[strings.LastIndexByte(name, '.')+1:]
	cands = []string{}
	for n := len(last); n >= min(2, len(last)) && n > 0 && len(cands) == 0; n-- {
		for _, s := range x.findLocked(last[:n], "", 10).Symbols {
			cands = append(cands, s.Qualified())
		}
	}
	return fault.New(fault.NoSymbolFound, fault.Details{"symbol": name, "reason": "unknown", "candidates": cands},
		"no symbol %s in the workspace (dotted: package.module.Class.method, or relative to uri's module)", name)
}

// Defined is the workspace symbol the hit refers to, where it is defined
// (through imports and aliases; a stub's source when it has one), with
// its statement's extent: what edit_symbol edits. A symbol defined
// outside the workspace, or by something other than a def, a class or
// an assignment, is NO_SYMBOL_FOUND.
func (x *Index) Defined(h *Hit) (Symbol, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.current(h)
	if err != nil {
		return Symbol{}, err
	}
	t := x.follow(h.t)
	if t.kind == tModule {
		return Symbol{}, fault.New(fault.NoSymbolFound, fault.Details{"name": t.name, "reason": "a module"},
			"%s is a module, not a def, class or assignment: edit its file", t.name)
	}
	if src, ok := x.stubSource(t); ok {
		t = src
	}
	name := h.f.S.Syms[h.o.Sym].Name
	if t.kind != tSym || t.f.Abs == "" {
		return Symbol{}, fault.New(fault.NoSymbolFound, fault.Details{"name": name, "reason": "not defined in the workspace"},
			"%s is not defined in the workspace", name)
	}
	s := symbolOf(t.f, t.sym)
	if s.Extent == (navindex.Extent{}) {
		return Symbol{}, fault.New(fault.NoSymbolFound, fault.Details{"name": name, "reason": "not a def, class or assignment"},
			"%s is not defined by a def, a class or an assignment statement", name)
	}
	return s, nil
}
