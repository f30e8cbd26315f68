package pytypes

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// pyrightOrder sorts the members of a union called as one, as pyright's
// validateArgs does (mapSubtypesExpandTypeVars with sortSubtypes), so
// the results join in its order: `int | (() -> str) | (() -> bytes)`
// called is `Unknown | bytes | str`.
func (q *query) pyrightOrder(ts []Type) []Type {
	out := slices.Clone(ts)
	slices.SortStableFunc(out, func(a, b Type) int { return q.compareTypes(a, b, 0) })
	return out
}

// maxCompareDepth bounds compareTypes' recursion through type arguments
// and returns, as pyright's maxTypeRecursionCount does.
const maxCompareDepth = 16

// typeCategory is pyright's TypeCategory of t, whose order compareTypes
// sorts by (the higher first).
func typeCategory(t Type) int {
	switch t.Kind() {
	case KindUnknown:
		return 1
	case KindAny:
		return 2
	case KindNever:
		return 3
	case KindFunction, KindCallable:
		return 4
	case KindOverloaded:
		return 5
	case KindModule:
		return 7
	case KindUnion:
		return 8
	case KindTypeVar, KindSelf:
		return 9
	}
	return 6 // classes and their instances, literals, tuples, None
}

// compareTypes is pyright's compareTypes (typeUtils.ts), but for the
// parameter types of two functions, which it does not compare.
func (q *query) compareTypes(a, b Type, depth int) int {
	if depth > maxCompareDepth {
		return 0
	}
	if ca, cb := typeCategory(a), typeCategory(b); ca != cb {
		return cb - ca
	}
	switch typeCategory(a) {
	case 4:
		pa, pb := q.paramKinds(a), q.paramKinds(b)
		if len(pa) != len(pb) {
			return len(pb) - len(pa)
		}
		for i := range pa {
			if pa[i] != pb[i] {
				return pb[i] - pa[i]
			}
		}
		if c := q.compareTypes(q.calledReturn(a), q.calledReturn(b), depth+1); c != 0 {
			return c
		}
		return cmp.Compare(q.funcName(a), q.funcName(b))
	case 5:
		oa, ob := a.Args(), b.Args()
		if len(oa) != len(ob) {
			return len(ob) - len(oa)
		}
		for i := range oa {
			if c := q.compareTypes(oa[i], ob[i], depth+1); c != 0 {
				return c
			}
		}
	case 6:
		return q.compareClasses(a, b, depth)
	case 7:
		return cmp.Compare(a.Text(), b.Text())
	}
	return 0
}

// compareClasses orders two class types as pyright: instances before
// class objects, literals before the rest (by value within a class),
// None last, non-generic before generic classes, then by name, by type
// argument count and by type arguments.
func (q *query) compareClasses(a, b Type, depth int) int {
	if ia, ib := a.Kind() != KindClass, b.Kind() != KindClass; ia != ib {
		if ia {
			return -1
		}
		return 1
	}
	la, lb := a.Kind() == KindLiteral, b.Kind() == KindLiteral
	switch {
	case la && !lb:
		return -1
	case lb && !la:
		return 1
	case la && lb && a.Class() == b.Class():
		if c := compareLiterals(a.Text(), b.Text()); c != 0 {
			return c
		}
	}
	if na, nb := a.Kind() == KindNone, b.Kind() == KindNone; na || nb {
		if na && nb {
			return 0
		}
		if na {
			return 1
		}
		return -1
	}
	if ga, gb := q.generic(a), q.generic(b); ga != gb {
		if ga {
			return 1
		}
		return -1
	}
	if c := cmp.Compare(q.className(a), q.className(b)); c != 0 {
		return c
	}
	aa, ab := a.Args(), b.Args()
	if len(aa) != len(ab) {
		return cmp.Compare(len(aa), len(ab))
	}
	for i := range aa {
		if c := q.compareTypes(aa[i], ab[i], depth+1); c != 0 {
			return c
		}
	}
	return 0
}

// compareLiterals orders two literal values of one class: numbers and
// strings by value, others not at all.
func compareLiterals(a, b string) int {
	if x, err := strconv.ParseInt(a, 10, 64); err == nil {
		if y, err := strconv.ParseInt(b, 10, 64); err == nil {
			return cmp.Compare(x, y)
		}
	}
	if len(a) > 0 && len(b) > 0 && (a[0] == '\'' || a[0] == '"') && (b[0] == '\'' || b[0] == '"') {
		return cmp.Compare(a, b)
	}
	return 0
}

// generic reports a class with type parameters, or a tuple.
func (q *query) generic(t Type) bool {
	if t.Kind() == KindTuple {
		return true
	}
	info := q.class(t.Class())
	return info != nil && len(info.typeParams) > 0
}

func (q *query) className(t Type) string {
	if t.Kind() == KindTuple {
		return "tuple"
	}
	return t.Class().Name()
}

// paramKinds are the categories pyright gives a callable's parameters
// (0 plain, 1 *args, 2 **kwargs), a bound receiver left out; `...` is
// *args and **kwargs.
func (q *query) paramKinds(t Type) []int {
	if t.Kind() == KindCallable {
		if t.Variadic() || t.d.paramSpec {
			return []int{1, 2}
		}
		return make([]int, len(t.Args()))
	}
	f := t.Func()
	if f == nil || !validDef(f.Unit, f.Def) {
		return nil
	}
	params := f.Unit.Summary().Defs[f.Def].Params
	if f.BoundSet && len(params) > 0 && params[0].Kind != navindex.ParamVarArgs {
		params = params[1:]
	}
	out := make([]int, len(params))
	for i, p := range params {
		switch p.Kind {
		case navindex.ParamVarArgs:
			out[i] = 1
		case navindex.ParamVarKwargs:
			out[i] = 2
		}
	}
	return out
}

// calledReturn is what a callable returns as its type says (a def's
// declared or inferred return).
func (q *query) calledReturn(t Type) Type {
	if t.Kind() == KindCallable {
		return t.Return()
	}
	if f := t.Func(); f != nil && validDef(f.Unit, f.Def) {
		return q.declaredReturn(f)
	}
	return unknownType
}

func (q *query) funcName(t Type) string {
	if f := t.Func(); f != nil && validDef(f.Unit, f.Def) {
		d := &f.Unit.Summary().Defs[f.Def]
		return f.Unit.Summary().Syms[d.Sym].Name
	}
	return ""
}
