package pytypes

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

func (q *query) expr(u Unit, e int32) Type {
	if !validExpr(u, e) {
		return unknownType
	}
	return q.memoised(memoKey{what: memoExpr, unit: u, idx: e}, func() Type { return q.evalExpr(u, e) })
}

func (q *query) evalExpr(u Unit, e int32) Type {
	x := &u.Summary().Exprs[e]
	switch x.Op {
	case navindex.ExprSym:
		if x.B >= 0 {
			return q.withClassAlias(u, e, q.symAt(u, x.A, x.B))
		}
		return q.withClassAlias(u, e, q.sym(u, x.A))
	case navindex.ExprAttr:
		return q.withClassAlias(u, e, q.narrowedMember(u, x.A, x.Name, q.attribute(u, x)))
	case navindex.ExprCall:
		return q.callWritten(q.expr(u, x.A), q.arguments(u, x))
	case navindex.ExprSuper:
		return q.superOf(u, x.A)
	case navindex.ExprLit:
		return q.literal(x)
	case navindex.ExprSubscript:
		return q.subscript(u, x)
	case navindex.ExprOper:
		return q.operator(u, x)
	case navindex.ExprDisplay:
		return q.display(u, x, elementType)
	case navindex.ExprComp:
		return q.comprehension(u, x)
	case navindex.ExprIter:
		return q.iterate(q.expr(u, x.A), x.Name == "async")
	case navindex.ExprUnpack:
		return q.unpack(u, x)
	case navindex.ExprEnter:
		return q.enterContext(q.expr(u, x.A), x.Name == "async")
	case navindex.ExprAwait:
		return q.await(q.expr(u, x.A))
	case navindex.ExprIf:
		return Union(q.expr(u, x.A), q.expr(u, x.B))
	case navindex.ExprLambda:
		if keys := x.Lists().Keys; x.B >= 0 && int(x.B) == len(keys) {
			return lambdaType(keys, q.expr(u, x.A))
		}
		return CallableType(nil, q.expr(u, x.A), true)
	}
	return unknownType
}

// argument is one argument of a call: its type and keyword ("" for a
// positional one, "*" and "**" for unpacked ones).
type argument struct {
	t   Type
	key string
	// src is the argument's expression in unit, plus one (0: none), so
	// a call-site inference can type it as if outside every frame.
	unit Unit
	src  int32
}

func (q *query) arguments(u Unit, x *navindex.Expr) []argument {
	args := make([]argument, len(x.Args))
	npos := len(x.Args) - len(x.Keys)
	for i, a := range x.Args {
		args[i].t, args[i].unit, args[i].src = q.argument(u, a), u, a+1
		if i >= npos && npos >= 0 {
			args[i].key = x.Keys[i-npos]
		}
	}
	return args
}

// argument is the type of argument expression e. A display there has
// the parameter's type expected, so pyright takes the union of its
// elements rather than falling back to Unknown when they differ.
func (q *query) argument(u Unit, e int32) Type {
	if validExpr(u, e) {
		if x := &u.Summary().Exprs[e]; x.Op == navindex.ExprDisplay {
			return q.display(u, x, elementUnion)
		}
	}
	return q.expr(u, e)
}

func (q *query) literal(x *navindex.Expr) Type {
	switch x.Name {
	case "None":
		return noneType
	case "ellipsis":
		if c := q.moduleClass("types", "EllipsisType"); c.Valid() {
			return Instance(c)
		}
		return q.instanceOf("ellipsis")
	}
	c := q.builtinClass(x.Name)
	if !c.Valid() {
		return unknownType
	}
	if x.Text != "" {
		return Literal(c, x.Text)
	}
	return Instance(c)
}

// superOf is super() in a method of class symbol cls: the first base
// after it in its MRO, as an instance.
// attribute is the member attribute expression x reads. Through
// super() it is the first class after the current one in the current
// class's MRO that declares it, bound to the current class's Self, as
// Python and pyright look it up (a mixin's super().pre_save reaches
// Field's, which the mixin's own MRO does not hold; super().copy()
// returns Self@Value, not the base).
func (q *query) attribute(u Unit, x *navindex.Expr) MemberInfo {
	if sx := &u.Summary().Exprs[x.A]; sx.Op == navindex.ExprSuper {
		c := Class{Unit: u, Sym: sx.A}
		if info := q.class(c); info != nil {
			if m, mi, sym := q.lookupMRO(info, x.Name, 1); mi != nil {
				sub := bindParams(mi.typeParams, m.Args())
				return MemberInfo{Ref: Ref{Unit: mi.c.Unit, Sym: sym}, Class: mi.c, Type: q.bindMember(SelfType(c), mi, sym, sub, false)}
			}
		}
	}
	return q.member(q.expr(u, x.A), x.Name)
}

func (q *query) superOf(u Unit, cls int32) Type {
	info := q.class(Class{Unit: u, Sym: cls})
	if info == nil || len(info.mro) < 2 {
		return unknownType
	}
	return info.mro[1]
}

func (q *query) subscript(u Unit, x *navindex.Expr) Type {
	base := q.expr(u, x.A)
	switch base.Kind() {
	case KindClass:
		// A class specialised as a value: list[int] is type[list[int]].
		if t := q.annotName(u, x.A, tvScope{}, x.Args); t.Kind() == KindInstance {
			return ClassObject(t.Class(), t.Args()...)
		}
		return unknownType
	case KindTuple:
		if len(x.Args) == 1 && !base.Variadic() {
			if ix := q.expr(u, x.Args[0]); ix.Kind() == KindLiteral && ix.Class().Name() == "int" {
				if n, err := strconv.Atoi(ix.Text()); err == nil {
					elems := base.Args()
					if n < 0 {
						n += len(elems)
					}
					if n >= 0 && n < len(elems) {
						return elems[n]
					}
				}
			}
		}
	}
	var index Type
	if len(x.Args) == 1 {
		index = q.expr(u, x.Args[0])
	} else {
		elems := make([]Type, len(x.Args))
		for i, a := range x.Args {
			elems[i] = q.expr(u, a)
		}
		index = TupleType(q.builtinClass("tuple"), elems...)
	}
	if base.Kind() == KindUnion {
		// Each member subscripted in the union's order, a None member
		// left out (pyright's reportOptionalSubscript): `x[0:1]` of a
		// `bool | bytes | None` is `Unknown | bytes`, not the order of
		// a union called as one.
		var ts []Type
		for _, m := range base.Args() {
			if m.Kind() != KindNone {
				ts = append(ts, q.callMethod(m, "__getitem__", index))
			}
		}
		if len(ts) > 0 {
			return Union(ts...)
		}
	}
	return q.callMethod(base, "__getitem__", index)
}

// callMethod calls dunder name of recv with args; Unknown when recv has
// no such member.
func (q *query) callMethod(recv Type, name string, args ...Type) Type {
	if recv.Kind() == KindAny {
		return anyType // Any[i], iter(Any), with Any: Any
	}
	m := q.member(recv, name)
	if !m.Found() {
		return unknownType
	}
	as := make([]argument, len(args))
	for i, a := range args {
		as[i].t = a
	}
	return q.call(m.Type, as)
}

// binaryDunders are the methods of binary operators, and their
// reflections.
var binaryDunders = map[string][2]string{
	"+": {"__add__", "__radd__"}, "-": {"__sub__", "__rsub__"}, "*": {"__mul__", "__rmul__"},
	"/": {"__truediv__", "__rtruediv__"}, "//": {"__floordiv__", "__rfloordiv__"}, "%": {"__mod__", "__rmod__"},
	"**": {"__pow__", "__rpow__"}, "@": {"__matmul__", "__rmatmul__"}, "&": {"__and__", "__rand__"},
	"|": {"__or__", "__ror__"}, "^": {"__xor__", "__rxor__"}, "<<": {"__lshift__", "__rlshift__"},
	">>": {"__rshift__", "__rrshift__"},
	"==": {"__eq__", "__eq__"}, "!=": {"__ne__", "__ne__"}, "<": {"__lt__", "__gt__"}, ">": {"__gt__", "__lt__"},
	"<=": {"__le__", "__ge__"}, ">=": {"__ge__", "__le__"},
}

var unaryDunders = map[string]string{"-": "__neg__", "+": "__pos__", "~": "__invert__"}

// expectedBy is t with an empty display's members (`{}`, `[]`, whose
// arguments are Unknown) taken as the same class of expected, as
// pyright infers them from the type expected (`x or {}` of a
// dict[str, str] | None is dict[str, str]).
func expectedBy(t, expected Type) Type {
	var out []Type
	for _, m := range t.Members() {
		if m.Kind() == KindInstance && len(m.Args()) > 0 && allUnknown(m.Args()) {
			for _, e := range expected.Members() {
				if e.Kind() == KindInstance && e.Class() == m.Class() {
					m = e
					break
				}
			}
		}
		out = append(out, m)
	}
	return Union(out...)
}

func allUnknown(ts []Type) bool {
	for _, t := range ts {
		if !t.IsUnknown() {
			return false
		}
	}
	return true
}

func (q *query) operator(u Unit, x *navindex.Expr) Type {
	switch x.Name {
	case "not", "is", "is not", "in", "not in":
		return q.instanceOf("bool")
	case "and", "or":
		// `a or b` is a where it is true, else b (`x = x or {}`); `a and
		// b` a where it is false, else b; the right operand is not
		// reached when a cannot be false (or) or true (and).
		a, or := q.expr(u, x.A), x.Name == "or"
		left := q.narrowTruth(a, or)
		if q.narrowTruth(a, !or).Kind() == KindNever {
			return left
		}
		return Union(left, expectedBy(q.expr(u, x.B), left))
	}
	a := q.expr(u, x.A)
	if x.B < 0 {
		if x.Name == "-" && a.Kind() == KindLiteral && a.Class().Name() == "int" {
			if n, err := strconv.ParseInt(a.Text(), 10, 64); err == nil {
				return Literal(a.Class(), strconv.FormatInt(-n, 10))
			}
		}
		if m, ok := unaryDunders[x.Name]; ok {
			return q.callMethod(a, m)
		}
		return unknownType
	}
	b := q.expr(u, x.B)
	if r, ok := literalMath(u, x, a, b); ok {
		return r
	}
	ms, ok := binaryDunders[x.Name]
	if !ok {
		return unknownType
	}
	var out []Type
	for _, left := range a.Members() {
		// An unknown left operand makes the result unknown: n * 2 of an
		// unannotated n is Unknown, not int through int.__rmul__ (an
		// unknown right one is just an argument: '%s' % x is str).
		if k := left.Kind(); k == KindUnknown || k == KindAny {
			out = append(out, left)
			continue
		}
		t := q.callMethod(left, ms[0], b)
		if t.IsUnknown() {
			t = q.callMethod(b, ms[1], left)
		}
		out = append(out, t)
	}
	return Union(out...)
}

// literalMath is pyright's arithmetic on literal operands: 1 + 2 is
// Literal[3], "a" + "b" Literal['ab']. pyright does none inside a loop,
// where the values change each time; pyws, which does not know loops
// here, does it only on operands written as constants.
func literalMath(u Unit, x *navindex.Expr, a, b Type) (Type, bool) {
	if a.Kind() != KindLiteral || b.Kind() != KindLiteral || a.Class() != b.Class() || !constantExpr(u, x.A, 0) || !constantExpr(u, x.B, 0) {
		return Type{}, false
	}
	switch a.Class().Name() {
	case "int":
		l, ok1 := new(big.Int).SetString(a.Text(), 10)
		r, ok2 := new(big.Int).SetString(b.Text(), 10)
		if !ok1 || !ok2 {
			return Type{}, false
		}
		switch x.Name {
		case "+":
			return Literal(a.Class(), l.Add(l, r).String()), true
		case "-":
			return Literal(a.Class(), l.Sub(l, r).String()), true
		case "*":
			return Literal(a.Class(), l.Mul(l, r).String()), true
		case "//", "%":
			if r.Sign() == 0 {
				return Type{}, false
			}
			q, m := new(big.Int).DivMod(l, r, new(big.Int)) // Euclidean: fix to Python's floor
			if m.Sign() != 0 && r.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
				m.Add(m, r)
			}
			if x.Name == "//" {
				return Literal(a.Class(), q.String()), true
			}
			return Literal(a.Class(), m.String()), true
		}
	case "str":
		// Plain values only (quoted with ', no escapes, not cut).
		at, bt := a.Text(), b.Text()
		if x.Name != "+" || !plainStrLiteral(at) || !plainStrLiteral(bt) || len(at)+len(bt)-4 > maxLiteralLen {
			return Type{}, false
		}
		return Literal(a.Class(), at[:len(at)-1]+bt[1:]), true
	}
	return Type{}, false
}

// maxLiteralLen is where pyright's printer cuts a literal string.
const maxLiteralLen = 50

func plainStrLiteral(t string) bool {
	return len(t) >= 2 && t[0] == '\'' && t[len(t)-1] == '\'' && !strings.ContainsAny(t[1:len(t)-1], "\\'…")
}

// constantExpr reports an expression of literals and operators on them.
func constantExpr(u Unit, i int32, depth int) bool {
	if !validExpr(u, i) || depth > maxPrintDepth {
		return false
	}
	x := &u.Summary().Exprs[i]
	switch x.Op {
	case navindex.ExprLit:
		return true
	case navindex.ExprOper:
		return constantExpr(u, x.A, depth+1) && (x.B < 0 || constantExpr(u, x.B, depth+1))
	}
	return false
}

// maxDisplayEntries caps the elements whose types a display's type is
// inferred from (pyright's maxEntriesToUseForInference).
const maxDisplayEntries = 64

// display is the type of a tuple, list, set or dict display, combine
// making a type argument of its elements' types.
func (q *query) display(u Unit, x *navindex.Expr, combine func([]Type) Type) Type {
	args := x.Args
	// Keys mark the last len(Keys) elements, from the first starred one
	// (the summarizer leaves out the plain ones before it).
	starred := func(i int) string {
		if k := i - (len(args) - len(x.Keys)); k >= 0 && k < len(x.Keys) {
			return x.Keys[k]
		}
		return ""
	}
	switch x.Name {
	case "tuple":
		elems := make([]Type, 0, len(args))
		star := false
		for i, a := range args {
			t := q.expr(u, a)
			if starred(i) != "" {
				t, star = q.iterate(t, false), true
			}
			elems = append(elems, t)
		}
		if star {
			// pyright's tuple[None, *tuple[str, ...]]: pyws has no
			// unbounded entry inside a tuple, so the union of the
			// elements, as many as there are; iterating it is what
			// pyright's gives.
			return HomogeneousTuple(q.builtinClass("tuple"), Union(elems...))
		}
		// A tuple keeps its elements' literal types (it is immutable);
		// a variable's declared type widens them.
		return TupleType(q.builtinClass("tuple"), elems...)
	case "dict":
		var keys, values []Type
		for i := 0; i+1 < len(args) && i < 2*maxDisplayEntries; i += 2 {
			if starred(i) != "" || starred(i+1) != "" {
				// `**m` brings m's keys and values (Unknown ones when
				// m is not a known mapping).
				k, v := unknownType, unknownType
				if m := q.expr(u, args[i]); m.Kind() == KindAny {
					k, v = m, m
				} else if m.Kind() == KindInstance && len(m.Args()) == 2 {
					k, v = m.Args()[0], m.Args()[1]
				}
				keys, values = append(keys, k), append(values, v)
				continue
			}
			keys = append(keys, widen(q.expr(u, args[i])))
			values = append(values, widen(q.expr(u, args[i+1])))
		}
		return emptyContainer(q.instanceOf("dict", combine(keys), combine(values)), len(args) == 0)
	}
	var elems []Type
	for i, a := range args {
		if i >= maxDisplayEntries {
			break
		}
		t := q.expr(u, a)
		if starred(i) != "" {
			t = q.iterate(t, false)
		}
		elems = append(elems, widen(t))
	}
	return emptyContainer(q.instanceOf(x.Name, combine(elems)), len(args) == 0)
}

// emptyContainer is t marked as an empty display's type when empty.
func emptyContainer(t Type, empty bool) Type {
	if !empty || t.Kind() != KindInstance {
		return t
	}
	d := *t.d
	d.emptyContainer = true
	return Type{&d}
}

// elementType is the type argument of a display: its elements' type
// when they all have the same one, else (and when empty) Unknown, as
// pyright infers a display without an expected type outside strict
// mode (`{"a": 1, "b": None}` is dict[str, Unknown]).
func elementType(ts []Type) Type {
	if len(ts) == 0 {
		return unknownType
	}
	for _, t := range ts[1:] {
		if !t.Equal(ts[0]) {
			return unknownType
		}
	}
	return ts[0]
}

// elementUnion is the type argument of a display with a type expected:
// the union of its elements, Unknown when empty.
func elementUnion(ts []Type) Type {
	if len(ts) == 0 {
		return unknownType
	}
	return Union(ts...)
}

func (q *query) comprehension(u Unit, x *navindex.Expr) Type {
	elem := widen(q.expr(u, x.A))
	switch x.Name {
	case "dict":
		return q.instanceOf("dict", elem, widen(q.expr(u, x.B)))
	case "generator":
		return q.typingInstance("Generator", elem, noneType, noneType)
	}
	return q.instanceOf(x.Name, elem)
}

// iterate is an element of iterating t: through __iter__ and __next__
// (async: __aiter__, __anext__, awaited), a tuple's elements, or
// __getitem__ with an int.
func (q *query) iterate(t Type, async bool) Type {
	if t.Kind() == KindUnion {
		// None is not iterated (pyright reports it and goes on with
		// the rest): list[str] | None gives str.
		var ts []Type
		for _, m := range t.Args() {
			if m.Kind() != KindNone {
				ts = append(ts, q.iterate(m, async))
			}
		}
		return Union(ts...)
	}
	if t.Kind() == KindTuple && !async {
		if len(t.Args()) == 0 {
			return neverType
		}
		return Union(t.Args()...)
	}
	if t.Kind() == KindAny {
		return anyType
	}
	iter, next := "__iter__", "__next__"
	if async {
		iter, next = "__aiter__", "__anext__"
	}
	if q.member(t, iter).Found() {
		r := q.callMethod(q.callMethod(t, iter), next)
		if async {
			r = q.await(r)
		}
		return r
	}
	if !async && q.member(t, "__getitem__").Found() {
		return q.callMethod(t, "__getitem__", q.instanceOf("int"))
	}
	return unknownType
}

// unpack is element B of unpacking A into Text targets (Name "*": the
// starred target, a list).
func (q *query) unpack(u Unit, x *navindex.Expr) Type {
	t := q.expr(u, x.A)
	if x.Name == "*" {
		return q.instanceOf("list", widen(q.iterate(t, false)))
	}
	if t.Kind() == KindUnion {
		// Each tuple of a union by position: a, b = (str, bool) | (Any,
		// bool) makes a str | Any, not every element's type.
		var ts []Type
		for _, m := range t.Args() {
			ts = append(ts, q.unpackOne(m, x))
		}
		return Union(ts...)
	}
	return q.unpackOne(t, x)
}

func (q *query) unpackOne(t Type, x *navindex.Expr) Type {
	if t.Kind() == KindTuple && !t.Variadic() {
		n, err := strconv.Atoi(x.Text)
		if (err != nil || n == len(t.Args())) && x.B >= 0 && int(x.B) < len(t.Args()) {
			return t.Args()[x.B]
		}
	}
	return q.iterate(t, false)
}

// enterContext is what `with` binds: __enter__'s result (async: __aenter__'s,
// awaited).
func (q *query) enterContext(t Type, async bool) Type {
	if async {
		return q.await(q.callMethod(t, "__aenter__"))
	}
	return q.callMethod(t, "__enter__")
}

// await is the result of awaiting t: a coroutine's third argument, an
// awaitable's through __await__'s generator return.
func (q *query) await(t Type) Type {
	if t.Kind() == KindUnion {
		var ts []Type
		for _, m := range t.Args() {
			ts = append(ts, q.await(m))
		}
		return Union(ts...)
	}
	if t.Kind() != KindInstance {
		return unknownType
	}
	switch t.Class().Name() {
	case "Coroutine", "CoroutineType":
		if len(t.Args()) == 3 {
			return t.Args()[2]
		}
	}
	g := q.callMethod(t, "__await__")
	if g.Kind() == KindInstance && len(g.Args()) == 3 {
		return g.Args()[2]
	}
	return unknownType
}

// withClassAlias is t, the type of name or attribute read e, marked as
// the implicit type alias the read names when it is one (classAliasName):
// pyright keeps the alias on the class object and on the instances it
// makes, and prints them by its name (flask's `app.response_class()` is
// `response_class`, requests' `builtin_str(x)` is `builtin_str`).
func (q *query) withClassAlias(u Unit, e int32, t Type) Type {
	if t.Kind() != KindClass {
		return t
	}
	if name := q.classAliasName(u, e, t, false); name != "" {
		return withAlias(t, name, nil)
	}
	return t
}

// keepClassAlias is inst, an instance class object t makes, printed as
// t's implicit alias when it has one.
func keepClassAlias(t, inst Type) Type {
	if t.Kind() != KindClass || t.d.alias == "" || t.d.aliasArgs != nil || inst.Class() != t.Class() {
		return inst
	}
	return withAlias(inst, t.d.alias, nil)
}

// classAliasName is the name of the implicit type alias callee
// expression e reads when it is one (a variable outside a function,
// unannotated, bound once to a name or attribute naming class object t:
// `response_class = Response` in a class body), "" otherwise. pyright's
// signature help prints the instance such a call makes by the alias's
// name (`() -> response_class`), its constructor's return being the
// alias converted to an instance, the alias kept; reveal_type of the
// call still says Response.
func (q *query) classAliasName(u Unit, e int32, t Type, inStubs bool) string {
	if t.Kind() != KindClass || !validExpr(u, e) {
		return ""
	}
	if op := u.Summary().Exprs[e].Op; op != navindex.ExprSym && op != navindex.ExprAttr {
		return ""
	}
	r := q.exprRef(u, e)
	// A stub's `local = _thread._local` is an alias to pyright's
	// signature help only (inStubs): its instances print as _local.
	if r.Unit == nil || r.Unit.IsStub() && !inStubs || !validSym(r.Unit, r.Sym) || q.inFunction(r.Unit, r.Sym) {
		return ""
	}
	defs := q.liveDefs(r.Unit, r.Sym)
	if len(defs) != 1 {
		return ""
	}
	d := &r.Unit.Summary().Defs[defs[0]]
	if d.Kind != navindex.KindVariable || d.Import || d.Annot >= 0 || !validExpr(r.Unit, d.Value) {
		return ""
	}
	if op := r.Unit.Summary().Exprs[d.Value].Op; op != navindex.ExprSym && op != navindex.ExprAttr {
		return ""
	}
	if owner := q.ownerOf(r.Unit, r.Sym); owner >= 0 && d.Flags&navindex.DefClassVar == 0 {
		return "" // self.x = C in a method is no alias
	}
	return r.Unit.Summary().Syms[r.Sym].Name
}
