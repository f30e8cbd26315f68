package pytypes

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Print is t in pyright's notation: `list[str]`, `str | None`,
// `Literal['a', 'b']`, `type[C]`, `T@f`, `(a: int, /) -> str`.
func (e *Evaluator) Print(t Type) string {
	var b strings.Builder
	e.query().print(&b, t, 0)
	return b.String()
}

// Print flags, as pyright's printer has them.
const (
	parenUnion    = 1 << iota // a union in a return position: `-> (int | None)`
	parenCallable             // a callable inside a union
)

// maxPrintDepth bounds nested printing (pyright's maxTypeRecursionCount).
const maxPrintDepth = 16

func (q *query) print(b *strings.Builder, t Type, flags int) {
	q.printDepth(b, t, flags, 0)
}

func (q *query) printDepth(b *strings.Builder, t Type, flags, depth int) {
	if depth > maxPrintDepth {
		b.WriteString("...")
		return
	}
	list := func(ts []Type) {
		for i, a := range ts {
			if i > 0 {
				b.WriteString(", ")
			}
			q.printDepth(b, a, 0, depth+1)
		}
	}
	if t.d != nil && t.d.alias != "" && t.Kind() != KindModule {
		b.WriteString(t.d.alias)
		if t.d.aliasArgs != nil {
			b.WriteString("[")
			list(t.d.aliasArgs)
			b.WriteString("]")
		}
		return
	}
	switch t.Kind() {
	case KindUnknown:
		b.WriteString("Unknown")
	case KindAny:
		if t.d.text == "..." {
			b.WriteString("...")
		} else {
			b.WriteString("Any")
		}
	case KindNever:
		if t.IsNoReturn() {
			b.WriteString("NoReturn")
		} else {
			b.WriteString("Never")
		}
	case KindNone:
		b.WriteString("None")
	case KindModule:
		name := t.Text()
		if t.d.alias != "" {
			name = t.d.alias // as a relative import wrote it
		}
		b.WriteString(`Module("` + name + `")`)
	case KindClass:
		b.WriteString("type[")
		if t.Class().Valid() {
			// A generic class as a value is specialised with Unknown (or
			// its type variables' defaults): type[list[Unknown]].
			q.printDepth(b, Instance(t.Class(), q.padArgs(t.Class(), t.Args())...), 0, depth+1)
		} else if len(t.Args()) == 1 {
			q.printDepth(b, t.Args()[0], 0, depth+1)
		} else {
			b.WriteString("Unknown")
		}
		b.WriteString("]")
	case KindInstance:
		if t.d.literalString {
			b.WriteString("LiteralString")
			return
		}
		if c := t.Class(); len(t.Args()) == 1 && c.Name() == "tuple" && c.Unit.ModuleName() == "builtins" {
			// tuple specialized by its class's own parameter (tuple's
			// Self, tuple.__new__'s result): homogeneous, as pyright
			// prints it (`tuple(xs)` helps as `-> tuple[str, ...]`).
			q.printDepth(b, HomogeneousTuple(c, t.Args()[0]), flags, depth)
			return
		}
		b.WriteString(t.Class().Name())
		if len(t.Args()) > 0 {
			b.WriteString("[")
			var params []Type
			if info := q.class(t.Class()); info != nil {
				params = info.typeParams
			}
			for i, a := range t.Args() {
				if i > 0 {
					b.WriteString(", ")
				}
				if i < len(params) && params[i].d.paramSpec {
					q.printParamSpecArg(b, a, depth+1)
				} else {
					q.printDepth(b, a, 0, depth+1)
				}
			}
			b.WriteString("]")
		}
	case KindLiteral:
		b.WriteString("Literal[" + t.Text() + "]")
	case KindTypeVar:
		b.WriteString(t.Text())
		if t.Scope() != "" {
			b.WriteString("@" + t.Scope())
		}
	case KindSelf:
		b.WriteString("Self@")
		if info := q.class(t.Class()); info != nil && len(info.typeParams) > 0 {
			q.printDepth(b, Instance(t.Class(), info.typeParams...), 0, depth+1)
		} else {
			b.WriteString(t.Class().Name())
		}
	case KindTuple:
		b.WriteString("tuple[")
		switch {
		case t.Variadic():
			list(t.Args())
			b.WriteString(", ...")
		case len(t.Args()) == 0:
			b.WriteString("()")
		default:
			list(t.Args())
		}
		b.WriteString("]")
	case KindCallable:
		open(b, flags&parenCallable != 0)
		b.WriteString("(")
		switch {
		case t.d.paramSpec:
			b.WriteString("**")
			list(t.Args())
		case t.Variadic():
			b.WriteString("...")
		default:
			// A callable printed parenthesized (a return, a union member)
			// passes that on to its parameters, as pyright's printer
			// does: lru_cache's return is `((((...) -> _T)) -> ...)`,
			// `list[((...) -> int) -> str]` is not.
			names := t.paramNames()
			for i, a := range t.Args() {
				if i > 0 {
					b.WriteString(", ")
				}
				if i < len(names) {
					b.WriteString(names[i] + ": ")
				}
				q.printDepth(b, a, flags&parenCallable, depth+1)
			}
		}
		b.WriteString(") -> ")
		q.printDepth(b, t.Return(), parenUnion|parenCallable, depth+1)
		closeParen(b, flags&parenCallable != 0)
	case KindFunction:
		f := t.Func()
		key := printing{unit: f.Unit, def: f.Def}
		if q.isPrinting(key) {
			b.WriteString("...")
			return
		}
		q.printStack = append(q.printStack, key)
		open(b, flags&parenCallable != 0)
		q.printSignature(b, f, false, depth)
		closeParen(b, flags&parenCallable != 0)
		q.printStack = q.printStack[:len(q.printStack)-1]
	case KindOverloaded:
		b.WriteString("Overload[")
		list(t.Args())
		b.WriteString("]")
	case KindUnion:
		q.printUnion(b, t, flags, depth)
	}
}

func open(b *strings.Builder, on bool) {
	if on {
		b.WriteString("(")
	}
}

func closeParen(b *strings.Builder, on bool) {
	if on {
		b.WriteString(")")
	}
}

// printUnion prints the members other than literals and None in order,
// deduplicated by text, then the literals merged into one Literal[...],
// then None, as pyright does.
func (q *query) printUnion(b *strings.Builder, t Type, flags, depth int) {
	var parts, literals []string
	hasNone := false
	seen := map[string]bool{}
	for _, m := range t.Args() {
		switch m.Kind() {
		case KindNone:
			hasNone = true
		case KindLiteral:
			if !seen["L"+m.Text()] {
				seen["L"+m.Text()] = true
				literals = append(literals, m.Text())
			}
		default:
			var s strings.Builder
			q.printDepth(&s, m, parenCallable, depth+1)
			if !seen[s.String()] {
				seen[s.String()] = true
				parts = append(parts, s.String())
			}
		}
	}
	if len(literals) > 0 {
		parts = append(parts, "Literal["+strings.Join(literals, ", ")+"]")
	}
	if hasNone {
		parts = append(parts, "None")
	}
	paren := flags&parenUnion != 0 && len(parts) > 1
	open(b, paren)
	b.WriteString(strings.Join(parts, " | "))
	closeParen(b, paren)
}

// printSignature prints f's parameters and return: `(a: int, /) -> str`;
// named adds `def name` before them.
func (q *query) printSignature(b *strings.Builder, f *Function, named bool, depth int) {
	u := f.Unit
	if !validDef(u, f.Def) {
		b.WriteString("(...) -> Unknown")
		return
	}
	if named {
		b.WriteString("def " + u.Summary().Syms[u.Summary().Defs[f.Def].Sym].Name)
	}
	q.printParams(b, f, depth)
	b.WriteString(" -> ")
	key := printing{unit: u, def: f.Def, ret: true}
	if q.isPrinting(key) {
		b.WriteString("...")
		return
	}
	self, hasSelf := f.selfType()
	r := substitute(q.declaredReturn(f), f.Subst, self, hasSelf)
	q.printStack = append(q.printStack, key)
	q.printDepth(b, r, parenUnion|parenCallable, depth+1)
	q.printStack = q.printStack[:len(q.printStack)-1]
}

// printing is a function, or a function's return, being printed. A
// type met again inside itself prints as `...`, as pyright's printer
// does with the types on its recursion stack: a def returning a nested
// def that calls it back is `(x: Unknown) -> (... | Literal[1])`, not
// expanded until the depth bound.
type printing struct {
	unit Unit
	def  int32
	ret  bool
}

func (q *query) isPrinting(key printing) bool {
	for _, k := range q.printStack {
		if k == key {
			return true
		}
	}
	return false
}

// printParamSpecArg prints what a ParamSpec parameter of a class is
// specialized with as pyright does, by the parameters alone:
// _Wrapped[..., Unknown, (request: Unknown, ...), Unknown].
func (q *query) printParamSpecArg(b *strings.Builder, t Type, depth int) {
	switch t.Kind() {
	case KindCallable:
		if t.Variadic() {
			b.WriteString("...")
			return
		}
		if !t.d.paramSpec {
			b.WriteString("(")
			for i, a := range t.Args() {
				if i > 0 {
					b.WriteString(", ")
				}
				q.printDepth(b, a, 0, depth+1)
			}
			b.WriteString(")")
			return
		}
	case KindFunction:
		if f := t.Func(); validDef(f.Unit, f.Def) {
			var ps strings.Builder
			q.printParams(&ps, f, depth)
			if ps.String() == "(...)" {
				b.WriteString("...") // (*args, **kwargs) untyped
			} else {
				b.WriteString(ps.String())
			}
			return
		}
	case KindUnknown, KindAny:
		b.WriteString("...")
		return
	}
	q.printDepth(b, t, 0, depth)
}

// gradualArgs reports *args and **kwargs both unannotated, declared Any
// (flask's `def _fail(self, *args: t.Any, **kwargs: t.Any)`) or Unknown,
// which pyright prints as "...".
func (q *query) gradualArgs(f *Function) bool {
	args, kwargs := false, false
	d := &f.Unit.Summary().Defs[f.Def]
	for i, p := range d.Params {
		if p.Kind != navindex.ParamVarArgs && p.Kind != navindex.ParamVarKwargs {
			continue
		}
		// Unknown too: an unsolved ParamSpec's P.args and P.kwargs.
		k := q.paramType(f.Unit, f.Def, i, false).Kind()
		gradual := p.Annot < 0 || k == KindAny || k == KindUnknown
		switch {
		case p.Kind == navindex.ParamVarArgs:
			args = gradual
		default:
			kwargs = gradual
		}
	}
	return args && kwargs
}

// printParams prints f's parameters in parentheses, without the receiver
// of a bound def, with `/` and `*` where pyright puts them.
func (q *query) printParams(b *strings.Builder, f *Function, depth int) {
	labels, _ := q.paramLabels(f, depth, nil)
	b.WriteString("(")
	b.WriteString(strings.Join(labels, ", "))
	b.WriteString(")")
}

// paramLabels are f's parameters as pyright lists them (without the
// receiver of a bound def, with the `/` and `*` markers, unannotated
// *args and **kwargs together as one "..."), and the label each of the
// def's parameters has (-1: the receiver). fix, when set, rewrites each
// parameter's type before it is printed.
func (q *query) paramLabels(f *Function, depth int, fix func(i int, t Type) Type) (labels []string, of []int) {
	u := f.Unit
	d := &u.Summary().Defs[f.Def]
	of = make([]int, len(d.Params))
	first := 0
	if f.BoundSet && len(d.Params) > 0 && d.Params[0].Kind != navindex.ParamVarArgs {
		first = 1
		of[0] = -1
	}
	self, hasSelf := f.selfType()
	sawVarArgs := false
	gradual := q.gradualArgs(f)
	gradualAt := -1
	for i := first; i < len(d.Params); i++ {
		p := &d.Params[i]
		if gradual && (p.Kind == navindex.ParamVarArgs || p.Kind == navindex.ParamVarKwargs) {
			// Unannotated *args and **kwargs together print as "...".
			if gradualAt < 0 {
				gradualAt = len(labels)
				labels = append(labels, "...")
			}
			sawVarArgs = true // keyword-only ones follow without a "*"
			of[i] = gradualAt
			continue
		}
		if p.Kind == navindex.ParamKwOnly && !sawVarArgs {
			labels = append(labels, "*")
			sawVarArgs = true
		}
		var b strings.Builder
		switch p.Kind {
		case navindex.ParamVarArgs:
			b.WriteString("*")
			sawVarArgs = true
		case navindex.ParamVarKwargs:
			b.WriteString("**")
		}
		b.WriteString(p.Name)
		b.WriteString(": ")
		pt := substitute(q.paramType(u, f.Def, i, false), f.Subst, self, hasSelf)
		if fix != nil {
			pt = fix(i, pt)
		}
		q.printDepth(&b, pt, 0, depth+1)
		if p.HasDefault {
			text := p.DefaultText
			if text == "" {
				text = "..."
			}
			b.WriteString(" = " + text)
		}
		of[i] = len(labels)
		labels = append(labels, b.String())
		if p.Kind == navindex.ParamPosOnly && (i+1 == len(d.Params) || d.Params[i+1].Kind != navindex.ParamPosOnly) {
			labels = append(labels, "/")
		}
	}
	return labels, of
}
