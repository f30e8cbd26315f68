package index

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

type tkind uint8

const (
	tNone    tkind = iota
	tSym           // a symbol of a workspace file
	tModule        // a workspace module or package
	tExt           // something outside the workspace (stdlib, installed package)
	tBuiltin       // a builtin
)

// target is what an occurrence refers to.
//
// An external target (tExt, tBuiltin) is named as the workspace reaches
// it ("os.path.join" through `import os`), and that name is its key,
// its get_definition details and its hover. When typeshed defines it, f
// and sym are also the stub's symbol (a typeshed unit's), or smod the
// stub module it is: the stubs annotate the names the link makes, they
// never rename or add any. Inside a stub (f.typeshed) the link runs as
// in the workspace, over the stub units, and its tSym targets are stub
// symbols.
type target struct {
	kind tkind
	f    *File
	sym  int32
	name string // tModule: module; tExt: dotted name; tBuiltin: name
	mod  string // tExt: the external module
	smod string // tExt: the typeshed module this is
}

type vkind uint8

const (
	vUnknown vkind = iota
	vModule
	vClass
	vInstance
	vFunction
	vExt
	vSuper // super(): the bases of class (f, sym)
)

// value is what evaluating an expression gives, as far as the index can
// tell. A vExt value may carry, in f and sym, the typeshed class it is
// (or is an instance of), or in smod the typeshed module.
type value struct {
	kind vkind
	f    *File
	sym  int32
	name string // vModule, vExt
	mod  string // vExt
	smod string // vExt
	inst bool   // vExt: an instance of the class named, not the class
}

// linkState memoises targets and values of one file during a link.
type linkState struct {
	tgt    []memoTarget
	tstate []uint8 // 0 new, 1 in progress, 2 done
	val    []memoValue
	vstate []uint8
	keys   []int32 // per symbol: key id, -1 none, -2 not computed
}

// memoTarget and memoValue are a target and a value as the memo keeps
// them, one per symbol and expression of every linked file, kept for
// queries: their strings, which few targets have and many share, are
// numbered once per linker (ext indexes linker.exts, 0 none). As target
// and value (72 and 80 bytes) the memo held 28 MiB of a Django index's
// 144 MiB live heap, as these (24 bytes) 11-16 with the states and keys.
type memoTarget struct {
	f    *File
	sym  int32
	ext  int32
	kind tkind
}

type memoValue struct {
	f    *File
	sym  int32
	ext  int32
	kind vkind
	inst bool
}

// extNames are the strings of a target or value.
type extNames struct{ name, mod, smod string }

// extID numbers a target's or value's strings.
func (l *linker) extID(name, mod, smod string) int32 {
	if name == "" && mod == "" && smod == "" {
		return 0
	}
	k := extNames{name, mod, smod}
	id, ok := l.extIDs[k]
	if !ok {
		if l.extIDs == nil {
			l.extIDs, l.exts = map[extNames]int32{}, []extNames{{}}
		}
		id = int32(len(l.exts))
		l.exts = append(l.exts, k)
		l.extIDs[k] = id
	}
	return id
}

func (l *linker) keepTarget(t target) memoTarget {
	return memoTarget{f: t.f, sym: t.sym, ext: l.extID(t.name, t.mod, t.smod), kind: t.kind}
}

func (l *linker) keepValue(v value) memoValue {
	return memoValue{f: v.f, sym: v.sym, ext: l.extID(v.name, v.mod, v.smod), kind: v.kind, inst: v.inst}
}

// linked is the target the link found for symbol sym of f, false when
// it has not linked it.
func (l *linker) linked(f *File, sym int32) (target, bool) {
	st := l.st[f]
	if st == nil || sym < 0 || int(sym) >= len(st.tstate) || st.tstate[sym] != 2 {
		return target{}, false
	}
	return l.target(st.tgt[sym]), true
}

func (l *linker) target(m memoTarget) target {
	t := target{kind: m.kind, f: m.f, sym: m.sym}
	if m.ext > 0 {
		e := &l.exts[m.ext]
		t.name, t.mod, t.smod = e.name, e.mod, e.smod
	}
	return t
}

const maxDepth = 64

// linker links summaries across files.
type linker struct {
	mods *moduleMap
	st   map[*File]*linkState
	// exts are the memo's strings by number (0: none), extIDs their
	// numbers.
	exts   []extNames
	extIDs map[extNames]int32
	depth  int
	// stubStars links the names a workspace file's star import of a
	// stub module brings in (the Program's linker: the evaluator wants
	// them; navigation links none, as before stubs, so its answers stay).
	stubStars bool
	// What an incremental relink (relink.go) needs to know who to link
	// again (deps nil: none of it is kept): stack the symbols and
	// expressions being computed, innermost last; step the link's walk
	// step (walkStep); deps what each workspace file's computations read
	// of other workspace files; cuts the entries whose computation a
	// cycle cut short, and the step that computed them; deepest the most
	// nested computation; guard, during an incremental relink, the files
	// linked again, and unsafe set when one of them read a kept entry a
	// later step computed with a cut.
	stack   []memoEntry
	step    int
	deps    map[*File]map[*File]struct{}
	cuts    map[memoEntry]int
	deepest int
	guard   map[*File]bool
	unsafe  bool
	lastDep [2]*File // the last read recorded: most repeat it
}

// memoEntry is a symbol's target or an expression's value in a linkState.
type memoEntry struct {
	f    *File
	idx  int32
	expr bool
}

// dependsOn records that what is being computed reads g.
func (l *linker) dependsOn(g *File) {
	if l.deps == nil || len(l.stack) == 0 || g.typeshed {
		return
	}
	cur := l.stack[len(l.stack)-1].f
	if g == cur || cur.typeshed || g == l.lastDep[1] && cur == l.lastDep[0] {
		return
	}
	l.lastDep = [2]*File{cur, g}
	d := l.deps[cur]
	if d == nil {
		d = map[*File]struct{}{}
		l.deps[cur] = d
	}
	d[g] = struct{}{}
}

// cut records that a cycle or the depth bound cut a computation short:
// its result, and those of every computation in progress, depend on the
// step at which the link met them.
func (l *linker) cut() {
	if l.deps == nil {
		return
	}
	for _, e := range l.stack {
		if !e.f.typeshed {
			l.cuts[e] = l.step
		}
	}
}

// reuse checks a memoised entry read during an incremental relink: one
// of a kept file that a later step computed with a cut may have been cut
// elsewhere had this step computed it, as a full link would have.
func (l *linker) reuse(e memoEntry) {
	if l.guard == nil || l.guard[e.f] || e.f.typeshed {
		return
	}
	if at, ok := l.cuts[e]; ok && at > l.step {
		l.unsafe = true
	}
}

// enter and leave bracket the computation of an entry.
func (l *linker) enter(e memoEntry) {
	l.depth++
	l.deepest = max(l.deepest, l.depth)
	l.stack = append(l.stack, e)
}

func (l *linker) leave() {
	l.depth--
	l.stack = l.stack[:len(l.stack)-1]
}

func (f *File) prepare() {
	if f.prepared {
		return
	}
	s := f.S
	f.indexSymbols()
	f.members = map[int32]int32{}
	f.defs = newSymDefs(len(s.Syms), s.Defs)
	for _, d := range s.Defs {
		if d.Kind == navindex.KindClass && d.Body >= 0 {
			if _, ok := f.members[d.Sym]; !ok {
				f.members[d.Sym] = d.Body
			}
		}
	}
	f.prepared = true
}

// symDefs lists each symbol's definitions, in the summary's order: a
// symbol's are idx[start[s]:start[s+1]]. It replaced a map of slices
// that held 12 MiB of a Django index's 180 MiB live heap, one small
// slice per defined symbol; these are two int32 arrays.
type symDefs struct {
	start, idx []int32
	other      map[int32][]int32 // definitions naming no symbol of the file (malformed summaries)
}

func newSymDefs(nsyms int, defs []navindex.Def) symDefs {
	sd := symDefs{start: make([]int32, nsyms+1), idx: make([]int32, 0, len(defs))}
	for _, d := range defs {
		if d.Sym >= 0 && int(d.Sym) < nsyms {
			sd.start[d.Sym+1]++
		}
	}
	for s := 1; s <= nsyms; s++ {
		sd.start[s] += sd.start[s-1]
	}
	sd.idx = sd.idx[:sd.start[nsyms]]
	next := append([]int32(nil), sd.start[:nsyms]...)
	for i, d := range defs {
		if d.Sym >= 0 && int(d.Sym) < nsyms {
			sd.idx[next[d.Sym]] = int32(i)
			next[d.Sym]++
		} else {
			if sd.other == nil {
				sd.other = map[int32][]int32{}
			}
			sd.other[d.Sym] = append(sd.other[d.Sym], int32(i))
		}
	}
	return sd
}

// of is symbol sym's definitions (nil when none); the caller must not
// modify them.
func (sd symDefs) of(sym int32) []int32 {
	if sym >= 0 && int(sym) < len(sd.start)-1 {
		if a, b := sd.start[sym], sd.start[sym+1]; a < b {
			return sd.idx[a:b:b]
		}
		return nil
	}
	return sd.other[sym]
}

// state is f's memo, its symbols' targets made on first use; values
// (valueState) and keys (keysOf) are made when first asked for: the
// Program's linker resolves symbols only, an eighth of those of the
// files it touches, and never keys (on Django's type findings its memo
// was 10.1 MB with them all made, 5.4 of it values nothing read).
func (l *linker) state(f *File) *linkState {
	l.dependsOn(f)
	st := l.st[f]
	if st == nil {
		n := len(f.S.Syms)
		st = &linkState{tgt: make([]memoTarget, n), tstate: make([]uint8, n)}
		l.st[f] = st
	}
	return st
}

// valueState is f's memo with room for its expressions' values.
func (l *linker) valueState(f *File) *linkState {
	st := l.state(f)
	if st.vstate == nil {
		st.val, st.vstate = make([]memoValue, len(f.S.Exprs)), make([]uint8, len(f.S.Exprs))
	}
	return st
}

// keysOf are the reference keys of f's symbols, -2 where not computed.
func (l *linker) keysOf(f *File) []int32 {
	st := l.state(f)
	if st.keys == nil {
		st.keys = make([]int32, len(f.S.Syms))
		for i := range st.keys {
			st.keys[i] = -2
		}
	}
	return st.keys
}

// symTarget is what symbol s of f refers to.
func (l *linker) symTarget(f *File, s int32) target {
	if s < 0 || int(s) >= len(f.S.Syms) {
		return target{}
	}
	st := l.state(f)
	switch st.tstate[s] {
	case 1:
		l.cut()
		return target{}
	case 2:
		l.reuse(memoEntry{f: f, idx: s})
		return l.target(st.tgt[s])
	}
	if l.depth > maxDepth {
		l.cut()
		return target{}
	}
	st.tstate[s] = 1
	l.enter(memoEntry{f: f, idx: s})
	t := l.computeTarget(f, s)
	l.leave()
	st.tgt[s], st.tstate[s] = l.keepTarget(t), 2
	return t
}

func (l *linker) computeTarget(f *File, s int32) target {
	y := &f.S.Syms[s]
	switch y.Kind {
	case navindex.SymLocal:
		if y.Alias && y.Target >= 0 {
			if t := l.symTarget(f, y.Target); t.kind != tNone {
				return t
			}
		}
		return target{kind: tSym, f: f, sym: s}
	case navindex.SymMember:
		return target{kind: tSym, f: f, sym: s}
	case navindex.SymImport:
		mod, ok := l.mods.absolute(f, y.Level, y.Module)
		if !ok {
			return target{}
		}
		if y.Name == "" {
			return l.moduleTarget(mod, f.typeshed)
		}
		return l.moduleMember(mod, y.Name, 0, f.typeshed)
	case navindex.SymAttr:
		if y.Recv < 0 {
			return target{}
		}
		return l.memberTarget(l.eval(f, y.Recv), y.Name)
	case navindex.SymBuiltin:
		return l.builtinTarget(y.Name)
	case navindex.SymUnresolved:
		return l.starTarget(f, y.Name, 0)
	case navindex.SymKeyword:
		return l.keywordTarget(l.eval(f, y.Recv), y.Name)
	}
	return target{}
}

// moduleTarget is module mod imported by a workspace file, or by a stub
// (inStubs: the standard library only).
func (l *linker) moduleTarget(mod string, inStubs bool) target {
	if !inStubs && l.mods.exists(mod) {
		return target{kind: tModule, name: mod}
	}
	t := target{kind: tExt, name: mod, mod: mod}
	if l.mods.stubs[mod] != nil {
		t.smod = mod
	}
	return t
}

// modFiles are the files of module mod: the workspace's, or the stub's.
func (l *linker) modFiles(mod string, inStubs bool) []*File {
	if !inStubs {
		fs := l.mods.modules(mod)
		for _, g := range fs {
			l.dependsOn(g)
		}
		return fs
	}
	if g := l.mods.stubs[mod]; g != nil {
		return []*File{g}
	}
	return nil
}

func (l *linker) modExists(mod string, inStubs bool) bool {
	if inStubs {
		return l.mods.stubs[mod] != nil
	}
	return l.mods.exists(mod)
}

// withStub is external target t annotated with what the link inside the
// stubs found for it (st): a stub symbol or a stub module.
func withStub(t, st target) target {
	switch {
	case st.f != nil && (st.kind == tSym || st.kind == tExt || st.kind == tBuiltin):
		t.f, t.sym = st.f, st.sym
	case st.kind == tExt && st.smod != "":
		t.smod = st.smod
	}
	return t
}

// builtinTarget is builtin name, with the builtins stub's symbol.
func (l *linker) builtinTarget(name string) target {
	t := target{kind: tBuiltin, name: name}
	if b := l.mods.stubs["builtins"]; b != nil {
		if s, ok := b.qual(name); ok {
			return withStub(t, l.symTarget(b, s))
		}
	}
	return t
}

// moduleMember is attribute name of module mod: a name it binds (followed
// through re-exports), a submodule, or a name a star import brings in.
// inStubs looks in the stubs only (a stub's import); otherwise a module
// the workspace does not have is external, annotated with its stub.
func (l *linker) moduleMember(mod, name string, depth int, inStubs bool) target {
	files := l.modFiles(mod, inStubs)
	if len(files) == 0 && (inStubs || !l.mods.pkgs[mod]) {
		if inStubs {
			return target{}
		}
		return withStub(target{kind: tExt, name: mod + "." + name, mod: mod}, l.moduleMember(mod, name, depth, true))
	}
	for _, g := range files {
		g.prepare()
		if s, ok := g.qual(name); ok {
			if t := l.symTarget(g, s); t.kind != tNone && !(t.kind == tSym && t.f == g && t.sym == s && g.S.Syms[s].Target >= 0) {
				return t
			}
			// `from . import sub` inside the package itself: the name is
			// the submodule it imports.
			if sub := mod + "." + name; g.S.Syms[s].Target >= 0 && l.modExists(sub, inStubs) {
				return l.moduleTarget(sub, inStubs)
			}
			return target{kind: tSym, f: g, sym: s}
		}
	}
	if sub := mod + "." + name; l.modExists(sub, inStubs) {
		return l.moduleTarget(sub, inStubs)
	}
	if depth < 8 {
		for _, g := range files {
			if t := l.starTarget(g, name, depth+1); t.kind != tNone {
				return t
			}
		}
	}
	return target{}
}

// starTarget looks name up in the star imports of f, last first.
func (l *linker) starTarget(f *File, name string, depth int) target {
	stars := f.S.Stars
	for i := len(stars) - 1; i >= 0; i-- {
		mod, ok := l.mods.absolute(f, stars[i].Level, stars[i].Module)
		if !ok {
			continue
		}
		inStubs := f.typeshed || l.stubStars && !l.mods.exists(mod) && l.mods.stubs[mod] != nil
		if !l.exported(mod, name, inStubs) {
			continue
		}
		t := l.moduleMember(mod, name, depth, f.typeshed)
		if t.kind != tNone && (t.kind != tExt || inStubs && (t.f != nil || t.smod != "")) {
			return t
		}
	}
	return target{}
}

// exported reports whether `from mod import *` brings name in.
func (l *linker) exported(mod, name string, inStubs bool) bool {
	files := l.modFiles(mod, inStubs)
	if len(files) == 0 {
		return false
	}
	g := files[0]
	if g.S.AllKnown && !g.S.AllPartial {
		for _, n := range g.S.All {
			if n == name {
				return true
			}
		}
		return false
	}
	return !strings.HasPrefix(name, "_") || (g.S.AllKnown && contains(g.S.All, name))
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// eval evaluates expression e of f.
func (l *linker) eval(f *File, e int32) value {
	if e < 0 || int(e) >= len(f.S.Exprs) {
		return value{}
	}
	st := l.valueState(f)
	switch st.vstate[e] {
	case 1:
		l.cut()
		return value{}
	case 2:
		l.reuse(memoEntry{f: f, idx: e, expr: true})
		m := st.val[e]
		v := value{kind: m.kind, f: m.f, sym: m.sym, inst: m.inst}
		if m.ext > 0 {
			x := &l.exts[m.ext]
			v.name, v.mod, v.smod = x.name, x.mod, x.smod
		}
		return v
	}
	if l.depth > maxDepth {
		l.cut()
		return value{}
	}
	st.vstate[e] = 1
	l.enter(memoEntry{f: f, idx: e, expr: true})
	var v value
	x := f.S.Exprs[e]
	switch x.Op {
	case navindex.ExprSym:
		v = l.targetValue(l.symTarget(f, x.A))
	case navindex.ExprAttr:
		v = l.targetValue(l.memberTarget(l.eval(f, x.A), x.Name))
	case navindex.ExprCall:
		c := l.eval(f, x.A)
		switch c.kind {
		case vClass:
			v = value{kind: vInstance, f: c.f, sym: c.sym}
		case vFunction:
			v = l.returnValue(c.f, c.sym)
		case vExt:
			if extClass(c.name) {
				v = c // an instance of an external class: members by its name
				v.inst = true
			}
		}
	case navindex.ExprSuper:
		if t := l.symTarget(f, x.A); t.kind == tSym {
			v = value{kind: vSuper, f: t.f, sym: t.sym}
		}
	case navindex.ExprSubscript:
		// A generic class specialised (a base `Mapping[str, int]`, an
		// annotation `list[str]`) is that class for navigation.
		// An instance's item (`d["k"]`) is not the instance: the
		// evaluator knows what __getitem__ returns.
		if c := l.eval(f, x.A); c.kind == vClass || (c.kind == vExt && !c.inst && extClass(c.name)) {
			v = c
		}
	}
	l.leave()
	st.val[e], st.vstate[e] = l.keepValue(v), 2
	return v
}

// defKind is the kind of the first real definition of sym in f.
func (f *File) defKind(sym int32) (navindex.DefKind, bool) {
	f.prepare()
	for _, d := range f.defs.of(sym) {
		if !f.S.Defs[d].Import {
			return f.S.Defs[d].Kind, true
		}
	}
	return 0, false
}

func (l *linker) targetValue(t target) value {
	switch t.kind {
	case tModule:
		return value{kind: vModule, name: t.name}
	case tExt:
		return l.stubValue(value{kind: vExt, name: t.name, mod: t.mod, smod: t.smod}, t)
	case tBuiltin:
		return l.stubValue(value{kind: vExt, name: "builtins." + t.name, mod: "builtins"}, t)
	case tSym:
		g := t.f
		g.prepare()
		if k, ok := g.defKind(t.sym); ok {
			switch k {
			case navindex.KindClass:
				return value{kind: vClass, f: g, sym: t.sym}
			case navindex.KindFunction, navindex.KindMethod:
				return value{kind: vFunction, f: g, sym: t.sym}
			case navindex.KindProperty:
				return l.returnValue(g, t.sym)
			}
		}
		if v := g.S.Syms[t.sym].Value; v >= 0 {
			return l.eval(g, v)
		}
	}
	return value{}
}

// stubValue annotates external value v with the typeshed class that
// external target t is (members are then found in the stub), or the
// stub module (v.smod, already set). A stub function or variable adds
// nothing: the value of calling or reading it is the evaluator's to
// find.
func (l *linker) stubValue(v value, t target) value {
	if t.f == nil {
		return v
	}
	if k, ok := t.f.defKind(t.sym); ok && k == navindex.KindClass {
		v.f, v.sym = t.f, t.sym
	}
	return v
}

func (l *linker) returnValue(g *File, sym int32) value {
	g.prepare()
	for _, d := range g.defs.of(sym) {
		if r := g.S.Defs[d].Returns; r >= 0 {
			if v := l.eval(g, r); v.kind != vUnknown {
				return v
			}
		}
	}
	return value{}
}

// memberTarget is attribute name of value v.
func (l *linker) memberTarget(v value, name string) target {
	switch v.kind {
	case vModule:
		return l.moduleMember(v.name, name, 0, false)
	case vClass, vInstance:
		return l.classMember(v.f, v.sym, name, 0)
	case vSuper:
		return l.baseMember(v.f, v.sym, name, 0)
	case vExt:
		return l.extMember(v, name, 0)
	}
	return target{}
}

// extMember is attribute name of external value v, annotated with the
// stub's member when v is a stub module or class.
func (l *linker) extMember(v value, name string, depth int) target {
	t := target{kind: tExt, name: v.name + "." + name, mod: v.mod}
	switch {
	case v.smod != "":
		return withStub(t, l.moduleMember(v.smod, name, 0, true))
	case v.f != nil:
		return withStub(t, l.classMember(v.f, v.sym, name, depth+1))
	}
	return t
}

// classMember looks name up in class csym of g, then in its bases, depth
// first, left to right (workspace bases before external ones).
func (l *linker) classMember(g *File, csym int32, name string, depth int) target {
	if depth > 16 {
		return target{}
	}
	g.prepare()
	if body, ok := g.members[csym]; ok {
		if s, ok := g.local(body, name); ok {
			if t := l.symTarget(g, s); t.kind != tNone {
				return t
			}
		}
	}
	if s, ok := g.local(-2-csym, name); ok {
		return target{kind: tSym, f: g, sym: s}
	}
	return l.baseMember(g, csym, name, depth)
}

// objectAttrs are the attributes every class inherits from object.
var objectAttrs = map[string]bool{"__class__": true, "__dict__": true, "__doc__": true, "__module__": true,
	"__init__": true, "__new__": true, "__repr__": true, "__str__": true, "__eq__": true, "__ne__": true,
	"__hash__": true, "__getattribute__": true, "__setattr__": true, "__delattr__": true, "__init_subclass__": true,
	"__reduce__": true, "__reduce_ex__": true, "__sizeof__": true, "__format__": true, "__dir__": true,
	"__subclasshook__": true, "__slots__": true, "__annotations__": true}

// extClass tells an external class (called: an instance) from a function
// by its name: builtin classes and capitalised names.
func extClass(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	switch last {
	case "list", "dict", "set", "str", "int", "float", "bytes", "tuple", "frozenset", "bytearray", "object", "bool", "complex":
		return true
	}
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// baseMember looks name up in the bases of class csym of g (what super()
// reaches), falling back to object's attributes.
func (l *linker) baseMember(g *File, csym int32, name string, depth int) target {
	if depth > 16 {
		return target{}
	}
	g.prepare()
	var ext *target
	for _, d := range g.defs.of(csym) {
		df := g.S.Defs[d]
		if df.Kind != navindex.KindClass {
			continue
		}
		for _, b := range df.Bases {
			bv := l.eval(g, b)
			switch bv.kind {
			case vClass:
				if t := l.classMember(bv.f, bv.sym, name, depth+1); t.kind != tNone && !(t.kind == tExt && t.name == "builtins.object."+name) {
					return t
				}
			case vExt:
				if ext == nil {
					t := l.extMember(bv, name, depth)
					ext = &t
				}
			}
		}
	}
	if ext != nil {
		return *ext
	}
	if objectAttrs[name] {
		return target{kind: tExt, name: "builtins.object." + name, mod: "builtins"}
	}
	return target{}
}

// keywordTarget is the parameter a keyword argument of a call of v names.
func (l *linker) keywordTarget(v value, name string) target {
	switch v.kind {
	case vExt:
		// typeshed declares the parameters of the standard library, so
		// pyright links keyword arguments to them; elsewhere a **kwargs
		// often takes them, which the index cannot see.
		top := v.mod
		if i := strings.IndexByte(top, '.'); i >= 0 {
			top = top[:i]
		}
		if stdlibModules[top] {
			return target{kind: tExt, name: v.name + "(" + name, mod: v.mod}
		}
	case vFunction:
		y := v.f.S.Syms[v.sym]
		if y.Qual == "" {
			return target{}
		}
		v.f.prepare()
		if s, ok := v.f.qual(y.Qual + "(" + name); ok {
			return target{kind: tSym, f: v.f, sym: s}
		}
	case vClass:
		if init := l.classMember(v.f, v.sym, "__init__", 0); init.kind == tSym {
			if t := l.keywordTarget(value{kind: vFunction, f: init.f, sym: init.sym}, name); t.kind != tNone {
				return t
			}
			return target{}
		}
		// No __init__ of its own: dataclass, NamedTuple and similar
		// classes take their fields as keywords.
		if t := l.classMember(v.f, v.sym, name, 0); t.kind == tSym {
			if k, ok := t.f.defKind(t.sym); ok && k == navindex.KindVariable {
				return t
			}
		}
	}
	return target{}
}

// aliasOf returns what an aliased import (`import a as b`, `from m import
// x as y`) imports, when t is one and it resolves.
func (x *Index) aliasOf(t target) (target, bool) {
	if t.kind != tSym {
		return target{}, false
	}
	y := t.f.S.Syms[t.sym]
	if y.Kind != navindex.SymLocal || y.Target < 0 || y.Alias {
		return target{}, false
	}
	if _, ok := t.f.defKind(t.sym); ok {
		return target{}, false
	}
	if lt, ok := x.memo.linked(t.f, y.Target); ok && lt.kind != tNone {
		return lt, true
	}
	return target{}, false
}

// aliasLoops reports whether the aliases from t come back to one of
// them (star imports that import each other's alias can make `B` in one
// file an alias of itself through another) or run longer than any real
// chain: such a name is keyed as itself.
func (x *Index) aliasLoops(t target) bool {
	seen := t
	for range 8 {
		to, ok := x.aliasOf(t)
		if !ok {
			return false
		}
		if to.kind == seen.kind && to.f == seen.f && to.sym == seen.sym {
			return true
		}
		t = to
	}
	return true
}

// keyString is the global key of a target ("" when it has none). An
// aliased import is keyed by what it imports and its alias: pyright finds
// the same alias of the same thing in every file (`import typing as t`
// everywhere), but not the thing under other names.
func (x *Index) keyString(t target) string {
	if to, ok := x.aliasOf(t); ok && !x.aliasLoops(t) {
		if k := x.keyString(to); k != "" {
			return k + "|as:" + t.f.S.Syms[t.sym].Name
		}
	}
	switch t.kind {
	case tSym:
		y := t.f.S.Syms[t.sym]
		if y.Qual != "" {
			return t.f.Rel + ":" + y.Qual
		}
		return t.f.Rel + "#" + strconv.Itoa(int(t.sym))
	case tModule:
		if fs := x.mods.modules(t.name); len(fs) > 0 {
			return "m:" + fs[0].Module
		}
		return "m:" + t.name
	case tExt:
		return "x:" + t.name
	case tBuiltin:
		return "b:" + t.name
	}
	return ""
}

func (x *Index) intern(k string) int32 {
	if id, ok := x.keyIDs[k]; ok {
		return id
	}
	id := int32(len(x.keys))
	x.keyIDs[k] = id
	x.keys = append(x.keys, k)
	x.inv = append(x.inv, nil)
	return id
}

// relinkLocked rebuilds the module map and the inverted index from the
// current summaries, linking into stubs, the typeshed units loaded for
// them (nil: none). Called with mu held for writing. When only some
// files changed, it links again only them and what read them
// (relinkChanged); otherwise, every file.
func (x *Index) relinkLocked(stubs map[string]*File) {
	if x.relinkChanged(stubs) {
		return
	}
	x.sorted = make([]*File, 0, len(x.files)) // never reuse: statChanged reads the old one unlocked
	for _, f := range x.files {
		f.prepared = false
		f.prepare()
		x.sorted = append(x.sorted, f)
	}
	sort.Slice(x.sorted, func(i, j int) bool { return x.sorted[i].Rel < x.sorted[j].Rel })
	for i, f := range x.sorted {
		f.order = i
	}
	x.mods = x.moduleMap()
	x.mods.stubs = stubs
	l := &linker{mods: x.mods, st: make(map[*File]*linkState, len(x.files)), deps: map[*File]map[*File]struct{}{}, cuts: map[memoEntry]int{}}
	x.memo = l
	x.keyIDs = make(map[string]int32, len(x.keyIDs))
	x.keys = x.keys[:0]
	x.inv = x.inv[:0]
	x.linkFiles(x.sorted)
	x.finishLink()
	x.fullLinks++
}

// linkFiles links files (in x.sorted's order) into x.memo and sets their
// occurrences' keys.
func (x *Index) linkFiles(files []*File) {
	l := x.memo
	for _, f := range files {
		l.step = walkStep(f, 0)
		// Aliased imports: definition and hover follow them.
		for i, y := range f.S.Syms {
			if y.Kind == navindex.SymLocal && y.Target >= 0 {
				// The local first: `from . import sub` in a package's
				// __init__ cycles back to it, and the cycle is cut at the
				// import, which then resolves to the submodule.
				l.symTarget(f, int32(i))
				l.symTarget(f, y.Target)
			}
		}
	}
	for _, f := range files {
		l.step = walkStep(f, 1)
		keys := l.keysOf(f)
		f.occKeys = make([]int32, len(f.S.Occs))
		for i, o := range f.S.Occs {
			k := keys[o.Sym]
			if k == -2 {
				k = -1
				if ks := x.keyString(l.symTarget(f, o.Sym)); ks != "" {
					k = x.intern(ks)
				}
				keys[o.Sym] = k
			}
			f.occKeys[i] = k
		}
	}
	// What queries compute in this memo later (rename, type definition)
	// comes after every step of the link.
	l.step = math.MaxInt
}

// walkStep numbers the link's steps in the order a full link takes
// them: every file's aliased imports (pass 0), then every file's
// occurrences (pass 1), each pass in x.sorted's order.
func walkStep(f *File, pass int) int {
	return pass<<32 | f.order
}

// finishLink builds, from every file's occurrence keys, the inverted
// index and the attributes left to the evaluator, in x.sorted's order,
// and a new Program over the link.
func (x *Index) finishLink() {
	x.typed = newTypedAttrs()
	for k := range x.inv {
		x.inv[k] = nil // never appended to in place: a reader may hold the old list
	}
	for _, f := range x.sorted {
		x.indexOccs(f, x.typed, func(k int32, r occRef) { x.inv[k] = append(x.inv[k], r) })
	}
	x.newView()
}

// indexOccs passes each linked occurrence of f to add, with its key,
// and adds to typed the attributes of f the linker left unresolved.
func (x *Index) indexOccs(f *File, typed *typedAttrs, add func(k int32, r occRef)) {
	st := x.memo.state(f)
	var seen []bool
	for i, o := range f.S.Occs {
		k := f.occKeys[i]
		if k >= 0 {
			add(k, occRef{file: f, occ: int32(i)})
			continue
		}
		if seen == nil {
			seen = make([]bool, len(f.S.Syms))
		}
		if !seen[o.Sym] {
			seen[o.Sym] = true
			if y := f.S.Syms[o.Sym]; y.Kind == navindex.SymAttr && st.tgt[o.Sym].kind == tNone {
				// The linker does not know the receiver's type; the
				// evaluator may, when a query asks (typedAttrs).
				typed.add(y.Name, f, o.Sym)
			}
		}
		typed.addOcc(f, o.Sym, int32(i))
	}
}

// newView starts what queries compute lazily over a link afresh: the
// type evaluator's Program and memo, the findings, and (gen) hits,
// completion counts and the symbol table.
func (x *Index) newView() {
	x.prog = newProgram(x.files, x.mods)
	x.types = pytypes.New(x.prog, pytypes.Options{})
	x.findings = newFindingsMemo()
	x.linked = true
	x.gen++
}
