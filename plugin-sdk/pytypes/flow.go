package pytypes

import (
	"sort"
	"strconv"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Narrowing: the type of a name at a read is the union of what the
// assignments reaching it give, each narrowed by the conditions between
// (pyright's code flow), walked back lazily from the read's flow node
// (navindex.FlowNode) and remembered per (symbol, node).

// flowAt is the flow node of the read at p of u, -1 none.
func flowAt(u Unit, p navindex.Pos) int32 {
	rs := u.Summary().Reads
	i := sort.Search(len(rs), func(i int) bool { return !rs[i].Pos.Less(p) })
	if i < len(rs) && rs[i].Pos == p {
		return rs[i].Node
	}
	return -1
}

func validFlow(u Unit, n int32) bool { return n >= 0 && int(n) < len(u.Summary().Flow) }

// symAt is the type of symbol sym of u read at flow node node: its
// type there, else (no assignment reaches the read in its scope's
// code) its type anywhere.
func (q *query) symAt(u Unit, sym, node int32) Type {
	if !validSym(u, sym) || !validFlow(u, node) {
		return q.sym(u, sym)
	}
	key := memoKey{what: memoFlow, unit: u, idx: sym, node: node}
	if pos, ok := q.active[key]; ok {
		// Read again while its own type is computed (`i = i + 1` in a
		// loop reads i where the loop's head is): walked once more, the
		// assignment being computed adding nothing.
		q.cutBy(pos)
		return q.walkFlow(u, sym, node)
	}
	return q.memoised(key, func() Type { return q.walkFlow(u, sym, node) })
}

// onceAssigned is what symbol sym of u holds where scope readScope reads
// it when a single plain assignment binds it (the
// summary keeps no flow for such a name): the value assigned, literal
// kept, as pyright narrows it there; ok false for another symbol, a
// class body's (pyright widens a class variable) and a module's read
// from elsewhere than the module's code (its declared, widened type
// there). A function's variable is narrowed in its closures too, as
// pyright narrows a captured variable assigned no more. Only hovers ask
// it: as the value of every such read it made one of the diagnostics of
// a large file depend on what was asked before (tests/e2e's 5,000-line
// file, a `json.dumps(..., indent=2)` judged against `None`), a cause
// not found yet.
func (q *query) onceAssigned(u Unit, sym, readScope int32) (Type, bool) {
	if !validSym(u, sym) {
		return Type{}, false
	}
	sy := &u.Summary().Syms[sym]
	if sy.Kind != navindex.SymLocal || sy.Target >= 0 || sy.Scope == 0 && readScope != 0 {
		return Type{}, false
	}
	defs := q.liveDefs(u, sym)
	if len(defs) != 1 || q.inClassBody(u, sym) {
		return Type{}, false
	}
	d := &u.Summary().Defs[defs[0]]
	if d.Kind != navindex.KindVariable || d.Import || d.Annot >= 0 || d.Flags&navindex.DefTypeAlias != 0 || !validExpr(u, d.Value) {
		return Type{}, false
	}
	return q.def(u, defs[0]), true
}

func (q *query) walkFlow(u Unit, sym, node int32) Type {
	w := &flowWalk{q: q, u: u, sym: sym, memo: map[int32]flowResult{}, active: map[int32]bool{}}
	r := w.at(node)
	if !r.reached {
		return q.sym(u, sym)
	}
	return r.t
}

type flowResult struct {
	t       Type
	reached bool // some assignment (or the scope's entry, for a name of another scope) reaches
}

// flowWalk is one reference's walk back from a read: symbol sym, or
// its attribute attr (self.x) whose type is declared where nothing
// narrows it; active are the joins on the way (a loop's back edge
// reaching one adds nothing).
type flowWalk struct {
	q        *query
	u        Unit
	sym      int32
	attr     string
	declared Type
	// explicit: the attribute's type is declared by an annotation, so a
	// store narrows it only to what fits (else a store is what it holds).
	explicit bool
	memo     map[int32]flowResult
	active   map[int32]bool
	steps    int
	// outer: a path reached the entry of a scope the name is not local
	// to (a closure's read), where its type is not narrowed.
	outer bool
}

// maxFlowSteps bounds one walk (a module of thousands of statements).
const maxFlowSteps = 20000

func (w *flowWalk) at(node int32) flowResult {
	s := w.u.Summary()
	for validFlow(w.u, node) {
		if w.steps++; w.steps > maxFlowSteps {
			return flowResult{}
		}
		n := &s.Flow[node]
		switch n.Kind {
		case navindex.FlowStart:
			if w.attr != "" {
				return flowResult{t: w.declared, reached: true}
			}
			if sy := &s.Syms[w.sym]; sy.Kind == navindex.SymLocal && sy.Scope == n.A {
				return flowResult{} // unbound: read before any assignment
			}
			w.outer = true
			return flowResult{t: w.q.sym(w.u, w.sym), reached: true}
		case navindex.FlowAssign:
			if n.A != w.sym {
				node = n.Prev
				continue
			}
			if w.attr != "" {
				return flowResult{t: w.declared, reached: true} // another object
			}
			if !validDef(w.u, n.B) || s.Defs[n.B].Flags&navindex.DefStaticFalse != 0 {
				// A binding under a condition false for the target (an
				// `if sys.platform == "win32":` def) is on a path that
				// never runs: pyright leaves it out as unreachable.
				return flowResult{}
			}
			if pos, ok := w.q.activeAt(memoKey{what: memoDef, unit: w.u, idx: n.B}); ok {
				// The assignment's value reads the name back through a
				// loop (`i = i + 1`): this path adds nothing yet, as
				// pyright's incomplete types.
				w.q.cutBy(pos)
				return flowResult{}
			}
			return flowResult{t: w.q.assigned(w.u, w.sym, n.B), reached: true}
		case navindex.FlowAugAssign:
			if n.A != w.sym {
				node = n.Prev
				continue
			}
			if w.attr != "" {
				return flowResult{t: w.declared, reached: true}
			}
			if !validExpr(w.u, n.B) {
				return flowResult{}
			}
			if pos, ok := w.q.activeAt(memoKey{what: memoExpr, unit: w.u, idx: n.B}); ok {
				w.q.cutBy(pos) // `x += 1` in a loop, as an assignment above
				return flowResult{}
			}
			return flowResult{t: w.q.expr(w.u, n.B), reached: true}
		case navindex.FlowStore:
			if w.attr == "" || !w.names(n.A) {
				node = n.Prev
				continue
			}
			// Narrowed to the value assigned when it fits the declared type.
			if !validExpr(w.u, n.B) {
				return flowResult{t: w.declared, reached: true}
			}
			if pos, ok := w.q.activeAt(memoKey{what: memoExpr, unit: w.u, idx: n.B}); ok {
				w.q.cutBy(pos) // the stored value reads the member back
				return flowResult{t: w.declared, reached: true}
			}
			v := w.q.expr(w.u, n.B)
			if !w.explicit && !v.IsUnknown() && (w.declared.IsUnknown() || w.q.assignable(v, w.declared)) {
				// A value the inferred declaration does not take (a store
				// from outside the class: requests' `response.url = ...`
				// of a Response whose url is only ever None) leaves the
				// declared type, as pyright narrows it.
				return flowResult{t: v, reached: true}
			}
			return flowResult{t: w.q.narrowToDeclared(v, w.declared), reached: true}
		case navindex.FlowCall, navindex.FlowExit:
			// What a call ends does not narrow here (returns.go's
			// exits read it).
			node = n.Prev
			continue
		case navindex.FlowCond:
			ref, ok := w.condRef(n.A)
			if !ok {
				node = n.Prev
				continue
			}
			r := w.memoAt(n.Prev)
			if r.reached {
				r.t = w.q.narrow(w.u, r.t, n.A, n.B != 0, ref)
			}
			return r
		case navindex.FlowJoin:
			preds := s.Preds(n)
			if len(preds) == 1 {
				node = preds[0]
				continue
			}
			if r, ok := w.memo[node]; ok {
				return r
			}
			if w.active[node] {
				return flowResult{}
			}
			w.active[node] = true
			var ts []Type
			var out flowResult
			for _, p := range preds {
				if r := w.memoAt(p); r.reached {
					ts = append(ts, r.t)
					out.reached = true
				}
			}
			delete(w.active, node)
			if out.reached {
				out.t = Union(ts...)
			}
			w.memo[node] = out
			return out
		default:
			return flowResult{}
		}
	}
	return flowResult{}
}

// names reports whether expression e is the walk's reference: the name,
// or its attribute.
func (w *flowWalk) names(e int32) bool {
	if !validExpr(w.u, e) {
		return false
	}
	exprs := w.u.Summary().Exprs
	x := &exprs[e]
	if w.attr != "" {
		if x.Op != navindex.ExprAttr || x.Name != w.attr || !validExpr(w.u, x.A) {
			return false
		}
		x = &exprs[x.A]
	}
	return x.Op == navindex.ExprSym && x.A == w.sym
}

// condRef finds the walk's reference in condition cond: the operand
// that names it.
func (w *flowWalk) condRef(cond int32) (int32, bool) {
	if !validExpr(w.u, cond) {
		return -1, false
	}
	x := &w.u.Summary().Exprs[cond]
	switch x.Op {
	case navindex.ExprSym, navindex.ExprAttr:
		return cond, w.names(cond)
	case navindex.ExprOper:
		switch x.Name {
		case "is", "is not", "==", "!=":
			if w.names(x.A) {
				return x.A, true
			}
			if w.names(x.B) {
				return x.B, true
			}
			for _, side := range []int32{x.A, x.B} {
				if arg := w.typeOf(side); arg >= 0 {
					return arg, true
				}
				if arg := builtinCallArg(w.q, w.u, side, "len"); arg >= 0 && w.names(arg) {
					return arg, true
				}
			}
		case "in", "not in":
			if w.names(x.A) {
				return x.A, true
			}
		}
	case navindex.ExprCall:
		if len(x.Args) >= 1 && w.names(x.Args[0]) && w.q.isBuiltinCall(w.u, x.A, "isinstance", "issubclass", "callable") {
			return x.Args[0], true
		}
	}
	return -1, false
}

// typeOf is the argument of expression e when e is `type(ref)` of the
// walk's reference, else -1.
func (w *flowWalk) typeOf(e int32) int32 {
	if arg := typeCallArg(w.q, w.u, e); arg >= 0 && w.names(arg) {
		return arg
	}
	return -1
}

// typeCallArg is the argument of e when e is a call of the builtin type
// with one argument, else -1.
func typeCallArg(q *query, u Unit, e int32) int32 {
	return builtinCallArg(q, u, e, "type")
}

// builtinCallArg is the argument of e when e calls builtin name with
// one positional argument, else -1.
func builtinCallArg(q *query, u Unit, e int32, name string) int32 {
	if !validExpr(u, e) {
		return -1
	}
	x := &u.Summary().Exprs[e]
	if x.Op != navindex.ExprCall || len(x.Args) != 1 || len(x.Keys) != 0 || !q.isBuiltinCall(u, x.A, name) {
		return -1
	}
	return x.Args[0]
}

// memberAt is attribute m.Name... of name sym of u read at flow node
// node: m the member without narrowing.
func (q *query) memberAt(u Unit, sym int32, attr string, node int32, m MemberInfo) Type {
	if !validSym(u, sym) || !validFlow(u, node) || m.Type.Kind() == KindModule {
		return m.Type
	}
	explicit := m.Ref.Unit != nil && validSym(m.Ref.Unit, m.Ref.Sym) && q.annotated(m.Ref.Unit, m.Ref.Sym)
	w := &flowWalk{q: q, u: u, sym: sym, attr: attr, declared: m.Type, explicit: explicit, memo: map[int32]flowResult{}, active: map[int32]bool{}}
	if r := w.at(node); r.reached {
		return r.t
	}
	return m.Type
}

// storedMember is attribute sy at occurrence o, the target of a store
// (self.x = v): what is stored (narrowed to the declared type when an
// annotation declares it); t elsewhere.
func (q *query) storedMember(u Unit, sy *navindex.Sym, o navindex.Occ, m MemberInfo, t Type) Type {
	n := flowAt(u, navindex.Pos{Line: o.Line, Col: o.Col})
	if n < 0 || !validExpr(u, sy.Recv) {
		return t
	}
	x := &u.Summary().Exprs[sy.Recv]
	if x.Op != navindex.ExprSym {
		return t
	}
	return q.memberAt(u, x.A, sy.Name, n, m)
}

// narrowedMember is member m (attribute name of receiver expression
// recv of u) narrowed where it is read, when recv is a name read with
// flow.
func (q *query) narrowedMember(u Unit, recv int32, name string, m MemberInfo) Type {
	if !validExpr(u, recv) {
		return m.Type
	}
	x := &u.Summary().Exprs[recv]
	if x.Op != navindex.ExprSym || x.B < 0 {
		return m.Type
	}
	return q.memberAt(u, x.A, name, x.B, m)
}

func (w *flowWalk) memoAt(node int32) flowResult {
	if r, ok := w.memo[node]; ok {
		return r
	}
	r := w.at(node)
	w.memo[node] = r
	return r
}

// assigned is the type def d of u gives sym where it binds it: a
// declared variable's declared type narrowed to the value assigned when
// the value fits it (`x: int | None = 3` holds Literal[3] after), else
// what the binding gives.
func (q *query) assigned(u Unit, sym, d int32) Type {
	def := &u.Summary().Defs[d]
	if def.Import {
		if t, ok := q.importBinding(u, d); ok {
			return t
		}
		return q.sym(u, sym) // what the import names
	}
	if def.Kind != navindex.KindVariable || def.Flags&navindex.DefTypeAlias != 0 {
		return q.def(u, d)
	}
	if !q.annotated(u, sym) {
		return q.def(u, d)
	}
	declared := q.sym(u, sym)
	if !validExpr(u, def.Value) {
		return declared
	}
	return q.narrowToDeclared(q.expr(u, def.Value), declared)
}

// narrowToDeclared is value v assigned where declared is declared: v when
// it fits (an empty display taking the declared class's arguments, as
// pyright infers `{}` from the type expected), else declared.
func (q *query) narrowToDeclared(v, declared Type) Type {
	if v.IsUnknown() || v.Kind() == KindAny || !q.assignable(v, declared) {
		return declared
	}
	return q.expectedSubclass(expectedBy(v, declared), declared)
}

// expectedSubclass is t with a generic instance whose arguments are all
// Unknown (`defaultdict(list)`) taking them from a base class expected
// (`x: Dict[str, List[int]] = defaultdict(list)` holds defaultdict[str,
// List[int]]), as pyright solves a constructor from the type expected.
func (q *query) expectedSubclass(t, expected Type) Type {
	var out []Type
	for _, m := range t.Members() {
		if m.Kind() == KindInstance && len(m.Args()) > 0 && allUnknown(m.Args()) {
			for _, e := range expected.Members() {
				if r, ok := q.fromExpectedBase(m.Class(), e); ok {
					m = r
					break
				}
			}
		}
		out = append(out, m)
	}
	return Union(out...)
}

// fromExpectedBase is an instance of generic class c whose base class is
// expected's, its type parameters solved from expected's arguments; ok
// false when c does not derive from it or a parameter stays unsolved.
func (q *query) fromExpectedBase(c Class, expected Type) (Type, bool) {
	if expected.Kind() != KindInstance || expected.Class() == c || len(expected.Args()) == 0 {
		return Type{}, false
	}
	info := q.class(c)
	if info == nil || len(info.typeParams) == 0 {
		return Type{}, false
	}
	generic := Instance(c, info.typeParams...)
	base, ok := q.asBase(generic, expected.Class())
	if !ok || len(base.Args()) != len(expected.Args()) {
		return Type{}, false
	}
	sol := map[string]Type{}
	for i, p := range base.Args() {
		if p.Kind() == KindTypeVar {
			sol[p.typeVarKey()] = expected.Args()[i]
		}
	}
	for _, p := range info.typeParams {
		if _, ok := sol[p.typeVarKey()]; !ok {
			return Type{}, false
		}
	}
	return substitute(generic, sol, Type{}, false), true
}

// isBuiltinCall reports a callee that is one of the builtins names.
func (q *query) isBuiltinCall(u Unit, callee int32, names ...string) bool {
	if !validExpr(u, callee) {
		return false
	}
	x := &u.Summary().Exprs[callee]
	if x.Op != navindex.ExprSym || !validSym(u, x.A) {
		return false
	}
	sy := &u.Summary().Syms[x.A]
	if sy.Kind != navindex.SymBuiltin {
		return false
	}
	for _, n := range names {
		if sy.Name == n {
			return true
		}
	}
	return false
}

// narrow is t narrowed by condition cond of u being true (neg false) or
// false, ref the operand that is the reference: the forms pyright
// narrows a reference by.
func (q *query) narrow(u Unit, t Type, cond int32, neg bool, ref int32) Type {
	exprs := u.Summary().Exprs
	if cond == ref {
		return q.narrowTruth(t, !neg)
	}
	x := &exprs[cond]
	switch x.Op {
	case navindex.ExprOper:
		if x.Name == "in" || x.Name == "not in" {
			return q.narrowContainer(u, t, x.B, (x.Name == "in") != neg)
		}
		if lenA, lenB := builtinCallArg(q, u, x.A, "len"), builtinCallArg(q, u, x.B, "len"); (x.Name == "==" || x.Name == "!=") && (lenA == ref || lenB == ref) {
			other := x.B
			if lenB == ref {
				other = x.A
			}
			if n, ok := intLiteral(u, other); ok {
				return q.narrowTupleLength(t, n, (x.Name == "==") != neg)
			}
			return t
		}
		other := x.B
		if ref == x.B || typeCallArg(q, u, x.B) == ref {
			other = x.A
		}
		if !validExpr(u, other) {
			return t
		}
		positive := (x.Name == "is" || x.Name == "==") != neg
		if ref != x.A && ref != x.B {
			// type(ref) is C
			if cs, ok := filterClasses(q.expr(u, other)); ok && len(cs) == 1 {
				return q.narrowTypeIs(t, cs[0], positive)
			}
			return t
		}
		o := &exprs[other]
		switch {
		case o.Op == navindex.ExprLit && o.Name == "None":
			return narrowNone(t, positive)
		case (x.Name == "==" || x.Name == "!=") && o.Op == navindex.ExprLit:
			if lit := q.expr(u, other); lit.Kind() == KindLiteral {
				return q.narrowLiteral(t, lit, positive)
			}
		}
	case navindex.ExprCall:
		switch {
		case q.isBuiltinCall(u, x.A, "isinstance") && len(x.Args) == 2:
			return q.narrowInstance(u, t, x.Args[1], !neg)
		case q.isBuiltinCall(u, x.A, "issubclass") && len(x.Args) == 2:
			return q.narrowSubclass(u, t, x.Args[1], !neg)
		case q.isBuiltinCall(u, x.A, "callable") && len(x.Args) == 1:
			return q.narrowCallable(t, !neg)
		}
	}
	return t
}

// intLiteral is the value of e when it is a small non-negative int
// literal.
func intLiteral(u Unit, e int32) (int, bool) {
	if !validExpr(u, e) {
		return 0, false
	}
	x := &u.Summary().Exprs[e]
	if x.Op != navindex.ExprLit || x.Name != "int" {
		return 0, false
	}
	n, err := strconv.Atoi(x.Text)
	return n, err == nil && n >= 0
}

// maxNarrowedTupleLength is the longest tuple pyright makes of
// `len(x) == n` on a tuple of unknown length.
const maxNarrowedTupleLength = 64

// narrowTupleLength narrows t by `len(t) == n` (positive) or `!=`, as
// pyright's narrowTypeForTupleLength: a tuple of known length stays
// when its length agrees; tuple[X, ...] becomes n X's where the length
// equals n; other members stay.
func (q *query) narrowTupleLength(t Type, n int, positive bool) Type {
	var out []Type
	for _, m := range t.Members() {
		switch {
		case m.Kind() != KindTuple:
			out = append(out, m)
		case m.Variadic():
			if positive && n < maxNarrowedTupleLength && len(m.Args()) == 1 {
				elems := make([]Type, n)
				for i := range elems {
					elems[i] = m.Args()[0]
				}
				m = TupleType(m.Class(), elems...)
			}
			out = append(out, m)
		case (len(m.Args()) == n) == positive:
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return neverType
	}
	return Union(out...)
}

// narrowLiteral narrows t by `t == lit` (positive) or `!=`, as
// pyright's narrowTypeForLiteralComparison: a literal member of lit's
// class stays when it equals lit (differs, for !=); a member of lit's
// class is lit (bool's other literal, for !=); None cannot equal it;
// a member of another class may define __eq__, so it stays.
func (q *query) narrowLiteral(t, lit Type, positive bool) Type {
	var out []Type
	for _, m := range t.Members() {
		switch {
		case m.Kind() == KindUnknown || m.Kind() == KindAny:
			if positive {
				m = lit
			}
		case m.Kind() == KindLiteral && m.Class() == lit.Class():
			if (m.Text() == lit.Text()) != positive {
				continue
			}
		case m.Kind() == KindInstance && m.Class() == lit.Class():
			if positive {
				m = lit
			} else if lit.Class().Name() == "bool" && lit.Class().Unit.ModuleName() == "builtins" {
				other := "True"
				if lit.Text() == "True" {
					other = "False"
				}
				m = Literal(lit.Class(), other)
			}
		case m.Kind() == KindNone && positive:
			continue
		}
		out = append(out, m)
	}
	return Union(out...)
}

// narrowContainer narrows t by `t in container` (positive) or `not in`,
// as pyright's narrowTypeForContainerType: in a display of literals (and
// None), a member of a literal's class is those literals, a member
// that fits one stays, others go; not in a tuple of them, the literals
// (and None) it holds go.
func (q *query) narrowContainer(u Unit, t Type, container int32, positive bool) Type {
	if !validExpr(u, container) {
		return t
	}
	x := &u.Summary().Exprs[container]
	if x.Op != navindex.ExprDisplay || len(x.Args) == 0 || (!positive && x.Name != "tuple") {
		return t
	}
	var elems []Type
	for _, a := range x.Args {
		e := q.expr(u, a)
		if e.Kind() != KindLiteral && e.Kind() != KindNone {
			return t // only literals and None are told apart here
		}
		elems = append(elems, e)
	}
	var out []Type
	for _, m := range t.Members() {
		if !positive {
			if m.Kind() == KindInstance && isBuiltinBool(m.Class()) {
				for _, v := range []string{"True", "False"} {
					if l := Literal(m.Class(), v); !containsType(elems, l) {
						out = append(out, l)
					}
				}
				continue
			}
			if !containsType(elems, m) {
				out = append(out, m)
			}
			continue
		}
		switch {
		case m.Kind() == KindUnknown || m.Kind() == KindAny:
			out = append(out, m)
		case containsType(elems, m):
			out = append(out, m)
		default:
			for _, e := range elems {
				if e.Kind() == KindLiteral && m.Kind() == KindInstance && m.Class() == e.Class() {
					out = append(out, e)
				}
			}
		}
	}
	return Union(out...)
}

func containsType(ts []Type, t Type) bool {
	for _, e := range ts {
		if e.Equal(t) {
			return true
		}
	}
	return false
}

func isBuiltinBool(c Class) bool {
	return c.Valid() && c.Name() == "bool" && c.Unit.ModuleName() == "builtins"
}

// narrowTypeIs narrows t by `type(t) is c` (positive) or `is not`, as
// pyright's narrowTypeForTypeIs: an instance of c's class or a base of
// it becomes c's instance (staying itself when of c), others and None
// go; the negative case removes nothing (a subclass's instance may
// still be there).
func (q *query) narrowTypeIs(t Type, c Class, positive bool) Type {
	if !positive {
		return t
	}
	var out []Type
	for _, m := range t.Members() {
		switch m.Kind() {
		case KindUnknown, KindAny:
			out = append(out, q.instanceOfClass(c))
		case KindInstance, KindLiteral, KindTuple:
			mc := m.Class()
			switch {
			case !mc.Valid():
				out = append(out, m)
			case mc == c:
				out = append(out, m)
			case q.subclassOf(c, mc):
				out = append(out, q.instanceOfClass(c))
			}
		case KindNone:
		default:
			out = append(out, m)
		}
	}
	return Union(out...)
}

// narrowSubclass narrows class objects t by issubclass(t, classes), as
// isinstance narrows instances: type[A] | type[B] keeps the classes
// deriving from a filter (pos) or the others.
func (q *query) narrowSubclass(u Unit, t Type, classes int32, pos bool) Type {
	var inst []Type
	for _, m := range t.Members() {
		if m.Kind() != KindClass || !m.Class().Valid() {
			return t // type[T], a class object pyws cannot tell
		}
		inst = append(inst, q.instanceOfClass(m.Class()))
	}
	narrowed := q.narrowInstance(u, Union(inst...), classes, pos)
	var out []Type
	for _, n := range narrowed.Members() {
		if !n.Class().Valid() {
			return t
		}
		kept := ClassObject(n.Class(), n.Args()...)
		for _, m := range t.Members() {
			if m.Class() == n.Class() {
				kept = m
			}
		}
		out = append(out, kept)
	}
	return Union(out...)
}

// narrowCallable narrows t by callable(t) (pos) or not, as pyright's
// narrowing by typeshed's `TypeIs[Callable[..., object]]`: functions,
// class objects and instances with __call__ are callable; None is not;
// a plain `object` may be, so it narrows to `(...) -> object`; Unknown
// and Any stay when negative and, when positive, become `(...) -> object`
// if no other member survives (pyright's anyOrUnknownSubstitutions).
func (q *query) narrowCallable(t Type, pos bool) Type {
	var out, unknowns []Type
	gradual := func() Type { return CallableType(nil, q.instanceOfClass(q.builtinClass("object")), true) }
	for _, m := range t.Members() {
		var callable bool
		switch m.Kind() {
		case KindUnknown, KindAny:
			if pos {
				unknowns = append(unknowns, m)
			} else {
				out = append(out, m)
			}
			continue
		case KindTypeVar:
			out = append(out, m)
			continue
		case KindFunction, KindOverloaded, KindCallable, KindClass:
			callable = true
		case KindInstance:
			if pos && m.Class() == q.builtinClass("object") {
				out = append(out, gradual())
				continue
			}
			callable = q.member(m, "__call__").Found()
		}
		if callable == pos {
			out = append(out, m)
		}
	}
	if len(out) == 0 && len(unknowns) > 0 {
		return gradual()
	}
	return Union(out...)
}

// narrowNone keeps None (isNone) or all but None.
func narrowNone(t Type, isNone bool) Type {
	var out []Type
	for _, m := range t.Members() {
		switch {
		case m.Kind() == KindNone:
			if isNone {
				out = append(out, m)
			}
		case m.Kind() == KindUnknown, m.Kind() == KindAny:
			if isNone {
				out = append(out, noneType)
			} else {
				out = append(out, m)
			}
		case !isNone:
			out = append(out, m)
		}
	}
	return Union(out...)
}

// narrowTruth keeps the members that may be true (truth) or false; a
// bool is then the literal it must be, and a false int, str or bytes
// its empty literal, as pyright narrows them (`b or x` of a b: bool is
// `Unknown | Literal[True]`, `n and x` of an n: int `Unknown | Literal[0]`).
func (q *query) narrowTruth(t Type, truth bool) Type {
	var out []Type
	for _, m := range t.Members() {
		if truth && q.canBeTruthy(m) || !truth && q.canBeFalsy(m) {
			out = append(out, truthLiteral(m, truth))
		}
	}
	return Union(out...)
}

// truthLiteral is the literal a builtin bool, int, str or bytes instance
// m is when known true (bool only) or false, else m.
func truthLiteral(m Type, truth bool) Type {
	c := m.Class()
	if m.Kind() != KindInstance || m.d.literalString || !c.Valid() || c.Unit.ModuleName() != "builtins" {
		return m
	}
	switch c.Name() {
	case "bool":
		if truth {
			return Literal(c, "True")
		}
		return Literal(c, "False")
	case "int":
		if !truth {
			return Literal(c, "0")
		}
	case "str":
		if !truth {
			return Literal(c, "''")
		}
	case "bytes":
		if !truth {
			return Literal(c, `b""`)
		}
	}
	return m
}

func (q *query) canBeTruthy(t Type) bool {
	switch t.Kind() {
	case KindNone:
		return false
	case KindLiteral:
		switch t.Text() {
		case "False", "0", "''", `""`, "b''", `b""`:
			return false
		}
	}
	return true
}

// falsyBuiltins are the builtin classes whose instances may be false
// (known without looking for __bool__ or __len__).
var falsyBuiltins = map[string]bool{"int": true, "float": true, "complex": true, "bool": true, "str": true, "bytes": true,
	"bytearray": true, "list": true, "dict": true, "set": true, "frozenset": true, "tuple": true, "range": true, "memoryview": true}

func (q *query) canBeFalsy(t Type) bool {
	switch t.Kind() {
	case KindNone, KindUnknown, KindAny, KindTypeVar:
		return true
	case KindLiteral:
		return !q.canBeTruthy(t)
	case KindInstance, KindTuple:
		if t.Kind() == KindTuple && len(t.Args()) > 0 && !t.Variadic() {
			return false
		}
		if c := t.Class(); c.Valid() && c.Unit.ModuleName() == "builtins" && falsyBuiltins[c.Name()] {
			return true
		}
		return q.member(t, "__bool__").Found() || q.member(t, "__len__").Found()
	}
	return false
}

// narrowInstance narrows t by isinstance(_, classes) being true (pos)
// or false: classes is a class or a tuple of them.
func (q *query) narrowInstance(u Unit, t Type, classes int32, pos bool) Type {
	var filters []Class
	x := &u.Summary().Exprs[classes]
	args := []int32{classes}
	if x.Op == navindex.ExprDisplay && x.Name == "tuple" {
		args = x.Args
	}
	for _, a := range args {
		cs, ok := filterClasses(q.expr(u, a))
		if !ok {
			return t // a filter that is not a known class narrows nothing
		}
		filters = append(filters, cs...)
	}
	var out []Type
	for _, m := range t.Members() {
		mc := m.Class()
		switch {
		case m.Kind() == KindNone:
			mc = q.moduleClass("types", "NoneType")
		case m.Kind() == KindUnknown, m.Kind() == KindAny:
			if pos {
				for _, f := range filters {
					out = append(out, q.instanceOfClass(f))
				}
			} else {
				out = append(out, m)
			}
			continue
		case m.Kind() != KindInstance && m.Kind() != KindLiteral && m.Kind() != KindTuple:
			out = append(out, m) // not narrowed
			continue
		}
		if !mc.Valid() {
			out = append(out, m)
			continue
		}
		matched := false
		for _, f := range filters {
			if q.subclassOf(mc, f) {
				matched = true
				if pos {
					out = append(out, m)
				}
				break
			}
		}
		if matched || !pos {
			if !matched {
				out = append(out, m)
			}
			continue
		}
		for _, f := range filters {
			switch {
			case q.subclassOf(f, mc):
				out = append(out, q.instanceOfClass(f))
			case m.Kind() == KindInstance && !(builtinClass(mc) && builtinClass(f)):
				// Unrelated classes, not two builtins (whose layouts no
				// class combines: int and bytearray): pyright makes
				// `<subclass of str and BaseCommand>`, which has both's
				// members; pyws, which has no such type, takes the
				// filter's instance rather than nothing.
				out = append(out, q.instanceOfClass(f))
			}
		}
	}
	return Union(out...)
}

func builtinClass(c Class) bool { return c.Unit != nil && c.Unit.ModuleName() == "builtins" }

// filterClasses are the classes an isinstance filter of type t names:
// a class object, or a tuple of them (`basestring = (str, bytes)`).
func filterClasses(t Type) ([]Class, bool) {
	switch {
	case t.Kind() == KindClass && t.Class().Valid():
		return []Class{t.Class()}, true
	case t.Kind() == KindTuple && !t.Variadic() && len(t.Args()) > 0:
		var out []Class
		for _, e := range t.Args() {
			cs, ok := filterClasses(e)
			if !ok {
				return nil, false
			}
			out = append(out, cs...)
		}
		return out, true
	}
	return nil, false
}

// instanceOfClass is an instance of c, generic parameters Unknown.
func (q *query) instanceOfClass(c Class) Type {
	return Instance(c, q.padArgs(c, nil)...)
}

// subclassOf reports c is f or derives from it.
func (q *query) subclassOf(c, f Class) bool {
	if c == f {
		return true
	}
	info := q.class(c)
	return info != nil && mroHas(info.mro, f)
}

// TypeAt is the type of occurrence o's symbol where o stands: at a read
// with flow, narrowed there; else SymType.
func (e *Evaluator) TypeAt(u Unit, o navindex.Occ) Type {
	if u == nil || !validSym(u, o.Sym) {
		return unknownType
	}
	q := e.query()
	if sy := &u.Summary().Syms[o.Sym]; sy.Kind == navindex.SymAttr && validExpr(u, sy.Recv) {
		m := q.member(q.expr(u, sy.Recv), sy.Name)
		if v, ok := q.undeclaredStore(u, o, m); ok {
			return v
		}
		return q.storedMember(u, sy, o, m, q.sym(u, o.Sym))
	}
	if n := flowAt(u, navindex.Pos{Line: o.Line, Col: o.Col}); n >= 0 {
		return q.symAt(u, o.Sym, n)
	}
	if d := e.defAt(u, o); d >= 0 && !q.inClassBody(u, o.Sym) {
		return q.assigned(u, o.Sym, d)
	}
	return q.sym(u, o.Sym)
}

// defAt is the variable binding occurrence o is, -1 when none.
func (e *Evaluator) defAt(u Unit, o navindex.Occ) int32 {
	if o.Flags&navindex.OccDef == 0 {
		return -1
	}
	for _, d := range e.index(u).defsOf[o.Sym] {
		if df := &u.Summary().Defs[d]; df.Name == o.Span && df.Kind == navindex.KindVariable {
			return d
		}
	}
	return -1
}

// isParameter reports a symbol a parameter binds.
func (q *query) isParameter(u Unit, sym int32) bool {
	for _, d := range q.liveDefs(u, sym) {
		if u.Summary().Defs[d].Kind == navindex.KindParameter {
			return true
		}
	}
	return false
}
