// Package summarize turns the semantic model of one Python file
// (plugin-sdk/pysem) into its navigation summary (plugin-sdk/navindex):
// every symbol, definition and occurrence with positions in UTF-16 units,
// values described symbolically for the kernel to link across files,
// hover signatures and docstrings rendered as Markdown. It is the Python
// half of navigation; the kernel (host/index) only links summaries.
// Kept out of package main so host tests can summarize natively.
package summarize

import (
	"bytes"
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Options describe the file.
type Options struct {
	IsPackageInit, IsStub bool
	PythonMinor           int
}

type symKey struct {
	scope int
	name  string
}

type impKey struct {
	level        int32
	module, name string
}

type attrKey struct {
	recv int32
	name string
}

type builder struct {
	m   *pysem.Module
	src []byte
	pos *textpos.Index
	s   *navindex.Summary

	local    map[symKey]int32
	imports  map[impKey]int32
	attrs    map[attrKey]int32
	kwargs   map[attrKey]int32
	builtins map[string]int32
	unres    map[string]int32
	members  map[symKey]int32 // (class scope index, name) -> SymMember
	exprs    map[navindex.Expr]int32
	refAt    map[int]*pysem.Ref
	occAt    map[[2]int32]bool
}

// Summarize builds the summary of the file t was parsed from.
func Summarize(t *tree.Tree, o Options) *navindex.Summary {
	m := pysem.Analyze(t, pysem.Options{IsPackageInit: o.IsPackageInit, IsStub: o.IsStub, PythonMinor: o.PythonMinor})
	return FromModule(m)
}

// FromModule builds the summary of an analyzed module.
func FromModule(m *pysem.Module) *navindex.Summary {
	var src []byte
	if m.Tree != nil {
		src = m.Tree.Source()
	}
	b := &builder{m: m, src: src, pos: textpos.New(src), s: &navindex.Summary{},
		local: map[symKey]int32{}, imports: map[impKey]int32{}, attrs: map[attrKey]int32{}, kwargs: map[attrKey]int32{},
		builtins: map[string]int32{}, unres: map[string]int32{}, members: map[symKey]int32{},
		exprs: map[navindex.Expr]int32{}, refAt: make(map[int]*pysem.Ref, len(m.Refs)), occAt: map[[2]int32]bool{}}
	for _, r := range m.Refs {
		if r.Ctx&(pysem.CtxAllEntry|pysem.CtxStringAnnotation) == 0 || r.Node.IsNull() || r.Node.Kind() == "identifier" {
			b.refAt[r.Start] = r
		} else if _, ok := b.refAt[r.Start]; !ok {
			b.refAt[r.Start] = r
		}
	}
	b.s.Lines = int32(b.pos.LineCount())
	b.scopes()
	for _, bd := range m.Bindings {
		b.localSym(bd.Scope, bd.Name)
	}
	for _, bd := range m.Bindings {
		b.symValue(bd)
	}
	b.memberSyms()
	b.defs()
	b.occurrences()
	if m.All != nil {
		b.s.AllKnown, b.s.AllPartial = true, m.All.Partial
		for _, n := range m.All.Names {
			b.s.All = append(b.s.All, n.Name)
		}
	}
	for _, im := range m.Imports {
		if im.Star && im.Scope == m.Root {
			b.s.Stars = append(b.s.Stars, navindex.StarImport{Module: im.Module, Level: int32(im.Level)})
		}
	}
	b.s.Doc = Markdown(m.Docstring)
	return b.s
}

func (b *builder) span(start, end int) navindex.Span {
	l, c := b.pos.Position(start)
	return navindex.Span{Line: int32(l), Col: int32(c), End: int32(c + textpos.UTF16Len(b.src[start:end]))}
}

func (b *builder) scopes() {
	for _, sc := range b.m.Scopes {
		ns := navindex.Scope{Kind: navindex.ScopeKind(sc.Kind), Parent: -1}
		if sc.Parent != nil {
			ns.Parent = int32(sc.Parent.Index)
		}
		for name := range sc.Bindings {
			ns.Bound = append(ns.Bound, name)
		}
		slices.Sort(ns.Bound)
		b.s.Scopes = append(b.s.Scopes, ns)
	}
	seen := map[symKey]bool{}
	for _, r := range b.m.Refs {
		if r.Implicit || r.Scope == nil || r.Ctx&(pysem.CtxGlobal|pysem.CtxNonlocal|pysem.CtxAllEntry) != 0 {
			continue
		}
		k := symKey{r.Scope.Index, r.Name}
		if seen[k] {
			continue
		}
		seen[k] = true
		u := navindex.Use{Name: r.Name, Scope: -2}
		switch {
		case r.Binding != nil:
			u.Scope = int32(r.Binding.Scope.Index)
		case r.Builtin:
			u.Scope = -1
		}
		sc := &b.s.Scopes[r.Scope.Index]
		sc.Uses = append(sc.Uses, u)
	}
}

// qualPrefix is the qualified-name prefix of names owned by sc ("" for
// the module, "C." for a class body), ok false inside functions.
func qualPrefix(sc *pysem.Scope) (string, bool) {
	switch sc.Kind {
	case pysem.ScopeModule:
		return "", true
	case pysem.ScopeTypeParams:
		if sc.Parent == nil {
			return "", false
		}
		return qualPrefix(sc.Parent)
	case pysem.ScopeClass:
		if sc.Owner == nil || sc.Parent == nil {
			return "", false
		}
		p, ok := qualPrefix(sc.Parent)
		if !ok {
			return "", false
		}
		return p + sc.Owner.Name + ".", true
	}
	return "", false
}

func (b *builder) add(y navindex.Sym) int32 {
	b.s.Syms = append(b.s.Syms, y)
	return int32(len(b.s.Syms) - 1)
}

func (b *builder) localSym(sc *pysem.Scope, name string) int32 {
	k := symKey{sc.Index, name}
	if id, ok := b.local[k]; ok {
		return id
	}
	y := navindex.Sym{Kind: navindex.SymLocal, Name: name, Scope: int32(sc.Index), Class: -1, Recv: -1, Target: -1, Value: -1}
	if p, ok := qualPrefix(sc); ok {
		y.Qual = p + name
	} else {
		y.Qual = paramQual(sc, name)
	}
	id := b.add(y)
	b.local[k] = id
	return id
}

func (b *builder) importSym(level int, module, name string) int32 {
	k := impKey{int32(level), module, name}
	if id, ok := b.imports[k]; ok {
		return id
	}
	id := b.add(navindex.Sym{Kind: navindex.SymImport, Name: name, Module: module, Level: int32(level), Scope: -1, Class: -1, Recv: -1, Target: -1, Value: -1})
	b.imports[k] = id
	return id
}

func (b *builder) simpleSym(kind navindex.SymKind, tab map[string]int32, name string) int32 {
	if id, ok := tab[name]; ok {
		return id
	}
	id := b.add(navindex.Sym{Kind: kind, Name: name, Scope: -1, Class: -1, Recv: -1, Target: -1, Value: -1})
	tab[name] = id
	return id
}

func (b *builder) attrSym(recv int32, name string) int32 {
	k := attrKey{recv, name}
	if id, ok := b.attrs[k]; ok {
		return id
	}
	id := b.add(navindex.Sym{Kind: navindex.SymAttr, Name: name, Recv: recv, Scope: -1, Class: -1, Target: -1, Value: -1})
	b.attrs[k] = id
	return id
}

func (b *builder) expr(op navindex.ExprOp, a int32, name string) int32 {
	if op == navindex.ExprSuper && a < 0 {
		return -1
	}
	if a < 0 {
		return -1
	}
	x := navindex.Expr{Op: op, A: a, Name: name}
	if id, ok := b.exprs[x]; ok {
		return id
	}
	b.s.Exprs = append(b.s.Exprs, x)
	id := int32(len(b.s.Exprs) - 1)
	b.exprs[x] = id
	return id
}

// refSym is the symbol a name reference means (-1 for implicit names).
func (b *builder) refSym(r *pysem.Ref) int32 {
	switch {
	case r.Binding != nil:
		return b.localSym(r.Binding.Scope, r.Name)
	case r.Builtin:
		return b.simpleSym(navindex.SymBuiltin, b.builtins, r.Name)
	case r.Implicit:
		switch r.Name {
		case "__class__", "__module__", "__qualname__":
			return -1
		}
		// A module global the interpreter defines (__name__, __doc__,
		// __file__, ...): one symbol of the module, as pyright has it.
		return b.localSym(b.m.Root, r.Name)
	}
	return b.simpleSym(navindex.SymUnresolved, b.unres, r.Name)
}

// enclosingClass is the class whose method contains off (for super()).
func (b *builder) enclosingClass(off int) *pysem.Binding {
	for s := b.m.ScopeAt(off); s != nil; s = s.Parent {
		if s.Kind == pysem.ScopeFunction {
			if cls := classOf(s); cls != nil {
				return cls
			}
		}
	}
	return nil
}

// nameExpr is the value of the identifier starting at off.
func (b *builder) nameExpr(off int) int32 {
	r := b.refAt[off]
	if r == nil {
		return -1
	}
	return b.expr(navindex.ExprSym, b.refSym(r), "")
}

// valueExpr describes the value of an expression node.
func (b *builder) valueExpr(n tree.Node) int32 {
	if n.IsNull() {
		return -1
	}
	switch n.Kind() {
	case "identifier":
		return b.nameExpr(n.StartByte())
	case "attribute":
		obj, attr := n.ChildByField("object"), n.ChildByField("attribute")
		if attr.IsNull() {
			return -1
		}
		return b.expr(navindex.ExprAttr, b.valueExpr(obj), string(attr.Text()))
	case "call":
		fn := n.ChildByField("function")
		if fn.Kind() == "identifier" && string(fn.Text()) == "super" {
			if r := b.refAt[fn.StartByte()]; r != nil && r.Builtin {
				if cls := b.enclosingClass(fn.StartByte()); cls != nil {
					return b.expr(navindex.ExprSuper, b.localSym(cls.Scope, cls.Name), "")
				}
			}
		}
		return b.expr(navindex.ExprCall, b.valueExpr(fn), "")
	case "list", "list_comprehension", "dictionary", "dictionary_comprehension", "set", "set_comprehension",
		"string", "concatenated_string", "integer", "float", "tuple", "true", "false":
		// A literal: an instance of its builtin type.
		t := literalType(n)
		if t == "" || t == "None" {
			return -1
		}
		return b.expr(navindex.ExprCall, b.expr(navindex.ExprSym, b.simpleSym(navindex.SymBuiltin, b.builtins, t), ""), "")
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return b.valueExpr(n.NamedChild(0))
		}
	case "await":
		// await f(): the coroutine's result is what f is annotated to return.
		if n.NamedChildCount() == 1 {
			return b.valueExpr(n.NamedChild(0))
		}
	}
	return -1
}

// typeExpr describes the type named by an annotation (the class, not an
// instance of it).
func (b *builder) typeExpr(n tree.Node) int32 {
	if n.IsNull() {
		return -1
	}
	switch n.Kind() {
	case "type":
		if n.NamedChildCount() == 1 {
			return b.typeExpr(n.NamedChild(0))
		}
	case "identifier", "attribute":
		return b.valueExpr(n)
	case "string":
		return b.stringType(n)
	case "subscript", "generic_type":
		var head tree.Node
		var args []tree.Node
		if n.Kind() == "subscript" {
			head = n.ChildByField("value")
			for c := range n.ChildrenByField("subscript") {
				args = append(args, c)
			}
		} else {
			head = n.NamedChild(0)
			if n.NamedChildCount() > 1 {
				for c := range n.NamedChild(1).NamedChildren() {
					args = append(args, c)
				}
			}
		}
		name := lastSegment(string(head.Text()))
		switch name {
		case "Optional", "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly":
			if len(args) > 0 {
				return b.typeExpr(args[0])
			}
		case "Union":
			for _, a := range args {
				if !isNone(a) {
					return b.typeExpr(a)
				}
			}
		}
		return -1
	case "binary_operator":
		l, r := n.ChildByField("left"), n.ChildByField("right")
		if isNone(r) {
			return b.typeExpr(l)
		}
		if isNone(l) {
			return b.typeExpr(r)
		}
	}
	return -1
}

func isNone(n tree.Node) bool {
	if n.Kind() == "type" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n.Kind() == "none" || string(n.Text()) == "None"
}

func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// stringType reads a string annotation that is a dotted name.
func (b *builder) stringType(n tree.Node) int32 {
	txt := n.Text()
	q := bytes.IndexAny(txt, `"'`)
	if q < 0 {
		return -1
	}
	quote := txt[q]
	start := q + 1
	if len(txt) >= start+2 && txt[start] == quote && txt[start+1] == quote {
		start += 2
	}
	end := bytes.IndexByte(txt[start:], quote)
	if end < 0 {
		return -1
	}
	body := string(txt[start : start+end])
	trimmed := strings.TrimSpace(body)
	if trimmed == "" || strings.ContainsAny(trimmed, "[]| ,()") {
		return -1
	}
	off := n.StartByte() + start + (len(body) - len(strings.TrimLeft(body, " ")))
	parts := strings.Split(trimmed, ".")
	e := b.nameExpr(off)
	for _, p := range parts[1:] {
		e = b.expr(navindex.ExprAttr, e, p)
	}
	return e
}

// instance is the value of an annotation: an instance of its type.
func (b *builder) instance(ann tree.Node) int32 {
	return b.expr(navindex.ExprCall, b.typeExpr(ann), "")
}

// classOf returns the class binding owning method scope fs.
func classOf(fs *pysem.Scope) *pysem.Binding {
	cs := fs.Parent
	if cs != nil && cs.Kind == pysem.ScopeTypeParams {
		cs = cs.Parent
	}
	if cs == nil || cs.Kind != pysem.ScopeClass {
		return nil
	}
	return cs.Owner
}

// symValue sets Target, Alias and Value of bd's symbol from its first
// informative binding.
func (b *builder) symValue(bd *pysem.Binding) {
	id := b.localSym(bd.Scope, bd.Name)
	y := &b.s.Syms[id]
	bs := bd.Scope.Bindings[bd.Name]
	if bs[0] != bd {
		return // computed once, from the first binding
	}
	allImports := true
	var tgt int32 = -1
	alias := true
	for _, x := range bs {
		if x.Kind == pysem.BindDel || x.Kind == pysem.BindAugAssign {
			continue
		}
		im := x.Import
		if im == nil {
			allImports = false
			continue
		}
		var t int32
		own := false
		switch x.Kind {
		case pysem.BindImport:
			if im.AsName == "" {
				t, own = b.importSym(0, im.Prefix(0), ""), true
			} else {
				t = b.importSym(0, im.Module, "")
			}
		case pysem.BindImportFrom:
			t = b.importSym(im.Level, im.Module, im.Name)
			own = im.AsName == "" || im.AsName == im.Name
		}
		if tgt < 0 {
			tgt = t
		} else if t != tgt {
			own = false
		}
		alias = alias && own
	}
	y = &b.s.Syms[id]
	y.Target = tgt
	y.Alias = tgt >= 0 && allImports && alias
	if tgt >= 0 {
		y.Value = b.expr(navindex.ExprSym, tgt, "")
		return
	}
	for _, x := range bs {
		switch x.Kind {
		case pysem.BindClass, pysem.BindFunction:
			return
		case pysem.BindParameter:
			if fs := x.Scope; fs != nil && fs.Self == x {
				if cls := classOf(fs); cls != nil {
					cs := b.expr(navindex.ExprSym, b.localSym(cls.Scope, cls.Name), "")
					if fs.Method == pysem.InstanceMethod {
						cs = b.expr(navindex.ExprCall, cs, "")
					}
					b.s.Syms[id].Value = cs
					return
				}
			}
		}
	}
	for _, x := range bs {
		if !x.Annotation.IsNull() && x.Kind != pysem.BindFunction {
			if v := b.instance(x.Annotation); v >= 0 {
				b.s.Syms[id].Value = v
				return
			}
		}
	}
	for _, x := range bs {
		switch x.Kind {
		case pysem.BindAssignment, pysem.BindAnnotated, pysem.BindWalrus, pysem.BindTypeAlias:
			if !x.Unpacked && !x.Value.IsNull() {
				if v := b.valueExpr(x.Value); v >= 0 {
					b.s.Syms[id].Value = v
					return
				}
			}
		}
	}
}

// memberSyms creates a SymMember for each instance attribute assigned
// through self that its class body does not bind, with a definition at
// its first assignment.
func (b *builder) memberSyms() {
	for _, bd := range b.m.Bindings {
		if bd.Kind != pysem.BindClass || bd.Body == nil {
			continue
		}
		ia := b.m.InstanceAttrs(bd)
		names := make([]string, 0, len(ia))
		for n := range ia {
			names = append(names, n)
		}
		slices.Sort(names)
		classSym := b.localSym(bd.Scope, bd.Name)
		prefix, ok := qualPrefix(bd.Body)
		for _, name := range names {
			if len(bd.Body.Bindings[name]) > 0 {
				continue
			}
			refs := ia[name]
			y := navindex.Sym{Kind: navindex.SymMember, Name: name, Class: classSym, Scope: -1, Recv: -1, Target: -1, Value: -1}
			if ok {
				y.Qual = prefix + name
			}
			id := b.add(y)
			b.members[symKey{bd.Body.Index, name}] = id
			first := refs[0]
			var val int32 = -1
			sig := name
			if p := first.Node.Parent(); !p.IsNull() {
				switch p.Kind() {
				case "assignment":
					if ann := p.ChildByField("type"); !ann.IsNull() {
						val = b.instance(ann)
						sig = name + ": " + oneLine(ann.Text())
					} else if r := p.ChildByField("right"); !r.IsNull() {
						val = b.valueExpr(r)
						if t := literalType(r); t != "" {
							sig = name + ": " + t
						}
					}
				}
			}
			b.s.Syms[id].Value = val
			b.s.Defs = append(b.s.Defs, navindex.Def{Sym: id, Kind: navindex.KindVariable, Name: b.span(first.Start, first.End), Returns: -1, Body: -1, Sig: sig})
		}
	}
}
