package pytypes

import (
	"fmt"
	"sync"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Finding is an error the evaluator is sure of: what a type checker
// reports, only where every type involved is known.
type Finding struct {
	Span    navindex.Span
	Code    string // a diagnostics code: "undefined-variable"
	Message string
}

// Check reports u's reads of attributes that the receiver's class does
// not have (pyright's reportAttributeAccessIssue), as undefined-variable,
// and the values whose type their declared type surely rejects (pyright's
// reportAssignmentType, reportReturnType, reportArgumentType, and
// reportAttributeAccessIssue for an attribute store), as type-mismatch
// (mismatches).
// It stays silent unless the receiver is an instance of a class whose
// members are all known: every base resolved, no __getattr__ or
// __getattribute__ of its own or inherited (other than object's), not a
// descriptor (__get__), no class decorator that may add members, not a
// protocol; and not through super() or self/cls (mixins use what their
// final class mixes in).
func (e *Evaluator) Check(u Unit) []Finding {
	if u == nil || u.Summary() == nil {
		return nil
	}
	q := e.query()
	m := checkMemos.Get().(*checkMemo)
	defer m.release()
	q.cut, q.frameMemo = m.cut, m.own
	q.own = u
	s := u.Summary()
	var out []Finding
	for _, o := range s.Occs {
		if o.Flags&(navindex.OccStore|navindex.OccString|navindex.OccDef|navindex.OccImport|navindex.OccAll|navindex.OccDecl) != 0 {
			continue
		}
		if !validSym(u, o.Sym) {
			continue
		}
		y := &s.Syms[o.Sym]
		if y.Kind != navindex.SymAttr || !validExpr(u, y.Recv) {
			continue
		}
		if x := &s.Exprs[y.Recv]; x.Op == navindex.ExprSuper {
			continue // a mixin's super() reaches what the final class mixes in
		}
		t := q.expr(u, y.Recv)
		if !q.membersKnown(t) || q.member(t, y.Name).Found() {
			continue
		}
		out = append(out, Finding{Span: o.Span, Code: "undefined-variable",
			Message: fmt.Sprintf("Cannot access attribute %q for class %q", y.Name, q.text(t, 0))})
	}
	return append(out, q.mismatches(u)...)
}

// checkMemo is the maps a Check query fills (the results a cut left
// short, and the file's own entries: see query.keeps), kept for the next
// Check: a file's check grows them to tens of KB, a tenth of what the
// kernel allocates for a get_diagnostics, and growing them is most of
// that. Cleared before reuse, so no check sees another's entries.
type checkMemo struct{ cut, own map[memoKey]Type }

var checkMemos = sync.Pool{New: func() any {
	return &checkMemo{cut: map[memoKey]Type{}, own: map[memoKey]Type{}}
}}

func (m *checkMemo) release() {
	clear(m.cut)
	clear(m.own)
	checkMemos.Put(m)
}

// membersKnown reports whether every member an instance of t's class can
// have is known to the evaluator.
func (q *query) membersKnown(t Type) bool {
	// Self (self and cls in a method) is left out: a mixin's methods
	// use what the classes it is mixed into define, and pyright does not
	// hold them to the mixin's own members.
	if t.Kind() != KindInstance {
		return false
	}
	info := q.class(t.Class())
	if info == nil || info.protocol || len(info.mro) == 0 || len(info.mro) >= maxMRO {
		return false
	}
	if len(info.mro) == 1 {
		return false // object itself: what a value of unknown class is declared as
	}
	for _, m := range info.mro {
		c := m.Class()
		ci := q.class(c)
		if ci == nil || ci.partial {
			return false
		}
		if c.Name() == "object" && c.Unit.ModuleName() == "builtins" {
			continue
		}
		for _, dec := range c.Unit.Summary().Defs[ci.def].Decorators {
			if !memberPreserving[decoratorName(c.Unit, dec)] {
				return false
			}
		}
		// __get__: a descriptor read through its owner is what __get__
		// returns, which the evaluator does not apply to every class.
		for _, dunder := range []string{"__getattr__", "__getattribute__", "__get__"} {
			if _, ok := q.members(ci)[dunder]; ok {
				return false
			}
		}
	}
	return true
}

// memberPreserving are class decorators that add no member a checker
// would not know of (dataclass's fields are the class body's names).
var memberPreserving = map[string]bool{"dataclass": true, "total_ordering": true, "unique": true, "runtime_checkable": true}

// decoratorName is the last name of decorator expression e (`dataclass`
// of `@dataclasses.dataclass(frozen=True)`), "" when it has none.
func decoratorName(u Unit, e int32) string {
	s := u.Summary()
	for validExpr(u, e) {
		x := &s.Exprs[e]
		switch x.Op {
		case navindex.ExprCall:
			e = x.A
			continue
		case navindex.ExprAttr:
			return x.Name
		case navindex.ExprSym:
			if validSym(u, x.A) {
				return s.Syms[x.A].Name
			}
		}
		return ""
	}
	return ""
}
