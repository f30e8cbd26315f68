// Package summarize turns the semantic model of one Python file
// (plugin-sdk/pysem) into its navigation summary (plugin-sdk/navindex):
// every symbol, definition and occurrence with positions in UTF-16 units,
// values described symbolically for the kernel to link across files,
// hover signatures and docstrings rendered as Markdown. It is the Python
// half of navigation; the kernel (host/index) only links summaries.
// Kept out of package main so host tests can summarize natively.
package summarize

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/pyws/pyws/plugin-sdk/slab"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Options describe the file.
type Options struct {
	IsPackageInit, IsStub bool
	// PythonMinor and Platform are the target of static conditions
	// (sys.version_info, sys.platform): 0 is pysem.DefaultPythonMinor,
	// "" is "linux".
	PythonMinor int
	Platform    string
}

type impKey struct {
	level        int32
	module, name string
}

type attrKey struct {
	recv int32
	name string
}

// The builder avoids string-keyed maps where it can: Go hashes strings
// slowly in a wasm guest, where the indexer runs on every save. Local
// symbols are found by binding, expressions without a name by operand,
// occurrences by offset.
type builder struct {
	m   *pysem.Module
	src []byte
	pos *textpos.Index
	s   *navindex.Summary
	kt  tree.KindTable
	f   fieldIDs

	// local is the SymLocal+1 of each binding's name, by binding Index;
	// implicit the SymLocals of module names the interpreter defines and
	// the file does not bind.
	local    []int32
	implicit map[string]int32
	quals    []qual // by scope index
	// childrenDisjoint caches disjoint by scope index: 1 yes, -1 no.
	childrenDisjoint []int8

	imports  map[impKey]int32
	attrs    map[attrKey]int32
	kwargs   map[attrKey]int32
	builtins map[string]int32
	unres    map[string]int32
	// builtinByName and unresByName cache builtins and unres by name
	// number (the symbol+1).
	builtinByName, unresByName []int32

	// unary holds the ExprSym, ExprCall and ExprSuper expressions (+1)
	// by operand; attrExprs the ExprAttr ones.
	unary     [navindex.ExprSuper + 1][]int32
	attrExprs map[attrKey]int32
	// callAt is the expression of each call described, by the end of its
	// node (no two calls end at one byte).
	callAt map[int]int32
	// returnAt is the expression of each return statement's value of a
	// def, by its offset (FlowExit).
	returnAt map[int]int32

	// refIdx is the index+1 in m.Refs of the reference read at each
	// source offset (see indexRefs).
	refIdx []int32
	// occs are the occurrences in the order found; occAt the index+1 of
	// the one starting at each source offset (the first found wins), a
	// bit of occBits set for each such offset.
	occs    []occ
	occAt   []int32
	occBits []uint64

	buf []byte // scratch for signatures

	// consts are the ExprLit without Text by type (+1, see lit); lits
	// the others by Text.
	consts [len(litTypes)]int32
	lits   map[string]int32
	// minor and platform are the target of static conditions;
	// falseRanges the branches they never run (see static.go).
	minor       int
	platform    string
	falseRanges []byteRange
	// lastVal caches the value of the last binding's value node, which
	// the targets of one statement share (a, b = f(x)).
	lastValNode, lastVal int32
	lastBaseOp           navindex.ExprOp
	lastBaseName         string
	unpacks              map[unpackKey]int32
	// defOf is the index+1 in Defs of each binding's definition.
	defOf []int32
	arena []int32  // see int32s
	sc    *scratch // tables reused from file to file
	// The summary's lists and import modules, allocated in chunks: in
	// wasm an allocation costs several times what it does natively.
	defLists   slab.Slab[navindex.DefLists]
	exprLists  slab.Slab[navindex.ExprLists]
	symModules slab.Slab[navindex.SymModule]
	commas     []navindex.Pos // the Calls' Commas (callSites)
	keys       []string       // the Calls' Keys (callSites)
	argNodes   []tree.Node    // argumentSites' scratch
	// interned are the expressions intern made, by key (keyBuf scratch).
	interned map[string]int32
	keyBuf   []byte
	// readFlow is the flow node (+1) of each reference read with flow
	// (by index in m.Refs), flowSyms the ExprSym of each (symbol, node),
	// flowBindAt the binding (+1) whose name starts at each offset (see
	// flow.go).
	readFlow   []int32
	flowSyms   map[[2]int32]int32
	flowBindAt func(off int) int32
}

// occ is an occurrence before its position is known.
type occ struct {
	start, end int32
	sym        int32
	flags      uint8
	scope      int32
}

// qual caches qualPrefix by scope.
type qual struct {
	prefix   string
	ok, done bool
}

// Summarize builds the summary of the file t was parsed from.
func Summarize(t *tree.Tree, o Options) *navindex.Summary {
	m := pysem.Analyze(t, pysem.Options{IsPackageInit: o.IsPackageInit, IsStub: o.IsStub, PythonMinor: o.PythonMinor})
	return FromModule(m, o.Platform)
}

// FromModule builds the summary of an analyzed module for platform ("" is
// "linux"; the Python version is the module's).
func FromModule(m *pysem.Module, platform string) *navindex.Summary {
	var src []byte
	if m.Tree != nil {
		src = m.Tree.Source()
	}
	b := &builder{m: m, src: src, pos: textpos.New(src), s: &navindex.Summary{},
		kt: kinds.Table(m.Tree), f: fieldsOf(m.Tree),
		local: make([]int32, len(m.Bindings)), implicit: map[string]int32{}, quals: make([]qual, len(m.Scopes)), childrenDisjoint: make([]int8, len(m.Scopes)),
		imports: map[impKey]int32{}, attrs: map[attrKey]int32{}, kwargs: map[attrKey]int32{},
		builtins: map[string]int32{}, unres: map[string]int32{}, builtinByName: make([]int32, m.NameCount()), unresByName: make([]int32, m.NameCount()), attrExprs: map[attrKey]int32{}, callAt: map[int]int32{}, returnAt: map[int]int32{},
	}
	sc := scratchPool.Get().(*scratch)
	b.sc = sc
	defer sc.keep(b)
	b.occs = slices.Grow(sc.occs[:0], len(m.Bindings)+len(m.Refs)+len(m.Attrs))
	b.occAt, b.occBits, b.refIdx = zeroed(sc.occAt, len(src)+1), zeroed(sc.occBits, len(src)/64+1), zeroed(sc.refIdx, len(src)+1)
	b.s.Lines = int32(b.pos.LineCount())
	b.minor, b.platform = m.Opts.PythonMinor, platform
	if b.minor == 0 {
		b.minor = pysem.DefaultPythonMinor
	}
	if b.platform == "" {
		b.platform = "linux"
	}
	b.lastValNode = -1
	b.indexRefs()
	b.staticFalseRanges()
	b.scopes()
	b.s.Syms = make([]navindex.Sym, 0, len(m.Bindings)+len(m.Attrs))
	// Expressions are large records: growing their slice by doubling
	// copies them often (about one per binding and reference).
	b.s.Exprs = make([]navindex.Expr, 0, len(m.Bindings)+len(m.Refs)/2)
	for _, bd := range m.Bindings {
		b.localSym(bd)
	}
	b.flow()
	for _, bd := range m.Bindings {
		b.symValue(bd)
	}
	b.memberSyms()
	b.defs()
	b.fixFlowDefs()
	b.occurrences()
	if m.Tree != nil {
		b.callSites(m.Tree)
	}
	b.fixFlowCalls()
	slices.SortStableFunc(b.s.Sites, func(p, q navindex.Site) int {
		return cmp.Or(cmp.Compare(p.Span.Line, q.Span.Line), cmp.Compare(p.Span.Col, q.Span.Col))
	})
	if m.All != nil {
		b.s.AllKnown, b.s.AllPartial = true, m.All.Partial
		for _, n := range m.All.Names {
			b.s.All = append(b.s.All, n.Name)
		}
	}
	for _, im := range m.Imports {
		if im.Star && im.Scope == m.Root {
			b.s.Stars = append(b.s.Stars, navindex.StarImport{Module: im.Module, Level: int32(im.Level)})
		}
	}
	b.s.Doc = Markdown(m.Docstring)
	return b.s
}

// position is the (line, UTF-16 character) of byte offset off.
func (b *builder) position(off int) (int32, int32) {
	l, c := b.pos.Position(off)
	return int32(l), int32(c)
}

func (b *builder) span(start, end int) navindex.Span {
	l, c := b.pos.Position(start)
	return navindex.Span{Line: int32(l), Col: int32(c), End: int32(c + textpos.UTF16Len(b.src[start:end]))}
}

func (b *builder) scopes() {
	// The scopes' Bound and Uses are carved from one array each.
	nbound := 0
	for _, sc := range b.m.Scopes {
		nbound += len(sc.Symbols())
	}
	bound := make([]string, 0, nbound)
	b.s.Scopes = make([]navindex.Scope, len(b.m.Scopes))
	for i, sc := range b.m.Scopes {
		ns := navindex.Scope{Kind: navindex.ScopeKind(sc.Kind), Parent: -1}
		if sc.Parent != nil {
			ns.Parent = int32(sc.Parent.Index)
		}
		if syms := sc.Symbols(); len(syms) > 0 {
			from := len(bound)
			for _, bs := range syms {
				bound = append(bound, bs[0].Name)
			}
			ns.Bound = bound[from:len(bound):len(bound)]
			slices.Sort(ns.Bound)
		}
		b.s.Scopes[i] = ns
	}
	// Each scope's first read of each name, in source order: the refs
	// bucketed by scope (keeping their order), then deduplicated by name
	// number.
	counted := func(r *pysem.Ref) bool {
		return !r.Implicit && r.Scope != nil && r.Ctx&(pysem.CtxGlobal|pysem.CtxNonlocal|pysem.CtxAllEntry) == 0
	}
	start := make([]int32, len(b.m.Scopes)+1)
	for _, r := range b.m.Refs {
		if counted(r) {
			start[r.Scope.Index+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	byScope := make([]*pysem.Ref, start[len(start)-1])
	next := slices.Clone(start[:len(start)-1])
	for _, r := range b.m.Refs {
		if counted(r) {
			byScope[next[r.Scope.Index]] = r
			next[r.Scope.Index]++
		}
	}
	seen := make([]int32, b.m.NameCount()) // scope index+1 that last read the name
	uses := make([]navindex.Use, 0, len(byScope))
	for si := range b.s.Scopes {
		from := len(uses)
		for _, r := range byScope[start[si]:start[si+1]] {
			if seen[r.NameID()] == int32(si)+1 {
				continue
			}
			seen[r.NameID()] = int32(si) + 1
			u := navindex.Use{Name: r.Name, Scope: -2}
			switch {
			case r.Binding != nil:
				u.Scope = int32(r.Binding.Scope.Index)
			case r.Builtin:
				u.Scope = -1
			}
			uses = append(uses, u)
		}
		if len(uses) > from {
			b.s.Scopes[si].Uses = uses[from:len(uses):len(uses)]
		}
	}
}

// qualPrefix is the qualified-name prefix of names owned by sc ("" for
// the module, "C." for a class body), ok false inside functions.
func (b *builder) qualPrefix(sc *pysem.Scope) (string, bool) {
	q := &b.quals[sc.Index]
	if !q.done {
		q.prefix, q.ok = b.computeQualPrefix(sc)
		q.done = true
	}
	return q.prefix, q.ok
}

func (b *builder) computeQualPrefix(sc *pysem.Scope) (string, bool) {
	switch sc.Kind {
	case pysem.ScopeModule:
		return "", true
	case pysem.ScopeTypeParams:
		if sc.Parent == nil {
			return "", false
		}
		return b.qualPrefix(sc.Parent)
	case pysem.ScopeClass:
		if sc.Owner == nil || sc.Parent == nil {
			return "", false
		}
		p, ok := b.qualPrefix(sc.Parent)
		if !ok {
			return "", false
		}
		return p + sc.Owner.Name + ".", true
	}
	return "", false
}

func (b *builder) add(y navindex.Sym) int32 {
	if y.SymModule == nil {
		y.SymModule = noSymModule
	}
	b.s.Syms = append(b.s.Syms, y)
	return int32(len(b.s.Syms) - 1)
}

// localSym is the SymLocal of bd's name in its scope.
func (b *builder) localSym(bd *pysem.Binding) int32 {
	if id := b.local[bd.Index]; id > 0 {
		return id - 1
	}
	bs := bd.Symbol()
	first := bs[0]
	id := b.local[first.Index] - 1
	if id < 0 {
		id = b.newLocal(first.Scope, first.Name, bs)
		b.local[first.Index] = id + 1
	}
	b.local[bd.Index] = id + 1
	return id
}

// rootSym is the module's SymLocal for name.
func (b *builder) rootSym(name string) int32 {
	if bs := b.m.Root.Bindings[name]; len(bs) > 0 {
		return b.localSym(bs[0])
	}
	if id, ok := b.implicit[name]; ok {
		return id
	}
	id := b.newLocal(b.m.Root, name, nil)
	b.implicit[name] = id
	return id
}

// newLocal adds the SymLocal of name in sc, whose bindings are bs.
func (b *builder) newLocal(sc *pysem.Scope, name string, bs []*pysem.Binding) int32 {
	y := navindex.Sym{Kind: navindex.SymLocal, Name: name, Scope: int32(sc.Index), Class: -1, Recv: -1, Target: -1, Value: -1}
	if p, ok := b.qualPrefix(sc); ok {
		y.Qual = p + name
	} else {
		y.Qual = b.paramQual(sc, name, bs)
	}
	return b.add(y)
}

func (b *builder) importSym(level int, module, name string) int32 {
	k := impKey{int32(level), module, name}
	if id, ok := b.imports[k]; ok {
		return id
	}
	id := b.add(navindex.Sym{Kind: navindex.SymImport, Name: name, SymModule: b.symModule(module, int32(level)), Scope: -1, Class: -1, Recv: -1, Target: -1, Value: -1})
	b.imports[k] = id
	return id
}

func (b *builder) simpleSym(kind navindex.SymKind, tab map[string]int32, name string) int32 {
	if id, ok := tab[name]; ok {
		return id
	}
	id := b.add(navindex.Sym{Kind: kind, Name: name, Scope: -1, Class: -1, Recv: -1, Target: -1, Value: -1})
	tab[name] = id
	return id
}

func (b *builder) attrSym(recv int32, name string) int32 {
	k := attrKey{recv, name}
	if id, ok := b.attrs[k]; ok {
		return id
	}
	id := b.add(navindex.Sym{Kind: navindex.SymAttr, Name: name, Recv: recv, Scope: -1, Class: -1, Target: -1, Value: -1})
	b.attrs[k] = id
	return id
}

func (b *builder) expr(op navindex.ExprOp, a int32, name string) int32 {
	if a < 0 {
		return -1
	}
	if op == navindex.ExprAttr {
		k := attrKey{a, name}
		id, ok := b.attrExprs[k]
		if !ok {
			id = b.newExpr(op, a, name)
			b.attrExprs[k] = id
		}
		return id
	}
	ids := b.unary[op]
	if int(a) >= len(ids) {
		ids = append(ids, make([]int32, int(a)+1-len(ids))...)
		b.unary[op] = ids
	}
	if ids[a] == 0 {
		ids[a] = b.newExpr(op, a, name) + 1
	}
	return ids[a] - 1
}

func (b *builder) newExpr(op navindex.ExprOp, a int32, name string) int32 {
	b.s.Exprs = append(b.s.Exprs, navindex.Expr{Op: op, A: a, Name: name, B: -1, ExprLists: noExprLists})
	return int32(len(b.s.Exprs) - 1)
}

// refSym is the symbol a name reference means (-1 for implicit names).
func (b *builder) refSym(r *pysem.Ref) int32 {
	switch {
	case r.Binding != nil:
		return b.localSym(r.Binding)
	case r.Builtin:
		return b.nameSym(navindex.SymBuiltin, b.builtins, b.builtinByName, r)
	case r.Implicit:
		switch r.Name {
		case "__class__", "__module__", "__qualname__":
			return -1
		}
		// A module global the interpreter defines (__name__, __doc__,
		// __file__, ...): one symbol of the module, as pyright has it.
		return b.rootSym(r.Name)
	}
	return b.nameSym(navindex.SymUnresolved, b.unres, b.unresByName, r)
}

// nameSym is simpleSym for r's name, looked up by its number in byName
// (the symbol+1) before the string-keyed tab.
func (b *builder) nameSym(kind navindex.SymKind, tab map[string]int32, byName []int32, r *pysem.Ref) int32 {
	if id := byName[r.NameID()]; id > 0 {
		return id - 1
	}
	id := b.simpleSym(kind, tab, r.Name)
	byName[r.NameID()] = id + 1
	return id
}

// refAt is the reference starting at off (see refIdx).
func (b *builder) refAt(off int) *pysem.Ref {
	if off < 0 || off >= len(b.refIdx) || b.refIdx[off] == 0 {
		return nil
	}
	return b.m.Refs[b.refIdx[off]-1]
}

// scratch holds the builder's tables by source offset, which are as long
// as the file and not part of the summary: the next file's builder
// reuses them (clearing costs less than allocating, above all in wasm,
// and the collector sees fewer large objects).
type scratch struct {
	occs          []occ
	occAt, refIdx []int32
	occBits       []uint64
	flowNodes     []flowNode // the flow graph before finish (flow.go)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// keep returns b's tables to the pool once the summary is built.
func (sc *scratch) keep(b *builder) {
	sc.occs, sc.occAt, sc.refIdx, sc.occBits = b.occs[:0], b.occAt, b.refIdx, b.occBits
	scratchPool.Put(sc)
}

// zeroed is s resized to n zero elements, reallocated only if too short.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// indexRefs fills refIdx (zeroed): of several references starting at one offset (a
// name inside a string and the string's own name), the last whose node is
// the identifier itself, else the first.
func (b *builder) indexRefs() {
	for i, r := range b.m.Refs {
		if r.Start < 0 || r.Start >= len(b.refIdx) {
			continue
		}
		if b.refIdx[r.Start] == 0 || r.Ctx&(pysem.CtxAllEntry|pysem.CtxStringAnnotation) == 0 || r.Node.IsNull() || b.kt.Of(r.Node) == kIdentifier {
			b.refIdx[r.Start] = int32(i) + 1
		}
	}
}

// enclosingClass is the class whose method contains off (for super()).
func (b *builder) enclosingClass(off int) *pysem.Binding {
	for s := b.scopeAt(off); s != nil; s = s.Parent {
		if s.Kind == pysem.ScopeFunction {
			if cls := classOf(s); cls != nil {
				return cls
			}
		}
	}
	return nil
}

// scopeAt is m.ScopeAt(off), which tries every child of each scope on the
// way down (the module of a large file has hundreds): among children
// sorted and disjoint, as they mostly are, a binary search finds the one
// containing off.
func (b *builder) scopeAt(off int) *pysem.Scope {
	s := b.m.Root
	for {
		cs := s.Children
		var next *pysem.Scope
		if b.disjoint(s) {
			lo, hi := 0, len(cs) // the first child ending after off
			for lo < hi {
				mid := int(uint(lo+hi) >> 1)
				if cs[mid].End <= off {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			if lo < len(cs) && cs[lo].Start <= off {
				next = cs[lo]
			}
		} else {
			for _, c := range cs {
				if c.Start <= off && off < c.End {
					next = c
				}
			}
		}
		if next == nil {
			return s
		}
		s = next
	}
}

// disjoint reports whether s's children's ranges follow each other
// without overlapping (a lambda in a parameter default lies inside the
// function's range, yet is a child of the scope around it).
func (b *builder) disjoint(s *pysem.Scope) bool {
	if d := b.childrenDisjoint[s.Index]; d != 0 {
		return d > 0
	}
	d := int8(1)
	for i := 1; i < len(s.Children); i++ {
		if s.Children[i-1].End > s.Children[i].Start {
			d = -1
			break
		}
	}
	b.childrenDisjoint[s.Index] = d
	return d > 0
}

// nameExpr is the value of the identifier starting at off.
func (b *builder) nameExpr(off int) int32 {
	r := b.refAt(off)
	if r == nil {
		return -1
	}
	return b.expr(navindex.ExprSym, b.refSym(r), "")
}

// valueExpr describes the value of an expression node.
func (b *builder) valueExpr(n tree.Node) int32 {
	if n.IsNull() {
		return -1
	}
	switch b.kt.Of(n) {
	case kIdentifier:
		return b.nameExpr(n.StartByte())
	case kAttribute:
		obj, attr := n.ChildByFieldID(b.f.object), n.ChildByFieldID(b.f.attribute)
		if attr.IsNull() {
			return -1
		}
		return b.expr(navindex.ExprAttr, b.valueExpr(obj), string(attr.Text()))
	case kCall:
		fn := n.ChildByFieldID(b.f.function)
		if b.kt.Of(fn) == kIdentifier && string(fn.Text()) == "super" {
			if r := b.refAt(fn.StartByte()); r != nil && r.Builtin {
				if cls := b.enclosingClass(fn.StartByte()); cls != nil {
					return b.expr(navindex.ExprSuper, b.localSym(cls), "")
				}
			}
		}
		return b.expr(navindex.ExprCall, b.valueExpr(fn), "")
	case kList, kListComp, kDict, kDictComp, kSet, kSetComp, kString, kConcatString, kInteger, kFloat, kTuple, kBool:
		// A literal: an instance of its builtin type.
		t := b.literalType(n)
		if t == "" || t == "None" {
			return -1
		}
		return b.expr(navindex.ExprCall, b.expr(navindex.ExprSym, b.simpleSym(navindex.SymBuiltin, b.builtins, t), ""), "")
	case kParenthesized:
		if n.NamedChildCount() == 1 {
			return b.valueExpr(n.NamedChild(0))
		}
	case kAwait:
		// await f(): the coroutine's result is what f is annotated to return.
		if n.NamedChildCount() == 1 {
			return b.valueExpr(n.NamedChild(0))
		}
	}
	return -1
}

// typeExpr describes the type named by an annotation (the class, not an
// instance of it).
func (b *builder) typeExpr(n tree.Node) int32 {
	if n.IsNull() {
		return -1
	}
	switch k := b.kt.Of(n); k {
	case kType:
		if n.NamedChildCount() == 1 {
			return b.typeExpr(n.NamedChild(0))
		}
	case kIdentifier, kAttribute:
		return b.valueExpr(n)
	case kString:
		return b.stringType(n)
	case kSubscript, kGenericType:
		var head tree.Node
		var args []tree.Node
		if k == kSubscript {
			head = n.ChildByFieldID(b.f.value)
			for c := n.FirstChild(); !c.IsNull() && b.f.subscript != 0; c = c.NextSibling() {
				if c.FieldID() == b.f.subscript {
					args = append(args, c)
				}
			}
		} else {
			head = n.NamedChild(0)
			if n.NamedChildCount() > 1 {
				for c := firstNamed(n.NamedChild(1)); !c.IsNull(); c = nextNamed(c) {
					args = append(args, c)
				}
			}
		}
		name := lastSegment(string(head.Text()))
		switch name {
		case "Optional", "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly":
			if len(args) > 0 {
				return b.typeExpr(args[0])
			}
		case "Union":
			for _, a := range args {
				if !b.isNone(a) {
					return b.typeExpr(a)
				}
			}
		}
		return -1
	case kBinaryOperator:
		l, r := n.ChildByFieldID(b.f.left), n.ChildByFieldID(b.f.right)
		if b.isNone(r) {
			return b.typeExpr(l)
		}
		if b.isNone(l) {
			return b.typeExpr(r)
		}
	}
	return -1
}

func (b *builder) isNone(n tree.Node) bool {
	if b.kt.Of(n) == kType && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return b.kt.Of(n) == kNone || string(n.Text()) == "None"
}

func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// stringType reads a string annotation that is a dotted name.
func (b *builder) stringType(n tree.Node) int32 {
	txt := n.Text()
	q := bytes.IndexAny(txt, `"'`)
	if q < 0 {
		return -1
	}
	quote := txt[q]
	start := q + 1
	if len(txt) >= start+2 && txt[start] == quote && txt[start+1] == quote {
		start += 2
	}
	end := bytes.IndexByte(txt[start:], quote)
	if end < 0 {
		return -1
	}
	body := string(txt[start : start+end])
	trimmed := strings.TrimSpace(body)
	if trimmed == "" || strings.ContainsAny(trimmed, "[]| ,()") {
		return -1
	}
	off := n.StartByte() + start + (len(body) - len(strings.TrimLeft(body, " ")))
	parts := strings.Split(trimmed, ".")
	e := b.nameExpr(off)
	for _, p := range parts[1:] {
		e = b.expr(navindex.ExprAttr, e, p)
	}
	return e
}

// instance is the value of an annotation: an instance of its type.
func (b *builder) instance(ann tree.Node) int32 {
	return b.expr(navindex.ExprCall, b.typeExpr(ann), "")
}

// classOf returns the class binding owning method scope fs.
func classOf(fs *pysem.Scope) *pysem.Binding {
	cs := fs.Parent
	if cs != nil && cs.Kind == pysem.ScopeTypeParams {
		cs = cs.Parent
	}
	if cs == nil || cs.Kind != pysem.ScopeClass {
		return nil
	}
	return cs.Owner
}

// symValue sets Target, Alias and Value of bd's symbol from its first
// informative binding.
func (b *builder) symValue(bd *pysem.Binding) {
	bs := bd.Symbol()
	if bs[0] != bd {
		return // computed once, from the first binding
	}
	id := b.localSym(bd)
	allImports := true
	var tgt int32 = -1
	alias := true
	for _, x := range bs {
		if x.Kind == pysem.BindDel || x.Kind == pysem.BindAugAssign {
			continue
		}
		im := x.Import
		if im == nil {
			allImports = false
			continue
		}
		var t int32
		own := false
		switch x.Kind {
		case pysem.BindImport:
			if im.AsName == "" {
				t, own = b.importSym(0, im.Prefix(0), ""), true
			} else {
				t = b.importSym(0, im.Module, "")
			}
		case pysem.BindImportFrom:
			t = b.importSym(im.Level, im.Module, im.Name)
			own = im.AsName == "" || im.AsName == im.Name
		}
		if tgt < 0 {
			tgt = t
		} else if t != tgt {
			own = false
		}
		alias = alias && own
	}
	y := &b.s.Syms[id]
	y.Target = tgt
	y.Alias = tgt >= 0 && allImports && alias
	if tgt >= 0 {
		y.Value = b.expr(navindex.ExprSym, tgt, "")
		return
	}
	// The first informative binding, skipping those in a branch that
	// never runs for the target (stubs: sys.version_info, sys.platform).
	live := bs
	if len(b.falseRanges) > 0 {
		live = nil
		for _, x := range bs {
			if !b.staticFalse(x.NameNode.StartByte()) {
				live = append(live, x)
			}
		}
	}
	for _, x := range live {
		switch x.Kind {
		case pysem.BindClass, pysem.BindFunction:
			return
		case pysem.BindParameter:
			if fs := x.Scope; fs != nil && fs.Self == x {
				if cls := classOf(fs); cls != nil {
					cs := b.expr(navindex.ExprSym, b.localSym(cls), "")
					if fs.Method == pysem.InstanceMethod {
						cs = b.expr(navindex.ExprCall, cs, "")
					}
					b.s.Syms[id].Value = cs
					return
				}
			}
		}
	}
	for _, x := range live {
		if !x.Annotation.IsNull() && x.Kind != pysem.BindFunction {
			if v := b.instance(x.Annotation); v >= 0 {
				b.s.Syms[id].Value = v
				return
			}
		}
	}
	for _, x := range live {
		switch x.Kind {
		case pysem.BindAssignment, pysem.BindAnnotated, pysem.BindWalrus, pysem.BindTypeAlias:
			if !x.Unpacked && !x.Value.IsNull() {
				if v := b.valueExpr(x.Value); v >= 0 {
					b.s.Syms[id].Value = v
					return
				}
			}
		}
	}
}

// memberSyms creates a SymMember for each attribute assigned through
// self (or through cls in a class method: a class variable, as pyright
// declares it) that its class body does not bind, with a definition at
// its first assignment: pysem's InstanceAttrs for every class, in one
// pass over the attributes rather than one per class.
func (b *builder) memberSyms() {
	byClass := make([][]*pysem.AttrRef, len(b.m.Scopes)) // by class body index
	for _, a := range b.m.Attrs {
		if a.Ctx&(pysem.CtxStore|pysem.CtxAugAssign) == 0 {
			continue
		}
		ob := a.ObjectBinding
		if ob == nil || ob.Kind != pysem.BindParameter {
			continue
		}
		fs := ob.Scope
		if fs == nil || fs.Self != ob || fs.Method != pysem.InstanceMethod && fs.Method != pysem.ClassMethod {
			continue
		}
		cs := fs.Parent
		if cs != nil && cs.Kind == pysem.ScopeTypeParams {
			cs = cs.Parent
		}
		if cs != nil {
			byClass[cs.Index] = append(byClass[cs.Index], a)
		}
	}
	for _, bd := range b.m.Bindings {
		if bd.Kind != pysem.BindClass || bd.Body == nil {
			continue
		}
		attrs := byClass[bd.Body.Index]
		if len(attrs) == 0 {
			continue
		}
		// By name, each name's assignments in source order.
		slices.SortStableFunc(attrs, func(x, y *pysem.AttrRef) int { return strings.Compare(x.Name, y.Name) })
		classSym := b.localSym(bd)
		prefix, ok := b.qualPrefix(bd.Body)
		for i, first := range attrs {
			name := first.Name
			if i > 0 && attrs[i-1].Name == name {
				continue
			}
			if len(bd.Body.Bindings[name]) > 0 {
				continue
			}
			y := navindex.Sym{Kind: navindex.SymMember, Name: name, Class: classSym, Scope: -1, Recv: -1, Target: -1, Value: -1}
			if ok {
				y.Qual = prefix + name
			}
			id := b.add(y)
			var val int32 = -1
			sig := name
			if p := first.Node.Parent(); b.kt.Of(p) == kAssignment {
				if ann := p.ChildByFieldID(b.f.typ); !ann.IsNull() {
					val = b.instance(ann)
					sig = b.annotated(name, ann)
				} else if r := p.ChildByFieldID(b.f.right); !r.IsNull() {
					val = b.valueExpr(r)
					if t := b.literalType(r); t != "" {
						sig = name + ": " + t
					}
				}
			}
			b.s.Syms[id].Value = val
			b.s.Defs = append(b.s.Defs, b.memberDef(id, first, sig))
			b.laterMemberDefs(id, attrs[i+1:])
		}
	}
}

// laterMemberDefs adds a definition of member sym for each further plain
// assignment of it in later (its name's run at the head of rest, source
// order): pyright declares a member at every `self.x = v`, and its type
// is the union of all of them (`self.c = False` in __init__, `self.c =
// None` elsewhere: bool | None). Assignments whose value the summary
// cannot name (augmented, `for self.x in`, `with ... as self.x`) add
// none, so they do not make the union partly unknown.
func (b *builder) laterMemberDefs(sym int32, rest []*pysem.AttrRef) {
	name := b.s.Syms[sym].Name
	for _, a := range rest {
		if a.Name != name {
			return
		}
		if a.Ctx&pysem.CtxStore == 0 {
			continue
		}
		if d := b.memberDef(sym, a, name); d.Value >= 0 || d.Annot >= 0 {
			b.s.Defs = append(b.s.Defs, d)
		}
	}
}

// memberDef is member sym's definition at assignment a, with signature
// sig: its value or annotation (memberFacts), a class variable when
// assigned through cls.
func (b *builder) memberDef(sym int32, a *pysem.AttrRef, sig string) navindex.Def {
	d := navindex.Def{Sym: sym, Kind: navindex.KindVariable, Name: b.span(a.Start, a.End), Returns: -1, Body: -1, Annot: -1, Value: -1, Sig: sig, DefLists: b.defLists.New()}
	b.memberFacts(a, &d)
	if a.ObjectBinding.Scope.Method == pysem.ClassMethod {
		d.Flags |= navindex.DefClassVar
	}
	return d
}
