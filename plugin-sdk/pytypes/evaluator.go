package pytypes

import (
	"math"
	"sync"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Options bound the evaluator.
type Options struct {
	// MaxDepth bounds nested evaluations in one query (default 64): a
	// deeper expression, inheritance chain or alias chain is Unknown.
	MaxDepth int
	// MaxSteps bounds the evaluations one query may run (default
	// 20000), so a pathological stub never hangs a request.
	MaxSteps int
}

// Evaluator computes types lazily over a Program and remembers them. It
// is safe for concurrent use; drop it when the Program's units change.
type Evaluator struct {
	prog Program
	opt  Options

	mu      sync.Mutex
	units   map[Unit]*unitIndex
	memo    map[memoKey]Type
	classes map[Class]*classInfo
	// callSites are the call-site frames met so far (ids from 1), by def.
	callSites map[memoKey][]callSite
	nextFrame int32
}

// New returns an evaluator over prog.
func New(prog Program, opt Options) *Evaluator {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 64
	}
	if opt.MaxSteps <= 0 {
		opt.MaxSteps = 20000
	}
	return &Evaluator{prog: prog, opt: opt, units: map[Unit]*unitIndex{}, memo: map[memoKey]Type{}, classes: map[Class]*classInfo{}, callSites: map[memoKey][]callSite{}}
}

// What a memo entry is the type of.
const (
	memoExpr uint8 = iota
	memoSym
	memoDef
	memoReturn
	memoAnnot
	memoClass
	memoFlow // idx the symbol, node the flow node it is read at
)

// memoKey's fields are ordered so that it packs into 32 bytes, not 40
// (what first padded it to 8): a memo entry with its value is 40 bytes.
type memoKey struct {
	unit Unit
	idx  int32
	// frame is the call-site frame (callsite.go) the entry was computed
	// in, 0 none.
	frame int32
	node  int32
	what  uint8
}

// query is one call into the evaluator: its depth, its step budget, and
// the entries being computed (a cycle back to one is Unknown). Results
// computed while a bound cut evaluation short are not memoised, so a
// cycle seen from one entry point never poisons another.
type query struct {
	e     *Evaluator
	depth int
	steps int
	cuts  int
	// active are the entries being computed, each with its position on
	// the query's stack (1 the outermost).
	active map[memoKey]int32
	// cutLow is the outermost stack position a cut in the computation
	// under way went back to (noCut none; 0 for a bound): a result whose
	// cuts all went back to itself is what any query computes for it.
	cutLow int32
	// frames are the defs being inferred for a call (callsite.go).
	frames []callFrame
	// protocols counts the protocol matches under way (solveProtocol):
	// a protocol's method returning another protocol nests them.
	protocols int
	// bounds counts the type variable bounds being checked (assignable):
	// a bound naming its own variable (`T bound=Comparable[T]`) nests
	// them.
	bounds int
	// cut, when set, keeps for this query the results a bound cut short
	// (Check's one query over a whole file: a value read at many sites
	// is computed once, not once per site).
	cut map[memoKey]Type
	// localFrame numbers the call-site frames this query keeps to itself
	// (negative ids); frameMemo holds what was computed in them, and the
	// entries of own (see keeps).
	localFrame int32
	frameMemo  map[memoKey]Type
	// own, when set, is the unit whose entries this query keeps to
	// itself (Check's pass over one file; see keeps).
	own Unit
	// frameReads counts reads of each call-site frame's parameters
	// (frameReadTotal all of them): see noteFrameRead.
	frameReads     map[int32]int
	frameReadTotal int
	// printStack are the functions and returns being printed (print.go).
	printStack []printing
}

func (e *Evaluator) query() *query {
	return &query{e: e, active: map[memoKey]int32{}, cutLow: noCut}
}

// noCut is query.cutLow when no cut is unresolved.
const noCut = math.MaxInt32

// cutBy counts a cut that went back to the entry at stack position pos
// (0 for a bound, which no entry resolves).
func (q *query) cutBy(pos int32) {
	q.cuts++
	q.cutLow = min(q.cutLow, pos)
}

// enter reports whether evaluation may go one level deeper for key; the
// caller calls leave after.
func (q *query) enter(key memoKey) bool {
	if _, ok := q.active[key]; ok {
		// Unknown in place of the entry is no type any query would give
		// it (another entry point meets the cycle where the flow walk
		// leaves the path out instead): never remembered.
		q.cutBy(0)
		return false
	}
	if q.depth >= q.e.opt.MaxDepth || q.steps >= q.e.opt.MaxSteps {
		q.cutBy(0)
		return false
	}
	q.depth++
	q.steps++
	q.active[key] = int32(q.depth)
	return true
}

// within starts the computation of the entry just entered: it returns
// the entry's stack position and the cuts pending outside it, which
// leaveWithin needs to end it.
func (q *query) within() (pos, low int32) {
	low = q.cutLow
	q.cutLow = noCut
	return int32(q.depth), low
}

// leaveWithin ends the computation at stack position pos that began
// with within's low, reporting whether every cut in it went back to pos
// itself or deeper, so that its result may be remembered.
func (q *query) leaveWithin(pos, low int32) bool {
	sub := q.cutLow
	if sub < pos {
		q.cutLow = min(low, sub)
		return false
	}
	q.cutLow = low
	return true
}

// isActive reports whether key is being computed in this query (in the
// call-site frame it would be computed in now).
func (q *query) isActive(key memoKey) bool {
	_, ok := q.activeAt(key)
	return ok
}

// activeAt is isActive with key's stack position.
func (q *query) activeAt(key memoKey) (int32, bool) {
	key.frame = q.frameOf(key)
	pos, ok := q.active[key]
	return pos, ok
}

func (q *query) leave(key memoKey) {
	q.depth--
	delete(q.active, key)
}

// memoised returns the remembered type of key or computes it.
func (q *query) memoised(key memoKey, compute func() Type) Type {
	key.frame = q.frameOf(key)
	local := key.frame < 0 || q.keeps(key)
	if local {
		if t, ok := q.frameMemo[key]; ok {
			return t
		}
	}
	if key.frame >= 0 {
		q.e.mu.Lock()
		t, ok := q.e.memo[key]
		q.e.mu.Unlock()
		if ok {
			return t
		}
	}
	if t, ok := q.cut[key]; ok {
		// Computed short by a cut earlier in this query: what is made of
		// it is as short, and must not be remembered for other queries.
		q.cutBy(0)
		return t
	}
	if !q.enter(key) {
		return unknownType
	}
	pos, low := q.within()
	reads := q.readsBesides(key.frame)
	t := compute()
	resolved := q.leaveWithin(pos, low)
	q.leave(key)
	switch {
	case q.readsBesides(key.frame) != reads:
		// Read another frame's parameters: true here, not for a query
		// without that frame.
	case resolved && local:
		if q.frameMemo == nil {
			q.frameMemo = map[memoKey]Type{}
		}
		q.frameMemo[key] = t
	case resolved:
		q.e.mu.Lock()
		q.e.memo[key] = t
		q.e.mu.Unlock()
	case q.cut != nil:
		q.cut[key] = t
	}
	return t
}

// keeps reports whether key's result stays in this query's frameMemo
// rather than the evaluator's memo: every entry of own. Most of what a
// file's check computes (its expressions, locals, flow nodes) no later
// query reads; what other files do read of it (a module symbol, a
// def's return) they compute again and keep, the same type, as every
// memoised result is the same whichever query computes it. The findings
// of every Django file add 24 MiB live to the server, not 40, the pass's
// CPU unchanged (RATIONALE.md, "Where does the memory go?").
func (q *query) keeps(key memoKey) bool {
	return q.own != nil && key.unit == q.own
}

// unitIndex is what the evaluator looks up in one unit, built in one
// pass the first time the unit is used.
type unitIndex struct {
	defsOf    [][]int32 // def indexes by symbol
	scopeDef  []int32   // the def whose body is the scope, -1
	scopeSyms [][]int32 // the SymLocals of each scope
	membersOf map[int32][]int32
	exits     map[int32][]int32 // the FlowExit nodes of each function scope

	callsOnce sync.Once
	// methodCalls are the calls of attribute (receiver, name), for the
	// overload a call picks; calleeCalls the calls of each callee
	// expression (one expression may stand for several alike calls), for
	// keyword arguments.
	methodCalls map[attrKey]int32
	calleeCalls map[int32][]int32
}

type attrKey struct {
	recv int32
	name string
}

// methodCall is the first call of attribute name of expression recv in
// u, -1 none.
func (e *Evaluator) methodCall(u Unit, recv int32, name string) int32 {
	ix := e.indexCalls(u)
	if c, ok := ix.methodCalls[attrKey{recv, name}]; ok {
		return c
	}
	return -1
}

// calleeCallWith is the first call of callee expression callee that
// passes keyword key, -1 none.
func (e *Evaluator) calleeCallWith(u Unit, callee int32, key string) int32 {
	exprs := u.Summary().Exprs
	for _, c := range e.indexCalls(u).calleeCalls[callee] {
		for _, k := range exprs[c].Keys {
			if k == key {
				return c
			}
		}
	}
	return -1
}

// indexCalls indexes u's calls by callee, once.
func (e *Evaluator) indexCalls(u Unit) *unitIndex {
	ix := e.index(u)
	ix.callsOnce.Do(func() {
		ix.methodCalls, ix.calleeCalls = map[attrKey]int32{}, map[int32][]int32{}
		exprs := u.Summary().Exprs
		for i, x := range exprs {
			if x.Op != navindex.ExprCall || !validExpr(u, x.A) {
				continue
			}
			ix.calleeCalls[x.A] = append(ix.calleeCalls[x.A], int32(i))
			if c := exprs[x.A]; c.Op == navindex.ExprAttr {
				k := attrKey{c.A, c.Name}
				if _, ok := ix.methodCalls[k]; !ok {
					ix.methodCalls[k] = int32(i)
				}
			}
		}
	})
	return ix
}

func (e *Evaluator) index(u Unit) *unitIndex {
	e.mu.Lock()
	ix, ok := e.units[u]
	e.mu.Unlock()
	if ok {
		return ix
	}
	s := u.Summary()
	ix = &unitIndex{defsOf: make([][]int32, len(s.Syms)), scopeDef: make([]int32, len(s.Scopes)), scopeSyms: make([][]int32, len(s.Scopes)), membersOf: map[int32][]int32{}}
	for i := range ix.scopeDef {
		ix.scopeDef[i] = -1
	}
	for i, d := range s.Defs {
		if d.Sym >= 0 && int(d.Sym) < len(s.Syms) {
			ix.defsOf[d.Sym] = append(ix.defsOf[d.Sym], int32(i))
		}
		if d.Body >= 0 && int(d.Body) < len(s.Scopes) && (d.Kind == navindex.KindClass || d.Kind == navindex.KindFunction || d.Kind == navindex.KindMethod || d.Kind == navindex.KindProperty) {
			ix.scopeDef[d.Body] = int32(i)
		}
	}
	for i, f := range s.Flow {
		if f.Kind == navindex.FlowExit {
			if ix.exits == nil {
				ix.exits = map[int32][]int32{}
			}
			ix.exits[f.A] = append(ix.exits[f.A], int32(i))
		}
	}
	for i, sy := range s.Syms {
		switch sy.Kind {
		case navindex.SymLocal:
			if sy.Scope >= 0 && int(sy.Scope) < len(s.Scopes) {
				ix.scopeSyms[sy.Scope] = append(ix.scopeSyms[sy.Scope], int32(i))
			}
		case navindex.SymMember:
			ix.membersOf[sy.Class] = append(ix.membersOf[sy.Class], int32(i))
		}
	}
	e.mu.Lock()
	if prev, ok := e.units[u]; ok {
		ix = prev
	} else {
		e.units[u] = ix
	}
	e.mu.Unlock()
	return ix
}

// liveDefs are the defs of sym that happen for the target (not under a
// statically false condition).
func (q *query) liveDefs(u Unit, sym int32) []int32 {
	ix := q.e.index(u)
	if sym < 0 || int(sym) >= len(ix.defsOf) {
		return nil
	}
	all := ix.defsOf[sym]
	defs := u.Summary().Defs
	for i, d := range all {
		if defs[d].Flags&navindex.DefStaticFalse != 0 {
			out := append([]int32(nil), all[:i]...)
			for _, d := range all[i+1:] {
				if defs[d].Flags&navindex.DefStaticFalse == 0 {
					out = append(out, d)
				}
			}
			return out
		}
	}
	return all
}

// scopeName looks up a name bound in scope sc of u.
func (q *query) scopeName(u Unit, sc int32, name string) int32 {
	ix := q.e.index(u)
	if sc < 0 || int(sc) >= len(ix.scopeSyms) {
		return -1
	}
	syms := u.Summary().Syms
	for _, s := range ix.scopeSyms[sc] {
		if syms[s].Name == name {
			return s
		}
	}
	return -1
}

func validExpr(u Unit, e int32) bool { return e >= 0 && int(e) < len(u.Summary().Exprs) }
func validSym(u Unit, s int32) bool  { return s >= 0 && int(s) < len(u.Summary().Syms) }
func validDef(u Unit, d int32) bool  { return d >= 0 && int(d) < len(u.Summary().Defs) }

// builtinClass is the class builtins binds to name.
func (q *query) builtinClass(name string) Class { return q.moduleClass("builtins", name) }

func (q *query) moduleClass(mod, name string) Class {
	r := q.e.prog.ModuleMember(mod, name)
	if r.Unit == nil {
		return Class{}
	}
	return q.classOf(r.Unit, r.Sym)
}

// classOf is the class sym of u binds, when its last live def is a class.
func (q *query) classOf(u Unit, sym int32) Class {
	defs := q.liveDefs(u, sym)
	if len(defs) == 0 {
		return Class{}
	}
	if u.Summary().Defs[defs[len(defs)-1]].Kind != navindex.KindClass {
		return Class{}
	}
	return Class{Unit: u, Sym: sym}
}

// classDef is the def of c's class statement (-1 none).
func (q *query) classDef(c Class) int32 {
	defs := q.liveDefs(c.Unit, c.Sym)
	for i := len(defs) - 1; i >= 0; i-- {
		if c.Unit.Summary().Defs[defs[i]].Kind == navindex.KindClass {
			return defs[i]
		}
	}
	return -1
}

// instanceOf is an instance of builtins' class name with args, Unknown
// when builtins lacks it.
func (q *query) instanceOf(name string, args ...Type) Type {
	c := q.builtinClass(name)
	if !c.Valid() {
		return unknownType
	}
	return Instance(c, q.padArgs(c, args)...)
}

// padArgs gives a generic class Unknown for each missing argument.
func (q *query) padArgs(c Class, args []Type) []Type {
	info := q.class(c)
	if info == nil || len(args) >= len(info.typeParams) {
		return args
	}
	out := append([]Type(nil), args...)
	for len(out) < len(info.typeParams) {
		out = append(out, info.typeParams[len(out)].Return())
	}
	return out
}

// ExprType is the type of expression expr of u.
func (e *Evaluator) ExprType(u Unit, expr int32) Type {
	if u == nil || !validExpr(u, expr) {
		return unknownType
	}
	return e.query().expr(u, expr)
}

// SymType is the type of symbol sym of u: its declared type when a
// binding is annotated, else the union of its live bindings' values.
func (e *Evaluator) SymType(u Unit, sym int32) Type {
	if u == nil || !validSym(u, sym) {
		return unknownType
	}
	return e.query().sym(u, sym)
}

// DefType is the type binding def of u gives its symbol.
func (e *Evaluator) DefType(u Unit, def int32) Type {
	if u == nil || !validDef(u, def) {
		return unknownType
	}
	return e.query().def(u, def)
}

// Member is attribute name of a value of type t: where it is declared
// and its type bound to t.
func (e *Evaluator) Member(t Type, name string) MemberInfo {
	return e.query().member(t, name)
}

// Classes are the classes of the values t may hold (a union's members'
// classes, in order), for type definition: instances, literals, class
// objects (their class), tuples and None (types.NoneType, as pyright).
func (e *Evaluator) Classes(t Type) []Class {
	var out []Class
	for _, m := range t.Members() {
		c := m.Class()
		switch {
		case m.Kind() == KindNone:
			c = e.query().moduleClass("types", "NoneType")
		case m.Kind() == KindClass && !c.Valid() && len(m.Args()) == 1 && m.Args()[0].Kind() == KindInstance:
			c = m.Args()[0].Class() // typing's List as a value
		}
		if m.Kind() == KindTuple && !c.Valid() {
			continue
		}
		if c.Valid() && !containsClass(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func containsClass(cs []Class, c Class) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// Definition is what symbol sym of u refers to, for get_definition and
// references: imports followed through the Program, an attribute
// (SymAttr) through the type of its receiver and that type's MRO
// (`resp.json` is `Response.json`). Ref{} when unknown.
func (e *Evaluator) Definition(u Unit, sym int32) Ref {
	if u == nil || !validSym(u, sym) {
		return Ref{}
	}
	return e.query().resolve(u, sym)
}

// TypeDefinition is the classes of the value symbol sym of u holds, for
// get_type_definition: one per member of a union, in order.
func (e *Evaluator) TypeDefinition(u Unit, sym int32) []Class {
	return e.Classes(e.SymType(u, sym))
}
