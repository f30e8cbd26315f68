package index

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pylex"
)

// Location is a range in a workspace file.
type Location struct {
	Abs, Rel string
	navindex.Span
}

// Hit is the occurrence at a queried position.
type Hit struct {
	f   *File
	occ int32
	o   navindex.Occ
	t   target
	key int32
	// typedKey is the key of a target only the evaluator found (an
	// attribute through its receiver's type) when no linked occurrence
	// has it (key is then -1).
	typedKey string
	// where it was asked, and the link generation it belongs to: a hit
	// from before a relink is looked up again.
	abs        string
	line, char int
	gen        uint64
}

// Span is the hovered identifier.
func (h *Hit) Span() navindex.Span { return h.o.Span }

// Describe says in words what the hit refers to (for logs and tests).
func (x *Index) Describe(h *Hit) string {
	if h.key >= 0 && int(h.key) < len(x.keys) {
		return x.keys[h.key]
	}
	return ""
}

// At returns the occurrence at (line, character) of the file abs, or nil
// when no identifier of code is there (keywords, literals, comments,
// strings that are not annotations or __all__ entries, whitespace). A
// position just past an identifier counts when nothing starts there.
func (x *Index) At(abs string, line, char int) *Hit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.atLocked(abs, line, char)
}

// current returns h, looked up again if the index was relinked since.
func (x *Index) current(h *Hit) (*Hit, error) {
	if h.gen == x.gen {
		return h, nil
	}
	if h2 := x.atLocked(h.abs, h.line, h.char); h2 != nil {
		return h2, nil
	}
	return nil, fault.New(fault.NoSymbolFound, fault.Details{"line": h.line, "character": h.char}, "the symbol changed while the query ran")
}

func (x *Index) atLocked(abs string, line, char int) *Hit {
	f := x.files[x.rel(abs)]
	if f == nil || !x.linked {
		return nil
	}
	occs := f.S.Occs
	i := sort.Search(len(occs), func(i int) bool {
		return occs[i].Line > int32(line) || (occs[i].Line == int32(line) && occs[i].Col > int32(char))
	})
	var best = -1
	for j := i - 1; j >= 0 && occs[j].Line == int32(line); j-- {
		o := occs[j]
		if o.Col <= int32(char) && int32(char) < o.End {
			best = j
			break
		}
		if int32(char) == o.End && best < 0 {
			best = j
		}
		if o.End < int32(char) {
			break
		}
	}
	if best < 0 {
		return nil
	}
	o := occs[best]
	h := &Hit{f: f, occ: int32(best), o: o, key: f.occKeys[best], abs: abs, line: line, char: char, gen: x.gen}
	h.t, _ = x.memo.linked(f, o.Sym)
	if h.key < 0 && h.t.kind == tNone {
		x.typedHit(h)
	}
	return h
}

// keyOf is the hit's key as text ("" none).
func (x *Index) keyOf(h *Hit) string {
	if h.key >= 0 {
		return x.keys[h.key]
	}
	return h.typedKey
}

// targetName is the name t is spelled by as an attribute.
func targetName(t target) string {
	switch t.kind {
	case tSym:
		return t.f.S.Syms[t.sym].Name
	case tExt, tBuiltin:
		return t.name[strings.LastIndexByte(t.name, '.')+1:]
	}
	return ""
}

func (x *Index) loc(f *File, sp navindex.Span) Location {
	return Location{Abs: f.Abs, Rel: f.Rel, Span: sp}
}

// primaryFiles returns the files sharing f's stem, sources before stubs.
func (x *Index) siblings(f *File) []*File {
	var out []*File
	for _, g := range x.files {
		if g.Stem == f.Stem {
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].stub != out[j].stub {
			return !out[i].stub
		}
		return out[i].Rel < out[j].Rel
	})
	return out
}

// follow resolves an aliased import (`import a.b as c`, `from m import x
// as y`) to what it imports: definition and hover describe the target,
// as pyright's do, while references and rename keep to the alias.
func (x *Index) follow(t target) target {
	for range 8 {
		if t.kind != tSym {
			return t
		}
		y := t.f.S.Syms[t.sym]
		if y.Kind != navindex.SymLocal || y.Target < 0 {
			return t
		}
		if _, ok := t.f.defKind(t.sym); ok {
			return t // also bound by an assignment, def or class
		}
		if lt, ok := x.memo.linked(t.f, y.Target); ok && lt.kind != tNone {
			t = lt
		}
	}
	return t
}

// stubSource returns the source file's symbol with the qualified name of
// a stub's symbol, when the stub has a .py beside it.
func (x *Index) stubSource(t target) (target, bool) {
	if t.kind != tSym || t.f == nil { // a module, a builtin or an external name has no file
		return target{}, false
	}
	y := t.f.S.Syms[t.sym]
	if !t.f.stub || y.Qual == "" {
		return target{}, false
	}
	for _, g := range x.siblings(t.f) {
		if g.stub {
			continue
		}
		if s, ok := g.qual(y.Qual); ok {
			return target{kind: tSym, f: g, sym: s}, true
		}
	}
	return target{}, false
}

// defLocations lists the definitions of a workspace symbol. For a stub's
// symbol the source's definitions come first, then the stub's (pyright
// lists both).
func (x *Index) defLocations(t target) []Location {
	f, sym := t.f, t.sym
	var locs []Location
	if src, ok := x.stubSource(t); ok {
		locs = x.realDefs(src.f, src.sym)
	}
	if own := x.realDefs(f, sym); len(own) > 0 || len(locs) > 0 {
		return append(locs, own...)
	}
	if y := f.S.Syms[sym]; y.Kind == navindex.SymLocal && y.Scope == 0 && len(f.defs.of(sym)) == 0 {
		// An implicit module global (__name__, __doc__): the module.
		return []Location{{Abs: f.Abs, Rel: f.Rel}}
	}
	var out []Location
	for _, d := range f.defs.of(sym) {
		out = append(out, x.loc(f, f.S.Defs[d].Name))
	}
	return out
}

func (x *Index) realDefs(f *File, sym int32) []Location {
	var out []Location
	for _, d := range f.defs.of(sym) {
		df := f.S.Defs[d]
		if !df.Import {
			out = append(out, x.loc(f, df.Name))
		}
	}
	return out
}

func (x *Index) moduleFile(name string) *File {
	if fs := x.mods.modules(name); len(fs) > 0 {
		return fs[0]
	}
	return nil
}

// Definition answers get_definition for a hit.
func (x *Index) Definition(h *Hit) ([]Location, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.current(h)
	if err != nil {
		return nil, err
	}
	h = &Hit{f: h.f, o: h.o, t: x.follow(h.t)}
	switch h.t.kind {
	case tSym:
		if locs := x.defLocations(h.t); len(locs) > 0 {
			return locs, nil
		}
	case tModule:
		fs := x.mods.modules(h.t.name)
		var locs []Location
		for i := len(fs) - 1; i >= 0; i-- { // source, then stub
			locs = append(locs, Location{Abs: fs[i].Abs, Rel: fs[i].Rel})
		}
		if len(locs) > 0 {
			return locs, nil
		}
	case tExt, tBuiltin:
		mod, sym := h.t.mod, h.t.name
		if h.t.kind == tBuiltin {
			mod = "builtins"
		}
		return nil, fault.New(fault.ExternalDefinition, fault.Details{"module": mod, "symbol": sym},
			"%s is defined outside the workspace, in %s", sym, mod)
	}
	return nil, fault.New(fault.NoDefinitionFound, fault.Details{"name": h.f.S.Syms[h.o.Sym].Name},
		"cannot find where %s is defined", h.f.S.Syms[h.o.Sym].Name)
}

// References answers get_references: every occurrence of the hit's
// symbol in code, ordered by file path, line and character. With
// includeDecl false the symbol's declarations are left out: exactly the
// locations get_definition answers for it (its def, class, assignments,
// parameter); an import naming the symbol (`from a import f`, `import
// m as alias`) is a reference and stays, as do other stores.
func (x *Index) References(ctx context.Context, h *Hit, includeDecl bool) ([]Location, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.current(h)
	if err != nil {
		return nil, err
	}
	if h.key < 0 && h.typedKey == "" {
		name := h.f.S.Syms[h.o.Sym].Name
		return nil, fault.New(fault.NoSymbolFound, fault.Details{"name": name, "reason": "the type of the object is unknown"},
			"cannot tell which symbol %s refers to", name)
	}
	refs := x.refsOf(h)
	var decls map[Location]bool
	if !includeDecl {
		decls = x.declarations(h)
	}
	out := make([]Location, 0, len(refs))
	for i, r := range refs {
		if i&1023 == 1023 && ctx.Err() != nil {
			return nil, timeout(ctx)
		}
		o := r.file.S.Occs[r.occ]
		l := x.loc(r.file, o.Span)
		if o.Flags&navindex.OccDef != 0 && decls[l] {
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

// declarations is the set of locations get_definition answers for the
// hit (through aliases, stubs and their sources alike): what
// includeDeclaration=false leaves out of get_references.
func (x *Index) declarations(h *Hit) map[Location]bool {
	t := x.follow(h.t)
	if t.kind != tSym {
		return nil
	}
	locs := x.defLocations(t)
	set := make(map[Location]bool, len(locs))
	for _, l := range locs {
		set[l] = true
	}
	return set
}

// refsOf lists the occurrences of the hit's symbol. Starting from a
// stub (or a file importing through it), the source's own occurrences are
// included; starting from a source file that has a stub, only what
// resolves to the source (pyright behaves the same: importers see the
// stub).
func (x *Index) refsOf(h *Hit) []occRef {
	var refs []occRef
	if h.key >= 0 {
		refs = x.inv[h.key]
	}
	name := h.f.S.Syms[h.o.Sym].Name
	typed := x.typedRefs(x.keyOf(h), name, targetName(h.t))
	if h.t.kind == tSym {
		if src, ok := x.stubSource(h.t); ok {
			ks := x.keyString(src)
			if k, ok := x.keyIDs[ks]; ok {
				typed = append(typed, x.inv[k]...)
			}
			typed = append(typed, x.typedRefs(ks, name, targetName(src))...)
		}
	}
	if len(typed) == 0 {
		return refs
	}
	merged := append(append([]occRef{}, refs...), typed...)
	sort.SliceStable(merged, func(i, j int) bool {
		a, b := merged[i], merged[j]
		if a.file != b.file {
			return a.file.order < b.file.order
		}
		return a.occ < b.occ
	})
	return merged
}

func timeout(ctx context.Context) error {
	return fault.New(fault.Timeout, fault.Details{"reason": ctx.Err().Error()}, "the search took too long")
}

// Edit is one replacement of a rename.
type Edit struct {
	Location
	NewText string
}

// ValidIdentifier reports whether s is a Python identifier (PEP 3131:
// XID_Start then XID_Continue, approximated by Unicode letters, marks,
// digits and connector punctuation) that is not a hard keyword. Soft
// keywords (match, case, type, _) are identifiers.
func ValidIdentifier(s string) bool {
	if s == "" || pylex.IsKeyword(s) {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r):
		case i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r)):
		default:
			return false
		}
	}
	return true
}

// Rename answers rename_symbol: the edits renaming every occurrence of
// the hit's symbol (definitions, references, import statements, __all__
// entries and string annotations, never other strings or comments).
func (x *Index) Rename(ctx context.Context, h *Hit, newName string) ([]Edit, error) {
	// The conflict check may evaluate members the link did not need: it
	// writes the link memo, so it holds the lock exclusively.
	x.mu.Lock()
	defer x.mu.Unlock()
	h, err := x.current(h)
	if err != nil {
		return nil, err
	}
	y := h.f.S.Syms[h.o.Sym]
	switch h.t.kind {
	case tBuiltin:
		return nil, fault.New(fault.CannotRename, fault.Details{"name": y.Name, "reason": "builtin"}, "%s is a builtin and cannot be renamed", y.Name)
	case tExt:
		return nil, fault.New(fault.CannotRename, fault.Details{"name": y.Name, "reason": "external", "module": h.t.mod}, "%s is defined outside the workspace (%s) and cannot be renamed", y.Name, h.t.mod)
	case tModule:
		return nil, fault.New(fault.CannotRename, fault.Details{"name": h.t.name, "reason": "module"}, "%s is a module: renaming it means renaming its file", h.t.name)
	case tNone:
		return nil, fault.New(fault.NoSymbolFound, fault.Details{"name": y.Name, "reason": "the type of the object is unknown"}, "cannot tell which symbol %s refers to", y.Name)
	}
	if !ValidIdentifier(newName) {
		reason := "not a Python identifier"
		if pylex.IsKeyword(newName) {
			reason = "a Python keyword"
		}
		return nil, fault.New(fault.InvalidName, fault.Details{"newName": newName, "reason": reason}, "%q is %s", newName, reason)
	}
	tsym := h.t.f.S.Syms[h.t.sym]
	if to, ok := x.aliasOf(h.t); ok && to.kind != tSym && to.kind != tModule {
		return nil, fault.New(fault.CannotRename, fault.Details{"name": y.Name, "reason": "external", "module": to.mod},
			"%s is an alias of %s, defined outside the workspace; pyws does not rename it", y.Name, to.name)
	}
	refs := x.refsOf(h)
	if tsym.Name == newName {
		return []Edit{}, nil
	}
	if err := x.conflicts(ctx, h, refs, newName); err != nil {
		return nil, err
	}
	out := make([]Edit, 0, len(refs))
	for i, r := range refs {
		if i&1023 == 1023 && ctx.Err() != nil {
			return nil, timeout(ctx)
		}
		o := r.file.S.Occs[r.occ]
		out = append(out, Edit{Location: x.loc(r.file, o.Span), NewText: newName})
	}
	return out, nil
}

// declOf returns where symbol sym of f is declared (its first definition,
// else its first occurrence) and its kind as NAME_CONFLICT names it:
// function, method, class, variable, parameter, property or import.
func declOf(f *File, sym int32) (navindex.Span, string) {
	f.prepare()
	var best navindex.Span
	kind, found := "variable", false
	for _, d := range f.defs.of(sym) {
		df := f.S.Defs[d]
		if found && !spanBefore(df.Name, best) {
			continue
		}
		best, kind, found = df.Name, df.Kind.String(), true
		if df.Import {
			kind = "import"
		}
	}
	if found {
		return best, kind
	}
	for _, o := range f.S.Occs {
		if o.Sym == sym {
			return o.Span, kind
		}
	}
	return navindex.Span{}, kind
}

func spanBefore(a, b navindex.Span) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// conflictWith is NAME_CONFLICT naming the declaration newName already
// has: symbol sym of f. details: newName, the declaration's kind, path
// (absolute), relativePath, line and character (0-based), and reason.
func conflictWith(newName string, f *File, sym int32, why string) error {
	sp, kind := declOf(f, sym)
	return fault.New(fault.NameConflict, fault.Details{"newName": newName, "kind": kind, "path": f.Abs, "relativePath": f.Rel, "line": sp.Line, "character": sp.Col, "reason": why},
		"%s: %s %s is declared at %s:%d:%d", why, kind, newName, f.Rel, sp.Line+1, sp.Col+1)
}

// conflictScope is conflictWith for the binding of newName in scope s of
// f (the scope's own name when the summary has no symbol for it).
func conflictScope(newName string, f *File, s int32, why string) error {
	f.prepare()
	if sym, ok := f.local(s, newName); ok {
		return conflictWith(newName, f, sym, why)
	}
	return fault.New(fault.NameConflict, fault.Details{"newName": newName, "kind": "variable", "path": f.Abs, "relativePath": f.Rel, "reason": why},
		"%s: %s is bound in %s", why, newName, f.Rel)
}

// conflicts refuses a rename when newName is already bound in a scope
// where an occurrence of the symbol lives (it would capture or be
// captured); for a local of a function, lambda or comprehension, when an
// enclosing scope visible from it binds newName (the renamed local would
// shadow a module-level function, class, import or variable, or a local
// of an enclosing function); when a name newName read in the symbol's
// scope or below would be shadowed; and, for class members, when the class
// already has a member newName. Scopes that cannot see each other
// (sibling functions, a class body from its methods) never conflict.
func (x *Index) conflicts(ctx context.Context, h *Hit, refs []occRef, newName string) error {
	t := h.t
	ty := t.f.S.Syms[t.sym]
	if ty.Kind == navindex.SymMember || (ty.Kind == navindex.SymLocal && t.f.S.Scopes[ty.Scope].Kind == navindex.ScopeClass) {
		if ex := x.memo.classMember(t.f, x.classOf(t.f, t.sym), newName, 0); ex.kind == tSym {
			return conflictWith(newName, ex.f, ex.sym, "the class already has a member "+newName)
		}
	}
	if ty.Kind == navindex.SymLocal {
		switch t.f.S.Scopes[ty.Scope].Kind {
		case navindex.ScopeFunction, navindex.ScopeLambda, navindex.ScopeComprehension, navindex.ScopeTypeParams:
			for s := t.f.S.Scopes[ty.Scope].Parent; s >= 0; s = t.f.S.Scopes[s].Parent {
				sc := t.f.S.Scopes[s]
				if sc.Kind == navindex.ScopeClass {
					continue // invisible from the functions inside it
				}
				if contains(sc.Bound, newName) {
					return conflictScope(newName, t.f, s, newName+" is already defined in an enclosing scope and the renamed name would shadow it")
				}
			}
		}
	}
	checked := map[[2]int64]bool{}
	for i, r := range refs {
		if i&1023 == 1023 && ctx.Err() != nil {
			return timeout(ctx)
		}
		f := r.file
		o := f.S.Occs[r.occ]
		y := f.S.Syms[o.Sym]
		if y.Kind != navindex.SymLocal {
			continue // attributes and keywords do not go through scopes
		}
		owner := y.Scope
		k := [2]int64{int64(f.order), int64(o.Scope)<<32 | int64(uint32(owner))}
		if checked[k] {
			continue
		}
		checked[k] = true
		// From the occurrence's scope out to the owner: newName bound on the
		// way would capture the renamed name.
		first := true
		for s := o.Scope; s >= 0; s = f.S.Scopes[s].Parent {
			sc := f.S.Scopes[s]
			if sc.Kind == navindex.ScopeClass && !first && s != owner {
				continue
			}
			first = false
			if contains(sc.Bound, newName) {
				return conflictScope(newName, f, s, newName+" is already defined in this scope")
			}
			if s == owner {
				break
			}
		}
		// Names newName read in the owner's scope or below that resolve
		// above it (or to a builtin) would be shadowed.
		for s := range f.S.Scopes {
			if !x.within(f, int32(s), owner) {
				continue
			}
			for _, u := range f.S.Scopes[s].Uses {
				if u.Name != newName || (u.Scope >= 0 && x.within(f, u.Scope, owner)) {
					continue
				}
				why := newName + " is used in this scope and would be shadowed"
				switch {
				case u.Scope >= 0:
					return conflictScope(newName, f, u.Scope, why)
				case u.Scope == -1:
					return fault.New(fault.NameConflict, fault.Details{"newName": newName, "kind": "builtin", "reason": why},
						"%s: %s is a builtin", why, newName)
				default:
					return fault.New(fault.NameConflict, fault.Details{"newName": newName, "kind": "unresolved", "path": f.Abs, "relativePath": f.Rel, "reason": why},
						"%s: %s is read in %s without a definition the index knows", why, newName, f.Rel)
				}
			}
		}
	}
	return nil
}

// within reports whether scope s is owner or nested in it.
func (x *Index) within(f *File, s, owner int32) bool {
	for ; s >= 0; s = f.S.Scopes[s].Parent {
		if s == owner {
			return true
		}
	}
	return false
}

// classOf returns the class symbol owning member sym of f (-1 none).
func (x *Index) classOf(f *File, sym int32) int32 {
	y := f.S.Syms[sym]
	if y.Kind == navindex.SymMember {
		return y.Class
	}
	for c, body := range f.members {
		if body == y.Scope {
			return c
		}
	}
	return -1
}
