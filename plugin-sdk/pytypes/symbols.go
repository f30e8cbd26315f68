package pytypes

import (
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// maxDeclarations caps the bindings a variable's inferred type is the
// union of (pyright's maxDeclarationsToUseForInference).
const maxDeclarations = 64

func (q *query) sym(u Unit, s int32) Type {
	if !validSym(u, s) {
		return unknownType
	}
	key := memoKey{what: memoSym, unit: u, idx: s}
	if sy := &u.Summary().Syms[s]; sy.Kind == navindex.SymMember || sy.Kind == navindex.SymLocal && sy.Target < 0 {
		if pos, ok := q.activeAt(key); ok {
			// Read back while one of its bindings is inferred (`self.n =
			// self.n + 1`): the bindings not being inferred, as pyright
			// skips a declaration already on its resolution stack.
			q.cutBy(pos)
			return q.bindingsBesidesActive(u, s)
		}
	}
	return q.memoised(key, func() Type {
		sy := &u.Summary().Syms[s]
		switch sy.Kind {
		case navindex.SymLocal:
			if sy.Target >= 0 {
				t := q.ref(u, s, q.e.prog.Resolve(u, s))
				if t.IsUnknown() {
					if m := q.importedSubmodule(u, sy.Target); m != "" {
						return asImported(ModuleType(m), &u.Summary().Syms[sy.Target])
					}
				}
				return t
			}
			return q.local(u, s)
		case navindex.SymMember:
			return q.local(u, s)
		case navindex.SymImport, navindex.SymBuiltin, navindex.SymUnresolved:
			return q.ref(u, s, q.e.prog.Resolve(u, s))
		case navindex.SymAttr:
			if !validExpr(u, sy.Recv) {
				return unknownType
			}
			return q.narrowedMember(u, sy.Recv, sy.Name, q.member(q.expr(u, sy.Recv), sy.Name))
		case navindex.SymKeyword:
			t, _ := q.keywordType(u, sy)
			return t
		}
		return unknownType
	})
}

// importedSubmodule is the submodule `from M import name` names when
// the import resolved to nothing (a package's `from . import path`,
// where the package's own `path` would otherwise name itself): M.name
// when the Program has that module, "" otherwise. A relative M is tried
// from the unit as a package and as a module.
func (q *query) importedSubmodule(u Unit, imp int32) string {
	if !validSym(u, imp) {
		return ""
	}
	sy := &u.Summary().Syms[imp]
	if sy.Kind != navindex.SymImport || sy.Name == "" {
		return ""
	}
	for _, b := range importBases(u, sy.Level, sy.Module) {
		if m := strings.TrimPrefix(b+"."+sy.Name, "."); len(q.e.prog.Module(m)) > 0 {
			return m
		}
	}
	return ""
}

// importBases are the modules an import of u (level dots, then module)
// may name: the module itself when absolute; a relative one from the
// unit as a package, then as a module (a unit does not say which it is).
func importBases(u Unit, level int32, module string) []string {
	if level == 0 {
		return []string{module}
	}
	var bases []string
	for i := int32(0); i < 2; i++ {
		base := u.ModuleName()
		for l := level - 1 + i; l > 0 && base != ""; l-- {
			base = base[:max(strings.LastIndexByte(base, '.'), 0)]
		}
		if module != "" {
			base = strings.TrimPrefix(base+"."+module, ".")
		}
		bases = append(bases, base)
	}
	return bases
}

// asImported is module type t as pyright prints a submodule a relative
// `from . import path` brings in: the import as written joined to the
// name, Module("..path") (os/__init__.pyi's os.path).
func asImported(t Type, imp *navindex.Sym) Type {
	if imp.Level == 0 {
		return t
	}
	d := *t.d
	d.alias = strings.Repeat(".", int(imp.Level)) + imp.Module + "." + imp.Name
	return Type{&d}
}

// ref is the type of what symbol s of u resolved to.
func (q *query) ref(u Unit, s int32, r Ref) Type {
	switch {
	case r.Module != "" && r.Unit == nil:
		return ModuleType(r.Module)
	case r.Unit == nil:
		return unknownType
	case r.Unit == u && r.Sym == s:
		return q.local(u, s)
	}
	return q.sym(r.Unit, r.Sym)
}

// resolve follows symbol s of u to the binding it names (itself for a
// local that is not an import, the member for an attribute).
func (q *query) resolve(u Unit, s int32) Ref {
	if !validSym(u, s) {
		return Ref{}
	}
	sy := &u.Summary().Syms[s]
	switch sy.Kind {
	case navindex.SymLocal:
		if sy.Target < 0 {
			return Ref{Unit: u, Sym: s}
		}
	case navindex.SymMember:
		return Ref{Unit: u, Sym: s}
	case navindex.SymAttr:
		if !validExpr(u, sy.Recv) {
			return Ref{}
		}
		return q.member(q.expr(u, sy.Recv), sy.Name).Ref
	case navindex.SymKeyword:
		return Ref{}
	}
	r := q.e.prog.Resolve(u, s)
	if r.Unit == u && r.Sym == s {
		return r
	}
	if r.Unit != nil && validSym(r.Unit, r.Sym) {
		if k := r.Unit.Summary().Syms[r.Sym]; k.Kind == navindex.SymLocal && k.Target >= 0 {
			return q.e.prog.Resolve(r.Unit, r.Sym)
		}
	}
	return r
}

// local is the type of a symbol u binds itself: its last declaration
// (class, def, parameter, annotation), else the union of its bindings'
// values.
func (q *query) local(u Unit, s int32) Type {
	defs := q.liveDefs(u, s)
	if name := u.Summary().Syms[s].Name; strings.HasPrefix(name, "__") && len(q.e.index(u).defsOf[s]) == 0 ||
		moduleImplicit(u, s) && !q.annotated(u, s) {
		// The interpreter's declaration, which a module's own
		// assignments narrow (status_codes' `__doc__ = __doc__ + ...`).
		return q.implicitName(name)
	}
	all := u.Summary().Defs
	for i := len(defs) - 1; i >= 0; i-- {
		d := &all[defs[i]]
		switch {
		case d.Kind == navindex.KindClass, d.Kind == navindex.KindFunction, d.Kind == navindex.KindMethod,
			d.Kind == navindex.KindProperty, d.Kind == navindex.KindParameter:
			return q.def(u, defs[i])
		case d.Flags&navindex.DefTypeAlias == 0 && q.declaresType(u, d.Annot):
			return q.def(u, defs[i])
		}
	}
	if t, ok := q.inheritedDeclaration(u, s); ok {
		return t
	}
	return q.joinBindings(u, s, defs)
}

// bindingsBesidesActive is the union of the bindings of s of u that are
// not being inferred in this query, Unknown when none is left.
func (q *query) bindingsBesidesActive(u Unit, s int32) Type {
	var defs []int32
	for _, d := range q.liveDefs(u, s) {
		if !q.isActive(memoKey{what: memoDef, unit: u, idx: d}) {
			defs = append(defs, d)
		}
	}
	return q.joinBindings(u, s, defs)
}

// joinBindings is the union of the types of defs, bindings of s of u.
func (q *query) joinBindings(u Unit, s int32, defs []int32) Type {
	if len(defs) > maxDeclarations {
		defs = defs[:maxDeclarations]
	}
	// Each binding's type widened before they are joined, as pyright
	// infers a declaration's type before the union: `self.x = False`
	// then `self.x = unknown` is `bool | Unknown`, the literal not
	// sorted after the Unknown.
	keep := keepsLiterals(u, s, defs)
	var ts []Type
	for _, d := range defs {
		if t := q.def(u, d); keep {
			ts = append(ts, t)
		} else {
			ts = append(ts, widen(t))
		}
	}
	if len(ts) == 0 {
		return unknownType
	}
	return Union(ts...)
}

// importBinding is what import def di of u binds when its name is
// bound otherwise too (requests' utils.py imports proxy_bypass and
// defines it again for win32): the import's target, which the kernel
// does not follow for a name that is no plain alias. ok false for any
// other def, and when the name has more than one import binding (the
// summary keeps one target per name).
func (q *query) importBinding(u Unit, di int32) (Type, bool) {
	d := &u.Summary().Defs[di]
	if !d.Import || !validSym(u, d.Sym) {
		return Type{}, false
	}
	sy := &u.Summary().Syms[d.Sym]
	if sy.Kind != navindex.SymLocal || sy.Alias || !validSym(u, sy.Target) {
		return Type{}, false
	}
	imports := 0
	for _, o := range q.e.index(u).defsOf[d.Sym] {
		if u.Summary().Defs[o].Import {
			imports++
		}
	}
	if imports != 1 {
		return Type{}, false
	}
	return q.sym(u, sy.Target), true
}

// inheritedDeclaration is the declared type a base class gives class
// variable s of u that its own class leaves undeclared: pyright's
// declared type of `output_field = BinaryField()` in a subclass whose
// base has `@cached_property def output_field` is cached_property. ok
// false when s is no class variable or no base declares it (an
// annotation, a def or a class).
func (q *query) inheritedDeclaration(u Unit, s int32) (Type, bool) {
	bu, bd := q.inheritedDeclarationDef(u, s)
	if bu == nil {
		return Type{}, false
	}
	return q.def(bu, bd), true
}

// inheritedDeclarationDef is the base class's def inheritedDeclaration
// takes the type of (nil Unit when none).
func (q *query) inheritedDeclarationDef(u Unit, s int32) (Unit, int32) {
	owner := q.ownerOf(u, s)
	if owner < 0 || u.Summary().Syms[s].Kind != navindex.SymLocal || u.Summary().Defs[owner].Kind != navindex.KindClass {
		return nil, -1
	}
	info := q.class(Class{Unit: u, Sym: u.Summary().Defs[owner].Sym})
	if info == nil {
		return nil, -1
	}
	_, mi, sym := q.lookupMRO(info, u.Summary().Syms[s].Name, 1)
	if mi == nil {
		return nil, -1
	}
	bdefs := q.liveDefs(mi.c.Unit, sym)
	for i := len(bdefs) - 1; i >= 0; i-- {
		d := &mi.c.Unit.Summary().Defs[bdefs[i]]
		switch {
		case d.Kind == navindex.KindFunction, d.Kind == navindex.KindMethod, d.Kind == navindex.KindProperty, d.Kind == navindex.KindClass:
			return mi.c.Unit, bdefs[i]
		case d.Flags&navindex.DefTypeAlias == 0 && q.declaresType(mi.c.Unit, d.Annot):
			return mi.c.Unit, bdefs[i]
		}
	}
	return nil, -1
}

// implicitName is the type of a name the interpreter binds in a module
// or class without a statement of the file (pyright's implicit module
// symbols): __name__ is str, __file__ str, __doc__ str | None ...
func (q *query) implicitName(name string) Type {
	str := q.instanceOf("str")
	switch name {
	case "__name__", "__qualname__", "__file__", "__cached__", "__module__":
		return str
	case "__doc__", "__package__":
		return Union(str, noneType)
	case "__path__":
		return q.typingInstance("MutableSequence", str)
	case "__dict__", "__annotations__":
		return q.instanceOf("dict", str, anyType)
	case "__loader__", "__spec__", "__builtins__":
		return anyType
	}
	return unknownType
}

// moduleImplicit reports symbol s of u a name every module binds
// (__doc__, __name__ ...), bound at u's top level: pyright's intrinsic
// declaration, which comes before any the module writes.
func moduleImplicit(u Unit, s int32) bool {
	sy := &u.Summary().Syms[s]
	return sy.Kind == navindex.SymLocal && sy.Scope == 0 && !u.IsStub() && slices.Contains(implicitModuleNames, sy.Name)
}

// keepsLiterals: constants (ALL_CAPS names) and Final variables keep
// their literal types, as pyright's declared types do.
func keepsLiterals(u Unit, s int32, defs []int32) bool {
	if IsConstantName(u.Summary().Syms[s].Name) {
		return true
	}
	for _, d := range defs {
		if u.Summary().Defs[d].Flags&navindex.DefFinal != 0 {
			return true
		}
	}
	return false
}

// IsConstantName reports a name pyright shows as a constant: upper-case
// letters, digits and underscores, with a letter.
func IsConstantName(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letter
}

func (q *query) def(u Unit, di int32) Type {
	if !validDef(u, di) {
		return unknownType
	}
	return q.memoised(memoKey{what: memoDef, unit: u, idx: di}, func() Type {
		d := &u.Summary().Defs[di]
		switch d.Kind {
		case navindex.KindClass:
			return ClassObject(Class{Unit: u, Sym: d.Sym})
		case navindex.KindFunction, navindex.KindMethod, navindex.KindProperty:
			return q.functionValue(u, di)
		case navindex.KindParameter:
			return q.parameterOf(u, di)
		case navindex.KindModule:
			return q.ref(u, d.Sym, q.e.prog.Resolve(u, d.Sym))
		}
		if t, ok := q.importBinding(u, di); ok {
			return t
		}
		if d.Flags&navindex.DefTypeAlias != 0 {
			return q.aliasValue(u, d.Value)
		}
		if t, ok := q.typingAliasValue(u, d.Sym); ok {
			return t
		}
		if q.declaresType(u, d.Annot) {
			return q.annot(u, d.Annot, q.scopeOfDef(u, di))
		}
		if d.Value >= 0 {
			// T = TypeVar("T") binds the type variable as a class-like value.
			if tv := q.typeVarDecl(u, d.Value, ""); tv != "" {
				return classObjectOf(TypeVarType(tv, ""))
			}
			return q.expr(u, d.Value)
		}
		return unknownType
	})
}

// typingAliasValue is what typing's List (Dict, DefaultDict ...) holds
// as a value: the class it aliases, printed as pyright does,
// type[List[_T@list]]; ok false for other names.
func (q *query) typingAliasValue(u Unit, sym int32) (Type, bool) {
	if u.ModuleName() != "typing" || !validSym(u, sym) {
		return Type{}, false
	}
	name := u.Summary().Syms[sym].Name
	var c Class
	if b, ok := builtinAliases[name]; ok && name != "Text" {
		c = q.builtinClass(b)
	} else if b, ok := collectionsAliases[name]; ok {
		c = q.moduleClass("collections", b)
	}
	info := q.class(c)
	if info == nil {
		return Type{}, false
	}
	inst := withAlias(Instance(c, info.typeParams...), name, info.typeParams)
	return build(&typeData{kind: KindClass, args: []Type{inst}}), true
}

// declaresType reports an annotation that declares a type: not a bare
// Final or ClassVar, which leave the type to the value (`x: Final = 3`
// is Literal[3]).
func (q *query) declaresType(u Unit, annot int32) bool {
	if !validExpr(u, annot) {
		return false
	}
	x := &u.Summary().Exprs[annot]
	if x.Op != navindex.ExprSym && x.Op != navindex.ExprAttr {
		return true
	}
	r := q.exprRef(u, annot)
	if r.Unit == nil || !validSym(r.Unit, r.Sym) || !isTypingModule(r.Unit.ModuleName()) {
		return true
	}
	switch r.Unit.Summary().Syms[r.Sym].Name {
	case "Final", "ClassVar":
		return false
	}
	return true
}

// aliasValue is what a type alias's name holds as a value: the class
// object of a plain class, else Unknown (its meaning as a type is
// annotAlias).
func (q *query) aliasValue(u Unit, value int32) Type {
	t := q.annot(u, value, tvScope{})
	if t.Kind() == KindInstance {
		return ClassObject(t.Class(), t.Args()...)
	}
	return unknownType
}

// functionValue is the def as a value: the def, its overloads together
// when it is one of several, then its decorators applied.
func (q *query) functionValue(u Unit, di int32) Type {
	all := u.Summary().Defs
	d := &all[di]
	var t Type
	if d.Flags&navindex.DefOverload != 0 || q.hasOverloads(u, d.Sym) {
		var fns []Type
		for _, o := range q.liveDefs(u, d.Sym) {
			if all[o].Flags&navindex.DefOverload != 0 {
				fns = append(fns, FunctionType(Function{Unit: u, Def: o}))
			}
		}
		if len(fns) == 1 {
			t = fns[0]
		} else {
			t = OverloadedType(fns...)
		}
	} else {
		f := Function{Unit: u, Def: di}
		if r, ok := q.returnInFrame(u, di); ok {
			f.Returns = &r
		}
		t = FunctionType(f)
	}
	// Decorators, innermost first, with pyright's rules for decorators
	// it cannot see through: the undecorated type stays when the result
	// is unknown, when it is an unannotated (*args, **kwargs) wrapper,
	// or when an unannotated decorator gives something partly unknown.
	for i := len(d.Decorators) - 1; i >= 0; i-- {
		dec := q.expr(u, d.Decorators[i])
		r := q.call(dec, []argument{{t: t}})
		if r.IsUnknown() || q.isArgsKwargsWrapper(r) || q.unannotatedDecorator(dec) && q.partlyUnknown(r, 0) {
			continue
		}
		t = r
	}
	return t
}

// returnInFrame is what def di of u, nested in the def a call-site
// frame infers, returns there: pyright infers it with the enclosing
// call's parameter types and keeps it with the def it returns
// (django's `__getattr__ = new_method_proxy(getattr)` returns Any); ok
// false outside such a frame or when nothing more is known there.
func (q *query) returnInFrame(u Unit, di int32) (Type, bool) {
	if len(q.frames) == 0 {
		return Type{}, false
	}
	fr := &q.frames[len(q.frames)-1]
	d := &u.Summary().Defs[di]
	if fr.unit != u || d.Annot >= 0 || len(d.Decorators) > 0 || d.Flags&(navindex.DefAsync|navindex.DefGenerator) != 0 || q.ownerOf(u, d.Sym) != fr.def {
		return Type{}, false
	}
	r := q.returnType(u, di)
	return r, !r.IsUnknown()
}

// unannotatedDecorator reports a decorator whose every member is an
// unannotated def (or unknown): django's `@register.filter(is_safe=True)`,
// a union of inner defs, keeps the filter's own signature.
func (q *query) unannotatedDecorator(t Type) bool {
	some := false
	for _, m := range t.Members() {
		if m.IsUnknown() {
			continue
		}
		if !q.isUnannotatedDef(m) {
			return false
		}
		some = true
	}
	return some
}

// isUnannotatedDef reports a def without a return annotation or any
// annotated parameter.
func (q *query) isUnannotatedDef(t Type) bool {
	f := t.Func()
	if t.Kind() != KindFunction || f == nil || !validDef(f.Unit, f.Def) {
		return false
	}
	d := &f.Unit.Summary().Defs[f.Def]
	if d.Annot >= 0 {
		return false
	}
	for _, p := range d.Params {
		if p.Annot >= 0 {
			return false
		}
	}
	return true
}

// isArgsKwargsWrapper reports an unannotated def taking only *args and
// **kwargs (after a method's self or cls): a wrapper that passes its
// arguments on, so the decorated signature is the one callers see.
func (q *query) isArgsKwargsWrapper(t Type) bool {
	if !q.isUnannotatedDef(t) {
		return false
	}
	f := t.Func()
	for i, p := range f.Unit.Summary().Defs[f.Def].Params {
		if p.Kind == navindex.ParamVarArgs || p.Kind == navindex.ParamVarKwargs {
			continue
		}
		if i == 0 && q.enclosingClass(f.Unit, f.Def).Valid() && f.Unit.Summary().Defs[f.Def].Flags&navindex.DefStaticMethod == 0 {
			continue
		}
		return false
	}
	return true
}

// partlyUnknown reports t is or holds Unknown: a member, a type
// argument, a def's unannotated parameter or its return (bounded depth,
// as recursive inferred returns nest).
func (q *query) partlyUnknown(t Type, depth int) bool {
	if t.IsUnknown() {
		return true
	}
	if depth > 4 {
		return false
	}
	switch t.Kind() {
	case KindFunction:
		f := t.Func()
		if f == nil || !validDef(f.Unit, f.Def) {
			return true
		}
		d := &f.Unit.Summary().Defs[f.Def]
		for i, p := range d.Params {
			if p.Annot < 0 && !(i == 0 && q.enclosingClass(f.Unit, f.Def).Valid()) {
				return true
			}
		}
		return q.partlyUnknown(q.declaredReturn(f), depth+1)
	case KindCallable:
		if q.partlyUnknown(t.Return(), depth+1) {
			return true
		}
	}
	for _, a := range t.Args() {
		if q.partlyUnknown(a, depth+1) {
			return true
		}
	}
	return false
}

func (q *query) hasOverloads(u Unit, sym int32) bool {
	all := u.Summary().Defs
	for _, o := range q.liveDefs(u, sym) {
		if all[o].Flags&navindex.DefOverload != 0 {
			return true
		}
	}
	return false
}

// ownerOf is the def (function or class) whose body is the scope sym of
// u lives in, -1 at module level.
func (q *query) ownerOf(u Unit, sym int32) int32 {
	if !validSym(u, sym) {
		return -1
	}
	sc := u.Summary().Syms[sym].Scope
	ix := q.e.index(u)
	if sc < 0 || int(sc) >= len(ix.scopeDef) {
		return -1
	}
	return ix.scopeDef[sc]
}

// enclosingClass is the class whose body holds def di (a method), or
// the zero Class.
func (q *query) enclosingClass(u Unit, di int32) Class {
	owner := q.ownerOf(u, u.Summary().Defs[di].Sym)
	if owner < 0 {
		return Class{}
	}
	od := &u.Summary().Defs[owner]
	if od.Kind != navindex.KindClass {
		return Class{}
	}
	return Class{Unit: u, Sym: od.Sym}
}

// parameterOf is the type of parameter def di: found by name in the
// Params of the def whose body binds it.
func (q *query) parameterOf(u Unit, di int32) Type {
	d := &u.Summary().Defs[di]
	owner := q.ownerOf(u, d.Sym)
	if owner < 0 {
		if d.Annot >= 0 {
			return q.annot(u, d.Annot, tvScope{})
		}
		return unknownType
	}
	name := u.Summary().Syms[d.Sym].Name
	for i, p := range u.Summary().Defs[owner].Params {
		if p.Name == name {
			if t, ok := q.frameParam(u, owner, i); ok {
				return t
			}
			return q.paramType(u, owner, i, true)
		}
	}
	return unknownType
}

// paramType is the type of parameter i of def di; wrapped makes *args a
// tuple and **kwargs a dict, as inside the body.
func (q *query) paramType(u Unit, di int32, i int, wrapped bool) Type {
	d := &u.Summary().Defs[di]
	p := &d.Params[i]
	var t, inherited Type
	if p.Annot < 0 && !p.HasDefault && i > 0 {
		inherited = q.inheritedParam(u, di, i)
	}
	switch {
	case p.Annot >= 0:
		t = q.annot(u, p.Annot, q.scopeOfDef(u, di))
	case i == 0 && p.Kind != navindex.ParamVarArgs && p.Kind != navindex.ParamVarKwargs && (d.Flags&navindex.DefStaticMethod == 0 || u.Summary().Syms[d.Sym].Name == "__new__") && q.enclosingClass(u, di).Valid():
		self := SelfType(q.enclosingClass(u, di))
		name := u.Summary().Syms[d.Sym].Name
		if d.Flags&navindex.DefClassMethod != 0 || name == "__new__" || name == "__init_subclass__" || name == "__class_getitem__" {
			return classObjectOf(self)
		}
		return self
	case inherited.d != nil:
		t = inherited
	case p.HasDefault && p.Default >= 0:
		if u.IsStub() && isEllipsis(u, p.Default) {
			return ellipsisAny
		}
		dt := q.expr(u, p.Default)
		if dt.Kind() == KindNone {
			return Union(unknownType, noneType)
		}
		// An instance of a private class is a sentinel (pyright's
		// inferParameterTypeFromDefaultValue): `x=_missing` is
		// `_Missing | Unknown`.
		if dt.Kind() == KindInstance && privateOrProtected(dt.Class().Name()) {
			return Union(dt, unknownType)
		}
		// pyright infers nothing from a tuple, list, set or dict default:
		// likely narrower than meant (`params=()`).
		if c := dt.Class(); c.Valid() && c.Unit.ModuleName() == "builtins" && (dt.Kind() == KindTuple || dt.Kind() == KindInstance) {
			switch c.Name() {
			case "tuple", "list", "set", "dict":
				return unknownType
			}
		}
		return widen(dt)
	case wrapped && (p.Kind == navindex.ParamVarArgs || p.Kind == navindex.ParamVarKwargs):
		// Unannotated *args and **kwargs are still a tuple and a dict in
		// the body: kwargs.get is dict[str, Unknown]'s.
		t = unknownType
	default:
		return unknownType
	}
	if wrapped {
		switch p.Kind {
		case navindex.ParamVarArgs:
			return HomogeneousTuple(q.builtinClass("tuple"), t)
		case navindex.ParamVarKwargs:
			return q.instanceOf("dict", q.instanceOf("str"), t)
		}
	}
	return t
}

// inheritedParam is the declared type of the same parameter (same
// position and name) of the method def di overrides, as pyright infers
// an unannotated parameter of an override; nil Type when none.
func (q *query) inheritedParam(u Unit, di int32, i int) Type {
	c := q.enclosingClass(u, di)
	info := q.class(c)
	if info == nil {
		return Type{}
	}
	d := &u.Summary().Defs[di]
	m, mi, sym := q.lookupMRO(info, u.Summary().Syms[d.Sym].Name, 1)
	if mi == nil {
		return Type{}
	}
	defs := q.liveDefs(mi.c.Unit, sym)
	if len(defs) == 0 {
		return Type{}
	}
	bd := &mi.c.Unit.Summary().Defs[defs[len(defs)-1]]
	if i >= len(bd.Params) || bd.Params[i].Name != d.Params[i].Name || bd.Params[i].Annot < 0 {
		return Type{}
	}
	t := q.paramType(mi.c.Unit, defs[len(defs)-1], i, false)
	return substitute(t, bindParams(mi.typeParams, m.Args()), Type{}, false)
}

// classObjectOf is type[t]: the class object of an instance, else a
// type[...] of what t is (a type variable, Self).
func classObjectOf(t Type) Type {
	switch t.Kind() {
	case KindInstance:
		return ClassObject(t.Class(), t.Args()...)
	case KindUnknown, KindAny:
		return t
	}
	return build(&typeData{kind: KindClass, args: []Type{t}})
}

// returnType is the declared return of def di, or the one inferred from
// its body (workspace defs only), before any binding.
func (q *query) returnType(u Unit, di int32) Type {
	return q.withoutFramesOf(u, di, func() Type { return q.plainReturnType(u, di) })
}

func (q *query) plainReturnType(u Unit, di int32) Type {
	return q.memoised(memoKey{what: memoReturn, unit: u, idx: di}, func() Type {
		d := &u.Summary().Defs[di]
		var r Type
		switch {
		case d.Annot >= 0:
			r = q.annot(u, d.Annot, q.scopeOfDef(u, di))
			if d.Flags&navindex.DefGenerator != 0 {
				return r
			}
		case u.IsStub():
			return unknownType
		case u.Summary().Syms[d.Sym].Name == "__init__":
			return noneType
		case len(d.ReturnValues) == 0 && d.Flags&(navindex.DefNeverReturns|navindex.DefReturnsNone) == navindex.DefNeverReturns && (d.Flags&navindex.DefAbstract != 0 || d.Flags&navindex.DefRaisesNotImplemented != 0 && q.enclosingClass(u, di).Valid()):
			// pyright infers no NoReturn for an abstract method, nor for
			// a method that only raises NotImplementedError
			// (methodAlwaysRaisesNotImplemented): Unknown. Any other
			// def whose every path raises is NoReturn.
			return unknownType
		default:
			r = q.inferredReturn(u, di)
		}
		return q.wrapAsync(d, r)
	})
}

func (q *query) inferredReturn(u Unit, di int32) Type {
	d := &u.Summary().Defs[di]
	ways := q.waysOut(u, d)
	var ts []Type
	for _, v := range d.ReturnValues {
		if !ways.value(v) {
			continue // every return of it comes after a call that never returns
		}
		// pyright's inferred return keeps the return statements' empty
		// displays in order (`return {}` then `return x` is
		// `dict[Unknown, Unknown] | Unknown`).
		ts = append(ts, withoutEmptyContainer(q.expr(u, v)))
	}
	switch {
	case !ways.none && ways.known:
		// No bare return or end of the body is reached: NoReturn when
		// no return is either (sys.exit() at the end).
	case d.Flags&navindex.DefReturnsNone != 0 || (len(ts) == 0 && d.Flags&navindex.DefNeverReturns == 0):
		ts = append(ts, noneType)
	}
	r := noReturn
	if len(ts) > 0 {
		r = Union(ts...)
	}
	if d.Flags&navindex.DefGenerator != 0 {
		// Yielded: the union of the values yields give (pyright's
		// inferred Generator[Y, Any, R], Unknown for what is sent
		// when a yield's result may be used).
		var ys []Type
		for _, v := range d.YieldValues {
			ys = append(ys, q.expr(u, v))
		}
		y := unknownType
		if len(ys) > 0 {
			y = Union(ys...)
		}
		sent := anyType
		if d.Flags&navindex.DefYieldResultUsed != 0 {
			sent = unknownType
		}
		if d.Flags&navindex.DefAsync != 0 {
			return q.typingInstance("AsyncGenerator", y, sent)
		}
		return q.typingInstance("Generator", y, sent, r)
	}
	return r
}

// wrapAsync makes an async def's return a coroutine, as calling it does.
func (q *query) wrapAsync(d *navindex.Def, r Type) Type {
	if d.Flags&navindex.DefAsync == 0 || d.Flags&navindex.DefGenerator != 0 {
		return r
	}
	if c := q.moduleClass("types", "CoroutineType"); c.Valid() {
		return Instance(c, anyType, anyType, r)
	}
	return q.typingInstance("Coroutine", anyType, anyType, r)
}

func (q *query) typingInstance(name string, args ...Type) Type {
	c := q.moduleClass("typing", name)
	if !c.Valid() {
		return unknownType
	}
	return Instance(c, args...)
}

// privateOrProtected reports a name pyright deems private (`__x`) or
// protected (`_x`), not a dunder.
func privateOrProtected(name string) bool {
	return strings.HasPrefix(name, "_") && !(strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"))
}
