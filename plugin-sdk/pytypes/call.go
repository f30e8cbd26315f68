package pytypes

import (
	"slices"
	"sort"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// call is the result of calling a value of type callee.
func (q *query) call(callee Type, args []argument) Type {
	switch callee.Kind() {
	case KindAny:
		return anyType
	case KindClass:
		return keepClassAlias(callee, q.bindPartial(q.construct(callee, args), args))
	case KindOverloaded:
		if r, ok := q.callOverloads(callee, args); ok {
			return r
		}
	case KindFunction:
		if f, sol := q.selectOverload(callee, args); f != nil {
			r := q.returnOf(f, sol)
			if callee.Kind() == KindFunction && q.partlyUnknown(r, 0) {
				if cs, ok := q.callSiteReturn(f, args); ok {
					return cs
				}
			}
			return r
		}
	case KindCallable:
		if callee.d.paramSpec || callee.d.variadic {
			return callee.Return()
		}
		// Type variables its parameters name are solved by the
		// arguments (a decorator lru_cache(maxsize=None) returned).
		sol := map[string]Type{}
		for i, p := range callee.Args() {
			if i < len(args) && args[i].key == "" {
				q.solve(p, args[i].t, sol)
			}
		}
		if len(sol) == 0 {
			return callee.Return()
		}
		return substitute(callee.Return(), sol, Type{}, false)
	case KindInstance, KindSelf:
		if m := q.member(callee, "__call__"); m.Found() {
			return q.call(m.Type, args)
		}
	case KindUnion:
		// Each member's result in pyright's order of the members
		// (pyrightOrder): `q.copy()` of a `q = p if p is not None else
		// {}` is `dict[Unknown, Unknown] | Unknown`. A None member is
		// pyright's reportOptionalCall and adds nothing: calling
		// `None | (x) -> str` is `str`.
		var ts []Type
		for _, m := range q.pyrightOrder(callee.Args()) {
			if m.Kind() != KindNone {
				ts = append(ts, q.call(m, args))
			}
		}
		if len(ts) == 0 {
			return unknownType
		}
		return Union(ts...)
	}
	return unknownType
}

// callWritten is the result of a call written in the source. Arguments
// a plain function does not take are an error at the call, not a reason
// to forget what it returns (pyright's rule); only overloads need a
// match to choose a return. Operators keep call's strictness: a failed
// __add__ must leave the reflected __radd__ its turn.
func (q *query) callWritten(callee Type, args []argument) Type {
	r := q.call(callee, args)
	if f := callee.Func(); r.IsUnknown() && callee.Kind() == KindFunction && f != nil && validDef(f.Unit, f.Def) {
		sol, _ := q.bind(f, args, false)
		return q.returnOf(f, sol)
	}
	return r
}

// construct is calling class object t: an instance, its type arguments
// given, else solved from __init__'s parameters, else Unknown.
func (q *query) construct(t Type, args []argument) Type {
	c := t.Class()
	if !c.Valid() {
		return instanceOfClassObject(t)
	}
	if c.Name() == "type" && c.Unit.ModuleName() == "builtins" && len(args) == 1 && args[0].key == "" {
		if args[0].t.IsUnknown() {
			// pyright's type[Unknown]: its attributes are type's
			// (`type(loader).__name__` is str).
			return ClassObject(Class{}, unknownType)
		}
		return classObjectOf(args[0].t)
	}
	if c.Name() == "type" && c.Unit.ModuleName() == "builtins" && len(args) == 3 && args[0].key == "" && args[0].t.IsUnknown() {
		// type(name, bases, namespace) makes a class pyright names after
		// a str name; with an Unknown name it makes none and the call is
		// Any (Django's create_many_to_many_intermediary_model).
		return anyType
	}
	if len(t.Args()) > 0 {
		return Instance(c, t.Args()...)
	}
	if c.Name() == "tuple" && c.Unit.ModuleName() == "builtins" {
		// tuple(x) has x's elements, as many as there are.
		elem := unknownType
		if len(args) == 1 && args[0].key == "" {
			elem = widen(q.iterate(args[0].t, false))
		}
		return HomogeneousTuple(c, elem)
	}
	info := q.class(c)
	if info == nil || len(info.typeParams) == 0 {
		return Instance(c)
	}
	// A __new__ declaring what it makes (zip, enumerate) decides.
	if nw := q.classMember(ClassObject(c, info.typeParams...), c, info.typeParams, "__new__", true); nw.Found() && nw.Class != q.builtinClass("object") {
		if f, sol := q.selectOverload(nw.Type, args); f != nil {
			r := q.returnOf(f, sol)
			if r.Kind() == KindInstance && r.Class() == c && len(r.Args()) == len(info.typeParams) || q.skipsInit(r, c) {
				// What the arguments left unsolved is Unknown:
				// enumerate(unknown) is enumerate[Unknown].
				return eraseTypeVars(r, c.Name())
			}
		}
	}
	recv := Instance(c, info.typeParams...)
	init := q.classMember(recv, c, info.typeParams, "__init__", false)
	out := make([]Type, len(info.typeParams))
	var sol map[string]Type
	if init.Found() && init.Class != q.builtinClass("object") {
		var f *Function
		f, sol = q.selectOverload(init.Type, args)
		if f != nil && len(f.Unit.Summary().Defs[f.Def].Params) > 0 && f.Unit.Summary().Defs[f.Def].Params[0].Annot >= 0 {
			// An overload's annotated self says what it makes
			// (subprocess.Popen's `self: Popen[bytes]`).
			if self := q.paramType(f.Unit, f.Def, 0, false); self.Kind() == KindInstance && self.Class() == c && len(self.Args()) == len(info.typeParams) {
				return eraseTypeVars(substitute(self, sol, Type{}, false), c.Name())
			}
		}
	}
	for i, p := range info.typeParams {
		out[i] = unknownType
		if s, ok := sol[p.typeVarKey()]; ok {
			out[i] = widen(s)
		}
	}
	return Instance(c, out...)
}

// skipsInit reports a __new__ result that is not an instance of class
// c (reversed(x) is Iterator[T]): pyright then takes it for the call's
// and skips __init__.
func (q *query) skipsInit(r Type, c Class) bool {
	skip := false
	for _, m := range r.Members() {
		switch {
		case m.IsUnknown():
		case m.Kind() == KindInstance:
			skip = skip || !q.derivesFrom(m.Class(), c)
		default:
			skip = true
		}
	}
	return skip
}

// selectOverload picks the first overload whose parameters take the
// arguments by arity and simple types, with the type variables it
// solved; nil when none does.
func (q *query) selectOverload(callee Type, args []argument) (*Function, map[string]Type) {
	fns := []Type{callee}
	if callee.Kind() == KindOverloaded {
		fns = callee.Args()
	}
	for _, ft := range fns {
		f := ft.Func()
		if f == nil || !validDef(f.Unit, f.Def) {
			continue
		}
		if sol, ok := q.match(f, args); ok {
			return f, sol
		}
	}
	return nil, nil
}

// callOverloads is the result of calling overloaded callee, as pyright
// evaluates an overloaded call (overloadMatches): the first overload
// that matches decides, unless the choice is ambiguous; then the call is
// Unknown (Any when one of the results has Any), or the one result left
// when the others subsume one another. ok false when no overload
// matches.
func (q *query) callOverloads(callee Type, args []argument) (Type, bool) {
	_, results, ambiguous := q.overloadMatches(callee, args)
	switch {
	case len(results) == 0:
		return Type{}, false
	case !ambiguous:
		return results[0], true
	}
	kept, withAny := q.dedupeResults(results)
	switch {
	case len(kept) == 1:
		return kept[0], true
	case withAny:
		return anyType, true
	}
	return possiblyUnknown(results[0]), true
}

// overloadMatches are the overloads of callee a call with args may
// use, with their results (pyright's validateOverloadsWithExpandedTypes
// and its overloadsUsedForCall): the first that matches, when it matched
// without an Any or Unknown argument; else every one that matches, and
// the choice among them is ambiguous when such an argument goes to
// parameters of different types (or an unpacked one to who knows which)
// and their results differ (filterOverloadMatchesForAnyArgs); when it
// is not, the first of them alone.
func (q *query) overloadMatches(callee Type, args []argument) (fs []*Function, results []Type, ambiguous bool) {
	for _, ft := range callee.Args() {
		f := ft.Func()
		if f == nil || !validDef(f.Unit, f.Def) {
			continue
		}
		sol, ok := q.match(f, args)
		if !ok {
			continue
		}
		r := q.returnOf(f, sol)
		if len(fs) == 0 && !gradualArgument(args) {
			return []*Function{f}, []Type{r}, false
		}
		fs, results = append(fs, f), append(results, r)
	}
	if len(fs) <= 1 || sameGradually(results) {
		return fs[:min(len(fs), 1)], results[:min(len(results), 1)], false
	}
	for i, a := range args {
		if a.key == "*" || a.key == "**" {
			return fs, results, true
		}
		if isGradual(a.t) && !q.sameParam(fs, args, i) {
			return fs, results, true
		}
	}
	return fs[:1], results[:1], false
}

// sameGradually reports that ts are one type, Any and Unknown alike.
func sameGradually(ts []Type) bool {
	for _, t := range ts[1:] {
		if !t.Equal(ts[0]) && !(isGradual(t) && isGradual(ts[0])) {
			return false
		}
	}
	return true
}

func isGradual(t Type) bool { return t.IsUnknown() || t.Kind() == KindAny }

// topGradual is the Any or Unknown t is or has as a member (Unknown
// first), ok false when none.
func topGradual(t Type) (Type, bool) {
	var found Type
	for _, m := range t.Members() {
		if m.IsUnknown() {
			return m, true
		}
		if m.Kind() == KindAny {
			found = m
		}
	}
	return found, found.d != nil
}

// dedupeResults drops the possible results of an ambiguous overloaded
// call that another subsumes, as pyright does; withAny: one compared
// was Any or had Any.
func (q *query) dedupeResults(results []Type) (kept []Type, withAny bool) {
	var dropped []bool // kept[i] subsumed by a later result
	for _, r := range results {
		subsumed := false
		for i, k := range kept {
			if dropped[i] {
				continue
			}
			if q.assignable(r, k) {
				if g, ok := topGradual(k); !ok {
					subsumed = true
				} else if g.Kind() == KindAny {
					withAny = true
				}
				break
			}
			if q.assignable(k, r) {
				if g, ok := topGradual(r); !ok {
					dropped[i] = true
				} else if g.Kind() == KindAny {
					withAny = true
				}
				break
			}
		}
		if !subsumed {
			kept, dropped = append(kept, r), append(dropped, false)
		}
	}
	out := kept[:0]
	for i, k := range kept {
		if !dropped[i] {
			out = append(out, k)
		}
	}
	return out, withAny
}

// gradualArgument reports an argument of type Any or Unknown, or an
// unpacked one: an overload it matches is only possibly the one called.
// (pyright also counts a list[Unknown], but then takes the first
// overload in the cases seen, ", ".join(list(x)) LiteralString: its
// arguments are evaluated against each overload's parameters.)
func gradualArgument(args []argument) bool {
	for _, a := range args {
		if isGradual(a.t) || a.key == "*" || a.key == "**" {
			return true
		}
	}
	return false
}

// match binds args to f's parameters; ok when every argument has a
// parameter, every required parameter an argument, and each argument's
// type is assignable to its parameter's; the solved type variables.
func (q *query) match(f *Function, args []argument) (map[string]Type, bool) {
	return q.bind(f, args, true)
}

// bind binds args to f's parameters by position and keyword and solves
// f's type variables from their types. Strict, it fails as match says;
// lenient, it solves what the arguments it can place say and never
// fails (signature help specializing a call being typed).
func (q *query) bind(f *Function, args []argument, strict bool) (map[string]Type, bool) {
	return q.bindArgs(f, args, strict, nil)
}

// bindArgs is bind that also records, when got is not nil (one entry per
// parameter), the type of the argument each named parameter (not *args
// or **kwargs) takes.
func (q *query) bindArgs(f *Function, args []argument, strict bool, got []Type) (map[string]Type, bool) {
	params := f.Unit.Summary().Defs[f.Def].Params
	sol := map[string]Type{}
	pl := q.place(f, args)
	if pl.first == 1 && params[0].Annot >= 0 {
		pt := q.paramIn(f, 0)
		if strict && !q.assignable(f.Bound, pt) {
			return nil, false
		}
		q.solve(pt, f.Bound, sol)
	}
	for i, a := range args {
		if i == pl.stop {
			// Unpacked arguments could fill anything: stop checking.
			return sol, true
		}
		k := pl.params[i]
		if k < 0 {
			if strict {
				return nil, false
			}
			continue
		}
		if !q.bindArg(f, k, a.t, sol) && strict {
			return nil, false
		}
		if got != nil && params[k].Kind != navindex.ParamVarArgs && params[k].Kind != navindex.ParamVarKwargs {
			got[k] = a.t
		}
	}
	if strict && pl.missing {
		return nil, false
	}
	return sol, true
}

// placement is where a call's arguments go.
type placement struct {
	// params is the parameter each argument fills, -1 none (and for the
	// arguments from stop on).
	params []int
	// first is the first parameter an argument may fill: 1 when f is
	// bound to a receiver.
	first int
	// stop is the first unpacked argument (*x, **x), which could fill
	// anything: placement stops there (len(args) when none).
	stop int
	// missing: a required parameter has no argument (before stop).
	missing bool
}

// place places args on f's parameters by position and keyword.
func (q *query) place(f *Function, args []argument) placement {
	params := f.Unit.Summary().Defs[f.Def].Params
	pl := placement{params: make([]int, len(args)), stop: len(args)}
	if f.BoundSet && len(params) > 0 && params[0].Kind != navindex.ParamVarArgs {
		pl.first = 1
	}
	filled := make([]bool, len(params))
	pi := pl.first
	for j, a := range args {
		k := -1
		switch a.key {
		case "*", "**":
			pl.stop = j
			for ; j < len(args); j++ {
				pl.params[j] = -1
			}
			return pl
		case "":
			for pi < len(params) && (params[pi].Kind == navindex.ParamKwOnly || params[pi].Kind == navindex.ParamVarKwargs) {
				pi++
			}
			if pi < len(params) {
				k = pi
				if params[pi].Kind != navindex.ParamVarArgs {
					pi++
				}
			}
		default:
			k = namedParam(params, pl.first, a.key)
			if k < 0 {
				for i := pl.first; i < len(params); i++ {
					if params[i].Kind == navindex.ParamVarKwargs {
						k = i
					}
				}
			}
			if k >= 0 && filled[k] && params[k].Kind != navindex.ParamVarKwargs && params[k].Kind != navindex.ParamVarArgs {
				k = -1
			}
		}
		pl.params[j] = k
		if k >= 0 {
			filled[k] = true
		}
	}
	for i := pl.first; i < len(params); i++ {
		p := &params[i]
		if !filled[i] && !p.HasDefault && p.Kind != navindex.ParamVarArgs && p.Kind != navindex.ParamVarKwargs {
			pl.missing = true
		}
	}
	return pl
}

// bindArg solves the type variables of f's parameter i from an argument
// of type t; false when t is not assignable to it (nothing solved).
func (q *query) bindArg(f *Function, i int, t Type, sol map[string]Type) bool {
	pt := q.paramIn(f, i)
	if !q.assignable(t, pt) {
		return false
	}
	q.solve(pt, t, sol)
	return true
}

// paramIn is parameter i's declared type as f sees it (class arguments
// substituted, Self its receiver), unwrapped for *args and **kwargs.
func (q *query) paramIn(f *Function, i int) Type {
	d := &f.Unit.Summary().Defs[f.Def]
	if d.Params[i].Annot < 0 {
		return unknownType
	}
	t := q.paramType(f.Unit, f.Def, i, false)
	self, has := f.selfType()
	return substitute(t, f.Subst, self, has)
}

// selfType is what Self means for f: its receiver's instance.
func (f *Function) selfType() (Type, bool) {
	if !f.BoundSet {
		return f.SelfAs, f.SelfAs.d != nil
	}
	b := f.Bound
	switch b.Kind() {
	case KindClass:
		return instanceOfClassObject(b), true
	case KindLiteral:
		return widen(b), true
	}
	return b, true
}

// returnOf is f's return type with its class arguments, receiver and
// solved type variables substituted; its own unsolved ones Unknown.
func (q *query) returnOf(f *Function, sol map[string]Type) Type {
	r := q.declaredReturn(f)
	self, has := f.selfType()
	r = substitute(r, f.Subst, self, has)
	if len(sol) > 0 {
		r = substitute(r, sol, Type{}, false)
	}
	scope := f.Unit.Summary().Syms[f.Unit.Summary().Defs[f.Def].Sym].Name
	return eraseTypeVars(r, scope)
}

// declaredReturn is f's return before substitution: its def's, or what
// a ParamSpec decorator replaced it with.
func (q *query) declaredReturn(f *Function) Type {
	if f.Returns != nil {
		return *f.Returns
	}
	return q.returnType(f.Unit, f.Def)
}

// eraseTypeVars makes the type variables of scope Unknown.
func eraseTypeVars(t Type, scope string) Type {
	switch t.Kind() {
	case KindTypeVar:
		if t.Scope() == scope {
			return unknownType
		}
		return t
	case KindFunction:
		return t
	case KindCallable:
		if t.d.paramSpec && t.d.args[0].Scope() == scope {
			return CallableType(nil, eraseTypeVars(t.d.ret, scope), true)
		}
		if !t.d.paramSpec && slices.ContainsFunc(t.d.args, func(a Type) bool { return mentionsScope(a, scope, 0) }) {
			// The callable's own parameters name them: they stay, to be
			// solved when it is called (lru_cache(maxsize=None) returns
			// (Callable[..., _T]) -> _lru_cache_wrapper[_T]).
			return t
		}
	}
	return t.mapArgs(func(a Type) Type { return eraseTypeVars(a, scope) })
}

// anyTypeVars solves the type variables t names, unsolved yet, as Any.
func anyTypeVars(t Type, sol map[string]Type, depth int) {
	if t.d == nil || depth > maxPrintDepth {
		return
	}
	if t.Kind() == KindTypeVar {
		if _, ok := sol[t.typeVarKey()]; !ok {
			sol[t.typeVarKey()] = anyType
		}
		return
	}
	if t.d.ret.d != nil {
		anyTypeVars(t.d.ret, sol, depth+1)
	}
	for _, a := range t.d.args {
		anyTypeVars(a, sol, depth+1)
	}
}

// mentionsScope reports a type variable of scope inside t.
func mentionsScope(t Type, scope string, depth int) bool {
	if t.d == nil || depth > maxPrintDepth {
		return false
	}
	if t.Kind() == KindTypeVar {
		return t.Scope() == scope
	}
	if t.d.ret.d != nil && mentionsScope(t.d.ret, scope, depth+1) {
		return true
	}
	return slices.ContainsFunc(t.d.args, func(a Type) bool { return mentionsScope(a, scope, depth+1) })
}

// solve records in sol what the type variables of param stand for,
// given an argument of type arg: simple structural matching, first
// solution wins.
func (q *query) solve(param, arg Type, sol map[string]Type) {
	if arg.Kind() == KindAny && param.Kind() != KindTypeVar {
		// Any matched against a generic parameter solves each of its type
		// variables as Any: iter(Any) is Any, enumerate(Any) enumerate[Any].
		anyTypeVars(param, sol, 0)
		return
	}
	switch param.Kind() {
	case KindTypeVar:
		k := param.typeVarKey()
		if arg.IsUnknown() {
			break
		}
		if cs := param.Args(); len(cs) > 0 && arg.Kind() != KindTypeVar {
			// A constrained type variable is solved to the first
			// constraint the argument's known members all fit (pyright:
			// urlunparse of (unknown, "") is str, not Unknown | str).
			if _, ok := sol[k]; !ok {
				if c, ok := q.constrain(arg, cs); ok {
					sol[k] = c
				}
			}
			break
		}
		if prev, ok := sol[k]; !ok {
			sol[k] = widen(arg) // pyright solves copy(1) as int
		} else if w := widen(arg); !q.assignable(w, prev) {
			// Another argument the solution does not take widens it:
			// chain((None,), ["a"]) is chain[str | None].
			sol[k] = Union(prev, w)
		}
	case KindUnion:
		for _, m := range param.Args() {
			if m.Kind() != KindNone && m.Kind() != KindTypeVar {
				q.solve(m, arg, sol)
			}
		}
		for _, m := range param.Args() {
			if m.Kind() != KindTypeVar {
				continue
			}
			a := withoutNone(arg)
			if len(m.Args()) > 0 {
				// An Unknown member goes to the union, not to a constrained
				// variable in it (urlunparse's Iterable[AnyStr | None] of
				// a tuple of Unknown and str solves AnyStr as str).
				if known := slices.DeleteFunc(a.Members(), isGradual); len(known) > 0 {
					a = Union(known...)
				}
			}
			q.solve(m, a, sol)
		}
	case KindInstance:
		base, ok := q.asBase(arg, param.Class())
		if !ok {
			q.solveProtocol(param, arg, sol)
			return
		}
		for i, p := range param.Args() {
			if i < len(base.Args()) {
				q.solve(p, base.Args()[i], sol)
			}
		}
	case KindClass:
		if arg.Kind() == KindClass {
			if len(param.Args()) == 1 && !param.Class().Valid() {
				q.solve(param.Args()[0], instanceOfClassObject(arg), sol)
			}
		}
	case KindTuple:
		if arg.Kind() == KindTuple {
			for i, p := range param.Args() {
				if i < len(arg.Args()) {
					q.solve(p, arg.Args()[i], sol)
				}
			}
		}
	case KindCallable:
		if param.d.paramSpec && (arg.Kind() == KindFunction || arg.Kind() == KindCallable) {
			q.solve(param.Args()[0], arg, sol)
		}
		switch arg.Kind() {
		case KindFunction:
			q.solve(param.Return(), q.returnOf(arg.Func(), nil), sol)
		case KindCallable:
			q.solve(param.Return(), arg.Return(), sol)
		case KindClass:
			// A class called makes its instance: map(int, xs) is map[int],
			// defaultdict(list) takes a () -> list[Unknown].
			if c := arg.Class(); c.Valid() {
				q.solve(param.Return(), Instance(c, q.padArgs(c, arg.Args())...), sol)
			}
		}
	}
}

// constrain is what constrained type variable with constraints cs is
// solved to by an argument of type arg, as pyright's
// assignConstrainedTypeVar: each member the narrowest constraint it
// fits, an Any or Unknown member kept (re.escape of `Unknown | "a"` is
// Unknown | str); when a member fits none, the first constraint the
// whole of arg fits. ok false when none fits, or
// arg has only Any and Unknown members.
func (q *query) constrain(arg Type, cs []Type) (Type, bool) {
	members := arg.Members()
	out := make([]Type, 0, len(members))
	fits, known := true, false
	for _, m := range members {
		if isGradual(m) {
			out = append(out, m)
			continue
		}
		known = true
		best := -1
		for i, c := range cs {
			if q.assignable(m, c) && (best < 0 || q.assignable(c, cs[best])) {
				best = i
			}
		}
		if best < 0 {
			fits = false
			break
		}
		out = append(out, cs[best])
	}
	switch {
	case !known:
		return Type{}, false
	case fits:
		// Members fitting different constraints (str | bytes) fail the
		// overload in pyright, which then calls it with each member:
		// basename of str | bytes is str | bytes, as this union is.
		return Union(out...), true
	}
	for _, c := range cs {
		if q.assignable(arg, c) {
			return c, true
		}
	}
	return Type{}, false
}

// solveProtocol solves the type arguments of param, a generic protocol
// arg's class does not name among its bases, from what arg's methods of
// the protocol's method names return: iter(xs) of a list[str] takes a
// SupportsIter[Iterator[str]] (list.__iter__ returns Iterator[str]), as
// pyright matches a protocol member by member.
func (q *query) solveProtocol(param, arg Type, sol map[string]Type) {
	info := q.class(param.Class())
	if info == nil || !info.protocol || len(param.Args()) == 0 || allSolved(param, sol) || q.protocols >= maxProtocolNesting {
		return
	}
	q.protocols++
	defer func() { q.protocols-- }()
	switch arg.Kind() {
	case KindInstance, KindLiteral, KindTuple, KindSelf:
	default:
		return
	}
	members := q.members(info)
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		want, got := q.member(param, name), q.member(arg, name)
		if !want.Found() || !got.Found() {
			continue
		}
		if wf, gf := want.Type.Func(), got.Type.Func(); wf != nil && gf != nil && want.Type.Kind() == KindFunction {
			q.solve(q.returnOf(wf, nil), q.returnOf(gf, nil), sol)
		}
	}
}

// maxProtocolNesting bounds protocol matches inside protocol matches
// (SupportsIter[Iterator[T]] needs two).
const maxProtocolNesting = 2

// allSolved: every type variable t's arguments name is in sol already.
func allSolved(t Type, sol map[string]Type) bool {
	for _, a := range t.Args() {
		if a.Kind() == KindTypeVar {
			if _, ok := sol[a.typeVarKey()]; !ok {
				return false
			}
		} else if !a.IsUnknown() {
			return false
		}
	}
	return true
}

// asBase views t as an instance of class c (through its MRO, with the
// arguments mapped), ok false when c is not among its classes.
func (q *query) asBase(t Type, c Class) (Type, bool) {
	switch t.Kind() {
	case KindLiteral:
		t = widen(t)
	case KindTuple:
		elem := unknownType
		if len(t.Args()) > 0 {
			elem = Union(t.Args()...)
		}
		if !t.Class().Valid() {
			return Type{}, false
		}
		t = Instance(t.Class(), elem)
	case KindSelf:
		info := q.class(t.Class())
		if info == nil {
			return Type{}, false
		}
		t = Instance(t.Class(), info.typeParams...)
	}
	if t.Kind() != KindInstance {
		return Type{}, false
	}
	if t.Class() == c {
		return t, true
	}
	info := q.class(t.Class())
	if info == nil {
		return Type{}, false
	}
	sub := bindParams(info.typeParams, t.Args())
	for _, m := range info.mro {
		if m.Class() == c {
			return substitute(m, sub, Type{}, false), true
		}
	}
	return Type{}, false
}

// numericPromotions are the implicit widenings PEP 484 allows.
var numericPromotions = map[string][]string{"int": {"float", "complex"}, "float": {"complex"}, "bool": {"float", "complex"}}

// assignable is a lenient check that a value of type src may go where
// dst is declared: unknowns, type variables and protocols accept
// anything, classes by MRO, one level of type arguments checked.
// maxBoundDepth bounds the type variable bounds checked inside one
// another; deeper, a bound takes anything.
const maxBoundDepth = 2

func (q *query) assignable(src, dst Type) bool {
	switch dst.Kind() {
	case KindTypeVar:
		// Within its bound (pyright's assignTypeVar): a str is no
		// `_T bound=AST`, so ast.parse(str) takes its str overload.
		if b := dst.d.bound; b != nil && !isGradual(src) && src.Kind() != KindTypeVar && q.bounds < maxBoundDepth {
			q.bounds++
			defer func() { q.bounds-- }()
			return q.assignable(src, q.annot(b.unit, b.expr, tvScope{}))
		}
		return true
	case KindUnknown, KindAny, KindSelf:
		return true
	case KindUnion:
		if src.Kind() == KindUnion {
			break // each of src's members to some member of dst, below
		}
		for _, m := range dst.Args() {
			if q.assignable(src, m) {
				return true
			}
		}
		return false
	}
	switch src.Kind() {
	case KindUnknown, KindAny:
		// An unknown argument does not pick a literal overload: pyright
		// answers `str` for "%s" % unknown, not LiteralString.
		return dst.Kind() != KindLiteral && !(dst.Kind() == KindInstance && dst.d.literalString)
	case KindNever, KindTypeVar:
		return true
	case KindUnion:
		for _, m := range src.Args() {
			if !q.assignable(m, dst) {
				return false
			}
		}
		return true
	}
	switch dst.Kind() {
	case KindNone:
		return src.Kind() == KindNone
	case KindLiteral:
		return src.Kind() == KindLiteral && src.Class() == dst.Class() && src.Text() == dst.Text()
	case KindCallable:
		switch src.Kind() {
		case KindFunction, KindOverloaded, KindCallable, KindClass:
			return true
		case KindInstance:
			return q.member(src, "__call__").Found()
		}
		return false
	case KindClass:
		// A bare `type` (a class's __mro__ element) is type[Unknown].
		return src.Kind() == KindClass || src.Kind() == KindInstance && src.Class() == q.builtinClass("type") && (len(src.Args()) == 0 || src.Args()[0].IsUnknown() || src.Args()[0].Kind() == KindAny)
	case KindTuple:
		if src.Kind() == KindTuple {
			return q.tupleAssignable(src, dst)
		}
		return src.Kind() == KindInstance && src.Class() == dst.Class()
	case KindInstance:
		return q.instanceAssignable(src, dst)
	}
	return true
}

// tupleAssignable checks a tuple's elements against a tuple type's:
// each against tuple[T, ...]'s T, else one by one (a tuple of str is no
// tuple[LiteralString, ...], so '%s %s' % (a, b) of str is str).
func (q *query) tupleAssignable(src, dst Type) bool {
	want := dst.Args()
	// An unknown element goes anywhere, LiteralString too, as an unknown
	// type argument does (instanceAssignable): '%s:%s' % (a, b) of
	// unknowns is the LiteralString overload's.
	assignable := func(e, w Type) bool { return e.Kind() == KindUnknown || e.Kind() == KindAny || q.assignable(e, w) }
	if dst.Variadic() {
		if len(want) != 1 {
			return true
		}
		for _, e := range src.Args() {
			if !assignable(e, want[0]) {
				return false
			}
		}
		return true
	}
	if src.Variadic() || len(src.Args()) != len(want) {
		return src.Variadic()
	}
	for i, e := range src.Args() {
		if !assignable(e, want[i]) {
			return false
		}
	}
	return true
}

func (q *query) instanceAssignable(src, dst Type) bool {
	dc := dst.Class()
	if dst.d.literalString {
		return src.Kind() == KindLiteral && src.Class() == dc || src.Kind() == KindInstance && src.d.literalString
	}
	if dc.Name() == "object" && dc.Unit.ModuleName() == "builtins" {
		return true
	}
	if src.Kind() == KindNone {
		return q.isProtocol(dc)
	}
	base, ok := q.asBase(src, dc)
	if !ok {
		if src.Kind() == KindInstance || src.Kind() == KindLiteral {
			for _, p := range numericPromotions[src.Class().Name()] {
				if p == dc.Name() {
					return true
				}
			}
		}
		switch src.Kind() {
		case KindFunction, KindOverloaded, KindCallable:
			// A def is an instance of the function classes, not of int:
			// lru_cache(f) takes the overload whose maxsize is a
			// Callable, not `maxsize: int | None`.
			return q.isProtocol(dc) || functionClasses[dc.Name()]
		}
		return q.protocolTakes(src, dc) || src.Kind() == KindModule
	}
	for i, a := range dst.Args() {
		if i >= len(base.Args()) {
			break
		}
		// An unknown type argument goes anywhere, LiteralString too: only
		// an argument that is itself unknown leaves pyright's choice
		// among overloads open (", ".join(list_of_unknown) is the
		// LiteralString join).
		if k := base.Args()[i].Kind(); k != KindUnknown && k != KindAny && !q.assignable(base.Args()[i], a) {
			return false
		}
	}
	return true
}

// functionClasses are the classes a def, a lambda or a bound method is an
// instance of (builtins.function, types' FunctionType and friends).
var functionClasses = map[string]bool{
	"function": true, "FunctionType": true, "LambdaType": true, "MethodType": true,
	"BuiltinFunctionType": true, "BuiltinMethodType": true, "MethodWrapperType": true,
}

// protocolTakes reports whether a value of src (of a class not derived
// from dc) satisfies protocol dc. A value of a builtin class must have
// every member dc declares, by name (str is no PathLike[bytes]: it has
// no __fspath__, so os.path.join(unknown, "a") takes only the str
// overload); any other is taken, its class being maybe partly known.
func (q *query) protocolTakes(src Type, dc Class) bool {
	if !q.isProtocol(dc) {
		return false
	}
	if c := src.Class(); src.Kind() != KindInstance && src.Kind() != KindLiteral || c.Unit == nil || c.Unit.ModuleName() != "builtins" {
		return true
	}
	for name := range q.members(q.class(dc)) {
		if !notProtocolMember[name] && !q.member(src, name).Found() {
			return false
		}
	}
	return true
}

// notProtocolMember are the names a protocol's body binds that are not
// members a value must have (typing's stubs give protocols __slots__).
var notProtocolMember = map[string]bool{"__slots__": true, "__class_getitem__": true, "__init__": true, "__new__": true,
	"__init_subclass__": true, "__doc__": true, "__module__": true, "__annotations__": true, "__dict__": true, "__weakref__": true}

func (q *query) isProtocol(c Class) bool {
	info := q.class(c)
	return info != nil && info.protocol
}
