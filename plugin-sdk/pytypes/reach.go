package pytypes

import "github.com/pyws/pyws/plugin-sdk/navindex"

// waysOut are the ways out of a def its code flow reaches (pyright's
// isAfterNodeReachable over its call nodes): a return, a bare return or
// the end of its body after a call to a function that never returns
// (`sys.exit()`, `self.fail()`) is not one of them, so its value is not
// part of the inferred return.
type waysOut struct {
	// known: the summary lists the def's ways out (FlowExit); reached
	// the return values some reached return gives, listed those any
	// return gives; none: a bare return or the end is reached.
	known, none     bool
	reached, listed map[int32]bool
}

// value reports whether return value v is reached (or not known not to be).
func (w waysOut) value(v int32) bool { return !w.known || !w.listed[v] || w.reached[v] }

func (q *query) waysOut(u Unit, d *navindex.Def) waysOut {
	var w waysOut
	if d.Flags&(navindex.DefGenerator|navindex.DefAbstract) != 0 || d.Body < 0 {
		return w
	}
	exits := q.e.index(u).exits[d.Body]
	if len(exits) == 0 {
		return w
	}
	w = waysOut{known: true, reached: map[int32]bool{}, listed: map[int32]bool{}}
	flow := u.Summary().Flow
	for _, e := range exits {
		x := &flow[e]
		if x.B >= 0 {
			w.listed[x.B] = true
		}
		if !q.reachable(u, x.Prev, map[int32]bool{}) {
			continue
		}
		if x.B >= 0 {
			w.reached[x.B] = true
		} else {
			w.none = true
		}
	}
	return w
}

// reachable reports whether flow node n is reached from its scope's
// start without passing a call that never returns; seen are the nodes
// this search has been through (not reached, or being searched).
func (q *query) reachable(u Unit, n int32, seen map[int32]bool) bool {
	s := u.Summary()
	for steps := 0; validFlow(u, n); steps++ {
		if steps > maxFlowSteps {
			return true
		}
		if seen[n] {
			return false
		}
		seen[n] = true
		f := &s.Flow[n]
		switch f.Kind {
		case navindex.FlowStart:
			return true
		case navindex.FlowJoin:
			for _, p := range s.Preds(f) {
				if q.reachable(u, p, seen) {
					return true
				}
			}
			return false
		case navindex.FlowCall:
			if q.callNeverReturns(u, f.A) {
				return false
			}
		}
		n = f.Prev
	}
	return false
}

// callNeverReturns reports a call expression whose callee never
// returns, as pyright's isCallNoReturn sees it: declared NoReturn (or
// Never), or a workspace def whose every path raises (not abstract, not
// the NotImplementedError idiom). A def that never returns only because
// it calls such a one does not count (pyright infers those without the
// calls in them: `def die(): sys.exit(1)` ends its caller's flow only
// when annotated).
func (q *query) callNeverReturns(u Unit, call int32) bool {
	if !validExpr(u, call) {
		return false
	}
	x := &u.Summary().Exprs[call]
	if x.Op != navindex.ExprCall || !validExpr(u, x.A) {
		return false
	}
	return q.neverReturns(q.expr(u, x.A))
}

func (q *query) neverReturns(t Type) bool {
	switch t.Kind() {
	case KindFunction:
		f := t.Func()
		if f == nil || !validDef(f.Unit, f.Def) {
			return false
		}
		d := &f.Unit.Summary().Defs[f.Def]
		if d.Annot >= 0 {
			return d.Flags&navindex.DefAsync == 0 && q.declaredReturn(f).Kind() == KindNever
		}
		return !f.Unit.IsStub() && d.Flags&navindex.DefNeverReturns != 0 &&
			d.Flags&(navindex.DefAbstract|navindex.DefRaisesNotImplemented|navindex.DefGenerator|navindex.DefAsync) == 0
	case KindOverloaded:
		for _, o := range t.Args() {
			if !q.neverReturns(o) {
				return false
			}
		}
		return len(t.Args()) > 0
	}
	return false
}
