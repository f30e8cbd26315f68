package pytypes

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// partialCall is what a functools.partial(f, ...) binds: the def f and
// the keywords of the arguments written after it ("" positional), which
// pyright's applyPartialTransform takes off f's parameters for the
// __call__ it gives the partial object.
type partialCall struct {
	fn   Function
	keys []string
}

// bindPartial marks inst, the functools.partial instance a call with
// args made, with what it binds when pyright would transform it: a def
// first (not an overload or a class) and no unpacked argument.
func (q *query) bindPartial(inst Type, args []argument) Type {
	c := inst.Class()
	if inst.Kind() != KindInstance || c.Name() != "partial" || c.Unit.ModuleName() != "functools" || len(args) == 0 || args[0].key != "" {
		return inst
	}
	f := args[0].t.Func()
	if args[0].t.Kind() != KindFunction || f == nil || !validDef(f.Unit, f.Def) {
		return inst
	}
	keys := make([]string, len(args)-1)
	for i, a := range args[1:] {
		if a.key == "*" || a.key == "**" {
			return inst
		}
		keys[i] = a.key
	}
	d := *inst.d
	d.partial = &partialCall{fn: *f, keys: keys}
	return Type{&d}
}

// partialSignature is the __call__ pyright synthesizes for partial
// object t (applyPartialTransformToFunction): f's parameters less those
// the positional arguments fill, then those the keywords name, now with
// a default, returning t's type argument. It prints as a synthesized def
// in the gradual form of partial's own `(*args: Any, **kwargs: Any)`:
// every default "...", a *args (or the bare `*`) "...", no **kwargs.
func (q *query) partialSignature(t Type) Signature {
	p := t.d.partial
	f := p.fn
	d := &f.Unit.Summary().Defs[f.Def]
	labels, of := q.paramLabels(&f, 0, nil)
	first := 0
	if f.BoundSet && len(d.Params) > 0 && d.Params[0].Kind != navindex.ParamVarArgs {
		first = 1
	}
	params := d.Params[first:]
	filled, keyed := make([]bool, len(params)), make([]bool, len(params))
	pos := 0
	for _, k := range p.keys {
		if k == "" {
			// Past the positional parameters an argument goes to *args.
			if pos < len(params) && (params[pos].Kind == navindex.ParamNormal || params[pos].Kind == navindex.ParamPosOnly) {
				filled[pos] = true
			}
			pos++
			continue
		}
		for i := range params {
			if params[i].Name == k && (params[i].Kind == navindex.ParamNormal || params[i].Kind == navindex.ParamKwOnly) {
				keyed[i] = true
				break
			}
		}
	}
	var sig Signature
	add := func(label, name string) {
		sig.Params = append(sig.Params, label)
		sig.names = append(sig.names, name)
	}
	label := func(i int) string {
		l := labels[of[first+i]]
		if params[i].HasDefault {
			text := params[i].DefaultText
			if text == "" {
				text = "..."
			}
			l = strings.TrimSuffix(l, " = "+text)
		}
		if params[i].HasDefault || keyed[i] {
			l += " = ..."
		}
		return l
	}
	sawVarArgs := false
	for i := range params {
		switch params[i].Kind {
		case navindex.ParamVarKwargs:
			continue
		case navindex.ParamVarArgs:
			sawVarArgs = true
			add("...", "")
			continue
		case navindex.ParamKwOnly:
			if !sawVarArgs {
				sawVarArgs = true
				add("...", "") // the bare `*`, kept though its parameters are keyed
			}
		}
		if !filled[i] && !keyed[i] {
			add(label(i), params[i].Name)
		}
	}
	for i := range params {
		if keyed[i] {
			add(label(i), params[i].Name)
		}
	}
	ret := q.declaredReturn(&f)
	if args := t.Args(); len(args) == 1 {
		ret = args[0]
	}
	var b strings.Builder
	b.WriteString("(" + strings.Join(sig.Params, ", ") + ") -> ")
	q.printDepth(&b, ret, parenUnion|parenCallable, 1)
	sig.Label, sig.Func, sig.callable = b.String(), f, true
	return sig
}
