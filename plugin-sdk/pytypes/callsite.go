package pytypes

import "github.com/pyws/pyws/plugin-sdk/navindex"

// pyright's bounds on call-site return inference: the arguments a call
// may have, how many such inferences may nest, and how many parameter
// typings of one def are kept.
const (
	maxCallSiteArgs    = 6
	maxCallSiteDepth   = 2
	maxCallSitesPerDef = 8
)

// callSite is one typing of a def's parameters by a call's arguments
// (Type{} where the def's own rule applies), with its frame id.
type callSite struct {
	params []Type
	id     int32
}

// callFrame is a call site being inferred.
type callFrame struct {
	unit   Unit
	def    int32
	params []Type
	id     int32
}

// callSiteReturn is what calling f with args returns when f's inferred
// return is partly unknown and some of its parameters are unannotated:
// its body evaluated again with the parameters typed by the arguments,
// as pyright infers it; ok false when that does not apply. What the
// body's expressions evaluate to there is remembered under the call
// site's frame, apart from their types outside it.
func (q *query) callSiteReturn(f *Function, args []argument) (Type, bool) {
	u := f.Unit
	if u.IsStub() || f.Returns != nil || len(args) == 0 || len(args) > maxCallSiteArgs {
		return Type{}, false
	}
	d := &u.Summary().Defs[f.Def]
	// Decorators (classmethod, property and the like too) and async
	// would have to apply to the result; pyright does not try either.
	if d.Annot >= 0 || len(d.Decorators) > 0 || d.Flags&(navindex.DefAsync|navindex.DefClassMethod|navindex.DefStaticMethod|navindex.DefOverload) != 0 {
		return Type{}, false
	}
	first := 0
	if f.BoundSet && len(d.Params) > 0 && d.Params[0].Kind != navindex.ParamVarArgs {
		first = 1
	}
	unannotated := false
	for _, p := range d.Params[first:] {
		unannotated = unannotated || p.Annot < 0
	}
	if !unannotated {
		return Type{}, false
	}
	for _, a := range args {
		if a.key == "*" || a.key == "**" {
			return Type{}, false
		}
	}
	args = q.argumentsOutsideFrames(args)
	got := make([]Type, len(d.Params))
	if _, ok := q.bindArgs(f, args, true, got); !ok {
		return Type{}, false
	}
	// Every argument must have found a parameter by name (none taken by
	// *args or **kwargs), as pyright requires.
	matched := 0
	for _, g := range got {
		if g.d != nil {
			matched++
		}
	}
	if matched != len(args) {
		return Type{}, false
	}
	known := false
	for i := first; i < len(d.Params); i++ {
		p := &d.Params[i]
		if got[i].d == nil && p.HasDefault && p.Default >= 0 {
			got[i] = q.expr(u, p.Default)
		}
		if p.Annot >= 0 {
			got[i] = Type{} // declared: the def's own rule
		}
		known = known || got[i].d != nil && !got[i].IsUnknown()
	}
	if !known {
		return Type{}, false
	}
	// Refusing for the frames under way (too deep, or recursion) makes
	// the answer depend on where the query entered: count it as a cut,
	// so nothing computed around it is remembered for other queries.
	if len(q.frames) >= maxCallSiteDepth {
		q.cutBy(0)
		return Type{}, false
	}
	for _, fr := range q.frames {
		if fr.unit == u && fr.def == f.Def {
			q.cutBy(0)
			return Type{}, false // recursion
		}
	}
	id := q.e.callSiteID(u, f.Def, got)
	if id == 0 {
		// The def has had its share of remembered typings: infer this
		// one all the same, remembered for this query only, so an answer
		// never depends on which calls were asked about before.
		q.localFrame--
		id = q.localFrame
	}
	q.frames = append(q.frames, callFrame{unit: u, def: f.Def, params: got, id: id})
	r := q.memoised(memoKey{what: memoReturn, unit: u, idx: f.Def}, func() Type { return q.inferredReturn(u, f.Def) })
	q.frames = q.frames[:len(q.frames)-1]
	self, has := f.selfType()
	r = substitute(r, f.Subst, self, has)
	return eraseTypeVars(r, u.Summary().Syms[d.Sym].Name), true
}

// argumentsOutsideFrames is args typed as outside every call-site frame
// when some are under way: pyright types the arguments of a call it
// infers inside another call's inference without the outer parameter
// types (in `def outer(a): return ident(a)`, outer(1) infers ident(a)
// with a Unknown, so not at all; Django's mark_safe, through
// _safety_decorator's wrapper, calls itself with an Unknown).
func (q *query) argumentsOutsideFrames(args []argument) []argument {
	if len(q.frames) == 0 {
		return args
	}
	out := make([]argument, len(args))
	copy(out, args)
	frames := q.frames
	q.frames = nil
	for i, a := range out {
		if a.src > 0 {
			out[i].t = q.argument(a.unit, a.src-1)
		}
	}
	q.frames = frames
	return out
}

// withoutFramesOf runs compute with the frames inferring def di of u
// hidden: a def's own return, asked for inside a call site inferring it
// (its recursion, or a call back through another def), is its return
// without those parameter types, as pyright's is.
func (q *query) withoutFramesOf(u Unit, di int32, compute func() Type) Type {
	own := false
	for _, fr := range q.frames {
		own = own || fr.unit == u && fr.def == di
	}
	if !own {
		return compute()
	}
	frames := q.frames
	q.frames = nil
	for _, fr := range frames {
		if fr.unit != u || fr.def != di {
			q.frames = append(q.frames, fr)
		}
	}
	t := compute()
	q.frames = frames
	return t
}

// callSiteID is the frame id of def di of u with its parameters typed
// as params, a new one if none matches; 0 when the def has had its
// share of remembered typings (the caller then takes a frame of its
// query's own).
func (e *Evaluator) callSiteID(u Unit, di int32, params []Type) int32 {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := memoKey{what: memoReturn, unit: u, idx: di}
	sites := e.callSites[key]
	for _, s := range sites {
		if sameTypes(s.params, params) {
			return s.id
		}
	}
	if len(sites) >= maxCallSitesPerDef {
		return 0
	}
	e.nextFrame++
	e.callSites[key] = append(sites, callSite{params: params, id: e.nextFrame})
	return e.nextFrame
}

func sameTypes(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if (a[i].d == nil) != (b[i].d == nil) || !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// frameParam is the type parameter i of def di takes in the innermost
// call being inferred, ok false when no frame gives it one.
func (q *query) frameParam(u Unit, di int32, i int) (Type, bool) {
	for j := len(q.frames) - 1; j >= 0; j-- {
		fr := &q.frames[j]
		if fr.unit == u && fr.def == di {
			q.noteFrameRead(fr.id)
			if i < len(fr.params) && fr.params[i].d != nil {
				return fr.params[i], true
			}
			return Type{}, false
		}
	}
	return Type{}, false
}

// frameOf is the frame a memo entry belongs to: the innermost call site
// being inferred in the entry's unit, since anything of that unit may
// read its parameters; 0 for annotations and classes, which never do,
// and outside call sites.
func (q *query) frameOf(key memoKey) int32 {
	if len(q.frames) == 0 || key.what == memoAnnot || key.what == memoClass {
		return 0
	}
	for j := len(q.frames) - 1; j >= 0; j-- {
		if q.frames[j].unit == key.unit {
			return q.frames[j].id
		}
	}
	return 0
}

// noteFrameRead counts that the computation under way read call-site
// frame id's parameters: memoised remembers a result only under the
// frame it read, so what a frame of another unit gave never reaches a
// later query that has no such frame.
func (q *query) noteFrameRead(id int32) {
	if q.frameReads == nil {
		q.frameReads = map[int32]int{}
	}
	q.frameReads[id]++
	q.frameReadTotal++
}

// readsBesides is how many frame reads this query made from frames
// other than id.
func (q *query) readsBesides(id int32) int { return q.frameReadTotal - q.frameReads[id] }
