package summarize

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The version-5 facts of a definition: annotation, value, parameters,
// return values, decorators and flags, for the type evaluator.

// typeFacts fills the v5 fields of d, the definition of bd.
func (b *builder) typeFacts(bd *pysem.Binding, d *navindex.Def) {
	if b.staticFalse(bd.NameNode.StartByte()) {
		d.Flags |= navindex.DefStaticFalse
	}
	if bd.InTypeChecking {
		d.Flags |= navindex.DefTypeChecking
	}
	switch bd.Kind {
	case pysem.BindFunction:
		b.funcFacts(bd, d)
		return
	case pysem.BindClass:
		b.decorators(bd, d)
		return
	case pysem.BindImport, pysem.BindImportFrom:
		return
	case pysem.BindParameter:
		d.Annot = b.paramAnnot(bd)
		return
	}
	d.Annot = b.annot(bd.Annotation)
	d.Flags |= b.annotFlags(bd.Annotation)
	if bd.Kind == pysem.BindTypeAlias {
		d.Flags |= navindex.DefTypeAlias
	}
	if d.Flags&navindex.DefTypeAlias != 0 && !bd.Value.IsNull() {
		d.Value = b.annot(bd.Value) // the aliased type, strings read as types
	} else {
		d.Value = b.bindingValue(bd)
	}
	if bd.Site != nil && bd.Site.Kind == pysem.ScopeClass && d.Value >= 0 && (bd.Kind == pysem.BindAssignment || bd.Kind == pysem.BindAnnotated) {
		d.Flags |= navindex.DefClassVar
	}
}

// annotFlags are the flags an annotation's head says: Final, ClassVar,
// TypeAlias (also inside ClassVar[Final[...]]).
func (b *builder) annotFlags(n tree.Node) navindex.DefFlags {
	var f navindex.DefFlags
	for !n.IsNull() {
		var head tree.Node
		var arg tree.Node
		switch b.kt.Of(n) {
		case kType:
			n = n.NamedChild(0)
			continue
		case kIdentifier, kAttribute:
			head = n
		case kGenericType:
			head = n.NamedChild(0)
			if tp := n.NamedChild(1); b.kt.Of(tp) == kTypeParameter {
				arg = tp.NamedChild(0)
			}
		case kSubscript:
			head, arg = n.ChildByFieldID(b.f.value), n.ChildByFieldID(b.f.subscript)
		default:
			return f
		}
		switch lastSegment(string(head.Text())) {
		case "Final":
			f |= navindex.DefFinal
		case "ClassVar":
			f |= navindex.DefClassVar
		case "TypeAlias":
			f |= navindex.DefTypeAlias
		default:
			return f
		}
		n = arg
	}
	return f
}

// unpackKey identifies an ExprUnpack (nested targets share their outer
// levels).
type unpackKey struct {
	a, b, n int32
	star    bool
}

// bindingValue is the value a binding assigns: the right-hand side, an
// ExprIter of a for's iterable, an ExprEnter of a with's context, the
// exception class called, then unpacked down to the target.
func (b *builder) bindingValue(bd *pysem.Binding) int32 {
	if bd.Value.IsNull() {
		return -1
	}
	var e int32
	switch bd.Kind {
	case pysem.BindAssignment, pysem.BindAnnotated, pysem.BindWalrus:
		e = b.sharedVal(bd.Value, navindex.ExprSym, "")
	case pysem.BindFor, pysem.BindComprehension:
		async := ""
		if bd.Async || bd.Kind == pysem.BindComprehension && string(bd.DefNode.FirstChild().Text()) == "async" {
			async = "async"
		}
		e = b.sharedVal(bd.Value, navindex.ExprIter, async)
	case pysem.BindWith:
		async := ""
		if bd.Async {
			async = "async"
		}
		e = b.sharedVal(bd.Value, navindex.ExprEnter, async)
	case pysem.BindExcept:
		return b.exceptValue(bd.Value)
	default:
		return -1
	}
	if e < 0 || !(bd.Unpacked || bd.Starred) || bd.Kind == pysem.BindWalrus {
		return e
	}
	return b.unpack(e, bd.NameNode)
}

// sharedVal is the value of n (wrapped in op with name unless op is
// ExprSym), made once for the consecutive bindings of one statement.
func (b *builder) sharedVal(n tree.Node, op navindex.ExprOp, name string) int32 {
	idx := int32(n.Index())
	if idx == b.lastValNode && op == b.lastBaseOp && name == b.lastBaseName {
		return b.lastVal
	}
	e := b.val(n)
	if op != navindex.ExprSym && e >= 0 {
		e = b.addExpr(navindex.Expr{Op: op, A: e, B: -1, Name: name})
	}
	b.lastValNode, b.lastBaseOp, b.lastBaseName, b.lastVal = idx, op, name, e
	return e
}

// unpack is e unpacked down to target n: an ExprUnpack per level of
// tuple or list targets around n, outermost first.
func (b *builder) unpack(e int32, n tree.Node) int32 {
	var levels [8]unpackKey
	k := 0
	star := false
	for cur := n; ; {
		p := cur.Parent()
		switch b.kt.Of(p) {
		case kParenthesized:
			cur = p
			continue
		case kListSplatPattern, kListSplat:
			star, cur = true, p
			continue
		case kPatternList, kTuple, kList:
			if k == len(levels) {
				return -1
			}
			var i, count int32 = -1, 0
			for c := firstNamed(p); !c.IsNull(); c = nextNamed(c) {
				if b.kt.Of(c) == kComment {
					continue
				}
				if c == cur {
					i = count
				}
				count++
			}
			levels[k] = unpackKey{b: i, n: count, star: star}
			k++
			star, cur = false, p
			continue
		}
		break
	}
	for k--; k >= 0; k-- {
		key := levels[k]
		key.a = e
		if id, ok := b.unpacks[key]; ok {
			e = id
			continue
		}
		x := navindex.Expr{Op: navindex.ExprUnpack, A: e, B: key.b, Text: strconv.Itoa(int(key.n))} // Itoa of a small count allocates nothing
		if key.star {
			x.Name = "*"
		}
		e = b.addExpr(x)
		if b.unpacks == nil {
			b.unpacks = map[unpackKey]int32{}
		}
		b.unpacks[key] = e
	}
	return e
}

// exceptValue is `except E as e`: E called; for a tuple of classes the
// ExprIf chain of each called (one of them).
func (b *builder) exceptValue(n tree.Node) int32 {
	for b.kt.Of(n) == kParenthesized && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if b.kt.Of(n) != kTuple {
		return b.expr(navindex.ExprCall, b.val(n), "")
	}
	var alts []int32
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		if b.kt.Of(c) != kComment {
			alts = append(alts, b.expr(navindex.ExprCall, b.val(c), ""))
		}
	}
	if len(alts) == 0 {
		return -1
	}
	e := alts[len(alts)-1]
	for i := len(alts) - 2; i >= 0; i-- {
		e = b.addExpr(navindex.Expr{Op: navindex.ExprIf, A: alts[i], B: e})
	}
	return e
}

// paramAnnot is the annotation of parameter bd: its def's Param's,
// made when the def was (the def's binding comes first).
func (b *builder) paramAnnot(bd *pysem.Binding) int32 {
	if bd.Annotation.IsNull() {
		return -1
	}
	if fs := bd.Scope; fs != nil && fs.Owner != nil && b.defOf[fs.Owner.Index] > 0 {
		for _, p := range b.s.Defs[b.defOf[fs.Owner.Index]-1].Params {
			if p.Name == bd.Name {
				return p.Annot
			}
		}
	}
	return b.annot(bd.Annotation)
}

// funcFacts fills a def's parameters, return annotation and values,
// flags and decorators.
func (b *builder) funcFacts(bd *pysem.Binding, d *navindex.Def) {
	d.Annot = b.annot(bd.Annotation)
	if bd.Async {
		d.Flags |= navindex.DefAsync
	}
	if fs := bd.Body; fs != nil {
		switch fs.Method {
		case pysem.ClassMethod:
			d.Flags |= navindex.DefClassMethod
		case pysem.StaticMethod:
			d.Flags |= navindex.DefStaticMethod
		}
	}
	b.decorators(bd, d)
	d.Params = b.params(bd)
	body := bd.DefNode.ChildByFieldID(b.f.body)
	if body.IsNull() {
		return
	}
	returns, nodes, bare, yields, gen, sent := b.ownReturns(body)
	d.ReturnValues, d.YieldValues = b.inBinderOrder(body, returns, nodes), yields
	if gen {
		d.Flags |= navindex.DefGenerator
	}
	if sent {
		d.Flags |= navindex.DefYieldResultUsed
	}
	b.returnSites(d, returns, nodes)
	ends := b.ends(body)
	if bare || !ends {
		d.Flags |= navindex.DefReturnsNone
	}
	if ends && !bare && len(returns) == 0 && !gen {
		d.Flags |= navindex.DefNeverReturns
		if b.raisesNotImplemented(body) {
			d.Flags |= navindex.DefRaisesNotImplemented
		}
	}
}

// neverRuns reports whether n, in block, is in a branch that never runs
// for the target while block itself runs: a def under a false
// condition is taken as written (its returns are its own).
func (b *builder) neverRuns(block, n tree.Node) bool {
	return b.staticFalse(n.StartByte()) && !b.staticFalse(block.StartByte())
}

// raisesNotImplemented reports whether block is pyright's idiom of an
// unimplemented method (methodAlwaysRaisesNotImplemented), whose
// inferred return is Unknown, not NoReturn: simple statements only, and
// every raise is `raise E` or `raise E(...)` without `from`, E named
// NotImplementedError (pyright asks that E derive from it: a subclass
// of NotImplementedError is taken for a NoReturn here).
func (b *builder) raisesNotImplemented(block tree.Node) bool {
	raises := false
	for c := firstNamed(block); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kComment:
		case kRaise:
			if !b.raisesNotImplementedError(c) {
				return false
			}
			raises = true
		case kIf, kTry, kWith, kWhile, kFor, kMatch, kFuncDef, kClassDef, kDecorated:
			return false
		}
	}
	return raises
}

// raisesNotImplementedError reports whether raise statement n is
// `raise NotImplementedError` or `raise NotImplementedError(...)` (or
// of a dotted name ending so), without `from`.
func (b *builder) raisesNotImplementedError(n tree.Node) bool {
	var e tree.Node
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		switch {
		case !c.IsNamed():
			if string(c.Text()) == "from" {
				return false
			}
		case b.kt.Of(c) != kComment && e.IsNull():
			e = c
		}
	}
	if b.kt.Of(e) == kCall {
		e = e.ChildByFieldID(b.f.function)
	}
	switch b.kt.Of(e) {
	case kIdentifier, kAttribute:
		return b.decoratorName(e) == "NotImplementedError"
	}
	return false
}

// decoratorName is the last name of a decorator (f of @a.f(...)).
func (b *builder) decoratorName(n tree.Node) string {
	switch b.kt.Of(n) {
	case kIdentifier:
		return text(n)
	case kAttribute:
		return text(n.ChildByFieldID(b.f.attribute))
	case kCall:
		return b.decoratorName(n.ChildByFieldID(b.f.function))
	}
	return ""
}

// decoratorFlags are the decorators Flags says instead of Decorators.
var decoratorFlags = map[string]navindex.DefFlags{
	"overload": navindex.DefOverload, "classmethod": navindex.DefClassMethod, "staticmethod": navindex.DefStaticMethod,
	"abstractmethod": navindex.DefAbstract, "abstractproperty": navindex.DefAbstract, "final": navindex.DefFinal,
	"deprecated": navindex.DefDeprecated,
}

// decorators sets the flags decorators say and lists the others,
// outermost first. property and x.setter (pysem's PropertyRole) are
// not listed; cached_property is, as it changes the type.
func (b *builder) decorators(bd *pysem.Binding, d *navindex.Def) {
	for _, dec := range bd.Decorators {
		name := b.decoratorName(dec)
		if f, ok := decoratorFlags[name]; ok {
			d.Flags |= f
			continue
		}
		if bd.PropertyRole != pysem.NotProperty && (name == "property" ||
			b.kt.Of(dec) == kAttribute && (name == "setter" || name == "deleter" || name == "getter")) {
			continue
		}
		d.Decorators = append(d.Decorators, b.val(dec))
	}
}

// params lists a def's parameters with their kinds.
func (b *builder) params(bd *pysem.Binding) []navindex.Param {
	ps := bd.DefNode.ChildByFieldID(b.f.parameters)
	if ps.NamedChildCount() == 0 {
		return nil
	}
	out := make([]navindex.Param, 0, ps.NamedChildCount())
	kwOnly := false
	for c := firstNamed(ps); !c.IsNull(); c = nextNamed(c) {
		p := navindex.Param{Annot: -1, Default: -1}
		id := c
		switch b.kt.Of(c) {
		case kIdentifier:
		case kTypedParam:
			id = c.NamedChild(0)
			p.Annot = b.annot(c.ChildByFieldID(b.f.typ))
		case kDefaultParam:
			id = c.ChildByFieldID(b.f.name)
			p.Annot = b.annot(c.ChildByFieldID(b.f.typ))
			v := c.ChildByFieldID(b.f.value)
			p.Default, p.HasDefault = b.val(v), true
			b.buf = appendOneLine(b.buf[:0], v.Text())
			if p.DefaultText = text(v); string(b.buf) != p.DefaultText { // no copy when already one line
				p.DefaultText = string(b.buf)
			}
		case kListSplatPattern, kDictSplatPattern:
		case kPositionalSep:
			for i := range out {
				if out[i].Kind == navindex.ParamNormal {
					out[i].Kind = navindex.ParamPosOnly
				}
			}
			continue
		case kKeywordSep:
			kwOnly = true
			continue
		default: // a comment, a Python 2 tuple parameter
			continue
		}
		switch b.kt.Of(id) {
		case kListSplatPattern:
			p.Kind, kwOnly = navindex.ParamVarArgs, true
			id = id.NamedChild(0)
		case kDictSplatPattern:
			p.Kind = navindex.ParamVarKwargs
			id = id.NamedChild(0)
		default:
			if kwOnly {
				p.Kind = navindex.ParamKwOnly
			}
		}
		p.Name = text(id)
		out = append(out, p)
	}
	if b.m.Opts.IsStub {
		// PEP 484: in a stub, leading __x parameters (after self or cls)
		// are positional-only.
		i := 0
		if fs := bd.Body; fs != nil && fs.Self != nil {
			i = 1
		}
		for ; i < len(out) && out[i].Kind == navindex.ParamNormal && strings.HasPrefix(out[i].Name, "__") && !strings.HasSuffix(out[i].Name, "__"); i++ {
			out[i].Kind = navindex.ParamPosOnly
		}
	}
	return out
}

// ownBodyKinds are the nodes ownReturns looks at: returns, yields, and
// the nested scopes whose returns are not the def's.
var ownBodyKinds = tree.NewKindClasses(map[string]uint8{"return_statement": 1, "yield": 2,
	"function_definition": 3, "class_definition": 3, "lambda": 3})

// ownReturns lists the values of the `return X` statements of a def's
// own body (and their nodes), whether it has a bare return, the values
// it yields, whether it yields, and whether a yield's result may be
// used: a `yield from`, or a yield that is not a statement by itself
// (pyright's isYieldResultUsed, which makes the send type Unknown).
func (b *builder) ownReturns(body tree.Node) (values []int32, nodes []tree.Node, bare bool, yields []int32, gen, sent bool) {
	t := body.Tree()
	kt := ownBodyKinds.Table(t)
	for i, end := kt.Scan(body.Index(), body.SubtreeEnd(), 0), body.SubtreeEnd(); i < end; i = kt.Scan(i+1, end, 0) {
		n := t.NodeAt(i)
		if kt.Of(n) != 3 && b.neverRuns(body, n) {
			// Never runs for the target (pyright: unreachable, so
			// not one of the def's returns or yields); a yield there
			// still makes the def a generator.
			gen = gen || kt.Of(n) == 2
			continue
		}
		switch kt.Of(n) {
		case 1:
			v := tree.Node{}
			for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
				if b.kt.Of(c) != kComment {
					v = c
					break
				}
			}
			if v.IsNull() {
				bare = true
			} else {
				x := b.val(v)
				values = append(values, x)
				nodes = append(nodes, v)
				b.returnAt[v.StartByte()] = x
			}
		case 2:
			gen = true
			if n.IsNamed() { // not the keyword token, also a "yield"
				yields = append(yields, b.yieldValue(n))
				sent = sent || b.kt.Of(n.Parent()) != kExprStatement || b.yieldsFrom(n)
			}
		case 3:
			i = n.SubtreeEnd() - 1
		}
	}
	return values, nodes, bare, yields, gen, sent
}

// inBinderOrder is values (of return statements nodes, in source order)
// in the order pyright's binder visits them, which orders the union of
// an inferred return: a try statement's body, then its else clause, then
// its except clauses, then its finally clause (`except: return [err]`
// before `else: return []` is `list[Unknown] | list[Error]`).
func (b *builder) inBinderOrder(body tree.Node, values []int32, nodes []tree.Node) []int32 {
	// rankOf is c's place among the clauses of its try statement.
	rankOf := func(c tree.Node) int {
		if p := c.Parent(); !p.IsNull() && b.kt.Of(p) == kTry {
			switch b.kt.Of(c) {
			case kElse:
				return 1
			case kExcept:
				return 2
			case kFinally:
				return 3
			}
		}
		return 0
	}
	// Only a value in a try statement's else clause can move: the keys
	// are built then, not for every def.
	reordered := false
	for _, n := range nodes {
		for c := n; !reordered && !c.IsNull() && c.Index() != body.Index(); c = c.Parent() {
			reordered = rankOf(c) == 1
		}
	}
	if !reordered {
		return values
	}
	type step struct{ rank, start int }
	keys := make([][]step, len(nodes))
	for i, n := range nodes {
		for c := n; !c.IsNull() && c.Index() != body.Index(); c = c.Parent() {
			keys[i] = append(keys[i], step{rankOf(c), c.StartByte()})
		}
		slices.Reverse(keys[i])
	}
	order := make([]int, len(values))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		return slices.CompareFunc(keys[x], keys[y], func(a, b step) int {
			if a.rank != b.rank {
				return cmp.Compare(a.rank, b.rank)
			}
			return cmp.Compare(a.start, b.start)
		})
	})
	out := make([]int32, len(values))
	for i, o := range order {
		out[i] = values[o]
	}
	return out
}

// yieldsFrom reports `yield from x`.
func (b *builder) yieldsFrom(n tree.Node) bool {
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if !c.IsNamed() && string(c.Text()) == "from" {
			return true
		}
	}
	return false
}

// yieldValue is what yield n yields: its value, None for a bare
// `yield`, an ExprIter of x for `yield from x` (-1 when not described).
func (b *builder) yieldValue(n tree.Node) int32 {
	from := b.yieldsFrom(n)
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.IsNamed() && b.kt.Of(c) != kComment {
			v := b.val(c)
			if from && v >= 0 {
				v = b.addExpr(navindex.Expr{Op: navindex.ExprIter, A: v, B: -1})
			}
			return v
		}
	}
	return b.lit("None", "None")
}

// ends reports whether control never falls off the end of block: its
// last statement returns or raises, or is an if with an else, a try or
// a with whose every branch does, or a `while True` without break. An
// approximation of pyright's code flow: calls to NoReturn functions and
// exhaustive matches are not seen (the def is then taken to fall off
// the end).
func (b *builder) ends(block tree.Node) bool {
	var last tree.Node
	for c := firstNamed(block); !c.IsNull(); c = nextNamed(c) {
		if b.kt.Of(c) != kComment {
			last = c
		}
	}
	switch b.kt.Of(last) {
	case kReturn, kRaise:
		return true
	case kIf:
		// A branch that never runs for the target need not end; one
		// whose condition always holds is as good as an else.
		hasElse := false
		blk, cond := last.ChildByFieldID(b.f.consequence), last.ChildByFieldID(b.f.condition)
		for alt := last.FirstChild(); ; alt = alt.NextSibling() {
			if !blk.IsNull() && !b.neverRuns(block, blk) {
				if !b.ends(blk) {
					return false
				}
				if hasElse || b.static(cond) > 0 {
					return true
				}
			}
			for ; !alt.IsNull() && alt.FieldID() != b.f.alternative; alt = alt.NextSibling() {
			}
			if alt.IsNull() {
				return false
			}
			blk, cond = alt.ChildByFieldID(b.f.consequence), alt.ChildByFieldID(b.f.condition)
			if b.kt.Of(alt) == kElse {
				blk, hasElse = alt.ChildByFieldID(b.f.body), true
			}
		}
	case kTry:
		ok := true
		hasElse := false
		for c := firstNamed(last); !c.IsNull(); c = nextNamed(c) {
			switch b.kt.Of(c) {
			case kFinally:
				if b.ends(lastBlock(b, c)) {
					return true
				}
			case kExcept:
				ok = ok && b.ends(lastBlock(b, c))
			case kElse:
				hasElse = true
				ok = ok && b.ends(c.ChildByFieldID(b.f.body))
			}
		}
		return ok && (hasElse || b.ends(last.ChildByFieldID(b.f.body)))
	case kWith:
		return b.ends(last.ChildByFieldID(b.f.body))
	case kWhile:
		cond := string(last.ChildByFieldID(b.f.condition).Text())
		if cond != "True" && cond != "1" {
			return false
		}
		brk := false
		last.Walk(func(n tree.Node) bool {
			brk = brk || b.kt.Of(n) == kBreak
			return !brk
		})
		return !brk
	}
	return false
}

// lastBlock is the block of an except or finally clause.
func lastBlock(b *builder, clause tree.Node) tree.Node {
	var blk tree.Node
	for c := firstNamed(clause); !c.IsNull(); c = nextNamed(c) {
		if b.kt.Of(c) == kBlock {
			blk = c
		}
	}
	return blk
}

// memberFacts fills the v5 fields of the definition of an instance
// attribute at its first assignment a (self.x = v, self.x: T = v,
// self.x, self.y = v).
func (b *builder) memberFacts(a *pysem.AttrRef, d *navindex.Def) {
	if b.staticFalse(a.Start) {
		d.Flags |= navindex.DefStaticFalse
	}
	top := a.Node
	for {
		p := top.Parent()
		if k := b.kt.Of(p); k != kPatternList && k != kTuple && k != kList && k != kParenthesized && k != kListSplatPattern && k != kListSplat {
			break
		}
		top = p
	}
	asg := top.Parent()
	if b.kt.Of(asg) != kAssignment || asg.ChildByFieldID(b.f.left) != top {
		return
	}
	ann := asg.ChildByFieldID(b.f.typ)
	d.Annot = b.annot(ann)
	d.Flags |= b.annotFlags(ann)
	v := asg.ChildByFieldID(b.f.right)
	for b.kt.Of(v) == kAssignment && v.ChildByFieldID(b.f.typ).IsNull() {
		v = v.ChildByFieldID(b.f.right) // self.x = y = v
	}
	if v.IsNull() {
		return
	}
	d.Value = b.sharedVal(v, navindex.ExprSym, "")
	if top != a.Node && d.Value >= 0 {
		d.Value = b.unpack(d.Value, a.Node)
	}
	if top == a.Node && !ann.IsNull() {
		b.memberAssignSite(d, v)
	}
}
