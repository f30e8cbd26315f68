package pytypes

import (
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// HoverLine is the first line of pyright's hover for symbol sym of u:
// at binding def (def -1: at a use of the symbol, which is followed
// through imports and attributes first). "" when nothing is known.
//
//	(variable) x: int            (constant) X: Literal[10]
//	(parameter) x: int           (function) def f(a: int) -> str
//	(method) def m(self: Self@C) -> None
//	(property) p: int            (class) C
//	(module) os                  (type) X = int | str
func (e *Evaluator) HoverLine(u Unit, sym int32, def int32) string {
	return e.hoverLine(u, sym, def, nil)
}

// hoverLine is HoverLine at occurrence at when known (nil: anywhere),
// which scopes a type variable named there.
func (e *Evaluator) hoverLine(u Unit, sym int32, def int32, at *navindex.Occ) string {
	if u == nil || !validSym(u, sym) {
		return ""
	}
	q := e.query()
	name := u.Summary().Syms[sym].Name
	if sy := &u.Summary().Syms[sym]; sy.Kind == navindex.SymImport && name == "" {
		// A part of a dotted import: the module it names.
		name = sy.Module[strings.LastIndexByte(sy.Module, '.')+1:]
	}
	if def >= 0 && validDef(u, def) {
		d := &u.Summary().Defs[def]
		if d.Kind == navindex.KindVariable && q.isParameter(u, sym) {
			// A parameter assigned again: still a parameter, holding
			// what is assigned (narrowed to its declared type).
			return "(parameter) " + name + ": " + q.text(q.assigned(u, sym, def), 0)
		}
		if moduleImplicit(u, sym) {
			// pyright's intrinsic declaration is the primary one: no label.
			return name + ": " + q.text(q.assigned(u, sym, def), 0)
		}
		if d.Kind != navindex.KindModule && !d.Import { // `from m import x` binds what m's x is
			t := q.def(u, def)
			if (d.Kind == navindex.KindFunction || d.Kind == navindex.KindMethod) && len(d.Decorators) > 0 &&
				d.Flags&navindex.DefOverload == 0 && !q.hasOverloads(u, d.Sym) {
				// At its own name a decorated def is the def, as pyright
				// shows it there (`@lru_cache def c() -> str`: def c() ->
				// str); uses see the decorated value.
				t = FunctionType(Function{Unit: u, Def: def})
			}
			return q.hoverDef(u, def, name, t, false)
		}
	}
	// A use, or an import binding: what the name refers to.
	sy := &u.Summary().Syms[sym]
	if sy.Kind == navindex.SymKeyword {
		return q.keywordHover(u, sy, at)
	}
	var t Type
	var r Ref
	if sy.Kind == navindex.SymAttr {
		if !validExpr(u, sy.Recv) {
			return ""
		}
		recv := q.expr(u, sy.Recv)
		m := q.member(recv, sy.Name)
		r, t = m.Ref, q.narrowedMember(u, sy.Recv, sy.Name, m)
		if at != nil {
			t = q.storedMember(u, sy, *at, m, t)
		}
		if recv.Kind() == KindAny {
			t = anyType
		}
		if at != nil {
			if v, ok := q.undeclaredStore(u, *at, m); ok {
				t = v
			}
		}
		if r.Unit == nil && r.Module == "" && !t.IsUnknown() && t.Kind() != KindModule {
			// An attribute no declaration names (of Any, through
			// __getattr__, a function's): pyright's fallback label.
			if t.Kind() == KindCallable {
				return "(function) def " + name + q.text(t, 0)
			}
			return "(function) " + name + ": " + q.text(t, 0)
		}
		// At a call, an overloaded method shows the overload it picks
		// (in each member of a union receiver's: `strip: ((chars: str |
		// None = None, /) -> str) | Any`).
		if slices.ContainsFunc(t.Members(), func(m Type) bool { return m.Kind() == KindOverloaded }) {
			c := callAfter(u, at, func(x *navindex.Expr) bool {
				callee := &u.Summary().Exprs[x.A]
				return callee.Op == navindex.ExprAttr && callee.A == sy.Recv && callee.Name == sy.Name
			})
			if c < 0 {
				c = e.methodCall(u, sy.Recv, sy.Name)
			}
			if c >= 0 {
				args := q.arguments(u, &u.Summary().Exprs[c])
				ms := slices.Clone(t.Members())
				for i, m := range ms {
					if m.Kind() != KindOverloaded {
						continue
					}
					fs, _, ambiguous := q.overloadMatches(m, args)
					switch {
					case len(fs) == 0:
					case !ambiguous:
						ms[i] = FunctionType(q.receiverSolved(*fs[0]))
					case len(ms) == 1:
						// The overloads an ambiguous call may use.
						return q.overloadsHover(q.declKind(r), name, shownOverloads(fs))
					}
				}
				t = Union(ms...)
			}
		}
	} else {
		r = q.resolve(u, sym)
		t = q.sym(u, sym)
		if def >= 0 && validDef(u, def) {
			if it, ok := q.importBinding(u, def); ok {
				// An import of a name bound otherwise too: what it imports.
				r, t = q.resolve(u, sy.Target), it
			}
		}
		if at != nil {
			if n := flowAt(u, navindex.Pos{Line: at.Line, Col: at.Col}); n >= 0 {
				t = q.symAt(u, sym, n) // narrowed where it is read
			} else if v, ok := q.onceAssigned(u, sym, at.Scope); ok {
				t = v
			}
			t = q.typeVarAt(u, *at, t)
		}
	}
	if r.Unit == nil {
		if imp := q.unresolvedImport(u, sy); imp != "" {
			// `import m` that resolves to nothing: pyright's import label.
			return "(import) " + name + `: Module("` + imp + `")`
		}
		if r.Module != "" || t.Kind() == KindModule {
			return "(module) " + name
		}
		if t.IsUnknown() {
			return ""
		}
		return "(variable) " + name + ": " + q.text(t, 0)
	}
	if moduleImplicit(r.Unit, r.Sym) || sy.Kind == navindex.SymAttr && classImplicit[name] {
		// pyright's intrinsic declaration, the first of a module's
		// names or a class's (__doc__, __module__, __qualname__): no label.
		return name + ": " + q.text(t, 0)
	}
	defs := q.liveDefs(r.Unit, r.Sym)
	if len(defs) == 0 {
		return "(variable) " + name + ": " + q.text(t, 0)
	}
	last := defs[len(defs)-1]
	// The first declaration names the kind (a property's getter, the
	// first overload).
	for _, d := range defs {
		if k := r.Unit.Summary().Defs[d].Kind; k != navindex.KindVariable {
			last = d
			break
		}
	}
	lastDef := &r.Unit.Summary().Defs[last]
	if lastDef.Kind == navindex.KindProperty && sy.Kind == navindex.SymLocal {
		// Named in its class's body (@p.setter): the property object.
		return "(property) " + name + ": property"
	}
	if t.Kind() == KindOverloaded && sy.Kind != navindex.SymAttr && (lastDef.Kind == navindex.KindFunction || lastDef.Kind == navindex.KindMethod) {
		switch shown := q.overloadShown(u, sym, at, t); shown.Kind() {
		case KindFunction:
			t = shown
		case KindOverloaded:
			return q.overloadsHover(lastDef.Kind, name, shown)
		default:
			return q.overloadsHover(lastDef.Kind, name, t)
		}
	}
	return q.hoverDef(r.Unit, last, name, t, true)
}

// undeclaredStore is what a store at occurrence o puts in member m
// when nothing declares m (an attribute of Any or Unknown, one
// __getattr__ gives): the value stored, as pyright caches the assigned
// type at the member's name (`self._local.calls = 1` is Literal[1]);
// ok false elsewhere.
func (q *query) undeclaredStore(u Unit, o navindex.Occ, m MemberInfo) (Type, bool) {
	if m.Ref.Unit != nil || m.Ref.Module != "" || o.Flags&navindex.OccStore == 0 {
		return Type{}, false
	}
	return q.storedValue(u, o)
}

// classImplicit are the names pyright's binder declares in every class
// body before its statements.
var classImplicit = map[string]bool{"__doc__": true, "__module__": true, "__qualname__": true}

// storedValue is the type of the value a plain assignment stores to
// the attribute at occurrence o of u (`a.b.c = v`); ok false when the
// summary records no such store there.
func (q *query) storedValue(u Unit, o navindex.Occ) (Type, bool) {
	at := navindex.Pos{Line: o.Line, Col: o.End}
	best := -1
	for i := range u.Summary().Sites {
		st := &u.Summary().Sites[i]
		p := navindex.Pos{Line: st.Span.Line, Col: st.Span.Col}
		if st.Kind != navindex.SiteAttribute || st.Sym != o.Sym || p.Less(at) {
			continue
		}
		if b := u.Summary().Sites[max(best, 0)].Span; best < 0 || p.Less(navindex.Pos{Line: b.Line, Col: b.Col}) {
			best = i
		}
	}
	if best < 0 || !validExpr(u, u.Summary().Sites[best].Value) {
		return Type{}, false
	}
	return q.expr(u, u.Summary().Sites[best].Value), true
}

// hoverDef is the hover of binding di of u named name, holding t; use
// says the hover is at a reference, where a variable shows its
// declared type.
func (q *query) hoverDef(u Unit, di int32, name string, t Type, use bool) string {
	d := &u.Summary().Defs[di]
	switch d.Kind {
	case navindex.KindClass:
		return "(class) " + name
	case navindex.KindParameter:
		return "(parameter) " + name + ": " + q.text(t, 0)
	case navindex.KindProperty:
		// At its def, the getter itself; at a use, what it returns.
		if !use {
			return "(property) " + name + ": " + q.text(FunctionType(Function{Unit: u, Def: di}), 0)
		}
		r := t
		if t.Kind() == KindFunction {
			r = q.returnType(u, t.Func().Def)
		}
		return "(property) " + name + ": " + q.text(r, 0)
	case navindex.KindFunction, navindex.KindMethod:
		label := "(function) "
		if d.Kind == navindex.KindMethod {
			label = "(method) "
		}
		switch t.Kind() {
		case KindOverloaded:
			// At an overload's def, that overload; at a use, the first
			// its receiver takes.
			if use && len(t.Args()) > 0 {
				t = q.firstOverload(t)
			} else {
				t = FunctionType(Function{Unit: u, Def: di})
			}
		case KindFunction:
		case KindCallable:
			// A decorator gave a Callable: still a function to pyright,
			// `(function) def a() -> int`.
			return label + "def " + name + q.text(t, 0)
		default:
			return label + name + ": " + q.text(t, 0)
		}
		var b strings.Builder
		b.WriteString(label)
		f := *t.Func()
		b.WriteString("def " + name)
		q.printSignature(&b, &f, false, 0)
		return b.String()
	case navindex.KindModule:
		return "(module) " + name
	}
	if d.Flags&navindex.DefTypeAlias != 0 {
		return "(type) " + name + " = " + q.text(q.annot(u, d.Value, tvScope{}), 0)
	}
	if a, ok := q.implicitAlias(u, di); ok {
		return "(type) " + name + " = " + q.text(a, 0)
	}
	// `X = SomeClass` outside a function is an implicit type alias.
	if t.Kind() == KindClass && t.Class().Valid() && validExpr(u, d.Value) && !q.inFunction(u, d.Sym) {
		if op := u.Summary().Exprs[d.Value].Op; op == navindex.ExprSym || op == navindex.ExprAttr {
			return "(type) " + name + " = " + q.text(instanceOfClassObject(t), 0)
		}
	}
	label := "(variable) "
	if IsConstantName(name) || d.Flags&navindex.DefFinal != 0 {
		label = "(constant) " // pyright: a constant's name, or Final
	}
	if !use {
		// At a binding: the declared type narrowed to the value assigned
		// when annotated (`x: int | None = 3` is Literal[3] there), else
		// what this binding assigns.
		if sym := d.Sym; q.annotated(u, sym) {
			t = q.assigned(u, sym, di)
		} else if inh, ok := q.inheritedDeclaration(u, sym); ok {
			// A base class declares it: narrowed to the value when that
			// is assignable (NullSession's popitem = _fail), else the
			// declared type (pyright reports the assignment).
			if !q.assignable(t, inh) {
				t = inh
			}
		} else if !IsConstantName(name) && d.Flags&navindex.DefFinal == 0 && q.inClassBody(u, sym) {
			// A class variable widens (pyright strips the literal of a
			// member a subclass may override); a module or function
			// variable, or self.x, keeps what is assigned (`counter = 0`
			// is Literal[0], `s = "a".upper()` LiteralString).
			t = widen(t)
		}
	}
	if t.Kind() == KindOverloaded && len(t.Args()) > 0 {
		t = q.firstOverload(t)
	}
	if f := t.Func(); f != nil {
		// A variable holding a def shows its signature, under its own name.
		var b strings.Builder
		b.WriteString(label + "def " + name)
		q.printSignature(&b, f, false, 0)
		return b.String()
	}
	if t.Kind() == KindCallable {
		// pyright's Callable is a function type too: a variable holding
		// one shows `def name(...) -> R` (a parameter keeps `name: ...`),
		// spelled out when an alias names it.
		return label + "def " + name + q.text(withAlias(t, "", nil), 0)
	}
	return label + name + ": " + q.text(t, 0)
}

// ConstructorLine is what pyright shows for a class called: `class
// C(x: int)`, the parameters of its __init__ (else __new__) bound to a
// new instance; "class C()" for object's.
func (e *Evaluator) ConstructorLine(c Class) string {
	q := e.query()
	info := q.class(c)
	if info == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("class " + c.Name())
	for _, name := range []string{"__init__", "__new__"} {
		m := q.classMember(Instance(c, info.typeParams...), c, info.typeParams, name, false)
		if name == "__new__" {
			m = q.classMember(ClassObject(c, info.typeParams...), c, info.typeParams, name, true)
		}
		if !m.Found() || (m.Class == q.builtinClass("object") && name == "__init__") {
			continue
		}
		t := m.Type
		if t.Kind() == KindOverloaded && len(t.Args()) > 0 {
			t = t.Args()[0]
		}
		if f := t.Func(); f != nil {
			q.printParams(&b, f, 0)
			return b.String()
		}
	}
	b.WriteString("()")
	return b.String()
}

// keywordHover is a keyword argument's hover: the parameter it names,
// with its declared type when the callee declares one, else the type of
// the argument passed. A keyword no parameter of the callee names (one
// **kwargs takes, or of a callee nothing is known of) has no
// declaration: pyright's fallback label, `(function) stream: bool`,
// with **kwargs's declared type when it has one.
func (q *query) keywordHover(u Unit, sy *navindex.Sym, at *navindex.Occ) string {
	t, named, ok := q.keyword(u, sy, at)
	if !ok {
		return ""
	}
	label := "(function) "
	if named {
		label = "(parameter) "
	}
	return label + sy.Name + ": " + q.text(t, 0)
}

// keywordType is the type keyword argument sy names: the declared type
// of the callee's parameter, else the type of the argument passed; ok
// false when neither is known.
func (q *query) keywordType(u Unit, sy *navindex.Sym) (Type, bool) {
	t, _, ok := q.keyword(u, sy, nil)
	return t, ok
}

// keyword is keywordType, and whether a parameter of the callee has the
// keyword's name; at (nil: unknown) is the keyword's occurrence, which
// picks its own call among alike ones. pyright gives the name the type
// of the parameter it binds (an unannotated one's inferred from its
// default), the argument's when that parameter is unannotated without
// a default or is an unannotated **kwargs, and Any when the callee is
// Unknown or Any.
func (q *query) keyword(u Unit, sy *navindex.Sym, at *navindex.Occ) (t Type, named, ok bool) {
	if !validExpr(u, sy.Recv) {
		return Type{}, false, false
	}
	callee := q.expr(u, sy.Recv)
	if callee.Kind() == KindUnion {
		// No parameter declares it: pyright's fallback label, with the
		// type the last member it checks the call against gives.
		t, _, ok := q.keywordOf(u, sy, at, q.lastValidated(callee))
		return t, false, ok
	}
	return q.keywordOf(u, sy, at, callee)
}

// lastValidated is the member of union callee pyright checks a call's
// arguments against last, which gives a keyword argument its type:
// it sorts the members by category, classes and instances first, then
// overloads, functions (the most parameters first; among equals in
// order), Never, Any and
// Unknown.
func (q *query) lastValidated(callee Type) Type {
	rank := func(m Type) (int, int) {
		switch m.Kind() {
		case KindUnknown:
			return 1, 0
		case KindAny:
			return 2, 0
		case KindNever:
			return 3, 0
		case KindFunction:
			f := m.Func()
			return 4, -len(f.Unit.Summary().Defs[f.Def].Params)
		case KindCallable:
			return 4, 0
		case KindOverloaded:
			return 5, 0
		case KindModule:
			return 7, 0
		case KindTypeVar:
			return 8, 0
		}
		return 6, 0
	}
	var last Type
	lr, lp := 99, 0
	for _, m := range callee.Args() {
		if m.Kind() == KindNone {
			continue // pyright calls a union without its None
		}
		r, p := rank(m)
		if r < lr || r == lr && p >= lp {
			last, lr, lp = m, r, p
		}
	}
	return last
}

// keywordOf is keyword for a callee of type callee.
func (q *query) keywordOf(u Unit, sy *navindex.Sym, at *navindex.Occ, callee Type) (t Type, named, ok bool) {
	if callee.IsUnknown() || callee.Kind() == KindAny {
		return anyType, false, true
	}
	construct, widened := callee.Kind() == KindClass, false
	if construct {
		callee = q.classMember(Instance(callee.Class(), callee.Args()...), callee.Class(), callee.Args(), "__init__", false).Type
	}
	if callee.Kind() == KindOverloaded && len(callee.Args()) > 0 {
		callee = callee.Args()[0]
	}
	if f := callee.Func(); f != nil {
		ps := f.Unit.Summary().Defs[f.Def].Params
		kwargs := -1
		for i, p := range ps {
			switch {
			case p.Kind == navindex.ParamVarKwargs:
				kwargs = i
			case p.Name == sy.Name && p.Kind != navindex.ParamPosOnly && p.Kind != navindex.ParamVarArgs:
				named = true
				if p.Annot >= 0 {
					return q.paramIn(f, i), true, true
				}
				if pt := q.paramType(f.Unit, f.Def, i, false); !pt.IsUnknown() {
					return pt, true, true
				}
			}
		}
		if !named && kwargs >= 0 && ps[kwargs].Annot >= 0 {
			return q.paramIn(f, kwargs), false, true
		}
		// An __init__ taking it through an unannotated **kwargs: the
		// argument's type, as for a def (django's CharField(max_length=100));
		// by an unannotated parameter without a default: the argument's
		// type widened (AlterField(model_name='site') is str).
		widened = construct && named
		construct = construct && !named && kwargs < 0
	}
	// A class's keyword no __init__ declares is a field its generated
	// constructor takes (a dataclass's): the linker's answer, not the
	// argument's type.
	c := callAround(u, at, sy.Recv)
	if c < 0 {
		c = q.e.calleeCallWith(u, sy.Recv, sy.Name)
	}
	if c < 0 || construct {
		return Type{}, named, false
	}
	x := &u.Summary().Exprs[c]
	npos := len(x.Args) - len(x.Keys)
	for i, k := range x.Keys {
		if k == sy.Name && npos+i >= 0 {
			t := q.expr(u, x.Args[npos+i])
			if widened {
				t = widen(t)
			}
			return t, named, true
		}
	}
	return Type{}, named, false
}

// overloadShown is what pyright shows for overloaded name sym of u
// used at o: one overload, or several (an Overloaded type; zero: all of
// them). Imported or applied as a decorator, the name shows them all.
// Called, the first call the summary records decides (shownAtCall). A
// use the summary records no call for shows the first.
func (q *query) overloadShown(u Unit, sym int32, o *navindex.Occ, t Type) Type {
	if o != nil && o.Flags&navindex.OccImport != 0 {
		return Type{}
	}
	exprs := u.Summary().Exprs
	named := func(e int32) bool { return validExpr(u, e) && exprs[e].Op == navindex.ExprSym && exprs[e].A == sym }
	for _, d := range u.Summary().Defs {
		for _, dec := range d.Decorators {
			if named(dec) {
				return Type{}
			}
		}
	}
	// The call at the hover, else the first call of the name.
	at := callAfter(u, o, func(x *navindex.Expr) bool { return named(x.A) })
	for i := range exprs {
		x := &exprs[i]
		if at >= 0 && int32(i) != at || x.Op != navindex.ExprCall || !named(x.A) {
			continue
		}
		return q.shownAtCall(t, q.arguments(u, x))
	}
	return t.Args()[0]
}

// shownAtCall is what pyright's hover shows of overloaded t called with
// args (its overloadsUsedForCall): the overload the call uses, or, when
// the choice among those that match is ambiguous (overloadMatches),
// those overloads (`ast.parse(unknown)`: the three of its six that take
// one argument). When none matches: the first overload with every
// argument's type known, else all of them (zero).
func (q *query) shownAtCall(t Type, args []argument) Type {
	fs, _, ambiguous := q.overloadMatches(t, args)
	switch {
	case len(fs) == 0:
		for _, a := range args {
			if a.t.IsUnknown() {
				return Type{}
			}
		}
		return t.Args()[0]
	case !ambiguous:
		return FunctionType(*fs[0])
	}
	return shownOverloads(fs)
}

// shownOverloads are fs as one Overloaded type.
func shownOverloads(fs []*Function) Type {
	ts := make([]Type, len(fs))
	for i, f := range fs {
		ts[i] = FunctionType(*f)
	}
	return OverloadedType(ts...)
}

// declKind is the kind of r's first declaration that is not a variable
// (a function's when none is).
func (q *query) declKind(r Ref) navindex.DefKind {
	if r.Unit != nil {
		for _, d := range q.liveDefs(r.Unit, r.Sym) {
			if k := r.Unit.Summary().Defs[d].Kind; k != navindex.KindVariable {
				return k
			}
		}
	}
	return navindex.KindFunction
}

// sameParam: argument i of args goes to parameters of one type in every
// overload of fs, so its being unknown cannot make the choice among
// them ambiguous (getattr(unknown, "a", {}) picks its dict overload).
func (q *query) sameParam(fs []*Function, args []argument, i int) bool {
	var want Type
	for j, f := range fs {
		k := q.place(f, args).params[i]
		if k < 0 {
			return false
		}
		pt := q.paramIn(f, k)
		if j == 0 {
			want = pt
		} else if !pt.Equal(want) {
			return false
		}
	}
	return len(fs) > 0
}

// callAfter is the call whose argument list opens right after
// occurrence o (the callee named there), when callee says its ExprCall
// is that call's; -1 none. Summaries share one expression among alike
// calls, so the call is found by position, not by expression.
func callAfter(u Unit, o *navindex.Occ, callee func(*navindex.Expr) bool) int32 {
	if o == nil {
		return -1
	}
	calls := u.Summary().Calls
	after := navindex.Pos{Line: o.Line, Col: o.End}
	i, _ := slices.BinarySearchFunc(calls, after, func(c navindex.Call, p navindex.Pos) int {
		if c.Open.Less(p) {
			return -1
		}
		if p.Less(c.Open) {
			return 1
		}
		return 0
	})
	if i == len(calls) || calls[i].Open.Line != o.Line || !validExpr(u, calls[i].Expr) {
		return -1
	}
	x := &u.Summary().Exprs[calls[i].Expr]
	if x.Op != navindex.ExprCall || !validExpr(u, x.A) || !callee(x) {
		return -1
	}
	return calls[i].Expr
}

// callAround is the innermost call of callee expression callee whose
// argument list holds occurrence o, -1 none.
func callAround(u Unit, o *navindex.Occ, callee int32) int32 {
	if o == nil {
		return -1
	}
	p := navindex.Pos{Line: o.Line, Col: o.Col}
	calls := u.Summary().Calls
	for i := len(calls) - 1; i >= 0; i-- {
		c := &calls[i]
		if p.Less(c.Open) || c.Close.Less(p) || !validExpr(u, c.Expr) {
			continue
		}
		if x := &u.Summary().Exprs[c.Expr]; x.Op == navindex.ExprCall && x.A == callee {
			return c.Expr
		}
	}
	return -1
}

// receiverSolved is overload f with the type variables of its
// annotated self solved from the receiver it is bound to, those the
// receiver leaves Unknown, as pyright's hover at a call prints the
// overload chosen (`d.setdefault(k)` of a dict[str, Any]: `-> (Unknown
// | None)`); the call's arguments solve nothing there (`re.compile("")`
// keeps AnyStr@compile).
func (q *query) receiverSolved(f Function) Function {
	sol, ok := q.selfSolution(&f)
	if !ok {
		return f
	}
	sub := make(map[string]Type, len(f.Subst)+len(sol))
	for k, v := range sol {
		sub[k] = v
	}
	for k, v := range f.Subst {
		sub[k] = v
	}
	f.Subst = sub
	return f
}

// firstOverload is the first overload of t whose receiver annotation
// takes the receiver it is bound to: a str's upper() is the `-> str`
// one, not `def upper(self: LiteralString) -> LiteralString`.
func (q *query) firstOverload(t Type) Type {
	for _, o := range t.Args() {
		f := o.Func()
		if f == nil || !validDef(f.Unit, f.Def) {
			continue
		}
		ps := f.Unit.Summary().Defs[f.Def].Params
		if f.BoundSet && len(ps) > 0 && ps[0].Annot >= 0 && ps[0].Kind != navindex.ParamVarArgs && !q.assignable(f.Bound, q.paramIn(f, 0)) {
			continue
		}
		return o
	}
	return t.Args()[0]
}

// overloadsHover is every overload of t, as pyright shows a name
// referred to but not called with known arguments:
//
//	(function)
//	def f(x: int) -> int: ...
//
//	def f(x: str) -> str: ...
func (q *query) overloadsHover(kind navindex.DefKind, name string, t Type) string {
	var b strings.Builder
	b.WriteString("(" + kind.String() + ") ")
	for _, o := range t.Args() {
		f := o.Func()
		if f == nil {
			continue
		}
		b.WriteString("\ndef " + name)
		q.printSignature(&b, f, false, 0)
		b.WriteString(": ...\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// unresolvedImport is the module of `import m` that binds symbol sy
// when the Program has no such module, "" otherwise.
func (q *query) unresolvedImport(u Unit, sy *navindex.Sym) string {
	if sy.Kind != navindex.SymLocal || !validSym(u, sy.Target) {
		return ""
	}
	imp := &u.Summary().Syms[sy.Target]
	if imp.Kind != navindex.SymImport || imp.Name != "" || imp.Level != 0 || strings.Contains(imp.Module, ".") || len(q.e.prog.Module(imp.Module)) > 0 {
		return ""
	}
	return imp.Module
}

// inClassBody reports a symbol a class body binds (not self.x).
func (q *query) inClassBody(u Unit, sym int32) bool {
	if u.Summary().Syms[sym].Kind != navindex.SymLocal {
		return false
	}
	owner := q.ownerOf(u, sym)
	return owner >= 0 && u.Summary().Defs[owner].Kind == navindex.KindClass
}

// inFunction reports a symbol bound in a function's scope.
func (q *query) inFunction(u Unit, sym int32) bool {
	owner := q.ownerOf(u, sym)
	if owner < 0 {
		return false
	}
	k := u.Summary().Defs[owner].Kind
	return k == navindex.KindFunction || k == navindex.KindMethod || k == navindex.KindProperty
}

func (q *query) annotated(u Unit, sym int32) bool {
	for _, d := range q.liveDefs(u, sym) {
		if q.declaresType(u, u.Summary().Defs[d].Annot) {
			return true
		}
	}
	return false
}

func (q *query) text(t Type, flags int) string {
	var b strings.Builder
	q.print(&b, t, flags)
	return b.String()
}

// Signature is `def name(params) -> R` for a function type (bound ones
// without their receiver), the first overload's for overloads, "" for
// other types: what signature help and call-site hovers show.
func (e *Evaluator) Signature(t Type) string {
	if t.Kind() == KindOverloaded && len(t.Args()) > 0 {
		t = t.Args()[0]
	}
	f := t.Func()
	if f == nil {
		return ""
	}
	var b strings.Builder
	e.query().printSignature(&b, f, true, 0)
	return b.String()
}

// HoverAt is HoverLine for occurrence o of u: at the binding o names
// when it is one (OccDef), else at a use of its symbol.
func (e *Evaluator) HoverAt(u Unit, o navindex.Occ) string {
	if u == nil || !validSym(u, o.Sym) {
		return ""
	}
	def := int32(-1)
	if o.Flags&navindex.OccDef != 0 {
		for _, d := range e.index(u).defsOf[o.Sym] {
			if u.Summary().Defs[d].Name == o.Span {
				def = d
				break
			}
		}
	}
	return e.hoverLine(u, o.Sym, def, &o)
}

// typeVarAt is t, a type variable's value (type[T]) named at occurrence
// o, scoped as pyright prints it there: T@f in the signature or body of
// the function that binds T, T@C in a generic class.
func (q *query) typeVarAt(u Unit, o navindex.Occ, t Type) Type {
	if t.Kind() != KindClass || t.Class().Valid() || len(t.Args()) != 1 {
		return t
	}
	tv := t.Args()[0]
	if tv.Kind() != KindTypeVar || tv.d.scope != "" {
		return t
	}
	scope := q.scopeAt(u, o, tv.Text())
	if scope == "" {
		return t
	}
	d := *tv.d
	d.scope = scope
	return classObjectOf(Type{&d})
}

// scopeAt is the scope type variable name has at occurrence o of u:
// the def whose signature o is in, or whose body holds o, and the
// functions and class around it; "" when none binds it.
func (q *query) scopeAt(u Unit, o navindex.Occ, name string) string {
	s := u.Summary()
	start := int32(-1)
	// A def of o's scope starting at or before o whose signature names
	// it: o is in that signature.
	for i := range s.Defs {
		d := &s.Defs[i]
		if d.Kind != navindex.KindFunction && d.Kind != navindex.KindMethod && d.Kind != navindex.KindProperty {
			continue
		}
		if !validSym(u, d.Sym) || s.Syms[d.Sym].Scope != o.Scope || d.Name.Line > o.Line {
			continue
		}
		if start < 0 || d.Name.Line >= s.Defs[start].Name.Line {
			start = int32(i)
		}
	}
	if start >= 0 && !q.signatureNames(u, &s.Defs[start], name) {
		start = -1
	}
	if ix := q.e.index(u); start < 0 && o.Scope >= 0 && int(o.Scope) < len(ix.scopeDef) {
		start = ix.scopeDef[o.Scope]
	}
	if start < 0 {
		return ""
	}
	if b := q.outerBinder(u, start, name); b != "" {
		return b
	}
	c := Class{Unit: u, Sym: s.Defs[start].Sym}
	if s.Defs[start].Kind != navindex.KindClass {
		c = q.enclosingClass(u, start)
	}
	if info := q.class(c); info != nil {
		for _, p := range info.typeParams {
			if p.Text() == name {
				return c.Name()
			}
		}
	}
	return ""
}
