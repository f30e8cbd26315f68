package pytypes

import (
	"fmt"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// mismatches are u's type-mismatch findings: each site of the summary
// (an assignment, a returned value, a call's argument) whose value's
// type the declared type surely rejects (rejects). Every uncertain case
// is silent: an unknown or Any on either side, a type variable, a
// protocol, a callable, a class whose bases are not all known, a
// decorated or overloaded callee, a call that does not bind (that is a
// call error, not a type error).
func (q *query) mismatches(u Unit) []Finding {
	s := u.Summary()
	var out []Finding
	for i := range s.Sites {
		st := &s.Sites[i]
		var msg string
		switch st.Kind {
		case navindex.SiteAssign:
			msg = q.assignMismatch(u, st)
		case navindex.SiteReturn:
			msg = q.returnMismatch(u, st)
		case navindex.SiteArgument:
			msg = q.argumentMismatch(u, st)
		case navindex.SiteAttribute:
			msg = q.attributeMismatch(u, st)
		}
		if msg != "" {
			out = append(out, Finding{Span: st.Span, Code: "type-mismatch", Message: msg})
		}
	}
	return out
}

func (q *query) assignMismatch(u Unit, st *navindex.Site) string {
	if !validDef(u, st.Def) {
		return ""
	}
	d := &u.Summary().Defs[st.Def]
	dst, ok := q.declaredFor(u, st.Def)
	if !ok || !validExpr(u, d.Value) {
		return ""
	}
	src := q.expr(u, d.Value)
	if !q.rejectsValue(u, d.Value, src, dst) {
		return ""
	}
	return fmt.Sprintf("Type %q is not assignable to declared type %q", q.text(src, 0), q.text(dst, 0))
}

// declaredFor is the declared type the value of binding di must fit:
// its own annotation, another binding's of the same name, or the
// annotation a base class gives a class variable. ok false when none
// declares a type (Final and ClassVar alone leave it to the value).
func (q *query) declaredFor(u Unit, di int32) (Type, bool) {
	d := &u.Summary().Defs[di]
	if d.Annot >= 0 {
		if !q.declaresType(u, d.Annot) {
			return Type{}, false
		}
		return q.annot(u, d.Annot, q.scopeOfDef(u, di)), true
	}
	for _, o := range q.liveDefs(u, d.Sym) {
		od := &u.Summary().Defs[o]
		switch od.Kind {
		case navindex.KindVariable:
			if od.Annot >= 0 && od.Flags&navindex.DefTypeAlias == 0 && q.declaresType(u, od.Annot) {
				return q.annot(u, od.Annot, q.scopeOfDef(u, o)), true
			}
		case navindex.KindParameter:
			if od.Annot >= 0 {
				return q.def(u, o), true
			}
			return Type{}, false
		default:
			return Type{}, false // a def or class bound to the same name
		}
	}
	if bu, bd := q.inheritedDeclarationDef(u, d.Sym); bu != nil {
		x := &bu.Summary().Defs[bd]
		// A variable a base annotates, or a cached_property (pyright's
		// declared type of the name); a method or property overridden
		// by a value is another rule's matter.
		t := q.def(bu, bd)
		switch {
		case x.Kind == navindex.KindVariable, t.Kind() == KindInstance && t.Class().Name() == "cached_property":
			return t, true
		case x.Kind == navindex.KindProperty && len(x.Decorators) == 0:
			// A value where a base has a property: pyright's declared
			// type is the property object.
			if p := q.instanceOf("property"); !p.IsUnknown() {
				return p, true
			}
		}
	}
	return Type{}, false
}

func (q *query) returnMismatch(u Unit, st *navindex.Site) string {
	if !validDef(u, st.Def) || !validExpr(u, st.Value) {
		return ""
	}
	d := &u.Summary().Defs[st.Def]
	if d.Annot < 0 || len(d.Decorators) > 0 || d.Flags&(navindex.DefGenerator|navindex.DefOverload) != 0 {
		return ""
	}
	dst := q.annot(u, d.Annot, q.scopeOfDef(u, st.Def))
	src := q.expr(u, st.Value)
	if !q.rejectsValue(u, st.Value, src, dst) {
		return ""
	}
	return fmt.Sprintf("Type %q is not assignable to return type %q", q.text(src, 0), q.text(dst, 0))
}

func (q *query) argumentMismatch(u Unit, st *navindex.Site) string {
	s := u.Summary()
	if !validExpr(u, st.Value) {
		return ""
	}
	call := &s.Exprs[st.Value]
	if st.Arg < 0 || int(st.Arg) >= len(call.Args) {
		return ""
	}
	f, name := q.checkedCallee(q.expr(u, call.A))
	if f == nil {
		return ""
	}
	// Placing needs the keywords only: the one argument judged is the
	// only one evaluated.
	args := make([]argument, len(call.Args))
	for i := range args {
		if j := i - (len(call.Args) - len(call.Keys)); j >= 0 {
			args[i].key = call.Keys[j]
		}
	}
	pl := q.place(f, args)
	params := f.Unit.Summary().Defs[f.Def].Params
	if pl.stop == len(args) && pl.missing {
		return "" // a call error
	}
	for _, k := range pl.params[:pl.stop] {
		if k < 0 {
			return "" // a call error
		}
	}
	k := -1
	if int(st.Arg) < pl.stop {
		k = pl.params[st.Arg]
	} else {
		// After an unpacked argument (which may fill any parameter left)
		// only a keyword's own parameter is certain.
		k = namedParam(params, pl.first, args[st.Arg].key)
	}
	if k < 0 {
		return ""
	}
	if pl.first == 1 && params[0].Annot >= 0 && !q.assignable(f.Bound, q.paramIn(f, 0)) {
		return "" // the receiver does not suit the method: not this site's error
	}
	var dst Type
	switch p := &params[k]; {
	case p.Annot >= 0:
		dst = q.paramIn(f, k)
	case p.HasDefault && (p.Kind == navindex.ParamNormal || p.Kind == navindex.ParamPosOnly || p.Kind == navindex.ParamKwOnly):
		// pyright declares an unannotated parameter with the type of its
		// default (raster=False: bool); None and containers say nothing.
		dst = q.paramType(f.Unit, f.Def, k, false)
	default:
		return ""
	}
	v := call.Args[st.Arg]
	src := q.expr(u, v)
	if !q.rejectsValue(u, v, src, dst) {
		return ""
	}
	return fmt.Sprintf("Argument of type %q cannot be assigned to parameter %q of type %q in function %q",
		q.text(src, 0), params[k].Name, q.text(dst, 0), name)
}

// attributeMismatch judges `obj.name = value` against the annotation
// that declares name in the class of obj (an instance, or self in a
// method): pyright's reportAttributeAccessIssue for a declared attribute,
// with its message on one line.
func (q *query) attributeMismatch(u Unit, st *navindex.Site) string {
	s := u.Summary()
	if !validSym(u, st.Sym) || !validExpr(u, st.Value) {
		return ""
	}
	y := &s.Syms[st.Sym]
	if !validExpr(u, y.Recv) {
		return ""
	}
	recv := q.expr(u, y.Recv)
	name := recv.Class().Name()
	switch recv.Kind() {
	case KindInstance:
	case KindSelf:
		name += "*" // pyright's mark of the synthesized self
	default:
		return ""
	}
	c := recv.Class()
	info := q.class(c)
	if info == nil || !q.judgeable(c) || len(info.typeParams) > 0 {
		return ""
	}
	if _, mi, _ := q.lookupMRO(info, "__setattr__", 0); mi == nil || mi.c != q.builtinClass("object") {
		return "" // a __setattr__ of its own may take anything
	}
	dst, ok := q.declaredAttribute(info, y.Name)
	if !ok {
		return ""
	}
	src := q.expr(u, st.Value)
	if !q.rejectsValue(u, st.Value, src, dst) {
		return ""
	}
	return fmt.Sprintf("Cannot assign to attribute %q for class %q: %q is not assignable to %q", y.Name, name, q.text(src, 0), q.text(dst, 0))
}

// declaredAttribute is the type the first annotation of attribute name
// in info's MRO declares (classes that only assign it, unannotated, are
// passed: the declaration is a base's); ok false when a class binds it
// otherwise (a method, a property, a class), a declaring class is
// generic, or the declared type is a descriptor (__set__ decides what
// it takes).
func (q *query) declaredAttribute(info *classInfo, name string) (Type, bool) {
	for _, m := range info.mro {
		mi := q.class(m.Class())
		if mi == nil {
			return Type{}, false
		}
		sym, ok := q.members(mi)[name]
		if !ok {
			continue
		}
		u := mi.c.Unit
		found := int32(-1)
		for _, di := range q.liveDefs(u, sym) {
			d := &u.Summary().Defs[di]
			if d.Kind != navindex.KindVariable {
				return Type{}, false
			}
			if found < 0 && d.Annot >= 0 && d.Flags&navindex.DefTypeAlias == 0 && q.declaresType(u, d.Annot) {
				found = di
			}
		}
		if found < 0 {
			continue
		}
		if len(mi.typeParams) > 0 {
			return Type{}, false
		}
		return q.descriptorFree(q.annot(u, u.Summary().Defs[found].Annot, q.scopeOfDef(u, found)))
	}
	return Type{}, false
}

// descriptorFree is t, ok false when a member of it is a descriptor.
func (q *query) descriptorFree(t Type) (Type, bool) {
	for _, m := range t.Members() {
		if m.Kind() == KindInstance && q.member(m, "__set__").Found() {
			return Type{}, false
		}
	}
	return t, true
}

// namedParam is the parameter keyword key names (from first on), -1
// when none does ("", "*", "**": none).
func namedParam(params []navindex.Param, first int, key string) int {
	switch key {
	case "", "*", "**":
		return -1
	}
	for i := first; i < len(params); i++ {
		if p := &params[i]; p.Name == key && p.Kind != navindex.ParamPosOnly && p.Kind != navindex.ParamVarArgs && p.Kind != navindex.ParamVarKwargs {
			return i
		}
	}
	return -1
}

// checkedCallee is the one def a call of callee runs, with its name as
// pyright names it: a function or bound method without decorators or
// overloads, or the __init__ of a class constructed through it alone
// (no __new__, no decorator, every base known); nil otherwise.
func (q *query) checkedCallee(callee Type) (*Function, string) {
	switch callee.Kind() {
	case KindFunction:
		f := callee.Func()
		if f == nil || f.Returns != nil || !validDef(f.Unit, f.Def) {
			return nil, ""
		}
		d := &f.Unit.Summary().Defs[f.Def]
		if len(d.Decorators) > 0 || d.Flags&navindex.DefOverload != 0 {
			return nil, ""
		}
		return f, f.Unit.Summary().Syms[d.Sym].Name
	case KindClass:
		c := callee.Class()
		info := q.class(c)
		if !q.judgeable(c) || len(info.typeParams) > 0 || len(callee.Args()) > 0 {
			return nil, ""
		}
		for _, m := range info.mro {
			mi := q.class(m.Class())
			if mi == nil {
				return nil, "" // a bound cut it short
			}
			if m.Class() == q.builtinClass("object") {
				continue
			}
			for _, dec := range m.Class().Unit.Summary().Defs[mi.def].Decorators {
				if !initPreserving[decoratorName(m.Class().Unit, dec)] {
					return nil, "" // a dataclass's __init__ is made, not written
				}
			}
		}
		if nw := q.classMember(callee, c, nil, "__new__", true); nw.Found() && nw.Class != q.builtinClass("object") {
			return nil, ""
		}
		init := q.classMember(Instance(c), c, nil, "__init__", false)
		if !init.Found() || init.Class == q.builtinClass("object") {
			return nil, ""
		}
		f, _ := q.checkedCallee(init.Type)
		if f == nil {
			return nil, ""
		}
		return f, "__init__"
	}
	return nil, ""
}

// initPreserving are class decorators that leave the class's own
// __init__ the constructor (memberPreserving's but dataclass, and
// Django's deconstructible, which only records the arguments).
var initPreserving = map[string]bool{"total_ordering": true, "unique": true, "runtime_checkable": true, "final": true, "deconstructible": true}

// judgeable reports whether assignability to or from instances of c can
// be decided: a class the evaluator knows with every base in its MRO
// known, no protocol (structural) and no TypedDict or NamedTuple
// (synthesized).
func (q *query) judgeable(c Class) bool {
	info := q.class(c)
	if info == nil || info.protocol || len(info.mro) == 0 || len(info.mro) >= maxMRO || typingObject(c) {
		return false
	}
	for _, m := range info.mro {
		// A protocol base (Sized) of a nominal class is fine.
		if mi := q.class(m.Class()); mi == nil || mi.partial {
			return false
		}
		switch m.Class().Name() {
		case "TypedDict", "NamedTuple", "_TypedDict":
			return false
		}
	}
	return true
}

// typingObject reports a class of typing's own machinery (_SpecialForm,
// TypeVar, NewType ...), whose instances a checker treats as types:
// isinstance(x, Callable) passes typing.Callable as a class.
func typingObject(c Class) bool {
	switch c.Unit.ModuleName() {
	case "typing", "typing_extensions":
	default:
		return false
	}
	switch n := c.Name(); n {
	case "TypeVar", "ParamSpec", "TypeVarTuple", "NewType", "TypeAliasType", "Generic", "Protocol":
		return true
	default:
		return len(n) > 0 && n[0] == '_'
	}
}

// flowDependent reports a value read from a name whose type here may be
// what an earlier statement of the flow assigned rather than what the
// evaluator gives it: an unannotated parameter (the evaluator answers
// its default's type) bound again in the body.
func (q *query) flowDependent(u Unit, v int32) bool {
	x := &u.Summary().Exprs[v]
	if x.Op != navindex.ExprSym || !validSym(u, x.A) {
		return false
	}
	defs := q.liveDefs(u, x.A)
	if len(defs) < 2 {
		return false
	}
	for _, d := range defs {
		if dd := &u.Summary().Defs[d]; dd.Kind == navindex.KindParameter && dd.Annot < 0 {
			return true
		}
	}
	return false
}

// rejectsValue is rejects for the value of expression v of u: a display
// or comprehension takes its element types from the declared type
// (pyright's expected type), so only its element types are judged, never
// the container's invariance.
func (q *query) rejectsValue(u Unit, v int32, src, dst Type) bool {
	inferred := false
	if validExpr(u, v) {
		if q.flowDependent(u, v) {
			return false
		}
		switch u.Summary().Exprs[v].Op {
		case navindex.ExprDisplay, navindex.ExprComp, navindex.ExprLambda:
			inferred = true
		case navindex.ExprCall, navindex.ExprSym:
			if src.Kind() == KindUnion && (q.declaredResult(u, v) || q.settledName(u, v)) {
				// Nothing narrows a call's result, nor more a name
				// already narrowed where it is read: a member the
				// declared type rejects is an error, as pyright reports
				// it.
				for _, m := range src.Args() {
					if q.rejects(m, dst, true, 0) {
						return true
					}
				}
				return false
			}
		}
	}
	return q.rejects(src, dst, !inferred, 0)
}

// settledName reports a name read v whose type the evaluator gives
// where it is read: narrowed along its flow (the summary's flow read)
// within its own scope (a closure's read of an outer name may be
// narrowed where the closure is defined), or an annotated parameter
// nothing binds again or names in a condition (no flow read: nothing
// narrows it).
func (q *query) settledName(u Unit, v int32) bool {
	x := &u.Summary().Exprs[v]
	if x.Op != navindex.ExprSym || !validSym(u, x.A) {
		return false
	}
	if x.B >= 0 {
		if !validFlow(u, x.B) {
			return false
		}
		w := &flowWalk{q: q, u: u, sym: x.A, memo: map[int32]flowResult{}, active: map[int32]bool{}}
		return w.at(x.B).reached && !w.outer && w.steps <= maxFlowSteps
	}
	defs := q.liveDefs(u, x.A)
	if len(defs) != 1 {
		return false
	}
	d := &u.Summary().Defs[defs[0]]
	return d.Kind == navindex.KindParameter
}

// declaredResult reports a call of expression v whose result type is
// declared, not inferred: a function or bound method (one, not a union
// of receivers' methods), or its overloads, annotated with a return
// type or from a stub, without decorators.
func (q *query) declaredResult(u Unit, v int32) bool {
	if u.Summary().Exprs[v].Op != navindex.ExprCall {
		return false
	}
	callee := q.expr(u, u.Summary().Exprs[v].A)
	fns := []Type{callee}
	switch callee.Kind() {
	case KindOverloaded:
		fns = callee.Args()
	case KindFunction:
	default:
		return false
	}
	for _, ft := range fns {
		f := ft.Func()
		if f == nil || f.Returns != nil || !validDef(f.Unit, f.Def) {
			return false
		}
		d := &f.Unit.Summary().Defs[f.Def]
		if len(d.Decorators) > 0 || d.Annot < 0 && !f.Unit.IsStub() {
			return false
		}
	}
	return len(fns) > 0
}

// maxRejectDepth bounds rejects' walk through type arguments.
const maxRejectDepth = 8

// rejects reports whether a value of type src is surely not assignable
// to declared type dst. It is a conservative subtype check: a union
// source is rejected only when every member is (narrowing may have left
// any one), a union destination when every member rejects; classes by
// MRO (not when dst derives from src: isinstance may have narrowed),
// None, literals, the numeric promotions (bool to int, int to float and
// complex, float to complex), tuples by length and elements, type
// arguments covariantly, and invariantly for builtin mutable containers
// when invariant is set (the value was not built against the declared
// type). Anything else is not rejected.
func (q *query) rejects(src, dst Type, invariant bool, depth int) bool {
	if depth > maxRejectDepth || !known(src) {
		return false
	}
	switch dst.Kind() {
	case KindUnion:
		for _, m := range dst.Args() {
			if !q.rejects(src, m, invariant, depth+1) {
				return false
			}
		}
		return len(dst.Args()) > 0
	case KindNone, KindLiteral, KindInstance, KindTuple:
	case KindClass:
		return q.rejectsClassObject(src, dst, depth)
	default:
		return false // Unknown, Any, Never, type variables, Self, callables
	}
	if src.Kind() == KindUnion {
		for _, m := range src.Args() {
			if !q.rejects(m, dst, invariant, depth+1) {
				return false
			}
		}
		return len(src.Args()) > 0
	}
	switch src.Kind() {
	case KindNone, KindLiteral, KindInstance, KindTuple:
	default:
		return false
	}
	switch dst.Kind() {
	case KindNone:
		if src.Kind() == KindNone {
			return false
		}
		return src.Kind() == KindLiteral || q.judgeableInstance(src)
	case KindLiteral:
		switch src.Kind() {
		case KindNone:
			return true
		case KindLiteral:
			return plainLiteral(src) && plainLiteral(dst) && (src.Class() != dst.Class() || src.Text() != dst.Text())
		}
		return false // a declared str may have been narrowed to the literal
	case KindTuple:
		return q.rejectsTuple(src, dst, invariant, depth)
	}
	return q.rejectsInstance(src, dst, invariant, depth)
}

// rejectsClassObject: where a class object type[C] is declared, None, a
// literal or an instance of a class that is no class (its class does
// not derive from type) is surely rejected; other class objects are not
// judged.
func (q *query) rejectsClassObject(src, dst Type, depth int) bool {
	if !dst.Class().Valid() {
		return false // type[T], type[Self]
	}
	if src.Kind() == KindUnion {
		for _, m := range src.Args() {
			if !q.rejectsClassObject(m, dst, depth+1) {
				return false
			}
		}
		return len(src.Args()) > 0
	}
	switch src.Kind() {
	case KindNone:
		return true
	case KindLiteral, KindInstance, KindTuple:
		tc := q.builtinClass("type")
		return tc.Valid() && q.judgeableInstance(src) && !q.derivesFrom(src.Class(), tc)
	}
	return false
}

// known reports that t has no Unknown at its top (a union member
// counts): an argument type inferred from a partly unknown value is
// not judged.
func known(t Type) bool {
	switch t.Kind() {
	case KindUnknown, KindAny:
		return false
	case KindUnion:
		for _, m := range t.Args() {
			if !known(m) {
				return false
			}
		}
	}
	return true
}

// plainLiteral is a literal of int, str, bytes or bool (not an enum's).
func plainLiteral(t Type) bool {
	c := t.Class()
	if !c.Valid() || c.Unit.ModuleName() != "builtins" {
		return false
	}
	switch c.Name() {
	case "int", "str", "bytes", "bool":
		return true
	}
	return false
}

// judgeableInstance is an instance (a literal, a tuple) of a class
// whose assignability can be decided.
func (q *query) judgeableInstance(t Type) bool {
	switch t.Kind() {
	case KindInstance:
		// A descriptor (__get__) read through its owner is what __get__
		// returns, which the evaluator does not apply everywhere.
		return !t.d.literalString && q.judgeable(t.Class()) && !q.member(t, "__get__").Found()
	case KindLiteral, KindTuple:
		return t.Class().Valid() && q.judgeable(t.Class())
	}
	return false
}

func (q *query) rejectsTuple(src, dst Type, invariant bool, depth int) bool {
	if src.Kind() != KindTuple {
		if src.Kind() == KindNone || src.Kind() == KindLiteral {
			return true
		}
		// An instance of a class that is no tuple.
		tc := dst.Class()
		if !tc.Valid() || !q.judgeableInstance(src) {
			return false
		}
		_, ok := q.asBase(src, tc)
		return !ok && !q.derivesFrom(tc, src.Class())
	}
	de, se := dst.Args(), src.Args()
	switch {
	case dst.Variadic() && len(de) == 1:
		for _, e := range se {
			if q.rejects(e, de[0], invariant, depth+1) {
				return true
			}
		}
		return false
	case src.Variadic():
		return false // an indeterminate length may be any
	case len(de) != len(se):
		return true
	}
	for i := range de {
		if q.rejects(se[i], de[i], invariant, depth+1) {
			return true
		}
	}
	return false
}

// invariantContainers are the builtin mutable containers whose type
// arguments are invariant.
var invariantContainers = map[string]bool{"list": true, "dict": true, "set": true}

func (q *query) rejectsInstance(src, dst Type, invariant bool, depth int) bool {
	dc := dst.Class()
	if dst.d.literalString || !q.judgeable(dc) {
		return false
	}
	if dc == q.builtinClass("object") {
		return false
	}
	if src.Kind() == KindNone {
		return dc.Name() != "NoneType"
	}
	if !q.judgeableInstance(src) {
		return false
	}
	sc := src.Class()
	base, ok := q.asBase(src, dc)
	if !ok {
		if sc.Name() == dc.Name() {
			// One class reached through two units (a package's source
			// and its stub, a vendored copy): never "C is not
			// assignable to C".
			return false
		}
		if sc.Unit.ModuleName() == "builtins" && dc.Unit.ModuleName() == "builtins" {
			for _, p := range numericPromotions[sc.Name()] {
				if p == dc.Name() {
					return false
				}
			}
			switch sc.Name() {
			case "bytearray", "memoryview":
				if dc.Name() == "bytes" {
					return false // bytes promotions: checkers differ
				}
			}
		}
		// dst derived from src: isinstance may have narrowed the value.
		return !q.derivesFrom(dc, sc)
	}
	args, bargs := dst.Args(), base.Args()
	for i, a := range args {
		if i >= len(bargs) {
			break
		}
		if q.rejects(bargs[i], a, invariant, depth+1) {
			return true
		}
	}
	if invariant && invariantContainers[dc.Name()] && dc.Unit.ModuleName() == "builtins" && len(args) == len(bargs) {
		for i, a := range args {
			// Invariance: the declared argument must fit the value's too.
			if fullyKnown(a) && fullyKnown(bargs[i]) && q.rejects(a, bargs[i], true, depth+1) {
				return true
			}
		}
	}
	return false
}

// fullyKnown reports that t has no Unknown, Any or type variable
// anywhere inside.
func fullyKnown(t Type) bool {
	switch t.Kind() {
	case KindUnknown, KindAny, KindTypeVar, KindSelf:
		return false
	}
	for _, a := range t.Args() {
		if !fullyKnown(a) {
			return false
		}
	}
	return true
}

// derivesFrom reports whether class c has base among its MRO.
func (q *query) derivesFrom(c, base Class) bool {
	info := q.class(c)
	if info == nil {
		return true // unknown: assume it may
	}
	for _, m := range info.mro {
		if m.Class() == base {
			return true
		}
	}
	return false
}
