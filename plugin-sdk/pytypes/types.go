package pytypes

import "strings"

// Kind says what a Type is.
type Kind uint8

const (
	KindUnknown    Kind = iota // nothing is known (pyright's Unknown)
	KindAny                    // declared Any
	KindNever                  // Never, or NoReturn (Type.IsNoReturn)
	KindNone                   // the None value
	KindModule                 // a module object: Module("os.path")
	KindClass                  // a class object: type[C]
	KindInstance               // an instance of a class, with type arguments
	KindLiteral                // a literal of int, str, bytes, bool or an enum class
	KindFunction               // a def of a unit, maybe bound to a receiver
	KindOverloaded             // the overloads of a def, in order
	KindUnion                  // flattened, deduplicated, in order of first appearance
	KindTypeVar                // a type variable with its scope: T@f
	KindTuple                  // tuple[int, str] or tuple[int, ...]
	KindCallable               // Callable[[int], str]
	KindSelf                   // Self@C
)

// Class identifies a class by the symbol its `class` statement binds.
type Class struct {
	Unit Unit
	Sym  int32
}

// Valid reports whether c names a class.
func (c Class) Valid() bool { return c.Unit != nil }

// Name is the class's own name ("list").
func (c Class) Name() string {
	if c.Unit == nil {
		return ""
	}
	syms := c.Unit.Summary().Syms
	if c.Sym < 0 || int(c.Sym) >= len(syms) {
		return ""
	}
	return syms[c.Sym].Name
}

// Type is an immutable type value; the zero Type is Unknown. Types are
// shared, never changed after construction, so copying one is copying a
// pointer; Equal compares structurally.
type Type struct{ d *typeData }

type typeData struct {
	kind  Kind
	class Class  // KindClass, KindInstance, KindLiteral, KindSelf, KindTuple (builtins.tuple when known)
	args  []Type // type arguments, union members, tuple elements, overloads, callable parameters
	ret   Type   // KindCallable's return
	// text is a literal's value as printed ("10", "'a'", "Color.RED"), a
	// module's name, a type variable's name; scope a type variable's scope.
	text, scope string
	// variadic: tuple[X, ...]; a Callable[..., R].
	variadic bool
	noReturn bool // KindNever printed NoReturn
	// literalString marks str instances declared LiteralString.
	literalString bool
	// emptyContainer marks the type of an empty `[]` or `{}` display
	// (pyright's isEmptyContainer): a union sorts it after the other
	// members and drops it beside an instance of its class. Equal
	// ignores it.
	emptyContainer bool
	// paramSpec marks a Callable[P, R] whose parameters are ParamSpec
	// args[0], and a type variable that is a ParamSpec.
	paramSpec bool
	// alias is the type alias the type was written as (`List`,
	// `TeardownCallable`), which pyright prints instead of the type, with
	// aliasArgs when it was subscripted. Equal ignores it.
	alias     string
	aliasArgs []Type
	fn        *Function
	// partial is what a functools.partial instance binds (partial.go);
	// Equal ignores it.
	partial *partialCall
	// bound is where a type variable's bound= is written (nil: none),
	// read when an argument is matched to it; Equal ignores it.
	bound *typeVarBound
	// size counts the nodes of the type (saturating at maxTypeSize), so
	// comparing, substituting and printing one is bounded.
	size int32
}

// maxTypeSize caps a type's nodes: types built from each other can grow
// exponentially (x = (x, x) through a cut cycle); past the cap one is
// Unknown.
const maxTypeSize = 512

// build finishes a type: its size, or Unknown when too large.
func build(d *typeData) Type {
	n := int32(1)
	for _, a := range d.args {
		n += a.size()
	}
	n += d.ret.size()
	if d.fn != nil {
		n += d.fn.Bound.size()
		for _, v := range d.fn.Subst {
			n += v.size()
		}
	}
	if n > maxTypeSize {
		return unknownType
	}
	d.size = n
	return Type{d}
}

func (t Type) size() int32 {
	if t.d == nil || t.d.size == 0 {
		return 1 // Unknown and the leaves made without build
	}
	return t.d.size
}

// Function is a def of a unit as a value: the def, and when it was
// reached through an instance or a class, the receiver it is bound to
// (its first parameter is then dropped) and the class's type arguments.
type Function struct {
	Unit Unit
	Def  int32
	// Bound is the receiver bound to the first parameter; Bound.Kind() is
	// KindUnknown with BoundSet false for an unbound def.
	Bound    Type
	BoundSet bool
	// Returns, when set, replaces the def's return type: a decorator
	// typed Callable[P, R] keeps the function's parameters (P) and
	// returns R.
	Returns *Type
	// SelfAs is what Self means in an unbound method reached through its
	// class (the class's instance); nil Type when not so reached.
	SelfAs Type
	// Subst maps type variables ("T@C") to their arguments.
	Subst map[string]Type
}

var (
	unknownType = Type{}
	anyType     = Type{&typeData{kind: KindAny}}
	// ellipsisAny is the Any a stub's `...` default gives an unannotated
	// parameter, which pyright prints "..." (`Dumper: ... = ...`).
	ellipsisAny = Type{&typeData{kind: KindAny, text: "..."}}
	noneType    = Type{&typeData{kind: KindNone}}
	neverType   = Type{&typeData{kind: KindNever}}
	noReturn    = Type{&typeData{kind: KindNever, noReturn: true}}
)

// Unknown is the type of what cannot be evaluated.
func Unknown() Type { return unknownType }

// AnyType is the declared Any.
func AnyType() Type { return anyType }

// NoneType is the type of None.
func NoneType() Type { return noneType }

// NeverType is Never; NoReturnType the same printed NoReturn.
func NeverType() Type    { return neverType }
func NoReturnType() Type { return noReturn }

// ModuleType is the module object of mod.
func ModuleType(mod string) Type { return Type{&typeData{kind: KindModule, text: mod}} }

// ClassObject is type[c] with type arguments args.
func ClassObject(c Class, args ...Type) Type {
	return build(&typeData{kind: KindClass, class: c, args: args})
}

// Instance is an instance of c with type arguments args.
func Instance(c Class, args ...Type) Type {
	return build(&typeData{kind: KindInstance, class: c, args: args})
}

// Literal is Literal[text] of class c (int, str, bytes, bool or an enum).
func Literal(c Class, text string) Type {
	return build(&typeData{kind: KindLiteral, class: c, text: text})
}

// TypeVarType is type variable name of scope ("" when not yet scoped).
func TypeVarType(name, scope string) Type {
	return build(&typeData{kind: KindTypeVar, text: name, scope: scope})
}

// typeVarWithDefault is a type variable whose PEP 696 default (what a
// bare generic class is specialised with) is def, kept as its ret, and
// whose constraints (AnyStr's str and bytes), if any, are its args.
func typeVarWithDefault(name, scope string, def Type, constraints []Type, bound *typeVarBound) Type {
	return build(&typeData{kind: KindTypeVar, text: name, scope: scope, ret: def, args: constraints, bound: bound})
}

// typeVarBound is the bound= expression of a TypeVar call, evaluated
// when needed (a bound may name classes that name the type variable).
type typeVarBound struct {
	unit Unit
	expr int32
}

// paramSpecVar is ParamSpec name of scope, with its default.
func paramSpecVar(name, scope string, def Type) Type {
	return build(&typeData{kind: KindTypeVar, text: name, scope: scope, ret: def, paramSpec: true})
}

// SelfType is Self@c.
func SelfType(c Class) Type { return Type{&typeData{kind: KindSelf, class: c}} }

// IsSelf reports Self@C or type[Self@C]: the types of `self` and `cls`,
// which pyright synthesises and declares at the parameter itself.
func (t Type) IsSelf() bool {
	switch t.Kind() {
	case KindSelf:
		return true
	case KindClass:
		return !t.Class().Valid() && len(t.Args()) == 1 && t.Args()[0].Kind() == KindSelf
	}
	return false
}

// TupleType is tuple[elems...] (tupleClass may be the zero Class).
func TupleType(tupleClass Class, elems ...Type) Type {
	return build(&typeData{kind: KindTuple, class: tupleClass, args: elems})
}

// HomogeneousTuple is tuple[elem, ...].
func HomogeneousTuple(tupleClass Class, elem Type) Type {
	return build(&typeData{kind: KindTuple, class: tupleClass, args: []Type{elem}, variadic: true})
}

// CallableType is Callable[[params...], ret], or Callable[..., ret] when
// anyParams.
func CallableType(params []Type, ret Type, anyParams bool) Type {
	return build(&typeData{kind: KindCallable, args: params, ret: ret, variadic: anyParams})
}

// possiblyUnknown is Unknown carrying the type p it would have been,
// as pyright's possible type of an ambiguous overloaded call: printed
// and evaluated as Unknown, offered to completions (Possible).
func possiblyUnknown(p Type) Type {
	if p.IsUnknown() {
		return p
	}
	return build(&typeData{kind: KindUnknown, args: []Type{p}})
}

// Possible is the type an Unknown would have been (an ambiguous
// overloaded call's first match, and its members), whose members
// completions offer; Unknown when none.
func (t Type) Possible() Type {
	if t.Kind() != KindUnknown || t.d == nil || len(t.d.args) != 1 {
		return unknownType
	}
	return t.d.args[0]
}

// lambdaType is a lambda with parameters names ("*a", "**kw" for
// splats), each Unknown, returning ret: a Callable whose parameters
// print by name, as pyright prints a lambda, `(x: Unknown) -> int`.
// The names are kept in text, comma-separated.
func lambdaType(names []string, ret Type) Type {
	params := make([]Type, len(names))
	return build(&typeData{kind: KindCallable, args: params, ret: ret, text: strings.Join(names, ",")})
}

// paramNames are the parameter names of a lambda's Callable (nil for
// another Callable).
func (t Type) paramNames() []string {
	if t.Kind() != KindCallable || t.d.text == "" {
		return nil
	}
	return strings.Split(t.d.text, ",")
}

// paramSpecCallable is Callable[p, ret] for ParamSpec p.
func paramSpecCallable(p, ret Type) Type {
	return build(&typeData{kind: KindCallable, args: []Type{p}, ret: ret, paramSpec: true})
}

// FunctionType is the def of f as a value.
func FunctionType(f Function) Type { return build(&typeData{kind: KindFunction, fn: &f}) }

// OverloadedType is the overloads of one def, in order.
func OverloadedType(overloads ...Type) Type {
	return build(&typeData{kind: KindOverloaded, args: overloads})
}

// Kind is what t is.
func (t Type) Kind() Kind {
	if t.d == nil {
		return KindUnknown
	}
	return t.d.kind
}

// IsUnknown reports KindUnknown.
func (t Type) IsUnknown() bool { return t.d == nil || t.d.kind == KindUnknown }

// Class is the class of a class object, instance, literal, Self or tuple.
func (t Type) Class() Class {
	if t.d == nil {
		return Class{}
	}
	return t.d.class
}

// Args are the type arguments of a class object or instance, the members
// of a union, the elements of a tuple, the overloads of an overloaded
// def, the parameter types of a Callable. Callers must not change them.
func (t Type) Args() []Type {
	if t.d == nil {
		return nil
	}
	return t.d.args
}

// Text is a literal's value as printed, a module's name or a type
// variable's name.
func (t Type) Text() string {
	if t.d == nil {
		return ""
	}
	return t.d.text
}

// Scope is a type variable's scope name.
func (t Type) Scope() string {
	if t.d == nil {
		return ""
	}
	return t.d.scope
}

// Variadic reports tuple[X, ...] and Callable[..., R].
func (t Type) Variadic() bool { return t.d != nil && t.d.variadic }

// IsNoReturn reports a Never printed NoReturn.
func (t Type) IsNoReturn() bool { return t.d != nil && t.d.noReturn }

// Return is a Callable's return type.
func (t Type) Return() Type {
	if t.d == nil {
		return unknownType
	}
	return t.d.ret
}

// Func is a KindFunction's def (nil otherwise).
func (t Type) Func() *Function {
	if t.d == nil {
		return nil
	}
	return t.d.fn
}

// typeVarKey identifies a type variable in substitutions: "T@scope".
func (t Type) typeVarKey() string { return t.d.text + "@" + t.d.scope }

// Equal reports whether t and o are the same type (aliases aside).
func (t Type) Equal(o Type) bool {
	if t.d == o.d {
		return true
	}
	if t.Kind() != o.Kind() {
		return false
	}
	if t.d == nil || o.d == nil || t.Kind() == KindUnknown {
		return true // both Unknown (a possible type aside)
	}
	x, y := t.d, o.d
	if x.class != y.class || x.text != y.text || x.scope != y.scope || x.variadic != y.variadic ||
		x.noReturn != y.noReturn || x.literalString != y.literalString || x.paramSpec != y.paramSpec || len(x.args) != len(y.args) || !x.ret.Equal(y.ret) {
		return false
	}
	for i := range x.args {
		if !x.args[i].Equal(y.args[i]) {
			return false
		}
	}
	if (x.fn == nil) != (y.fn == nil) {
		return false
	}
	if x.fn != nil {
		f, g := x.fn, y.fn
		if (f.Returns == nil) != (g.Returns == nil) || f.Returns != nil && !f.Returns.Equal(*g.Returns) {
			return false
		}
		if f.Unit != g.Unit || f.Def != g.Def || f.BoundSet != g.BoundSet || !f.Bound.Equal(g.Bound) || !f.SelfAs.Equal(g.SelfAs) || len(f.Subst) != len(g.Subst) {
			return false
		}
		for k, v := range f.Subst {
			if w, ok := g.Subst[k]; !ok || !v.Equal(w) {
				return false
			}
		}
	}
	return true
}

// maxUnionMembers caps a union, as pyright caps the declarations it
// infers from: past it the union is Unknown rather than ever growing.
const maxUnionMembers = 64

// Union is the union of ts: nested unions flattened, duplicates and
// Never dropped, a literal dropped when its class's instance is there,
// Literal[True] with Literal[False] made bool; members in order of first
// appearance, empty containers and then literals last. One member is
// itself; none is Never.
func Union(ts ...Type) Type {
	var flat []Type
	for _, t := range ts {
		if t.Kind() == KindUnion && t.d.alias == "" {
			flat = append(flat, t.d.args...)
		} else {
			flat = append(flat, t)
		}
	}
	var out []Type
	for _, t := range sortedForUnion(flat) {
		if t.Kind() == KindNever || containsType(out, t) {
			continue
		}
		out = append(out, t)
	}
	out = absorbLiterals(out)
	switch {
	case len(out) == 0:
		for _, t := range ts {
			if t.Kind() == KindNever {
				return t
			}
		}
		return neverType
	case len(out) == 1:
		return out[0]
	case len(out) > maxUnionMembers:
		return unknownType
	}
	return build(&typeData{kind: KindUnion, args: out})
}

// absorbLiterals (on members sortedForUnion) drops an empty container
// beside another instance of its class and a literal whose class's
// plain instance (not LiteralString) is a member, and turns Literal[True] | Literal[False]
// into bool where the first of them then stands: pyright's combineTypes
// sorts literals and empty containers to the end before adding each
// member, so `return False` then `return x` of an unknown x is
// `Unknown | bool` once a `return True` joins, and `if x is None: x = {}`
// leaves x `Unknown | dict[Unknown, Unknown]`.
func absorbLiterals(ts []Type) []Type {
	plain := map[Class]bool{}
	bools := map[Class]int{}
	for _, t := range ts {
		switch {
		case t.Kind() == KindInstance && len(t.d.args) == 0 && !t.d.literalString:
			// LiteralString keeps Literal[''] beside it, as in pyright.
			plain[t.d.class] = true
		case t.Kind() == KindLiteral && (t.d.text == "True" || t.d.text == "False"):
			bools[t.d.class]++
		}
	}
	out := ts[:0:0]
	for _, t := range ts {
		if t.Kind() == KindInstance && t.d.emptyContainer && hasInstanceOf(out, t.d.class) {
			continue
		}
		if t.Kind() != KindLiteral {
			out = append(out, t)
			continue
		}
		c := t.d.class
		if plain[c] {
			continue
		}
		if bools[c] == 2 && (t.d.text == "True" || t.d.text == "False") {
			plain[c] = true
			out = append(out, Instance(c))
			continue
		}
		out = append(out, t)
	}
	return out
}

// sortedForUnion is ts stably sorted by unionRank.
func sortedForUnion(ts []Type) []Type {
	late := false
	for _, t := range ts {
		late = late || unionRank(t) > 0
	}
	if !late {
		return ts
	}
	sorted := make([]Type, 0, len(ts))
	for rank := 0; rank < 3; rank++ {
		for _, t := range ts {
			if unionRank(t) == rank {
				sorted = append(sorted, t)
			}
		}
	}
	return sorted
}

// unionRank is where a union sorts t: the other members, then empty
// containers, then literals.
func unionRank(t Type) int {
	switch {
	case t.Kind() == KindLiteral:
		return 2
	case t.Kind() == KindInstance && t.d.emptyContainer:
		return 1
	}
	return 0
}

func hasInstanceOf(ts []Type, c Class) bool {
	for _, t := range ts {
		if t.Kind() == KindInstance && t.d.class == c {
			return true
		}
	}
	return false
}

// withoutEmptyContainer is t with its empty-container mark cleared.
func withoutEmptyContainer(t Type) Type {
	if t.d == nil || !t.d.emptyContainer {
		return t
	}
	d := *t.d
	d.emptyContainer = false
	return Type{&d}
}

// Members is a union's members (an aliased union among them flattened),
// or t alone.
func (t Type) Members() []Type {
	if t.Kind() != KindUnion {
		return []Type{t}
	}
	var out []Type
	for _, m := range t.d.args {
		out = append(out, m.Members()...)
	}
	return out
}

// withAlias is t written as alias name (subscripted with args).
func withAlias(t Type, name string, args []Type) Type {
	switch t.Kind() {
	case KindInstance, KindUnion, KindTuple, KindCallable, KindClass:
	default:
		return t
	}
	d := *t.d
	d.alias, d.aliasArgs = name, args
	return Type{&d}
}

// widen turns literals (and LiteralString, and a tuple's literal
// elements) into instances of their class, as pyright does for the declared type of a variable that is not
// a constant: `x = 10` is int.
func widen(t Type) Type {
	switch t.Kind() {
	case KindLiteral:
		if t.d.class.Valid() {
			return Instance(t.d.class)
		}
		return unknownType
	case KindInstance:
		if t.d.literalString {
			return Instance(t.d.class)
		}
	case KindTuple:
		return t.mapArgs(widen)
	case KindUnion:
		ms := make([]Type, len(t.d.args))
		same := true
		for i, m := range t.d.args {
			ms[i] = widen(m)
			same = same && ms[i].d == m.d
		}
		if same {
			return t // as written: a union alias keeps its name
		}
		return Union(ms...)
	}
	return t
}

// widenLiteralString turns LiteralString (only) into str.
func widenLiteralString(t Type) Type {
	if t.Kind() == KindInstance && t.d.literalString {
		return Instance(t.d.class)
	}
	return t
}

// withoutNone is t without its None member.
func withoutNone(t Type) Type {
	if t.Kind() != KindUnion {
		return t
	}
	var ms []Type
	for _, m := range t.d.args {
		if m.Kind() != KindNone {
			ms = append(ms, m)
		}
	}
	return Union(ms...)
}

// mapArgs rebuilds t with f applied to its arguments (and return).
func (t Type) mapArgs(f func(Type) Type) Type {
	if t.d == nil || (len(t.d.args) == 0 && t.d.ret.d == nil) {
		return t
	}
	d := *t.d
	d.args = make([]Type, len(t.d.args))
	same := true
	for i, a := range t.d.args {
		d.args[i] = f(a)
		same = same && d.args[i].d == a.d
	}
	if t.d.ret.d != nil {
		d.ret = f(t.d.ret)
		same = same && d.ret.d == t.d.ret.d
	}
	if same {
		return t // unchanged: as written, its alias kept
	}
	if d.kind == KindUnion {
		return Union(d.args...)
	}
	return build(&d)
}
