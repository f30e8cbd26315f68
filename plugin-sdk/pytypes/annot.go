package pytypes

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// tvScope says how type variables in an annotation are scoped: those of
// the enclosing class by the class's name, the others by the def's.
type tvScope struct {
	fn    string
	class Class
	// header: the class's own bases, where every type variable is the
	// class's.
	header bool
	// unit and def are the function fn names, whose enclosing functions
	// may already bind a type variable (def -1 none).
	unit Unit
	def  int32
}

// scopeOfDef is the type variable scope of annotations on def di.
func (q *query) scopeOfDef(u Unit, di int32) tvScope {
	d := &u.Summary().Defs[di]
	switch d.Kind {
	case navindex.KindFunction, navindex.KindMethod, navindex.KindProperty:
		return tvScope{fn: u.Summary().Syms[d.Sym].Name, class: q.enclosingClass(u, di), unit: u, def: di}
	case navindex.KindClass:
		return tvScope{class: Class{Unit: u, Sym: d.Sym}}
	}
	if owner := q.ownerOf(u, d.Sym); owner >= 0 {
		return q.scopeOfDef(u, owner)
	}
	return tvScope{}
}

func (q *query) scopeFor(s tvScope, name string) string {
	if s.header {
		return s.class.Name()
	}
	if s.class.Valid() {
		if info := q.class(s.class); info != nil {
			for _, p := range info.typeParams {
				if p.Text() == name {
					return s.class.Name()
				}
			}
		}
	}
	if s.fn != "" {
		if outer := q.outerBinder(s.unit, s.def, name); outer != "" {
			return outer
		}
		return s.fn
	}
	if s.class.Valid() {
		return s.class.Name()
	}
	return ""
}

// outerBinder is the outermost function enclosing def di of u whose
// signature names type variable tv: pyright scopes a type variable to
// the first function that binds it, so an inner def's T is the outer's
// (scaffold.route's decorator takes T_route@route). "" when none.
func (q *query) outerBinder(u Unit, di int32, tv string) string {
	if u == nil || !validDef(u, di) {
		return ""
	}
	found := ""
	for hops := 0; di >= 0 && hops < 32; hops++ {
		d := &u.Summary().Defs[di]
		switch d.Kind {
		case navindex.KindFunction, navindex.KindMethod, navindex.KindProperty:
			if q.signatureNames(u, d, tv) {
				found = u.Summary().Syms[d.Sym].Name
			}
		case navindex.KindClass:
			return found // a class's own type variables are scopeFor's
		}
		di = q.ownerOf(u, d.Sym)
	}
	return found
}

// signatureNames reports that def d's annotations mention name.
func (q *query) signatureNames(u Unit, d *navindex.Def, name string) bool {
	if namesIn(u, d.Annot, name, 0) {
		return true
	}
	for _, p := range d.Params {
		if namesIn(u, p.Annot, name, 0) {
			return true
		}
	}
	return false
}

// namesIn reports that type expression e of u mentions name (a string
// forward reference by its text).
func namesIn(u Unit, e int32, name string, depth int) bool {
	if !validExpr(u, e) || depth > 32 {
		return false
	}
	x := &u.Summary().Exprs[e]
	switch x.Op {
	case navindex.ExprSym:
		return validSym(u, x.A) && u.Summary().Syms[x.A].Name == name
	case navindex.ExprLit, navindex.ExprText:
		return strings.Contains(x.Text, name)
	case navindex.ExprAttr:
		return false
	}
	if namesIn(u, x.A, name, depth+1) || (x.Op == navindex.ExprOper && namesIn(u, x.B, name, depth+1)) {
		return true
	}
	for _, a := range x.Args {
		if namesIn(u, a, name, depth+1) {
			return true
		}
	}
	return false
}

// typingModules are where special forms come from.
func isTypingModule(mod string) bool {
	return mod == "typing" || mod == "typing_extensions" || mod == "_typeshed" || mod == "collections.abc" || mod == "types"
}

// annot is the type a value annotated with expression e of u has.
func (q *query) annot(u Unit, e int32, s tvScope) Type {
	if !validExpr(u, e) {
		return unknownType
	}
	key := memoKey{what: memoAnnot, unit: u, idx: e}
	if !q.enter(key) {
		return unknownType
	}
	defer q.leave(key)
	x := &u.Summary().Exprs[e]
	switch x.Op {
	case navindex.ExprLit:
		switch x.Name {
		case "None":
			return noneType
		case "str":
			return q.forwardRef(u, unquote(x.Text), s)
		}
		return unknownType
	case navindex.ExprText:
		return q.forwardRef(u, x.Text, s)
	case navindex.ExprSym, navindex.ExprAttr:
		return q.annotName(u, e, s, nil)
	case navindex.ExprSubscript:
		return q.annotName(u, x.A, s, x.Args)
	case navindex.ExprOper:
		if x.Name == "|" {
			return declaredUnion(q.annot(u, x.A, s), q.annot(u, x.B, s))
		}
	}
	return unknownType
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// forwardRef is a string annotation: a name the module (or builtins)
// binds; anything more complex is Unknown.
func (q *query) forwardRef(u Unit, text string, s tvScope) Type {
	text = strings.TrimSpace(text)
	if !isIdentifier(text) {
		return unknownType
	}
	if sym := q.scopeName(u, 0, text); sym >= 0 {
		return q.refAsType(q.resolve(u, sym), s, nil, u)
	}
	return q.refAsType(q.e.prog.ModuleMember("builtins", text), s, nil, u)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// exprRef is what a name or attribute expression refers to.
func (q *query) exprRef(u Unit, e int32) Ref {
	if !validExpr(u, e) {
		return Ref{}
	}
	x := &u.Summary().Exprs[e]
	switch x.Op {
	case navindex.ExprSym:
		return q.resolve(u, x.A)
	case navindex.ExprAttr:
		recv := q.expr(u, x.A)
		if recv.Kind() == KindModule {
			return q.e.prog.ModuleMember(recv.Text(), x.Name)
		}
		return q.attribute(u, x).Ref
	}
	return Ref{}
}

// annotName is the type annotation e[args] (args nil: no subscript).
func (q *query) annotName(u Unit, e int32, s tvScope, args []int32) Type {
	return q.refAsType(q.exprRef(u, e), s, args, u)
}

// refAsType is the type a value annotated with what r names (indexed by
// args of unit au) has.
func (q *query) refAsType(r Ref, s tvScope, args []int32, au Unit) Type {
	if r.Unit == nil || !validSym(r.Unit, r.Sym) {
		return unknownType
	}
	name := r.Unit.Summary().Syms[r.Sym].Name
	if isTypingModule(r.Unit.ModuleName()) || r.Unit.ModuleName() == "builtins" {
		if t, ok := q.specialForm(name, s, args, au); ok {
			return t
		}
	}
	if c := q.classOf(r.Unit, r.Sym); c.Valid() {
		targs := make([]Type, len(args))
		for i, a := range args {
			targs[i] = q.annot(au, a, s)
		}
		if c.Name() == "tuple" && r.Unit.ModuleName() == "builtins" {
			return q.tupleAnnot(au, args, s)
		}
		return Instance(c, q.padArgs(c, targs)...)
	}
	defs := q.liveDefs(r.Unit, r.Sym)
	if len(defs) == 0 {
		return unknownType
	}
	d := &r.Unit.Summary().Defs[defs[len(defs)-1]]
	if d.Kind != navindex.KindVariable || d.Value < 0 {
		return unknownType
	}
	if tv := q.typeVarDecl(r.Unit, d.Value, name); tv != "" {
		if calleeName(r.Unit, d.Value) == "ParamSpec" {
			return paramSpecVar(tv, q.scopeFor(s, tv), q.typeVarDefault(r.Unit, d.Value))
		}
		return typeVarWithDefault(tv, q.scopeFor(s, tv), q.typeVarDefault(r.Unit, d.Value), q.typeVarConstraints(r.Unit, d.Value), typeVarBoundOf(r.Unit, d.Value))
	}
	// A type alias, explicit or not: its value read as a type, printed
	// by its name.
	if d.Annot >= 0 && d.Flags&navindex.DefTypeAlias == 0 {
		return unknownType
	}
	var t Type
	var targs []Type
	if v := &r.Unit.Summary().Exprs[d.Value]; args != nil && (v.Op == navindex.ExprSym || v.Op == navindex.ExprAttr) {
		// An alias of a generic class, subscripted: ContextManager[Any].
		// Entered as the value's annotation, so that aliases of each
		// other (`A = B`, `B = A`, then `A[int]`) end as annot's cycles do.
		key := memoKey{what: memoAnnot, unit: r.Unit, idx: d.Value}
		if !q.enter(key) {
			return unknownType
		}
		t = q.refAsType(q.exprRef(r.Unit, d.Value), s, args, au)
		q.leave(key)
		for _, a := range args {
			targs = append(targs, q.annot(au, a, s))
		}
	} else {
		t = q.annot(r.Unit, d.Value, s)
	}
	// `X = C` without TypeAlias names the class C (pyright prints C);
	// `X: TypeAlias = C` is an alias, printed as X (ReadableBuffer).
	if v := &r.Unit.Summary().Exprs[d.Value]; args != nil || d.Flags&navindex.DefTypeAlias != 0 || (v.Op != navindex.ExprSym && v.Op != navindex.ExprAttr) {
		return withAlias(t, name, targs)
	}
	return t
}

// implicitAlias is the type a variable's value names when the value is
// a type expression (`X = Callable[..., Any]`, `Y = int | None`,
// `Z = dict[str, int]`): pyright treats such a binding outside a
// function as a type alias. ok false for other values.
func (q *query) implicitAlias(u Unit, di int32) (Type, bool) {
	d := &u.Summary().Defs[di]
	if !validExpr(u, d.Value) || q.inFunction(u, d.Sym) {
		return Type{}, false
	}
	x := &u.Summary().Exprs[d.Value]
	switch x.Op {
	case navindex.ExprSubscript:
		r := q.exprRef(u, x.A)
		if r.Unit == nil || !validSym(r.Unit, r.Sym) {
			return Type{}, false
		}
		if !isTypingModule(r.Unit.ModuleName()) && !q.classOf(r.Unit, r.Sym).Valid() {
			return Type{}, false
		}
	case navindex.ExprOper:
		if x.Name != "|" {
			return Type{}, false
		}
	default:
		return Type{}, false
	}
	t := q.annot(u, d.Value, tvScope{})
	return t, !t.IsUnknown()
}

// typeVarDecl is the name of the type variable expression v declares
// (`T = TypeVar("T")`), "" when it is no such call.
func (q *query) typeVarDecl(u Unit, v int32, fallback string) string {
	if !validExpr(u, v) {
		return ""
	}
	x := &u.Summary().Exprs[v]
	if x.Op != navindex.ExprCall || !validExpr(u, x.A) {
		return ""
	}
	switch calleeName(u, v) {
	case "TypeVar", "ParamSpec", "TypeVarTuple":
	default:
		return ""
	}
	if len(x.Args) > 0 && validExpr(u, x.Args[0]) {
		if a := &u.Summary().Exprs[x.Args[0]]; a.Op == navindex.ExprLit && a.Name == "str" {
			return unquote(a.Text)
		}
	}
	return fallback
}

// calleeName is the name call expression v calls by (`TypeVar` of
// `TypeVar(...)` and `typing.TypeVar(...)`); a name an import binds
// under another is called by the imported one (ast.pyi's `TypeVar as
// _TypeVar`).
func calleeName(u Unit, v int32) string {
	x := &u.Summary().Exprs[v]
	if x.Op != navindex.ExprCall || !validExpr(u, x.A) {
		return ""
	}
	callee := &u.Summary().Exprs[x.A]
	if callee.Op == navindex.ExprSym && validSym(u, callee.A) {
		sy := &u.Summary().Syms[callee.A]
		if sy.Kind == navindex.SymLocal && validSym(u, sy.Target) {
			if imp := &u.Summary().Syms[sy.Target]; imp.Kind == navindex.SymImport && imp.Name != "" {
				return imp.Name
			}
		}
		return sy.Name
	}
	return callee.Name
}

// typeVarBoundOf is where the bound= of a TypeVar call v is written,
// nil when it has none.
func typeVarBoundOf(u Unit, v int32) *typeVarBound {
	x := &u.Summary().Exprs[v]
	npos := len(x.Args) - len(x.Keys)
	for i, k := range x.Keys {
		if k == "bound" && npos+i >= 0 && validExpr(u, x.Args[npos+i]) {
			return &typeVarBound{unit: u, expr: x.Args[npos+i]}
		}
	}
	return nil
}

// typeVarDefault is the default= of a TypeVar call v (PEP 696), Unknown
// when none.
func (q *query) typeVarDefault(u Unit, v int32) Type {
	x := &u.Summary().Exprs[v]
	npos := len(x.Args) - len(x.Keys)
	for i, k := range x.Keys {
		if k == "default" && npos+i >= 0 {
			return q.annot(u, x.Args[npos+i], tvScope{})
		}
	}
	return unknownType
}

// typeVarConstraints are the constraints of a TypeVar call v: its
// positional arguments after the name (`TypeVar("AnyStr", str, bytes)`).
func (q *query) typeVarConstraints(u Unit, v int32) []Type {
	x := &u.Summary().Exprs[v]
	npos := len(x.Args) - len(x.Keys)
	if calleeName(u, v) != "TypeVar" || npos < 3 {
		return nil
	}
	cs := make([]Type, 0, npos-1)
	for _, a := range x.Args[1:npos] {
		cs = append(cs, q.annot(u, a, tvScope{}))
	}
	return cs
}

// builtinAliases are typing's capitalised aliases of builtin classes.
var builtinAliases = map[string]string{"List": "list", "Dict": "dict", "Set": "set", "FrozenSet": "frozenset", "Text": "str"}

var collectionsAliases = map[string]string{"DefaultDict": "defaultdict", "OrderedDict": "OrderedDict", "Counter": "Counter", "Deque": "deque", "ChainMap": "ChainMap"}

// specialForm is the type of a special form of typing (or builtins'
// type and tuple) indexed by args; ok false when name is none.
func (q *query) specialForm(name string, s tvScope, args []int32, u Unit) (Type, bool) {
	all := func() []Type {
		ts := make([]Type, len(args))
		for i, a := range args {
			ts[i] = q.annot(u, a, s)
		}
		return ts
	}
	first := func() Type {
		if len(args) == 0 {
			return unknownType
		}
		return q.annot(u, args[0], s)
	}
	switch name {
	case "Any":
		return anyType, true
	case "NoReturn":
		return noReturn, true
	case "Never":
		return neverType, true
	case "LiteralString":
		t := q.instanceOf("str")
		if t.d != nil {
			d := *t.d
			d.literalString = true
			t = build(&d)
		}
		return t, true
	case "Optional":
		return Union(first(), noneType), true
	case "Union":
		return declaredUnion(all()...), true
	case "Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly":
		if len(args) == 0 {
			return unknownType, true
		}
		return first(), true
	case "TypeGuard", "TypeIs":
		// A bool, printed as written: callable's `-> TypeIs[(...) -> object]`.
		return withAlias(q.instanceOf("bool"), name, []Type{first()}), true
	case "Type", "type":
		if args == nil {
			return q.instanceOf("type"), name == "Type"
		}
		f := first()
		if f.Kind() != KindUnknown && f.Kind() != KindAny {
			return classObjectOf(f), true
		}
		// type[Unknown] (an unresolved forward reference) and type[Any]
		// stay a class object of what they name; typing's Type prints as
		// written there, as pyright's `Type[Unknown] | None` for flask's
		// `t.Optional[t.Type["Response"]]`.
		t := build(&typeData{kind: KindClass, args: []Type{f}})
		if name == "Type" {
			t = withAlias(t, name, []Type{f})
		}
		return t, true
	case "Tuple", "tuple":
		if args == nil && name == "tuple" {
			return Type{}, false
		}
		if name == "Tuple" && len(args) == 2 && isEllipsis(u, args[1]) {
			// Tuple[X, ...]: printed as written.
			t := q.tupleAnnot(u, args, s)
			return withAlias(t, "Tuple["+q.text(t.Args()[0], 0)+", ...]", nil), true
		}
		if name == "Tuple" && args != nil {
			return withAlias(q.tupleAnnot(u, args, s), name, all()), true
		}
		return q.tupleAnnot(u, args, s), true
	case "Callable":
		return q.callableAnnot(u, args, s), true
	case "Literal":
		return q.literalAnnot(u, args), true
	case "Self":
		if s.class.Valid() {
			return SelfType(s.class), true
		}
		return unknownType, true
	case "TypeAlias", "Protocol", "Generic", "Unpack", "Concatenate":
		return unknownType, true
	}
	if b, ok := builtinAliases[name]; ok {
		return q.typingAlias(name, q.builtinClass(b), args, all), true
	}
	if b, ok := collectionsAliases[name]; ok {
		return q.typingAlias(name, q.moduleClass("collections", b), args, all), true
	}
	return Type{}, false
}

// declaredUnion is the union an annotation declares: a member that is
// Unknown (an unresolved import's class) is left out, as pyright
// prints Union[InternalServerError, ResponseReturnValue] without
// werkzeug as ResponseReturnValue.
func declaredUnion(ts ...Type) Type {
	var known []Type
	for _, t := range ts {
		if !t.IsUnknown() {
			known = append(known, t)
		}
	}
	if len(known) == 0 {
		return unknownType
	}
	return Union(known...)
}

// typingAlias is typing's alias name of class c (List of list)
// subscripted with args, printed as written when subscripted: List[int].
func (q *query) typingAlias(name string, c Class, args []int32, all func() []Type) Type {
	if !c.Valid() {
		return unknownType
	}
	targs := all()
	t := Instance(c, q.padArgs(c, targs)...)
	if args == nil || name == "Text" {
		return t
	}
	return withAlias(t, name, targs)
}

// tupleAnnot is tuple[args...]: tuple[X, ...], tuple[()], fixed.
func (q *query) tupleAnnot(u Unit, args []int32, s tvScope) Type {
	tc := q.builtinClass("tuple")
	if len(args) == 2 && isEllipsis(u, args[1]) {
		return HomogeneousTuple(tc, q.annot(u, args[0], s))
	}
	if len(args) == 0 {
		return HomogeneousTuple(tc, unknownType)
	}
	if len(args) == 1 && validExpr(u, args[0]) {
		if x := &u.Summary().Exprs[args[0]]; x.Op == navindex.ExprDisplay && x.Name == "tuple" && len(x.Args) == 0 {
			return TupleType(tc)
		}
	}
	elems := make([]Type, len(args))
	for i, a := range args {
		elems[i] = q.annot(u, a, s)
	}
	return TupleType(tc, elems...)
}

func isEllipsis(u Unit, e int32) bool {
	if !validExpr(u, e) {
		return false
	}
	x := &u.Summary().Exprs[e]
	return x.Op == navindex.ExprLit && x.Name == "ellipsis"
}

// callableAnnot is Callable[[params], ret] or Callable[..., ret].
func (q *query) callableAnnot(u Unit, args []int32, s tvScope) Type {
	if len(args) != 2 {
		return CallableType(nil, unknownType, true)
	}
	ret := q.annot(u, args[1], s)
	if isEllipsis(u, args[0]) || !validExpr(u, args[0]) {
		return CallableType(nil, ret, true)
	}
	x := &u.Summary().Exprs[args[0]]
	if x.Op != navindex.ExprDisplay || x.Name != "list" {
		if p := q.annot(u, args[0], s); p.Kind() == KindTypeVar {
			return paramSpecCallable(p, ret)
		}
		return CallableType(nil, ret, true)
	}
	params := make([]Type, len(x.Args))
	for i, a := range x.Args {
		params[i] = q.annot(u, a, s)
	}
	return CallableType(params, ret, false)
}

// literalAnnot is Literal[args...]: int, str, bytes, bool literals, None,
// enum members, nested Literal.
func (q *query) literalAnnot(u Unit, args []int32) Type {
	var ts []Type
	for _, a := range args {
		if !validExpr(u, a) {
			return unknownType
		}
		x := &u.Summary().Exprs[a]
		switch x.Op {
		case navindex.ExprLit:
			if x.Name == "None" {
				ts = append(ts, noneType)
				continue
			}
			c := q.builtinClass(x.Name)
			if !c.Valid() || x.Text == "" {
				return unknownType
			}
			ts = append(ts, Literal(c, x.Text))
		case navindex.ExprOper:
			// -1 written as a unary minus of a literal.
			if x.Name == "-" && x.B < 0 && validExpr(u, x.A) {
				if l := &u.Summary().Exprs[x.A]; l.Op == navindex.ExprLit && l.Name == "int" {
					ts = append(ts, Literal(q.builtinClass("int"), "-"+l.Text))
					continue
				}
			}
			return unknownType
		case navindex.ExprAttr:
			t := q.expr(u, a)
			if t.Kind() != KindLiteral {
				return unknownType
			}
			ts = append(ts, t)
		case navindex.ExprSubscript:
			ts = append(ts, q.annot(u, a, tvScope{}))
		default:
			return unknownType
		}
	}
	return Union(ts...)
}
