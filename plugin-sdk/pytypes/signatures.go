package pytypes

import (
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Signature is one way to call a callee, as signature help shows it.
type Signature struct {
	// Label is `(a: int, b: str = "x") -> None` in pyright's notation;
	// Params the labels of its parameters, in order, with pyright's "/",
	// "*" and "..." entries.
	Label  string
	Params []string
	// Func is the def it comes from (for its docstring); Class the class
	// a constructor makes (zero otherwise).
	Func  Function
	Class Class
	// of is the Params entry of each of the def's parameters (-1 none).
	of []int
	// callable: a Callable type's, without a def (Func is zero), or a
	// functools.partial's, its Func the def it binds.
	callable bool
	// names are the parameter names of a callable's Params ("" none),
	// which a keyword argument makes active.
	names []string
}

// SignatureHelp is what signature help shows in a call's arguments.
type SignatureHelp struct {
	// Signatures are the callee's, one per overload; Active the first
	// whose parameters take the arguments written up to the cursor's, and
	// ActiveParam the Params entry the cursor's argument fills there
	// (len(Params) none, -1 no Params).
	Signatures          []Signature
	Active, ActiveParam int
}

// SignatureHelp is signature help inside call expression call of u
// (navindex.ExprCall) with the cursor in written argument arg; keys are
// the written arguments' keywords in order ("" positional, "*", "**"),
// navindex.Call's Keys. Empty when the callee is not known callable.
func (e *Evaluator) SignatureHelp(u Unit, call int32, arg int, keys []string) SignatureHelp {
	if u == nil || !validExpr(u, call) || u.Summary().Exprs[call].Op != navindex.ExprCall {
		return SignatureHelp{}
	}
	q := e.query()
	if name, fields := q.namedTuple(u, u.Summary().Exprs[call].A); name != "" {
		return namedTupleHelp(name, fields, keys, arg)
	}
	callee := q.expr(u, u.Summary().Exprs[call].A)
	if callee.Kind() == KindClass && (callee.d == nil || callee.d.alias == "") {
		// A stub's alias names the instance its constructor makes here
		// (`threading.local()` helps as `() -> local`).
		if name := q.classAliasName(u, u.Summary().Exprs[call].A, callee, true); name != "" {
			callee = withAlias(callee, name, nil)
		}
	}
	var out SignatureHelp
	for _, s := range q.signatures(callee) {
		if s.callable || validDef(s.Func.Unit, s.Func.Def) {
			out.Signatures = append(out.Signatures, s)
		}
	}
	if len(out.Signatures) == 0 {
		return SignatureHelp{}
	}
	for i := range out.Signatures {
		if out.Signatures[i].callable {
			break
		}
		if _, ok := q.bindWritten(&out.Signatures[i].Func, keys, arg); ok {
			out.Active = i
			break
		}
	}
	// The active signature as the call specializes it, as pyright shows
	// it: its type variables solved from the arguments' types.
	a := &out.Signatures[out.Active]
	*a = q.specialized(*a, q.arguments(u, &u.Summary().Exprs[call]))
	out.ActiveParam = q.activeEntry(&out.Signatures[out.Active], keys, arg)
	return out
}

// namedTuple is the type name of the class collections.namedtuple made
// that callee expression e reads (`PathInfo = namedtuple("PathInfo",
// "a b")`), "" when it reads no such class, and its field names when
// written as literals.
func (q *query) namedTuple(u Unit, e int32) (name string, fields []string) {
	if !validExpr(u, e) {
		return "", nil
	}
	if op := u.Summary().Exprs[e].Op; op != navindex.ExprSym && op != navindex.ExprAttr {
		return "", nil
	}
	r := q.exprRef(u, e)
	if r.Unit == nil || !validSym(r.Unit, r.Sym) {
		return "", nil
	}
	defs := q.liveDefs(r.Unit, r.Sym)
	if len(defs) != 1 {
		return "", nil
	}
	s := r.Unit.Summary()
	d := &s.Defs[defs[0]]
	if d.Kind != navindex.KindVariable || !validExpr(r.Unit, d.Value) || s.Exprs[d.Value].Op != navindex.ExprCall {
		return "", nil
	}
	x := &s.Exprs[d.Value]
	f := q.exprRef(r.Unit, x.A)
	if f.Unit == nil || !validSym(f.Unit, f.Sym) || f.Unit.ModuleName() != "collections" || f.Unit.Summary().Syms[f.Sym].Name != "namedtuple" {
		return "", nil
	}
	name = s.Syms[r.Sym].Name
	lit := func(i int32) (string, bool) {
		if validExpr(r.Unit, i) {
			if a := &s.Exprs[i]; a.Op == navindex.ExprLit && a.Name == "str" {
				return unquote(a.Text), true
			}
		}
		return "", false
	}
	if len(x.Args) > 0 {
		if t, ok := lit(x.Args[0]); ok {
			name = t
		}
	}
	if len(x.Args) > 1 && len(x.Args)-len(x.Keys) > 1 {
		if t, ok := lit(x.Args[1]); ok {
			fields = strings.Fields(strings.ReplaceAll(t, ",", " "))
		} else if validExpr(r.Unit, x.Args[1]) && s.Exprs[x.Args[1]].Op == navindex.ExprDisplay {
			for _, el := range s.Exprs[x.Args[1]].Args {
				t, ok := lit(el)
				if !ok {
					return name, nil
				}
				fields = append(fields, t)
			}
		}
	}
	return name, fields
}

// namedTupleHelp is signature help for a call of namedtuple class name:
// pyright synthesizes its __init__ as (*args: Any, **kwargs: Any), shown
// first and active (a keyword argument is the **kwargs's), then the
// __new__ naming the fields.
func namedTupleHelp(name string, fields, keys []string, arg int) SignatureHelp {
	out := SignatureHelp{Signatures: []Signature{{Label: "(*args: Any, **kwargs: Any) -> " + name, Params: []string{"*args: Any", "**kwargs: Any"}, callable: true}}}
	if arg < len(keys) && keys[arg] != "" && keys[arg] != "*" {
		out.ActiveParam = 1
	}
	if len(fields) > 0 {
		params := make([]string, len(fields))
		for i, f := range fields {
			params[i] = f + ": Unknown"
		}
		out.Signatures = append(out.Signatures, Signature{Label: "(" + strings.Join(params, ", ") + ") -> " + name, Params: params, callable: true})
	}
	return out
}

// activeEntry is the Params entry of s written argument arg fills;
// len(s.Params) when none does, as pyright answers (an argument past the
// parameters, a **x, a keyword only unannotated **kwargs printed in
// "..." would take), -1 when s has no parameters.
func (q *query) activeEntry(s *Signature, keys []string, arg int) int {
	if len(s.Params) == 0 {
		return -1 // pyright names none
	}
	if s.callable {
		key := ""
		if arg < len(keys) {
			key = keys[arg]
		}
		switch {
		case key != "" && key != "*":
			if i := slices.Index(s.names, key); i >= 0 {
				return i
			}
			return len(s.Params) // a Callable's parameters have no names
		case s.Params[0] == "..." || s.Params[0][0] == '*':
			return 0
		}
		return min(arg, len(s.Params))
	}
	p, _ := q.bindWritten(&s.Func, keys, arg)
	if p < 0 {
		return len(s.Params)
	}
	key := ""
	if arg < len(keys) {
		key = keys[arg]
	}
	params := s.Func.Unit.Summary().Defs[s.Func.Def].Params
	if key != "" && key != "*" && params[p].Kind == navindex.ParamVarKwargs && s.Params[s.of[p]] == "..." {
		return len(s.Params)
	}
	return s.of[p]
}

// specialized is s with its type variables solved from the call's
// arguments; those left (a generic class's the receiver did not give
// included) are Unknown.
func (q *query) specialized(s Signature, args []argument) Signature {
	if s.callable {
		return s
	}
	f := s.Func
	params := f.Unit.Summary().Defs[f.Def].Params
	got := make([]Type, len(params))
	sol, ok := q.bindArgs(&f, args, true, got)
	if !ok && q.placesAll(&f, args) {
		// Every argument finds its parameter, some of the wrong type:
		// pyright still shows what they solve (`sorted(xs, key=f)` of an
		// unknown xs helps its key=None overload as Iterable[Unknown]).
		sol, ok = q.bindArgs(&f, args, false, got)
	}
	if !ok {
		// Not the overload the call takes: only what the receiver says of
		// an annotated self (its type variables Unknown when it says
		// nothing), as pyright shows it.
		sol, ok := q.selfSolution(&f)
		if !ok {
			return s
		}
		return q.signatureWith(f, s.Class, func(_ int, t Type) Type {
			if !hasScopedTypeVar(t) {
				return t
			}
			return substitute(t, sol, Type{}, false)
		})
	}
	boundInit := f.BoundSet && f.Unit.Summary().Syms[f.Unit.Summary().Defs[f.Def].Sym].Name == "__init__"
	return q.signatureWith(f, s.Class, func(i int, t Type) Type {
		// A constructor's unannotated parameter without a default shows
		// the type of the argument the call gives it, as pyright's
		// constructor check infers it (`AdminField(form, "f", True)`
		// helps as `(form: Unknown, field: str, is_first: bool)`), and so
		// does a bound __init__'s (`super().__init__(table, columns)`);
		// a plain call, and `Base.__init__(self, ...)`, keep Unknown.
		if (s.Class.Valid() || boundInit) && i >= 0 && params[i].Annot < 0 && !params[i].HasDefault && t.IsUnknown() && !got[i].IsUnknown() {
			return widen(got[i])
		}
		if !hasScopedTypeVar(t) {
			return t // as written: its alias kept
		}
		// The type variables the arguments left unsolved are Unknown;
		// one an argument's type brings (an enclosing def's AnyStr passed
		// on) stays, as pyright prints it.
		forTypeVars(t, func(tv Type) {
			v, ok := sol[tv.typeVarKey()]
			// A constructor's receiver is its class's own parameters:
			// solving one from it solves nothing.
			if !ok || s.Class.Valid() && v.Kind() == KindTypeVar && v.typeVarKey() == tv.typeVarKey() && tv.Scope() == s.Class.Name() {
				sol[tv.typeVarKey()] = unknownType
			}
		})
		return substitute(t, sol, Type{}, false)
	})
}

// placesAll reports every argument of a call placed on a parameter of
// f and no required parameter left, the receiver suiting an annotated
// self: pyright's arity check, before the arguments' types.
func (q *query) placesAll(f *Function, args []argument) bool {
	params := f.Unit.Summary().Defs[f.Def].Params
	pl := q.place(f, args)
	if pl.missing || pl.first == 1 && params[0].Annot >= 0 && !q.assignable(f.Bound, q.paramIn(f, 0)) {
		return false
	}
	for i := 0; i < len(args) && i < pl.stop; i++ {
		if pl.params[i] < 0 {
			return false
		}
	}
	return true
}

// selfSolution is what the receiver f is bound to says of the type
// variables of its annotated self (those it says nothing of Unknown);
// ok false when f has no annotated self bound.
func (q *query) selfSolution(f *Function) (map[string]Type, bool) {
	params := f.Unit.Summary().Defs[f.Def].Params
	if !f.BoundSet || len(params) == 0 || params[0].Annot < 0 || params[0].Kind == navindex.ParamVarArgs {
		return nil, false
	}
	pt := q.paramIn(f, 0)
	sol := map[string]Type{}
	q.solve(pt, f.Bound, sol)
	forTypeVars(pt, func(tv Type) {
		if _, ok := sol[tv.typeVarKey()]; !ok {
			sol[tv.typeVarKey()] = unknownType
		}
	})
	return sol, true
}

// signatures are the ways to call a value of type t: a def, each
// overload, a class's constructor (its __init__, else its __new__,
// returning the instance), an instance's __call__.
func (q *query) signatures(t Type) []Signature {
	switch t.Kind() {
	case KindFunction:
		return []Signature{q.signature(*t.Func(), Class{})}
	case KindOverloaded:
		var out []Signature
		for _, o := range t.Args() {
			if f := o.Func(); f != nil {
				out = append(out, q.signature(*f, Class{}))
			}
		}
		return out
	case KindClass:
		return q.constructorSignatures(t)
	case KindCallable:
		return []Signature{q.callableSignature(t)}
	case KindInstance, KindSelf:
		if t.d.partial != nil {
			return []Signature{q.partialSignature(t)}
		}
		if m := q.member(t, "__call__"); m.Found() && m.Type.Kind() != KindInstance {
			return q.signatures(m.Type)
		}
	case KindUnion:
		// Each callable member's, as pyright lists them (a name bound to
		// several callables where it is read, an import or its fallback
		// class); an Any or Unknown member offers none (`str | Any`
		// helps as str).
		var out []Signature
		for _, m := range t.Members() {
			if m.Kind() != KindUnion {
				out = append(out, q.signatures(m)...)
			}
		}
		return out
	}
	return nil
}

// constructorSignatures are class object t's __init__ (else __new__)
// signatures, each returning the instance made (printed as t's implicit
// alias when it has one, classAliasName).
func (q *query) constructorSignatures(t Type) []Signature {
	c := t.Class()
	info := q.class(c)
	if info == nil {
		return nil
	}
	inst := Instance(c, info.typeParams...)
	if len(t.Args()) > 0 {
		inst = instanceOfClassObject(t)
	}
	inst = keepClassAlias(t, inst)
	object := q.builtinClass("object")
	var objectInit MemberInfo
	for _, name := range []string{"__init__", "__new__"} {
		var m MemberInfo
		if name == "__init__" {
			m = q.classMember(Instance(c, info.typeParams...), c, info.typeParams, name, false)
		} else {
			m = q.classMember(ClassObject(c, info.typeParams...), c, info.typeParams, name, true)
		}
		if !m.Found() {
			continue
		}
		if m.Class == object {
			if name == "__init__" {
				objectInit = m // `() -> C` when nothing else is declared
			}
			continue
		}
		if sigs := q.signatures(m.Type); len(sigs) > 0 { // an __init__ only for old versions is no signature
			return q.constructs(sigs, name == "__init__", c, inst)
		}
	}
	// A decorated class (a dataclass) may have an __init__ it synthesizes.
	if d := q.classDef(c); objectInit.Found() && d >= 0 && !q.synthesizesInit(c.Unit, d) {
		return q.constructs(q.signatures(objectInit.Type), true, c, inst)
	}
	return nil
}

// synthesizesInit reports class def d decorated other than by the
// decorators known to leave its constructor alone (typeshed's
// @disjoint_base, @type_check_only, @runtime_checkable,
// @total_ordering): a dataclass-like decorator may give it an __init__.
func (q *query) synthesizesInit(u Unit, d int32) bool {
	for _, dec := range u.Summary().Defs[d].Decorators {
		if !validExpr(u, dec) {
			return true
		}
		x := &u.Summary().Exprs[dec]
		name := x.Name
		if x.Op == navindex.ExprSym && validSym(u, x.A) {
			name = u.Summary().Syms[x.A].Name
		} else if x.Op != navindex.ExprAttr {
			return true
		}
		switch name {
		case "disjoint_base", "type_check_only", "runtime_checkable", "total_ordering":
		default:
			return true
		}
	}
	return false
}

// constructs marks sigs as making instance inst of c: an __init__'s
// (init) return the instance.
func (q *query) constructs(sigs []Signature, init bool, c Class, inst Type) []Signature {
	for i := range sigs {
		if init {
			f := sigs[i].Func
			f.Returns = &inst
			sigs[i] = q.signature(f, c)
		}
		sigs[i].Class = c
	}
	return sigs
}

// callableSignature is a Callable type's signature, as pyright prints it:
// `(int, str) -> R`, `(...) -> R`, each parameter its type.
func (q *query) callableSignature(t Type) Signature {
	var params []string
	switch {
	case t.d.paramSpec:
		params = []string{"**" + q.text(t.Args()[0], 0)}
	case t.Variadic():
		params = []string{"..."}
	default:
		for _, a := range t.Args() {
			params = append(params, q.text(a, 0))
		}
	}
	var b strings.Builder
	b.WriteString("(" + strings.Join(params, ", ") + ") -> ")
	q.printDepth(&b, t.Return(), parenUnion|parenCallable, 1)
	return Signature{Label: b.String(), Params: params, callable: true}
}

// signature is f's label and parameter labels.
func (q *query) signature(f Function, c Class) Signature { return q.signatureWith(f, c, nil) }

// signatureWith is signature with fix (when set) rewriting each type
// printed: parameter i's, the return's with i -1.
func (q *query) signatureWith(f Function, c Class, fix func(i int, t Type) Type) Signature {
	if !validDef(f.Unit, f.Def) {
		return Signature{Func: f, Class: c}
	}
	labels, of := q.paramLabels(&f, 0, fix)
	var b strings.Builder
	b.WriteString("(" + strings.Join(labels, ", ") + ") -> ")
	self, hasSelf := f.selfType()
	r := substitute(q.declaredReturn(&f), f.Subst, self, hasSelf)
	if fix != nil {
		r = fix(-1, r)
	}
	q.printDepth(&b, r, parenUnion|parenCallable, 1)
	return Signature{Label: b.String(), Params: labels, Func: f, Class: c, of: of}
}

// bindWritten binds written arguments 0..arg (keyed as keys, an
// argument past keys positional) to f's parameters by position and
// keyword, as a call would: the parameter argument arg fills (-1 none),
// ok when each of them found one, the receiver suits an annotated self,
// and no required positional-only parameter is left behind a keyword.
func (q *query) bindWritten(f *Function, keys []string, arg int) (param int, ok bool) {
	params := f.Unit.Summary().Defs[f.Def].Params
	first := 0
	if f.BoundSet && len(params) > 0 && params[0].Kind != navindex.ParamVarArgs {
		first = 1
		if params[0].Annot >= 0 && !q.assignable(f.Bound, q.paramIn(f, 0)) {
			return -1, false // str.strip's LiteralString overload for a str
		}
	}
	pi := first
	param = -1
	keyword := false
	defer func() {
		for i := pi; ok && keyword && i < len(params) && params[i].Kind == navindex.ParamPosOnly; i++ {
			if !params[i].HasDefault {
				param, ok = -1, false // dict.update(k=v) is not update(m, /, **kwargs)
			}
		}
	}()
	for j := 0; j <= arg; j++ {
		key := ""
		if j < len(keys) {
			key = keys[j]
		} else if arg >= len(keys) && j == arg {
			// The cursor's argument is not written yet (`f(` or `f(a, `):
			// it takes the next positional parameter if any, and rules no
			// signature out.
			defer func() {
				if !ok {
					param, ok = -1, true
				}
			}()
		}
		param = -1
		keyword = keyword || key != "" && key != "*"
		switch key {
		case "**": // an unpacked **x fills no one parameter, and fits any
			if j == arg {
				return -1, true
			}
			continue
		case "*":
			// An unpacked *x may fill every positional parameter left:
			// pyright names the last (or *args).
			for pi < len(params) && params[pi].Kind != navindex.ParamKwOnly && params[pi].Kind != navindex.ParamVarKwargs {
				param = pi
				if params[pi].Kind == navindex.ParamVarArgs {
					break
				}
				pi++
			}
		case "":
			for pi < len(params) && (params[pi].Kind == navindex.ParamKwOnly || params[pi].Kind == navindex.ParamVarKwargs) {
				pi++
			}
			if pi < len(params) {
				param = pi
				if params[pi].Kind != navindex.ParamVarArgs {
					pi++
				}
			}
		default:
			for i := first; i < len(params); i++ {
				k := params[i].Kind
				if params[i].Name == key && k != navindex.ParamPosOnly && k != navindex.ParamVarArgs && k != navindex.ParamVarKwargs {
					param = i
					break
				}
			}
			if param < 0 {
				for i := first; i < len(params); i++ {
					if params[i].Kind == navindex.ParamVarKwargs {
						param = i
					}
				}
			}
		}
		if param < 0 {
			return -1, false
		}
	}
	return param, true
}

func hasScopedTypeVar(t Type) bool {
	found := false
	forTypeVars(t, func(Type) { found = true })
	return found
}

// forTypeVars calls fn with each scoped type variable of t (not inside
// a def's type).
func forTypeVars(t Type, fn func(Type)) {
	switch t.Kind() {
	case KindTypeVar:
		if t.Scope() != "" {
			fn(t)
		}
		return
	case KindFunction:
		return
	}
	if t.d == nil {
		return
	}
	for _, a := range t.d.args {
		forTypeVars(a, fn)
	}
	if t.d.ret.d != nil {
		forTypeVars(t.d.ret, fn)
	}
}
