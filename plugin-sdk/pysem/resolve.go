package pysem

import (
	"slices"
)

func functionLike(k ScopeKind) bool {
	return k == ScopeFunction || k == ScopeLambda
}

// place moves every binding to the scope that owns its name.
func (b *builder) place() {
	root := b.m.Root
	eff := func(bd *Binding) *Scope {
		s := bd.Site
		if bd.walrus {
			for s.Kind == ScopeComprehension && s.Parent != nil {
				s = s.Parent
			}
		}
		return s
	}
	// local says which scopes bind a name themselves, for nonlocal
	// declarations; files without any skip building it.
	type key struct {
		s   *Scope
		nid int32
	}
	var local map[key]bool
	for _, s := range b.m.Scopes {
		if len(s.Nonlocals) > 0 {
			local = make(map[key]bool, len(b.bindings))
			break
		}
	}
	if local != nil {
		for _, bd := range b.bindings {
			s := eff(bd)
			if _, g := s.Globals[bd.Name]; g && s != root {
				continue
			}
			if _, nl := s.Nonlocals[bd.Name]; nl {
				continue
			}
			local[key{s, bd.nid}] = true
		}
	}
	for _, bd := range b.bindings {
		s := eff(bd)
		owner := s
		// Most scopes declare nothing global or nonlocal: skip the lookups
		// (a call each, even in a nil map).
		if s != root && (len(s.Globals) > 0 || len(s.Nonlocals) > 0) {
			if _, g := s.Globals[bd.Name]; g {
				owner = root
			} else if _, nl := s.Nonlocals[bd.Name]; nl {
				owner = s
				for p := s.Parent; p != nil; p = p.Parent {
					if p.Kind == ScopeClass {
						continue
					}
					if p == root {
						break
					}
					if _, g := p.Globals[bd.Name]; g {
						owner = root
						break
					}
					if local[key{p, bd.nid}] {
						owner = p
						break
					}
				}
			}
		}
		bd.Scope = owner
	}
	b.syms = groupByOwner(b.bindings, len(b.m.Scopes), len(b.names.names))
	symbols := make([][]*Binding, 0, len(b.syms)) // carved into the scopes' symbols
	for i := 0; i < len(b.syms); {
		s := b.syms[i].scope
		j := i + 1
		for j < len(b.syms) && b.syms[j].scope == s {
			j++
		}
		s.Bindings = make(map[string][]*Binding, j-i)
		s.symbols = symbols[len(symbols) : len(symbols) : len(symbols)+j-i]
		symbols = symbols[:len(symbols)+j-i]
		for _, sy := range b.syms[i:j] {
			if len(sy.bs) > 1 {
				slices.SortStableFunc(sy.bs, func(x, y *Binding) int { return x.NameNode.StartByte() - y.NameNode.StartByte() })
			}
			for _, bd := range sy.bs {
				bd.sym = int32(len(s.symbols))
			}
			s.Bindings[sy.bs[0].Name] = sy.bs
			s.symbols = append(s.symbols, sy.bs)
		}
		i = j
	}
	for _, s := range b.m.Scopes {
		if s.Bindings == nil {
			s.Bindings = map[string][]*Binding{}
		}
	}
}

// reach returns the binding of bs in effect at pos (pos < 0: after the
// scope ran). Annotation-only bindings do not change the value; a del or
// an expired except alias leaves the name unbound.
func reach(bs []*Binding, pos int) (bd *Binding, unbound bool) {
	return reachFrom(bs, pos, nil, 0)
}

// reachFrom is reach for a deferred lookup (pos < 0) made from code in
// site at sitePos: bindings written in site itself (through global or
// nonlocal) still count in textual order.
func reachFrom(bs []*Binding, pos int, site *Scope, sitePos int) (bd *Binding, unbound bool) {
	var best, decl *Binding
	for _, x := range bs {
		if pos >= 0 && x.at > pos {
			continue
		}
		if pos < 0 && site != nil && x.Site == site && x.Scope != site && x.at > sitePos {
			continue
		}
		if x.Kind == BindDel && x.Site != x.Scope {
			continue // `global x; del x` in a function: runs at an unknown time
		}
		if x.Kind == BindAnnotated && x.Value.IsNull() {
			if decl == nil || x.at >= decl.at {
				decl = x
			}
			continue
		}
		if best == nil || x.at >= best.at {
			best = x
		}
	}
	if best == nil {
		return decl, decl != nil
	}
	expired := best.until > 0 && (pos >= best.until || (pos < 0 && best.Conditional))
	switch {
	case best.Kind == BindDel:
		// Point at the definition that was deleted, if any. After the
		// block of the del, the name is only possibly unbound.
		prev := prevDef(bs, best)
		if prev != nil {
			return prev, !expired
		}
		return best, true
	case best.Kind == BindExcept && best.until > 0 && (pos >= best.until || pos < 0):
		// After the handler the alias is deleted; if the name had a value
		// before the try, it keeps it when the handler did not run.
		if prev := prevDef(bs, best); prev != nil {
			return prev, false
		}
		return best, true
	}
	return best, false
}

// prevDef returns the last definition of bs in effect before x.
func prevDef(bs []*Binding, x *Binding) *Binding {
	var prev *Binding
	for _, y := range bs {
		if y.at <= x.at && y != x && y.IsDefinition() && (y.Kind != BindExcept || y.until > x.at) && (prev == nil || y.at >= prev.at) {
			prev = y
		}
	}
	return prev
}

// FirstDefinition returns the first of bs that gives a value, else the
// first (nil for none).
func FirstDefinition(bs []*Binding) *Binding {
	for _, x := range bs {
		if x.IsDefinition() {
			return x
		}
	}
	if len(bs) > 0 {
		return bs[0]
	}
	return nil
}

// resolve looks name up from scope s at byte offset pos. lk is nil but
// in Analyze's bulk resolution (see lookup).
func (m *Module) resolve(lk *lookup, s *Scope, name string, pos int, deferred bool) Resolution {
	root := m.Root
	first := s
	refPos := pos
	var prev *Scope
	var fallback *Binding
	fallbackUnbound := false
	for cur := s; cur != nil; prev, cur = cur, cur.Parent {
		if cur != first && cur.Kind == ScopeClass && (prev == nil || prev.Kind != ScopeTypeParams) {
			continue
		}
		if cur != root && len(cur.Globals) > 0 {
			if _, g := cur.Globals[name]; g {
				if cur.Kind != ScopeClass {
					deferred = deferred || functionLike(cur.Kind)
				}
				return m.resolveIn(lk, root, name, pos, deferred, fallback, first, refPos)
			}
		}
		bs := bindingsIn(lk, cur, name)
		if len(bs) > 0 {
			switch cur.Kind {
			case ScopeFunction, ScopeLambda, ScopeTypeParams:
				if deferred {
					bd, unb := reachFrom(bs, -1, first, refPos)
					if bd == nil {
						return Resolution{Binding: FirstDefinition(bs), Unbound: true}
					}
					return Resolution{Binding: bd, Unbound: unb}
				}
				bd, unb := reach(bs, pos)
				if bd == nil {
					return Resolution{Binding: FirstDefinition(bs), Unbound: true}
				}
				return Resolution{Binding: bd, Unbound: unb}
			case ScopeComprehension:
				bd, unb := reach(bs, pos)
				if bd == nil {
					return Resolution{Binding: FirstDefinition(bs)}
				}
				return Resolution{Binding: bd, Unbound: unb}
			default: // module, class: looked up by name at run time
				p := pos
				if deferred {
					p = -1
				}
				bd, unb := reachFrom(bs, p, first, refPos)
				if bd != nil && !unb {
					return Resolution{Binding: bd}
				}
				if fallback == nil {
					fallback, fallbackUnbound = bd, true
					if bd == nil {
						fallback = FirstDefinition(bs)
					}
				}
			}
		}
		if functionLike(cur.Kind) {
			deferred = true
		}
		if cur.Kind == ScopeComprehension && cur.End > pos {
			// The whole comprehension runs at once: a walrus in its
			// condition binds before its element expression runs.
			pos = cur.End
		}
	}
	return m.implicitOrBuiltin(lk, first, name, fallback, fallbackUnbound)
}

// resolveIn resolves name in the module scope (for global declarations).
func (m *Module) resolveIn(lk *lookup, root *Scope, name string, pos int, deferred bool, fallback *Binding, site *Scope, sitePos int) Resolution {
	if bs := bindingsIn(lk, root, name); len(bs) > 0 {
		p := pos
		if deferred {
			p = -1
		}
		bd, unb := reachFrom(bs, p, site, sitePos)
		if bd != nil && !unb {
			return Resolution{Binding: bd}
		}
		if fallback == nil {
			fallback = bd
			if bd == nil {
				fallback = FirstDefinition(bs)
			}
		}
	}
	return m.implicitOrBuiltin(lk, root, name, fallback, true)
}

func (m *Module) implicitOrBuiltin(lk *lookup, first *Scope, name string, fallback *Binding, fallbackUnbound bool) Resolution {
	if len(name) > 4 && name[0] == '_' && name[1] == '_' {
		if moduleImplicit[name] || (name == "__path__" && m.Opts.IsPackageInit) {
			return Resolution{Implicit: true}
		}
		switch name {
		case "__module__", "__qualname__":
			if first.Kind == ScopeClass {
				return Resolution{Implicit: true}
			}
		case "__class__":
			for s := first; s != nil && s.Parent != nil; s = s.Parent {
				if functionLike(s.Kind) && s.Parent.Kind == ScopeClass {
					return Resolution{Implicit: true}
				}
				if functionLike(s.Kind) && s.Parent.Kind == ScopeTypeParams && s.Parent.Parent != nil && s.Parent.Parent.Kind == ScopeClass {
					return Resolution{Implicit: true}
				}
			}
		}
	}
	if m.isBuiltin(lk, name) {
		return Resolution{Builtin: true}
	}
	if fallback != nil {
		return Resolution{Binding: fallback, Unbound: fallbackUnbound}
	}
	return Resolution{}
}

// resolve resolves every ref, one name at a time (see lookup), and
// lists each binding's refs in source order.
func (b *builder) resolve() {
	m := b.m
	slices.SortStableFunc(m.Refs, func(x, y *Ref) int { return x.Start - y.Start })

	nnames := len(b.names.names)
	refStart := make([]int32, nnames+1)
	for _, r := range m.Refs {
		refStart[r.nid+1]++
	}
	symStart := make([]int32, nnames+1)
	for _, sy := range b.syms {
		symStart[sy.nid+1]++
	}
	for i := 1; i <= nnames; i++ {
		refStart[i] += refStart[i-1]
		symStart[i] += symStart[i-1]
	}
	refs := make([]*Ref, len(m.Refs))
	next := append([]int32(nil), refStart[:nnames]...)
	for _, r := range m.Refs {
		refs[next[r.nid]] = r
		next[r.nid]++
	}
	syms := make([]*symbol, len(b.syms))
	next = append(next[:0], symStart[:nnames]...)
	for i := range b.syms {
		sy := &b.syms[i]
		syms[next[sy.nid]] = sy
		next[sy.nid]++
	}

	lk := &lookup{byScope: make([][]*Binding, len(m.Scopes))}
	for nid := range nnames {
		if refStart[nid] == refStart[nid+1] {
			continue
		}
		for _, sy := range syms[symStart[nid]:symStart[nid+1]] {
			lk.byScope[sy.scope.Index] = sy.bs
		}
		lk.builtin = 0
		for _, r := range refs[refStart[nid]:refStart[nid+1]] {
			var res Resolution
			switch {
			case r.Ctx.Has(CtxGlobal):
				res = m.resolveIn(lk, m.Root, r.Name, -1, true, nil, r.Scope, r.Start)
				res.Unbound = false
			case r.Ctx.Has(CtxNonlocal):
				res = m.resolveNonlocal(lk, r.Scope, r.Name, r.Start)
			default:
				res = m.resolve(lk, r.Scope, r.Name, r.Start, r.Deferred)
			}
			r.Binding, r.Builtin, r.Implicit, r.Unbound = res.Binding, res.Builtin, res.Implicit, res.Unbound
		}
		for _, sy := range syms[symStart[nid]:symStart[nid+1]] {
			lk.byScope[sy.scope.Index] = nil
		}
	}

	// Binding.Refs: counted first, then carved from one array.
	for _, r := range m.Refs {
		if r.Binding != nil {
			r.Binding.nrefs++
		}
	}
	all := make([]*Ref, 0, len(m.Refs))
	for _, bd := range b.bindings {
		if bd.nrefs > 0 {
			bd.Refs = all[len(all) : len(all) : len(all)+bd.nrefs]
			all = all[:len(all)+bd.nrefs]
		}
	}
	for _, r := range m.Refs {
		if r.Binding != nil {
			r.Binding.Refs = append(r.Binding.Refs, r)
		}
	}
}

func (m *Module) resolveNonlocal(lk *lookup, s *Scope, name string, pos int) Resolution {
	for p := s.Parent; p != nil && p != m.Root; p = p.Parent {
		if p.Kind == ScopeClass {
			continue
		}
		if bs := bindingsIn(lk, p, name); len(bs) > 0 {
			bd, _ := reachFrom(bs, -1, s, pos)
			if bd == nil {
				bd = FirstDefinition(bs)
			}
			return Resolution{Binding: bd}
		}
	}
	return Resolution{}
}

func (b *builder) finish() {
	m := b.m
	m.Bindings = b.bindings
	m.nnames = len(b.names.names)
	for _, bd := range m.Bindings {
		if bd.Scope == nil { // cannot happen; keep the model total
			bd.Scope = bd.Site
		}
	}
	slices.SortStableFunc(m.Bindings, func(x, y *Binding) int { return x.NameNode.StartByte() - y.NameNode.StartByte() })
	for i, bd := range m.Bindings {
		bd.Index = i
	}
	slices.SortStableFunc(m.Attrs, func(x, y *AttrRef) int { return x.Start - y.Start })
	for _, a := range m.Attrs {
		if a.ObjectRef != nil {
			a.ObjectBinding = a.ObjectRef.Binding
		}
	}
	for _, s := range m.Scopes {
		s.m = m
	}
}

// ---- queries ----

// ScopeAt returns the innermost scope whose range (see Scope.Start)
// contains offset. Parameter defaults and annotations lie inside a
// function's range but are evaluated outside it: use At for identifiers.
func (m *Module) ScopeAt(offset int) *Scope {
	s := m.Root
	for {
		var next *Scope
		for _, c := range s.Children {
			if c.Start <= offset && offset < c.End {
				next = c
			}
		}
		if next == nil {
			return s
		}
		s = next
	}
}

// At returns what is at a byte offset: the binding whose NameNode, the
// ref and the attribute whose name contains offset (an offset just past a
// name counts, when nothing starts there). Any may be nil; a del target
// and an augmented assignment target are both a binding and a ref.
func (m *Module) At(offset int) (*Binding, *Ref, *AttrRef) {
	// The searches are written out rather than sort.Search calls: a
	// closure call per probe is costly in a wasm guest, and rules call At
	// for most names of a file.
	var bd *Binding
	i, j := 0, len(m.Bindings)
	for i < j {
		if h := int(uint(i+j) >> 1); m.Bindings[h].NameNode.StartByte() > offset {
			j = h
		} else {
			i = h + 1
		}
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		x := m.Bindings[j]
		if x.NameNode.StartByte() <= offset && offset <= x.NameNode.EndByte() {
			if bd == nil || offset < x.NameNode.EndByte() {
				bd = x
			}
		}
	}
	r := m.refNear(offset)
	var a *AttrRef
	i, j = 0, len(m.Attrs)
	for i < j {
		if h := int(uint(i+j) >> 1); m.Attrs[h].Start > offset {
			j = h
		} else {
			i = h + 1
		}
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		x := m.Attrs[j]
		if x.Start <= offset && offset <= x.End {
			if a == nil || offset < x.End {
				a = x
			}
		}
	}
	// Prefer a name that contains offset over one that ends at it.
	bdExact := bd != nil && offset < bd.NameNode.EndByte()
	rExact := r != nil && offset < r.End
	aExact := a != nil && offset < a.End
	if bdExact || rExact || aExact {
		if !bdExact {
			bd = nil
		}
		if !rExact {
			r = nil
		}
		if !aExact {
			a = nil
		}
	}
	return bd, r, a
}

// refNear is At's ref: of the last two refs starting at or before
// offset, one that contains offset, else one that ends at it.
func (m *Module) refNear(offset int) *Ref {
	i, j := 0, len(m.Refs)
	for i < j {
		if h := int(uint(i+j) >> 1); m.Refs[h].Start > offset {
			j = h
		} else {
			i = h + 1
		}
	}
	var r *Ref
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		x := m.Refs[j]
		if x.Start <= offset && offset <= x.End {
			if r == nil || offset < x.End {
				r = x
			}
		}
	}
	return r
}

// RefAt returns the ref whose name contains offset (Start <= offset <
// End), the one At returns then, or nil. It is At for callers that only
// want refs, without At's two other searches.
func (m *Module) RefAt(offset int) *Ref {
	if r := m.refNear(offset); r != nil && offset < r.End {
		return r
	}
	return nil
}

// Symbol returns all bindings of b's name in b's scope, in source order:
// one symbol for rename and find-references (a property's getter, setter
// and deleter included).
func (m *Module) Symbol(b *Binding) []*Binding { return b.Symbol() }

// Symbol is Module.Symbol: b.Scope.Bindings[b.Name], without hashing.
func (b *Binding) Symbol() []*Binding {
	if b == nil || b.Scope == nil {
		return nil
	}
	return b.Scope.symbols[b.sym]
}

// Symbols returns the values of s.Bindings, each name's bindings, in the
// order the names are first bound: unlike ranging over the map, a
// deterministic order, and no hashing.
func (s *Scope) Symbols() [][]*Binding { return s.symbols }

// Members returns the names bound in a class body (methods, class
// variables, dataclass fields, nested classes). Do not modify the map.
func (m *Module) Members(class *Binding) map[string][]*Binding {
	if class == nil || class.Body == nil || class.Body.Kind != ScopeClass {
		return nil
	}
	return class.Body.Bindings
}

// InstanceAttrs returns the attributes assigned through the instance
// parameter (self) of the class's methods: self.x = ..., self.x += ...,
// for self.x in ..., with ... as self.x, by name in source order.
func (m *Module) InstanceAttrs(class *Binding) map[string][]*AttrRef {
	if class == nil || class.Body == nil {
		return nil
	}
	res := map[string][]*AttrRef{}
	for _, a := range m.Attrs {
		if a.Ctx&(CtxStore|CtxAugAssign) == 0 {
			continue
		}
		ob := a.ObjectBinding
		if ob == nil || ob.Kind != BindParameter {
			continue
		}
		fs := ob.Scope
		if fs == nil || fs.Self != ob || fs.Method != InstanceMethod {
			continue
		}
		cs := fs.Parent
		if cs != nil && cs.Kind == ScopeTypeParams {
			cs = cs.Parent
		}
		if cs == class.Body {
			res[a.Name] = append(res[a.Name], a)
		}
	}
	return res
}

// IsLocal reports whether name is owned by s (bound in it and not
// declared global or nonlocal there).
func (s *Scope) IsLocal(name string) bool { return len(s.Bindings[name]) > 0 }

// Resolve resolves name as if it were read at byte offset in s.
func (s *Scope) Resolve(name string, offset int) Resolution {
	if s == nil || s.m == nil {
		return Resolution{}
	}
	return s.m.resolve(nil, s, name, offset, false)
}

// Lookup returns the binding name resolves to when read at offset in s
// (nil for builtins, implicit and undefined names); see Resolve.
func (s *Scope) Lookup(name string, offset int) *Binding { return s.Resolve(name, offset).Binding }
