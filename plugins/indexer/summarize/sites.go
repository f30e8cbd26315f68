package summarize

import (
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The version-8 sites: values the type evaluator compares with declared
// types (type-mismatch), with the span to report. Stubs have none: a
// stub declares, it assigns nothing worth checking.

// valueSpan is n's span on its first line.
func (b *builder) valueSpan(n tree.Node) navindex.Span {
	end := n.EndByte()
	l, _ := b.pos.Position(n.StartByte())
	if le := b.pos.LineEnd(l); le < end {
		end = le
	}
	return b.span(n.StartByte(), end)
}

// assignSite records the value of variable binding bd, whose def is
// the next one (d): a plain or annotated assignment of one target.
func (b *builder) assignSite(bd *pysem.Binding, d *navindex.Def) {
	if b.m.Opts.IsStub || d.Value < 0 || bd.Value.IsNull() || bd.Unpacked || bd.Starred || d.Flags&(navindex.DefStaticFalse|navindex.DefTypeAlias) != 0 {
		return
	}
	if bd.Kind != pysem.BindAssignment && bd.Kind != pysem.BindAnnotated {
		return
	}
	b.s.Sites = append(b.s.Sites, navindex.Site{Kind: navindex.SiteAssign, Span: b.valueSpan(bd.Value), Def: int32(len(b.s.Defs)), Value: -1, Arg: -1, Sym: -1})
}

// memberAssignSite records value v of an annotated instance attribute's
// first assignment (self.x: T = v), whose def is the next one (d).
func (b *builder) memberAssignSite(d *navindex.Def, v tree.Node) {
	if b.m.Opts.IsStub || d.Value < 0 || d.Flags&navindex.DefStaticFalse != 0 {
		return
	}
	b.s.Sites = append(b.s.Sites, navindex.Site{Kind: navindex.SiteAssign, Span: b.valueSpan(v), Def: int32(len(b.s.Defs)), Value: -1, Arg: -1, Sym: -1})
}

// attributeSite records the value stored by `obj.name = value` (one
// target, no annotation: an annotated one declares) to attribute
// symbol sym.
func (b *builder) attributeSite(a *pysem.AttrRef, sym int32) {
	asg := a.Node.Parent()
	if b.m.Opts.IsStub || b.kt.Of(asg) != kAssignment || asg.ChildByFieldID(b.f.left) != a.Node || !asg.ChildByFieldID(b.f.typ).IsNull() {
		return
	}
	v := asg.ChildByFieldID(b.f.right)
	if v.IsNull() || b.kt.Of(v) == kAssignment || b.staticFalse(a.Start) {
		return
	}
	if x := b.sharedVal(v, navindex.ExprSym, ""); x >= 0 {
		b.s.Sites = append(b.s.Sites, navindex.Site{Kind: navindex.SiteAttribute, Span: b.valueSpan(v), Def: -1, Value: x, Arg: -1, Sym: sym})
	}
}

// returnSites records the returned values of the def that is the next
// one (d), when it declares a return type and is no generator.
func (b *builder) returnSites(d *navindex.Def, values []int32, nodes []tree.Node) {
	if b.m.Opts.IsStub || d.Annot < 0 || d.Flags&(navindex.DefGenerator|navindex.DefStaticFalse|navindex.DefOverload) != 0 {
		return
	}
	for i, v := range values {
		if v >= 0 {
			b.s.Sites = append(b.s.Sites, navindex.Site{Kind: navindex.SiteReturn, Span: b.valueSpan(nodes[i]), Def: int32(len(b.s.Defs)), Value: v, Arg: -1, Sym: -1})
		}
	}
}

// argumentSites records the arguments of call n, described as ExprCall
// x, in the order callExpr lists them (positional, then keyword);
// unpacked ones are not checked.
func (b *builder) argumentSites(n tree.Node, x int32) {
	if b.m.Opts.IsStub || x < 0 || b.s.Exprs[x].Op != navindex.ExprCall {
		return
	}
	al := n.ChildByFieldID(b.f.arguments)
	if b.kt.Of(al) != kArgumentList {
		return
	}
	nodes := b.argNodes[:0] // by Args index; null for an unpacked one
	defer func() { b.argNodes = nodes[:0] }()
	for c := firstNamed(al); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kKeywordArgument, kDictSplat, kComment:
		case kListSplat:
			nodes = append(nodes, tree.Node{})
		default:
			nodes = append(nodes, c)
		}
	}
	for c := firstNamed(al); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kKeywordArgument:
			nodes = append(nodes, c.ChildByFieldID(b.f.value))
		case kDictSplat:
			nodes = append(nodes, tree.Node{})
		}
	}
	args := b.s.Exprs[x].Args
	if len(nodes) != len(args) {
		return
	}
	for i, v := range nodes {
		if !v.IsNull() && args[i] >= 0 {
			b.s.Sites = append(b.s.Sites, navindex.Site{Kind: navindex.SiteArgument, Span: b.valueSpan(v), Def: -1, Value: x, Arg: int32(i), Sym: -1})
		}
	}
}
