package index

import (
	"context"
	"slices"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// CallNode is one caller (incoming) or callee (outgoing) of a function,
// with the call sites, and, below depth, its own callers or callees.
type CallNode struct {
	Symbol
	// Sites are the calls: in the caller, naming the callee.
	Sites []Location
	Calls []*CallNode
	sym   int32
}

// Calls is get_call_hierarchy's answer.
type Calls struct {
	Root  Symbol
	Calls []*CallNode
	// Total counts every node found, Calls keeps the first limit of them
	// (breadth first).
	Total int
}

// callable is a function, method or class (calling a class runs its
// __init__): what a call hierarchy is about.
func callable(k navindex.DefKind) bool {
	return k == navindex.KindFunction || k == navindex.KindMethod || k == navindex.KindClass
}

// callScan reads the sources a call hierarchy looks at, once each: an
// occurrence is a call when a '(' follows the name (spaces between
// allowed), which the summaries do not record per occurrence.
type callScan struct {
	x      *Index
	texts  map[*File]*textpos.Index
	srcs   map[*File][]byte
	owners map[*File]map[int32]int32 // body scope -> the def's symbol
}

// caller is the function, method or class whose body holds scope s
// (lambdas and comprehensions inside a body are the body), -1 for the
// module.
func (c *callScan) caller(f *File, s int32) int32 {
	owners, ok := c.owners[f]
	if !ok {
		owners = map[int32]int32{}
		for _, d := range f.S.Defs {
			if d.Body >= 0 && callable(d.Kind) {
				owners[d.Body] = d.Sym
			}
		}
		c.owners[f] = owners
	}
	if sym, ok := owners[bodyScope(f, s)]; ok {
		return sym
	}
	return -1
}

// bodyScope is the function, class or module scope s belongs to.
func bodyScope(f *File, s int32) int32 {
	for s > 0 && int(s) < len(f.S.Scopes) {
		switch f.S.Scopes[s].Kind {
		case navindex.ScopeLambda, navindex.ScopeComprehension, navindex.ScopeTypeParams:
			s = f.S.Scopes[s].Parent
			continue
		}
		break
	}
	return s
}

func (c *callScan) called(f *File, sp navindex.Span) bool {
	ix, ok := c.texts[f]
	if !ok {
		if src, err := c.x.cfg.Read(f.Abs); err == nil {
			c.srcs[f], ix = src, textpos.New(src)
		}
		c.texts[f] = ix
	}
	if ix == nil {
		return false
	}
	off, err := ix.Offset(int(sp.Line), int(sp.End))
	if err != nil {
		return false
	}
	rest := strings.TrimLeft(string(c.srcs[f][off:min(off+64, len(c.srcs[f]))]), " \t")
	return strings.HasPrefix(rest, "(")
}

// CallHierarchy answers get_call_hierarchy from the hit: its function's
// callers (incoming) or the workspace functions it calls (outgoing),
// depth levels deep, at most limit nodes. Callers at module level are
// the module (kind "module").
func (x *Index) CallHierarchy(ctx context.Context, h *Hit, incoming bool, depth, limit int) (*Calls, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.current(h)
	if err != nil {
		return nil, err
	}
	t := x.follow(h.t)
	if src, ok := x.stubSource(t); ok {
		t = src
	}
	if t.kind != tSym || t.f.Abs == "" {
		return nil, fault.New(fault.NoSymbolFound, fault.Details{"name": h.f.S.Syms[h.o.Sym].Name, "reason": "not a workspace function"},
			"%s is not a function, method or class of the workspace", h.f.S.Syms[h.o.Sym].Name)
	}
	d, ok := firstDef(t.f, t.sym)
	if !ok || !callable(d.Kind) {
		return nil, fault.New(fault.NoSymbolFound, fault.Details{"name": t.f.S.Syms[t.sym].Name, "reason": "not callable"},
			"%s is not a function, method or class", t.f.S.Syms[t.sym].Name)
	}
	c := &callScan{x: x, texts: map[*File]*textpos.Index{}, srcs: map[*File][]byte{}, owners: map[*File]map[int32]int32{}}
	res := &Calls{Root: symbolOf(t.f, t.sym)}
	type item struct {
		f    *File
		sym  int32
		node *CallNode // nil: the root
		lvl  int
	}
	seen := map[target]bool{{kind: tSym, f: t.f, sym: t.sym}: true}
	queue := []item{{f: t.f, sym: t.sym}}
	for len(queue) > 0 {
		if ctx.Err() != nil {
			return nil, timeout(ctx)
		}
		it := queue[0]
		queue = queue[1:]
		var found []*CallNode
		var next []item
		add := func(g *File, sym int32, site Location) {
			for _, n := range found {
				if n.Rel == g.Rel && n.sym == sym {
					n.Sites = append(n.Sites, site)
					return
				}
			}
			n := &CallNode{Symbol: symbolOf(g, sym), Sites: []Location{site}}
			n.sym = sym
			found = append(found, n)
			key := target{kind: tSym, f: g, sym: sym}
			if it.lvl+1 < depth && !seen[key] && sym >= 0 {
				seen[key] = true
				next = append(next, item{f: g, sym: sym, node: n, lvl: it.lvl + 1})
			}
		}
		if incoming {
			x.callers(c, it.f, it.sym, add)
		} else {
			x.callees(c, it.f, it.sym, add)
		}
		for _, n := range found {
			slices.SortFunc(n.Sites, compareLocations)
			n.Sites = slices.Compact(n.Sites) // typed and linked references may both hold a site
		}
		slices.SortFunc(found, func(a, b *CallNode) int { return compareLocations(a.Sites[0], b.Sites[0]) })
		res.Total += len(found)
		room := limit - CountCalls(res.Calls)
		if room <= 0 {
			continue
		}
		kept := found[:min(len(found), room)]
		if it.node == nil {
			res.Calls = kept
		} else {
			it.node.Calls = kept
		}
		for _, n := range next {
			if slices.Contains(kept, n.node) {
				queue = append(queue, n)
			}
		}
	}
	return res, nil
}

// compareLocations orders by path, then position.
func compareLocations(a, b Location) int {
	if c := strings.Compare(a.Rel, b.Rel); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return int(a.Line - b.Line)
	}
	return int(a.Col - b.Col)
}

// CountCalls counts the nodes of a hierarchy, at every depth.
func CountCalls(ns []*CallNode) int {
	n := len(ns)
	for _, c := range ns {
		n += CountCalls(c.Calls)
	}
	return n
}

// symbolOf describes sym of f as find_symbols does; sym -1 is the module.
func symbolOf(f *File, sym int32) Symbol {
	if sym < 0 {
		name := f.Module[strings.LastIndexByte(f.Module, '.')+1:]
		return Symbol{Name: name, Module: f.Module, Kind: "module", Location: Location{Abs: f.Abs, Rel: f.Rel}}
	}
	y := f.S.Syms[sym]
	s := Symbol{Name: y.Name, Module: f.Module, Kind: "function"}
	if d, ok := firstDef(f, sym); ok {
		s.Kind, s.Signature, s.Location, s.Extent = d.Kind.String(), d.Sig, Location{Abs: f.Abs, Rel: f.Rel, Span: d.Name}, d.Extent
	}
	if dot := strings.LastIndexByte(y.Qual, '.'); dot >= 0 {
		s.Container = y.Qual[:dot]
	}
	return s
}

// callers reports each call of (f, sym) in the workspace with the
// function the call is in.
func (x *Index) callers(c *callScan, f *File, sym int32, add func(g *File, sym int32, site Location)) {
	// The symbol's own occurrences, its source's when it is a stub's,
	// and those of the names importing it under another (`from m import
	// f as g`: a call of g calls f).
	// Attributes only the type evaluator resolves (`self.headers.copy()`)
	// come from typedRefs, as for references.
	var refs []occRef
	t := target{kind: tSym, f: f, sym: sym}
	targets := []target{t}
	if src, ok := x.stubSource(t); ok {
		targets = append(targets, src)
	}
	for _, tt := range targets {
		name := x.keyString(tt)
		for id, k := range x.keys {
			if k == name || strings.HasPrefix(k, name+"|as:") {
				refs = append(refs, x.inv[id]...)
			}
		}
		refs = append(refs, x.typedRefs(name, targetName(tt))...)
	}
	for _, r := range refs {
		o := r.file.S.Occs[r.occ]
		if o.Flags&(navindex.OccDef|navindex.OccImport|navindex.OccAll|navindex.OccString) != 0 || r.file.Abs == "" || !c.called(r.file, o.Span) {
			continue
		}
		add(r.file, c.caller(r.file, o.Scope), x.loc(r.file, o.Span))
	}
}

// callees reports each call the body of (f, sym) makes of a workspace
// function, method or class (nested defs have their own).
func (x *Index) callees(c *callScan, f *File, sym int32, add func(g *File, sym int32, site Location)) {
	body := int32(-1)
	for _, d := range f.defs.of(sym) {
		if df := f.S.Defs[d]; df.Body >= 0 && callable(df.Kind) {
			body = df.Body
			break
		}
	}
	if body < 0 {
		return
	}
	for _, o := range f.S.Occs {
		if o.Flags&navindex.OccDef != 0 || bodyScope(f, o.Scope) != body {
			continue
		}
		lt, ok := x.memo.linked(f, o.Sym)
		if !ok {
			continue
		}
		t := x.follow(lt)
		if src, ok := x.stubSource(t); ok {
			t = src
		}
		if t.kind != tSym || t.f.Abs == "" || t.f.typeshed {
			continue
		}
		if d, ok := firstDef(t.f, t.sym); !ok || !callable(d.Kind) || !c.called(f, o.Span) {
			continue
		}
		add(t.f, t.sym, x.loc(f, o.Span))
	}
}
