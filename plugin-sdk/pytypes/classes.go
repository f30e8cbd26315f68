package pytypes

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// classInfo is what member lookup needs of a class, computed once.
type classInfo struct {
	c    Class
	def  int32
	body int32
	// typeParams are the class's type variables (scoped by its name), in
	// Generic[...]/Protocol[...] order, else in order of appearance in
	// the bases.
	typeParams []Type
	// mro is the C3 linearization, the class first, each entry an
	// instance whose arguments are in terms of typeParams.
	mro      []Type
	protocol bool
	enum     bool
	// partial: a base of the class is not a class the evaluator knows
	// (unresolved, Any, a call): its members are not all known.
	partial    bool
	members    map[string]int32 // class-body names, then self.x attributes
	memberDone bool
}

// maxMRO bounds a linearization (deep chains are cut, never walked whole).
const maxMRO = 128

// class is c's info, nil when c is no class or a cycle reached it.
func (q *query) class(c Class) *classInfo {
	if !c.Valid() {
		return nil
	}
	q.e.mu.Lock()
	info, ok := q.e.classes[c]
	q.e.mu.Unlock()
	if ok {
		return info
	}
	key := memoKey{what: memoClass, unit: c.Unit, idx: c.Sym}
	if _, ok := q.active[key]; ok {
		// Met again while its own bases are evaluated (builtins' `class
		// str(Sequence[str])`): not known yet, whatever the query began
		// with, so not a cut. Counted as one, str was never remembered
		// and every query that touched it remembered nothing.
		return nil
	}
	if !q.enter(key) {
		return nil
	}
	pos, low := q.within()
	info = q.buildClass(c)
	resolved := q.leaveWithin(pos, low)
	q.leave(key)
	if info != nil && resolved {
		q.e.mu.Lock()
		if prev, ok := q.e.classes[c]; ok {
			info = prev
		} else {
			q.e.classes[c] = info
		}
		q.e.mu.Unlock()
	}
	return info
}

func (q *query) buildClass(c Class) *classInfo {
	di := q.classDef(c)
	if di < 0 {
		return nil
	}
	u := c.Unit
	d := &u.Summary().Defs[di]
	info := &classInfo{c: c, def: di, body: d.Body}
	var bases []Type
	var explicit []Type
	s := tvScope{class: c, header: true}
	for _, b := range d.Bases {
		if !validExpr(u, b) {
			continue
		}
		x := &u.Summary().Exprs[b]
		if x.Op == navindex.ExprSubscript || x.Op == navindex.ExprSym || x.Op == navindex.ExprAttr {
			head := b
			if x.Op == navindex.ExprSubscript {
				head = x.A
			}
			if r := q.exprRef(u, head); r.Unit != nil && validSym(r.Unit, r.Sym) && isTypingModule(r.Unit.ModuleName()) {
				switch r.Unit.Summary().Syms[r.Sym].Name {
				case "Generic", "Protocol":
					if r.Unit.Summary().Syms[r.Sym].Name == "Protocol" {
						info.protocol = true
					}
					if x.Op == navindex.ExprSubscript {
						for _, a := range x.Args {
							explicit = append(explicit, q.annot(u, a, s))
						}
					}
					continue
				}
			}
		}
		t := q.annot(u, b, s)
		if t.Kind() == KindInstance {
			bases = append(bases, t)
		} else {
			info.partial = true
		}
	}
	if explicit != nil {
		info.typeParams = typeVarsOf(explicit, nil)
	} else {
		info.typeParams = typeVarsOf(bases, nil)
	}
	name := c.Name()
	if len(bases) == 0 && !(name == "object" && u.ModuleName() == "builtins") {
		if obj := q.builtinClass("object"); obj.Valid() && obj != c {
			bases = append(bases, Instance(obj))
		}
	}
	info.mro = q.linearize(c, info.typeParams, bases)
	for _, m := range info.mro[1:] {
		if m.Class().Name() == "Enum" && m.Class().Unit.ModuleName() == "enum" {
			info.enum = true
		}
	}
	return info
}

// typeVarsOf appends the type variables in ts, in order, once each.
func typeVarsOf(ts []Type, out []Type) []Type {
	for _, t := range ts {
		switch t.Kind() {
		case KindTypeVar:
			dup := false
			for _, o := range out {
				if o.Text() == t.Text() {
					dup = true
				}
			}
			if !dup {
				out = append(out, t)
			}
		default:
			out = typeVarsOf(t.Args(), out)
		}
	}
	return out
}

// linearize is C3 over the bases' own linearizations (specialised by the
// base's arguments); when C3 fails (an inconsistent hierarchy), the
// depth-first order without repeats.
func (q *query) linearize(c Class, params []Type, bases []Type) []Type {
	self := Instance(c, params...)
	var seqs [][]Type
	for _, b := range bases {
		bi := q.class(b.Class())
		if bi == nil {
			seqs = append(seqs, []Type{b})
			continue
		}
		sub := bindParams(bi.typeParams, b.Args())
		seq := make([]Type, len(bi.mro))
		for i, m := range bi.mro {
			seq[i] = substitute(m, sub, Type{}, false)
		}
		seqs = append(seqs, seq)
	}
	seqs = append(seqs, append([]Type(nil), bases...))
	out := []Type{self}
	for len(out) < maxMRO {
		var next Type
		found := false
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			cand := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range tail(t) {
					if x.Class() == cand.Class() {
						inTail = true
					}
				}
			}
			if !inTail {
				next, found = cand, true
				break
			}
		}
		if !found {
			break
		}
		if next.Class() == c {
			break // a cyclic hierarchy
		}
		out = append(out, next)
		for i, s := range seqs {
			if len(s) > 0 && s[0].Class() == next.Class() {
				seqs[i] = s[1:]
			}
		}
	}
	// Whatever C3 could not place follows in depth-first order.
	for _, s := range seqs {
		for _, t := range s {
			if len(out) >= maxMRO {
				return out
			}
			if t.Class() != c && !mroHas(out, t.Class()) {
				out = append(out, t)
			}
		}
	}
	return out
}

func tail(s []Type) []Type {
	if len(s) == 0 {
		return nil
	}
	return s[1:]
}

func mroHas(mro []Type, c Class) bool {
	for _, m := range mro {
		if m.Class() == c {
			return true
		}
	}
	return false
}

// bindParams maps type parameters to arguments (missing ones Unknown).
func bindParams(params, args []Type) map[string]Type {
	if len(params) == 0 {
		return nil
	}
	sub := make(map[string]Type, len(params))
	for i, p := range params {
		a := unknownType
		if i < len(args) {
			a = args[i]
		}
		sub[p.typeVarKey()] = a
	}
	return sub
}

// substitute replaces type variables by sub and, when replaceSelf, Self
// by self.
func substitute(t Type, sub map[string]Type, self Type, replaceSelf bool) Type {
	switch t.Kind() {
	case KindTypeVar:
		if r, ok := sub[t.typeVarKey()]; ok {
			return r
		}
		return t
	case KindSelf:
		if replaceSelf {
			return self
		}
		return t
	case KindCallable:
		if t.d.paramSpec {
			// Callable[P, R] with P solved by a def: that def returning R.
			ret := substitute(t.d.ret, sub, self, replaceSelf)
			switch p := substitute(t.d.args[0], sub, self, replaceSelf); p.Kind() {
			case KindFunction:
				f := *p.d.fn
				f.Returns = &ret
				return FunctionType(f)
			case KindCallable:
				return CallableType(p.Args(), ret, p.Variadic())
			case KindTypeVar:
				return paramSpecCallable(p, ret)
			default:
				return CallableType(nil, ret, true)
			}
		}
	case KindFunction:
		if len(sub) == 0 {
			return t
		}
		f := *t.d.fn
		merged := make(map[string]Type, len(f.Subst)+len(sub))
		for k, v := range sub {
			merged[k] = v
		}
		for k, v := range f.Subst {
			merged[k] = substitute(v, sub, self, replaceSelf)
		}
		f.Subst = merged
		return FunctionType(f)
	}
	if len(sub) == 0 && !replaceSelf {
		return t
	}
	return t.mapArgs(func(a Type) Type { return substitute(a, sub, self, replaceSelf) })
}

// members indexes the names of c's body and its self.x attributes.
func (q *query) members(info *classInfo) map[string]int32 {
	q.e.mu.Lock()
	m, done := info.members, info.memberDone
	q.e.mu.Unlock()
	if done {
		return m
	}
	u := info.c.Unit
	ix := q.e.index(u)
	syms := u.Summary().Syms
	m = map[string]int32{}
	if info.body >= 0 && int(info.body) < len(ix.scopeSyms) {
		for _, s := range ix.scopeSyms[info.body] {
			m[syms[s].Name] = s
		}
	}
	for _, s := range ix.membersOf[info.c.Sym] {
		if _, ok := m[syms[s].Name]; !ok {
			m[syms[s].Name] = s
		}
	}
	q.e.mu.Lock()
	info.members, info.memberDone = m, true
	q.e.mu.Unlock()
	return m
}

// MemberInfo is an attribute found on a type.
type MemberInfo struct {
	// Ref is the declaring symbol, or a module's member.
	Ref Ref
	// Class is the class that declares it (zero for a module member).
	Class Class
	// Type is its type bound to the receiver: methods bound, class type
	// variables substituted, properties their getter's return.
	Type Type
}

// Found reports whether the member exists.
func (m MemberInfo) Found() bool { return m.Ref.Found() }

func (q *query) member(t Type, name string) MemberInfo {
	switch t.Kind() {
	case KindUnknown:
		// An attribute of what an Unknown possibly is is possibly its
		// type (completions of `urlparse(unknown).scheme.`).
		if p := t.Possible(); !p.IsUnknown() {
			return MemberInfo{Type: possiblyUnknown(q.member(p, name).Type)}
		}
	case KindAny:
		// Any's attributes are Any (declared by nothing: not Found).
		return MemberInfo{Type: anyType}
	case KindModule:
		r := q.e.prog.ModuleMember(t.Text(), name)
		if !r.Found() {
			// What every module object has (__file__, __dict__ ...).
			if mt := q.moduleClass("types", "ModuleType"); mt.Valid() {
				return q.classMember(Instance(mt), mt, nil, name, false)
			}
		}
		return MemberInfo{Ref: r, Type: q.ref(nil, -1, r)}
	case KindInstance:
		m := q.classMember(t, t.Class(), t.Args(), name, false)
		if !m.Found() && !strings.HasPrefix(name, "__") {
			// What the class's __getattr__ (or a __getattribute__ of its
			// own, threading.local's) returns, declared by nothing.
			for _, hook := range [...]string{"__getattr__", "__getattribute__"} {
				if g := q.classMember(t, t.Class(), t.Args(), hook, false); g.Found() && g.Class != q.builtinClass("object") {
					return MemberInfo{Type: q.call(g.Type, []argument{{t: q.instanceOf("str")}})}
				}
			}
		}
		return m
	case KindLiteral:
		return q.classMember(t, t.Class(), nil, name, false)
	case KindSelf:
		info := q.class(t.Class())
		if info == nil {
			return MemberInfo{}
		}
		return q.classMember(t, t.Class(), info.typeParams, name, false)
	case KindTuple:
		tc := t.Class()
		if !tc.Valid() {
			return MemberInfo{}
		}
		elem := Union(t.Args()...)
		if len(t.Args()) == 0 {
			elem = unknownType
		}
		return q.classMember(Instance(tc, elem), tc, []Type{elem}, name, false)
	case KindClass:
		c := t.Class()
		if !c.Valid() {
			if len(t.Args()) == 1 && t.Args()[0].Kind() == KindSelf {
				inner := t.Args()[0]
				info := q.class(inner.Class())
				if info == nil {
					return MemberInfo{}
				}
				if m := q.classMember(t, inner.Class(), info.typeParams, name, true); m.Found() {
					return m
				}
				// Then the metaclass's: self.__class__.__qualname__.
				if tc := q.builtinClass("type"); tc.Valid() {
					return q.classMember(t, tc, nil, name, false)
				}
				return MemberInfo{}
			}
			if len(t.Args()) == 1 && t.Args()[0].IsUnknown() {
				// type[Unknown]: what its metaclass, type, has.
				if tc := q.builtinClass("type"); tc.Valid() {
					return q.classMember(t, tc, nil, name, false)
				}
			}
			return MemberInfo{}
		}
		if m := q.classMember(t, c, t.Args(), name, true); m.Found() {
			return m
		}
		// Then the metaclass's (type's) attributes, bound to the class.
		if tc := q.builtinClass("type"); tc.Valid() {
			return q.classMember(t, tc, nil, name, false)
		}
	case KindFunction, KindOverloaded, KindCallable:
		return q.functionMember(t, name)
	case KindUnion:
		var out MemberInfo
		var ts []Type
		for _, m := range t.Args() {
			if m.Kind() == KindNone {
				continue
			}
			mi := q.member(m, name)
			if !out.Found() {
				out = mi
			}
			ts = append(ts, mi.Type)
		}
		if len(ts) > 0 {
			out.Type = Union(ts...)
		}
		return out
	}
	return MemberInfo{}
}

// functionMember is attribute name of function t: types.FunctionType's,
// a bound method's types.MethodType's (its __self__ the receiver), as
// pyright reads them; declared by nothing its hover names (`(function)
// __name__: str`).
func (q *query) functionMember(t Type, name string) MemberInfo {
	f := t.Func()
	if t.Kind() == KindOverloaded && len(t.Args()) > 0 {
		f = t.Args()[0].Func()
	}
	cls := "FunctionType"
	if f != nil && f.BoundSet {
		if name == "__self__" {
			return MemberInfo{Type: f.Bound}
		}
		cls = "MethodType"
	}
	c := q.moduleClass("types", cls)
	if !c.Valid() {
		return MemberInfo{}
	}
	return MemberInfo{Type: q.classMember(Instance(c), c, nil, name, false).Type}
}

// classMember looks name up through the MRO of class c (with type
// arguments args) and binds it to recv; viaClass when recv is the class
// object itself.
func (q *query) classMember(recv Type, c Class, args []Type, name string, viaClass bool) MemberInfo {
	info := q.class(c)
	if info == nil {
		return MemberInfo{}
	}
	m, mi, sym := q.lookupMRO(info, name, 0)
	if mi == nil {
		return MemberInfo{}
	}
	margs := m.Args()
	if top := bindParams(info.typeParams, args); len(top) > 0 {
		margs = substitute(m, top, Type{}, false).Args()
	}
	sub := bindParams(mi.typeParams, margs)
	return MemberInfo{Ref: Ref{Unit: mi.c.Unit, Sym: sym}, Class: mi.c, Type: q.bindMember(recv, mi, sym, sub, viaClass)}
}

// lookupMRO finds name in the classes of info's MRO from position from:
// the MRO entry, its class and the member's symbol (nil class: none).
func (q *query) lookupMRO(info *classInfo, name string, from int) (Type, *classInfo, int32) {
	for _, m := range info.mro[min(from, len(info.mro)):] {
		mi := q.class(m.Class())
		if mi == nil {
			continue
		}
		if sym, ok := q.members(mi)[name]; ok {
			return m, mi, sym
		}
	}
	return Type{}, nil, -1
}

// bindMember is member sym of class mi as reached through recv.
func (q *query) bindMember(recv Type, mi *classInfo, sym int32, sub map[string]Type, viaClass bool) Type {
	u := mi.c.Unit
	defs := q.liveDefs(u, sym)
	if len(defs) == 0 {
		return unknownType
	}
	last := &u.Summary().Defs[defs[len(defs)-1]]
	self := recv
	if self.Kind() == KindLiteral {
		self = widen(self)
	}
	if viaClass && recv.Kind() == KindClass {
		self = instanceOfClassObject(recv)
	}
	switch last.Kind {
	case navindex.KindProperty:
		getter := defs[0]
		for _, d := range defs {
			if len(u.Summary().Defs[d].Params) == 1 {
				getter = d
				break
			}
		}
		if t, ok := q.workspaceDescriptor(u, getter, self, viaClass); ok {
			return t
		}
		if viaClass {
			return q.instanceOf("property")
		}
		return substitute(q.returnType(u, getter), sub, self, true)
	case navindex.KindFunction, navindex.KindMethod:
		t := q.sym(u, sym)
		return q.bindFunction(t, recv, self, sub, viaClass)
	}
	t := q.sym(u, sym)
	if viaClass && mi.enum && last.Kind == navindex.KindVariable && last.Annot < 0 && t.Kind() != KindFunction && t.Kind() != KindClass {
		return Literal(mi.c, mi.c.Name()+"."+u.Summary().Syms[sym].Name)
	}
	if mi.enum && !viaClass && u.Summary().Syms[sym].Name == "value" {
		return t
	}
	if f := t.Func(); f != nil && !viaClass && !f.BoundSet && last.Annot < 0 && (recv.Kind() == KindInstance || recv.Kind() == KindSelf) && takesReceiver(f) {
		// A def stored in a class variable is a method to the
		// interpreter: read through an instance it is bound (django's
		// `run_subsuite = _run_subsuite`, whose __func__ pyright reads).
		b := *f
		b.Bound, b.BoundSet = recv, true
		return FunctionType(b)
	}
	return substitute(t, sub, self, true)
}

// takesReceiver reports a plain def (not a lambda, a static or class
// method) whose first parameter is positional and unannotated: one a
// receiver binds without a type error.
func takesReceiver(f *Function) bool {
	if !validDef(f.Unit, f.Def) {
		return false
	}
	d := &f.Unit.Summary().Defs[f.Def]
	if d.Kind != navindex.KindFunction || d.Flags&(navindex.DefStaticMethod|navindex.DefClassMethod) != 0 || len(d.Params) == 0 {
		return false
	}
	p := d.Params[0]
	return p.Annot < 0 && (p.Kind == navindex.ParamPosOnly || p.Kind == navindex.ParamNormal)
}

// workspaceDescriptor is what reading property-like def d of u through
// an instance self (its class, viaClass) gives when a class of the
// workspace rather than property decorates it (django's
// cached_property): as pyright applies the decorator, an instance of
// that class, read through its __get__ (given None for the instance
// through the class). ok false for other decorators: property, and the
// stubs' descriptors, whose __get__ returns the getter's type.
func (q *query) workspaceDescriptor(u Unit, d int32, self Type, viaClass bool) (Type, bool) {
	decs := u.Summary().Defs[d].Decorators
	if len(decs) != 1 || !validExpr(u, decs[0]) {
		return Type{}, false
	}
	c := q.expr(u, decs[0])
	if c.Kind() != KindClass || !c.Class().Valid() || c.Class().Unit.IsStub() {
		return Type{}, false
	}
	inst := q.call(c, []argument{{t: FunctionType(Function{Unit: u, Def: d})}})
	get := q.member(inst, "__get__")
	if !get.Found() {
		return inst, true
	}
	instance := self
	if viaClass {
		instance = noneType
	}
	return q.call(get.Type, []argument{{t: instance}, {t: classObjectOf(self)}}), true
}

// instanceOfClassObject is what calling class object t makes.
func instanceOfClassObject(t Type) Type {
	if t.Class().Valid() {
		return Instance(t.Class(), t.Args()...)
	}
	if len(t.Args()) == 1 {
		return t.Args()[0]
	}
	return unknownType
}

// bindFunction binds a def (or overloads) found on a class: instance
// methods to the instance, classmethods to the class, staticmethods to
// nothing; the class's type arguments substituted.
func (q *query) bindFunction(t Type, recv, self Type, sub map[string]Type, viaClass bool) Type {
	switch t.Kind() {
	case KindOverloaded:
		fns := make([]Type, len(t.Args()))
		for i, f := range t.Args() {
			fns[i] = q.bindFunction(f, recv, self, sub, viaClass)
		}
		return OverloadedType(fns...)
	case KindFunction:
	default:
		return substitute(t, sub, self, true)
	}
	f := *t.Func()
	if f.BoundSet {
		return t
	}
	d := &f.Unit.Summary().Defs[f.Def]
	f.Subst = sub
	// __new__ is a static method the interpreter passes the class to.
	isNew := f.Unit.Summary().Syms[d.Sym].Name == "__new__"
	switch {
	case d.Flags&navindex.DefStaticMethod != 0 && !isNew:
	case d.Flags&navindex.DefClassMethod != 0 || isNew:
		f.Bound, f.BoundSet = classObjectOf(self), true
	case !viaClass:
		f.Bound, f.BoundSet = recv, true
	default:
		f.SelfAs = self
	}
	return FunctionType(f)
}
