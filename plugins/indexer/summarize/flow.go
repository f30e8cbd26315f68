package summarize

import (
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The version-8 flow facts (navindex.FlowNode): for each function body,
// comprehension and the module's code, the graph of the assignments,
// attribute stores and conditions a read of a name (or of a name's
// attribute, self.x) may be reached through, so the type evaluator
// gives it its type at the read (pyright's code flow). Built before the
// expressions, so a read's ExprSym carries its flow node.
//
// Only what may make a type differ by position is kept: reads of a name
// assigned more than once in its graph, named by a condition, or
// declared and assigned; reads of a name as the receiver of an
// attribute a condition names or the function stores; the assignments
// and stores of those names; conditions that name a reference. Other
// nodes are dropped after the walk.

// flowNode is a node while the graph is built (kept small: a function
// makes one per assignment and condition): an assignment's b is its
// binding's index (its def is known later), a store's b its value's
// index in stored (-1 unknown); cond is the condition, the augmented
// assignment, or the store's target.
type flowNode struct {
	kind  navindex.FlowKind
	a, b  int32
	prev  int32
	preds []int32
	cond  tree.Node
}

type storeAt struct {
	off  int
	node int32
}

type flowLoop struct {
	head   int32
	breaks []int32
}

// flowBuilder walks one file's scopes; cur is the node the code being
// walked runs after (-1: unreachable).
type flowBuilder struct {
	b     *builder
	nodes []flowNode
	cur   int32
	loops []*flowLoop
	// tries collect the nodes an exception raised in a try body may
	// leave from, innermost last.
	tries [][]int32
	// bindAt is the binding (+1) whose name starts at each offset, a
	// bit of bindBits set for each such offset (most identifiers walked
	// bind nothing: a bit test spares them a map lookup in the guest).
	bindAt   map[int]int32
	bindBits []uint64
	// readNode is the node (+1) each reference (by index in m.Refs) is
	// read at.
	readNode []int32
	// condRefs are the symbols named by a condition; attrRefs the
	// attributes of symbols named by one (self.x).
	condRefs map[int32]bool
	attrRefs map[int32]map[string]bool
	// stored are the values of the stores (see flowNode); storeAt the
	// store node of each target's attribute name.
	stored  []tree.Node
	storeAt []storeAt
	// augRead is the node (+1) after the augmented assignment each
	// reference (by index in m.Refs) is the target of.
	augRead map[int32]int32
	// fn is the function scope being walked (-1 the module's code);
	// withs counts the with blocks around the statement walked, whose
	// context manager may swallow what a call raises.
	fn    int32
	withs int
	// exits are the ways out of the functions (FlowExit).
	exits []flowExit
}

// flowExit is a return (value its returned value, null for a bare
// return) or the end of function fn's body, reached after node.
type flowExit struct {
	fn, node int32
	value    tree.Node
}

func (b *builder) flow() {
	m := b.m
	if m.Tree == nil || b.s == nil || m.Opts.IsStub {
		return // a stub declares: nothing to narrow in it
	}
	fb := &flowBuilder{b: b, bindAt: map[int]int32{}, bindBits: make([]uint64, len(b.src)/64+1), readNode: make([]int32, len(m.Refs)), nodes: b.sc.flowNodes[:0], condRefs: map[int32]bool{}, attrRefs: map[int32]map[string]bool{}, augRead: map[int32]int32{}}
	// params are each scope's parameters in binding order, all in one
	// list: paramsAt[i] is where scope i's start.
	paramsAt := make([]int32, len(m.Scopes)+1)
	for _, bd := range m.Bindings {
		if bd.Kind == pysem.BindParameter && !bd.NameNode.IsNull() && bd.Site != nil {
			paramsAt[bd.Scope.Index+1]++
		}
	}
	for i := range m.Scopes {
		paramsAt[i+1] += paramsAt[i]
	}
	params := make([]*pysem.Binding, paramsAt[len(m.Scopes)])
	next := slices.Clone(paramsAt[:len(m.Scopes)])
	for _, bd := range m.Bindings {
		if bd.NameNode.IsNull() || bd.Site == nil {
			continue
		}
		if bd.Kind == pysem.BindParameter {
			params[next[bd.Scope.Index]] = bd
			next[bd.Scope.Index]++
			continue
		}
		if k := bd.Site.Kind; k == pysem.ScopeModule || k == pysem.ScopeFunction || k == pysem.ScopeComprehension {
			if off := bd.NameNode.StartByte(); off>>6 < len(fb.bindBits) {
				fb.bindAt[off] = int32(bd.Index) + 1
				fb.bindBits[off>>6] |= 1 << (off & 63)
			}
		}
	}
	for _, sc := range m.Scopes {
		var body tree.Node
		switch sc.Kind {
		case pysem.ScopeModule:
			body = sc.Node
		case pysem.ScopeFunction:
			body = sc.Node.ChildByFieldID(b.f.body)
		case pysem.ScopeComprehension:
			fb.cur = fb.add(flowNode{kind: navindex.FlowStart, a: int32(sc.Index), prev: -1})
			fb.comprehension(sc.Node)
			continue
		default:
			continue
		}
		if body.IsNull() {
			continue
		}
		fb.cur = fb.add(flowNode{kind: navindex.FlowStart, a: int32(sc.Index), prev: -1})
		for _, p := range params[paramsAt[sc.Index]:paramsAt[sc.Index+1]] {
			fb.assign(p)
		}
		fb.loops, fb.tries, fb.fn, fb.withs = nil, nil, -1, 0
		if sc.Kind == pysem.ScopeFunction {
			fb.fn = int32(sc.Index)
		}
		fb.block(body)
		fb.exit(tree.Node{})
	}
	b.flowBindAt = fb.binding
	fb.finish()
	clear(fb.nodes) // their preds would keep this summary's arena alive
	b.sc.flowNodes = fb.nodes[:0]
}

// firstNamed and nextNamed walk a node's named children without the
// iterator's closures (slower in the wasm guest, and the walk visits
// every statement).
func firstNamed(n tree.Node) tree.Node {
	c := n.FirstChild()
	for !c.IsNull() && !c.IsNamed() {
		c = c.NextSibling()
	}
	return c
}

func nextNamed(c tree.Node) tree.Node {
	c = c.NextSibling()
	for !c.IsNull() && !c.IsNamed() {
		c = c.NextSibling()
	}
	return c
}

// binding is bindAt[off], 0 none.
func (fb *flowBuilder) binding(off int) int32 {
	if off < 0 || off>>6 >= len(fb.bindBits) || fb.bindBits[off>>6]&(1<<(off&63)) == 0 {
		return 0
	}
	return fb.bindAt[off]
}

func (fb *flowBuilder) add(n flowNode) int32 {
	fb.nodes = append(fb.nodes, n)
	return int32(len(fb.nodes) - 1)
}

// join is a node where paths meet; -1 when none reaches it.
func (fb *flowBuilder) join(preds ...int32) int32 {
	var buf [8]int32
	live := buf[:0]
	for _, p := range preds {
		if p >= 0 && !slices.Contains(live, p) {
			live = append(live, p)
		}
	}
	switch len(live) {
	case 0:
		return -1
	case 1:
		return live[0]
	}
	return fb.add(flowNode{kind: navindex.FlowJoin, prev: -1, preds: fb.b.int32s(live)})
}

func (fb *flowBuilder) assign(bd *pysem.Binding) {
	if fb.cur < 0 || bd.Kind == pysem.BindAugAssign || (bd.Kind == pysem.BindAnnotated && bd.Value.IsNull()) {
		return
	}
	fb.cur = fb.add(flowNode{kind: navindex.FlowAssign, a: fb.b.localSym(bd), b: int32(bd.Index), prev: fb.cur})
	if n := len(fb.tries); n > 0 {
		fb.tries[n-1] = append(fb.tries[n-1], fb.cur)
	}
}

// block walks the statements of a block (or the module).
func (fb *flowBuilder) block(n tree.Node) {
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		fb.statement(c)
	}
}

func (fb *flowBuilder) statement(n tree.Node) {
	b := fb.b
	switch b.kt.Of(n) {
	case kComment:
	case kFuncDef, kClassDef:
		fb.defStatement(n)
	case kDecorated:
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			if k := b.kt.Of(c); k == kFuncDef || k == kClassDef {
				fb.defStatement(c)
			} else {
				fb.expr(c)
			}
		}
	case kExprStatement:
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			fb.expr(c)
			if b.kt.Of(c) == kCall && fb.cur >= 0 && fb.fn >= 0 && fb.withs == 0 {
				// pyright's call node: a callee that never returns
				// ends the path here.
				fb.cur = fb.add(flowNode{kind: navindex.FlowCall, prev: fb.cur, cond: c})
			}
		}
	case kReturn:
		fb.expr(n)
		v := tree.Node{}
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			if b.kt.Of(c) != kComment {
				v = c
				break
			}
		}
		fb.exit(v)
		fb.cur = -1
	case kRaise:
		fb.expr(n)
		fb.cur = -1
	case kContinue:
		if l := len(fb.loops); l > 0 && fb.cur >= 0 {
			h := &fb.nodes[fb.loops[l-1].head]
			h.preds = append(h.preds, fb.cur)
		}
		fb.cur = -1
	case kBreak:
		if l := len(fb.loops); l > 0 && fb.cur >= 0 {
			fb.loops[l-1].breaks = append(fb.loops[l-1].breaks, fb.cur)
		}
		fb.cur = -1
	case kIf:
		fb.ifStatement(n)
	case kWhile:
		fb.whileStatement(n)
	case kFor:
		fb.forStatement(n)
	case kTry:
		fb.tryStatement(n)
	case kAssert:
		if c := n.NamedChild(0); !c.IsNull() {
			fb.cur, _ = fb.branch(c, fb.cur)
		}
	case kMatch:
		fb.matchStatement(n)
	case kWith:
		fb.withs++
		fb.clause(n)
		fb.withs--
	default:
		fb.expr(n)
	}
}

// comprehension walks a comprehension's clauses in order (each `for`'s
// iterable, then its targets; each `if` narrowing what follows), then
// its element.
func (fb *flowBuilder) comprehension(n tree.Node) {
	b := fb.b
	first := true
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kForInClause:
			if !first { // the first iterable is read where the comprehension is
				fb.expr(c.ChildByFieldID(b.f.right))
			}
			first = false
			fb.expr(c.ChildByFieldID(b.f.left))
		case kIfClause:
			if cond := c.NamedChild(0); !cond.IsNull() {
				fb.cur, _ = fb.branch(cond, fb.cur)
			}
		}
	}
	body := n.ChildByFieldID(b.f.body)
	if b.kt.Of(body) == kPair {
		fb.expr(body.ChildByFieldID(b.f.key))
		fb.expr(body.ChildByFieldID(b.f.value))
		return
	}
	fb.expr(body)
}

// clause walks a clause's parts in order: its blocks as statements, the
// rest (a with's items, an except's class and name, a case's pattern
// and guard) as expressions.
func (fb *flowBuilder) clause(n tree.Node) {
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		if fb.b.kt.Of(c) == kBlock {
			fb.block(c)
		} else {
			fb.expr(c)
		}
	}
}

// exit records a way out of the function walked, when it is reached:
// a return of value (null: bare), or the end of its body.
func (fb *flowBuilder) exit(value tree.Node) {
	if fb.fn >= 0 && fb.cur >= 0 {
		fb.exits = append(fb.exits, flowExit{fn: fb.fn, node: fb.cur, value: value})
	}
}

// defStatement: decorators, defaults and bases run here, then the name
// is bound; the body is another scope (or a class body, not followed).
func (fb *flowBuilder) defStatement(n tree.Node) {
	b := fb.b
	name := n.ChildByFieldID(b.f.name)
	if name.IsNull() {
		return
	}
	if i := fb.binding(name.StartByte()); i > 0 {
		fb.assign(b.m.Bindings[i-1])
	}
}

func (fb *flowBuilder) ifStatement(n tree.Node) {
	b := fb.b
	t, f := fb.branch(n.ChildByFieldID(b.f.condition), fb.cur)
	fb.cur = t
	fb.block(n.ChildByFieldID(b.f.consequence))
	ends := []int32{fb.cur}
	fb.cur = f
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.FieldID() != b.f.alternative {
			continue
		}
		switch b.kt.Of(c) {
		case kElif:
			t, f := fb.branch(c.ChildByFieldID(b.f.condition), fb.cur)
			fb.cur = t
			fb.block(c.ChildByFieldID(b.f.consequence))
			ends = append(ends, fb.cur)
			fb.cur = f
		case kElse:
			fb.block(c.ChildByFieldID(b.f.body))
		}
	}
	fb.cur = fb.join(append(ends, fb.cur)...)
}

func (fb *flowBuilder) loopHead() *flowLoop {
	l := &flowLoop{head: -1}
	if fb.cur >= 0 {
		l.head = fb.add(flowNode{kind: navindex.FlowJoin, prev: -1, preds: []int32{fb.cur}})
	}
	fb.cur = l.head
	fb.loops = append(fb.loops, l)
	return l
}

// endLoop closes loop l after its body: the body's end goes back to the
// head; the loop is left from exit (the head when the loop's condition
// is false, or the iterable is exhausted) through the else clause, or
// by a break.
func (fb *flowBuilder) endLoop(n tree.Node, l *flowLoop, exit int32) {
	b := fb.b
	if fb.cur >= 0 && l.head >= 0 {
		h := &fb.nodes[l.head]
		h.preds = append(h.preds, fb.cur)
	}
	fb.loops = fb.loops[:len(fb.loops)-1]
	fb.cur = exit
	if alt := n.ChildByFieldID(b.f.alternative); !alt.IsNull() {
		fb.block(alt.ChildByFieldID(b.f.body))
	}
	fb.cur = fb.join(append(l.breaks, fb.cur)...)
}

func (fb *flowBuilder) whileStatement(n tree.Node) {
	b := fb.b
	l := fb.loopHead()
	cond := n.ChildByFieldID(b.f.condition)
	t, f := fb.branch(cond, fb.cur)
	if b.kt.Of(cond) == kBool && string(cond.Text()) == "True" {
		f = -1
	}
	fb.cur = t
	fb.block(n.ChildByFieldID(b.f.body))
	fb.endLoop(n, l, f)
}

func (fb *flowBuilder) forStatement(n tree.Node) {
	b := fb.b
	fb.expr(n.ChildByFieldID(b.f.right))
	l := fb.loopHead()
	fb.expr(n.ChildByFieldID(b.f.left))
	fb.block(n.ChildByFieldID(b.f.body))
	fb.endLoop(n, l, l.head)
}

// tryStatement: a handler may start from before the body or after any
// assignment in it; else follows the body, finally every end.
func (fb *flowBuilder) tryStatement(n tree.Node) {
	b := fb.b
	before := fb.cur
	fb.tries = append(fb.tries, nil)
	fb.block(n.ChildByFieldID(b.f.body))
	raised := append(fb.tries[len(fb.tries)-1], before)
	fb.tries = fb.tries[:len(fb.tries)-1]
	var ends []int32
	var fin tree.Node
	normal := fb.cur
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kExcept:
			fb.cur = fb.join(raised...)
			fb.clause(c)
			ends = append(ends, fb.cur)
		case kElse:
			fb.cur = normal
			fb.block(c.ChildByFieldID(b.f.body))
			normal = fb.cur
		case kFinally:
			fin = c
		}
	}
	// The normal end first, then the handlers': pyright joins them in
	// that order, which orders the union a name holds after the try.
	fb.cur = fb.join(append([]int32{normal}, ends...)...)
	if !fin.IsNull() {
		for h := firstNamed(fin); !h.IsNull(); h = nextNamed(h) {
			if b.kt.Of(h) == kBlock {
				fb.block(h)
			}
		}
	}
}

func (fb *flowBuilder) matchStatement(n tree.Node) {
	b := fb.b
	var cases []tree.Node
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		if b.kt.Of(c) == kBlock {
			for cc := firstNamed(c); !cc.IsNull(); cc = nextNamed(cc) {
				if b.kt.Of(cc) == kCaseClause {
					cases = append(cases, cc)
				}
			}
		} else if b.kt.Of(c) != kCaseClause {
			fb.expr(c)
		} else {
			cases = append(cases, c)
		}
	}
	before := fb.cur
	ends := []int32{before}
	for _, c := range cases {
		fb.cur = before
		fb.clause(c)
		ends = append(ends, fb.cur)
	}
	fb.cur = fb.join(ends...)
}

// expr walks an expression (or a simple statement) in evaluation order:
// each name read is read at the current node, each name bound binds it.
// Nested scopes (lambdas, comprehensions, defs) are not followed.
func (fb *flowBuilder) expr(n tree.Node) {
	if n.IsNull() || fb.cur < 0 {
		return
	}
	b := fb.b
	switch b.kt.Of(n) {
	case kIdentifier:
		off := n.StartByte()
		if off < len(b.refIdx) && b.refIdx[off] > 0 {
			fb.readNode[b.refIdx[off]-1] = fb.cur + 1
		}
		if i := fb.binding(off); i > 0 {
			fb.assign(b.m.Bindings[i-1])
		}
		return
	case kListComp, kSetComp, kDictComp, kGenerator:
		// Another scope, but its first iterable is read here.
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			if b.kt.Of(c) == kForInClause {
				fb.expr(c.ChildByFieldID(b.f.right))
				break
			}
		}
		return
	case kLambda, kFuncDef, kClassDef:
		return
	case kAssignment:
		// The value first, then the targets.
		right := n.ChildByFieldID(b.f.right)
		fb.expr(right)
		left := n.ChildByFieldID(b.f.left)
		fb.expr(left)
		if b.kt.Of(left) != kAttribute {
			right = tree.Node{} // an element of the value: unknown here
		} else if b.kt.Of(right) == kAssignment {
			right = tree.Node{}
		}
		fb.stores(left, right)
		return
	case kAugAssign:
		fb.expr(n.ChildByFieldID(b.f.right))
		left := n.ChildByFieldID(b.f.left)
		if b.kt.Of(left) != kIdentifier {
			fb.expr(left)
			fb.stores(left, tree.Node{})
			return
		}
		off := left.StartByte()
		i := fb.binding(off)
		if off >= len(b.refIdx) || b.refIdx[off] == 0 || i == 0 {
			return
		}
		r := b.refIdx[off] - 1
		fb.readNode[r] = fb.cur + 1 // the value is read before
		fb.cur = fb.add(flowNode{kind: navindex.FlowAugAssign, a: b.localSym(b.m.Bindings[i-1]), b: -1, prev: fb.cur, cond: n})
		fb.augRead[r] = fb.cur + 1 // a hover shows what is assigned
		if l := len(fb.tries); l > 0 {
			fb.tries[l-1] = append(fb.tries[l-1], fb.cur)
		}
		return
	case kNamedExpr:
		fb.expr(n.ChildByFieldID(b.f.value))
		fb.expr(n.ChildByFieldID(b.f.name))
		return
	case kBoolOp, kNotOp:
		t, f := fb.branch(n, fb.cur)
		fb.cur = fb.join(t, f)
		return
	case kConditional:
		if n.NamedChildCount() >= 3 {
			t, f := fb.branch(n.NamedChild(1), fb.cur)
			fb.cur = t
			fb.expr(n.NamedChild(0))
			then := fb.cur
			fb.cur = f
			fb.expr(n.NamedChild(2))
			fb.cur = fb.join(then, fb.cur)
			return
		}
	case kKeywordArgument:
		fb.expr(n.ChildByFieldID(b.f.value))
		return
	case kAttribute:
		fb.expr(n.ChildByFieldID(b.f.object))
		return
	}
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		fb.expr(c)
	}
}

// stores adds a FlowStore for each attribute of a name (self.x) that
// target n assigns, value the value assigned (null: unknown).
func (fb *flowBuilder) stores(n, value tree.Node) {
	b := fb.b
	switch b.kt.Of(n) {
	case kAttribute:
		if head := fb.attrHead(n); head >= 0 && fb.cur >= 0 {
			v := int32(-1)
			if !value.IsNull() {
				v = int32(len(fb.stored))
				fb.stored = append(fb.stored, value)
			}
			fb.cur = fb.add(flowNode{kind: navindex.FlowStore, a: head, b: v, prev: fb.cur, cond: n})
			// Read after, the attribute is what was stored; so is it
			// at the target, for a hover there.
			name := n.ChildByFieldID(b.f.attribute)
			fb.storeAt = append(fb.storeAt, storeAt{off: name.StartByte(), node: fb.cur})
			attr := text(name)
			if fb.attrRefs[head] == nil {
				fb.attrRefs[head] = map[string]bool{}
			}
			fb.attrRefs[head][attr] = true
		}
	case kPatternList, kTuple, kList, kParenthesized:
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			fb.stores(c, tree.Node{})
		}
	}
}

// attrHead is the symbol of name x in attribute x.y, -1 for other
// attributes (deeper chains are not narrowed).
func (fb *flowBuilder) attrHead(n tree.Node) int32 {
	b := fb.b
	obj := n.ChildByFieldID(b.f.object)
	if b.kt.Of(obj) != kIdentifier {
		return -1
	}
	if off := obj.StartByte(); off < len(b.refIdx) && b.refIdx[off] > 0 {
		return b.refSym(b.m.Refs[b.refIdx[off]-1])
	}
	return -1
}

// branch walks condition n from node from: t is where it is true, f
// where it is false (-1 unreachable). `not`, `and`, `or` and
// parentheses are followed; a condition that names a reference is a
// FlowCond each way.
func (fb *flowBuilder) branch(n tree.Node, from int32) (t, f int32) {
	if n.IsNull() || from < 0 {
		return from, from
	}
	b := fb.b
	switch b.kt.Of(n) {
	case kParenthesized:
		if n.NamedChildCount() == 1 {
			return fb.branch(n.NamedChild(0), from)
		}
	case kNotOp:
		t, f := fb.branch(n.ChildByFieldID(b.f.argument), from)
		return f, t
	case kBoolOp:
		l, r := n.ChildByFieldID(b.f.left), n.ChildByFieldID(b.f.right)
		lt, lf := fb.branch(l, from)
		if b.opText(n.ChildByFieldID(b.f.operator)) == "and" {
			rt, rf := fb.branch(r, lt)
			return rt, fb.join(lf, rf)
		}
		rt, rf := fb.branch(r, lf)
		return fb.join(lt, rt), rf
	}
	fb.cur = from
	fb.expr(n)
	from = fb.cur
	if from < 0 || !fb.narrows(n) {
		return from, from
	}
	t = fb.add(flowNode{kind: navindex.FlowCond, prev: from, cond: n})
	f = fb.add(flowNode{kind: navindex.FlowCond, b: 1, prev: from, cond: n})
	return t, f
}

// narrows reports a condition that may narrow a reference: a name or
// attribute chain (truthiness), a walrus, `x is [not] ...`, `x == ...`,
// `x != ...` (type(x) or len(x) as either operand), `x [not] in ...`,
// isinstance(x, ...), issubclass(x, ...), callable(x). It marks the
// names.
func (fb *flowBuilder) narrows(n tree.Node) bool {
	b := fb.b
	switch b.kt.Of(n) {
	case kIdentifier, kAttribute:
		return fb.reference(n)
	case kNamedExpr:
		return fb.reference(n.ChildByFieldID(b.f.name))
	case kParenthesized:
		return n.NamedChildCount() == 1 && fb.narrows(n.NamedChild(0))
	case kComparison:
		if n.NamedChildCount() != 2 {
			return false
		}
		switch b.comparisonOp(n) {
		case "is", "is not", "==", "!=":
			l, r := n.NamedChild(0), n.NamedChild(1)
			// every operand is marked: no short circuit
			refs := []bool{fb.operandRef(l), fb.operandRef(r), fb.callOfRef(l, "type"), fb.callOfRef(r, "type"), fb.callOfRef(l, "len"), fb.callOfRef(r, "len")}
			return slices.Contains(refs, true)
		case "in", "not in":
			return fb.operandRef(n.NamedChild(0))
		}
	case kCall:
		fn := n.ChildByFieldID(b.f.function)
		if b.kt.Of(fn) != kIdentifier {
			return false
		}
		switch string(fn.Text()) {
		case "isinstance", "issubclass", "callable":
			args := n.ChildByFieldID(b.f.arguments)
			return args.NamedChildCount() >= 1 && fb.reference(args.NamedChild(0))
		}
	}
	return false
}

// operandRef is a comparison operand that is a reference (a walrus's
// name included).
func (fb *flowBuilder) operandRef(n tree.Node) bool {
	switch fb.b.kt.Of(n) {
	case kNamedExpr:
		return fb.reference(n.ChildByFieldID(fb.b.f.name))
	case kParenthesized:
		return n.NamedChildCount() == 1 && fb.operandRef(n.NamedChild(0))
	}
	return fb.reference(n)
}

// callOfRef is `name(x)` of a reference x: `type(x) is C`, `len(x) == 2`.
func (fb *flowBuilder) callOfRef(n tree.Node, name string) bool {
	b := fb.b
	if b.kt.Of(n) != kCall {
		return false
	}
	fn, args := n.ChildByFieldID(b.f.function), n.ChildByFieldID(b.f.arguments)
	return b.kt.Of(fn) == kIdentifier && string(fn.Text()) == name && args.NamedChildCount() == 1 && fb.reference(args.NamedChild(0))
}

// reference reports a name, or an attribute chain on a name, and marks
// the name as named by a condition.
func (fb *flowBuilder) reference(n tree.Node) bool {
	b := fb.b
	attr := ""
	if b.kt.Of(n) == kAttribute {
		attr = text(n.ChildByFieldID(b.f.attribute))
		n = n.ChildByFieldID(b.f.object) // x.y: one level
	}
	if b.kt.Of(n) != kIdentifier {
		return false
	}
	sym := int32(-1)
	off := n.StartByte()
	if i := fb.binding(off); i > 0 {
		sym = b.localSym(b.m.Bindings[i-1])
	} else if off < len(b.refIdx) && b.refIdx[off] > 0 {
		sym = b.refSym(b.m.Refs[b.refIdx[off]-1])
	}
	switch {
	case sym < 0:
		return false
	case attr == "":
		fb.condRefs[sym] = true
	default:
		if fb.attrRefs[sym] == nil {
			fb.attrRefs[sym] = map[string]bool{}
		}
		fb.attrRefs[sym][attr] = true
	}
	return true
}

// attrRead reports a read of name sym that is the object of an
// attribute a condition narrows (self of self.x when `self.x is None`
// is a condition): only those reads of it need a flow node.
func (fb *flowBuilder) attrRead(sym int32, r *pysem.Ref) bool {
	attrs := fb.attrRefs[sym]
	if attrs == nil || r.Node.IsNull() {
		return false
	}
	p := r.Node.Parent()
	b := fb.b
	if b.kt.Of(p) != kAttribute || p.ChildByFieldID(b.f.object).StartByte() != r.Start {
		return false
	}
	return attrs[text(p.ChildByFieldID(b.f.attribute))]
}

// comparisonOp is the operator of a two-operand comparison.
func (b *builder) comparisonOp(n tree.Node) string {
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.FieldID() == b.f.operators {
			return b.opText(c)
		}
	}
	return ""
}

// finish keeps the nodes that matter (see the top of the file), maps
// every node to the kept node it stands for, and writes Flow and the
// reads.
func (fb *flowBuilder) finish() {
	b := fb.b
	// What each symbol is, as bits: assigned once, assigned more, named
	// by a condition, declared and assigned, an attribute of it narrowed.
	const once, more, inCond, declared, attrs = 1, 2, 4, 8, 16
	facts := make([]uint8, len(b.s.Syms))
	set := func(sym int32, f uint8) {
		if sym >= 0 && int(sym) < len(facts) {
			facts[sym] |= f
		}
	}
	for _, n := range fb.nodes {
		if n.kind == navindex.FlowAssign || n.kind == navindex.FlowAugAssign {
			if n.a >= 0 && int(n.a) < len(facts) && facts[n.a]&once != 0 {
				set(n.a, more)
			}
			set(n.a, once)
			if n.kind == navindex.FlowAssign {
				if bd := b.m.Bindings[n.b]; !bd.Annotation.IsNull() && bd.Kind != pysem.BindParameter {
					set(n.a, declared)
				}
			}
		}
	}
	for sym := range fb.condRefs {
		set(sym, inCond)
	}
	for sym := range fb.attrRefs {
		set(sym, attrs)
	}
	has := func(sym int32, f uint8) bool { return sym >= 0 && int(sym) < len(facts) && facts[sym]&f != 0 }
	keepName := func(sym int32) bool { return has(sym, more|inCond|declared) }
	keep := func(sym int32) bool { return has(sym, more|inCond|declared|attrs) }
	// to is the kept node each node stands for (-1 the start of nothing).
	to := make([]int32, len(fb.nodes))
	kept := make([]bool, len(fb.nodes))
	for i, n := range fb.nodes {
		switch {
		case (n.kind == navindex.FlowAssign || n.kind == navindex.FlowAugAssign || n.kind == navindex.FlowStore) && !keep(n.a):
			to[i] = to[n.prev]
		case n.kind == navindex.FlowJoin && len(n.preds) == 1 && n.preds[0] < int32(i):
			to[i] = to[n.preds[0]]
		default:
			to[i], kept[i] = int32(i), true
		}
	}
	// Number the kept nodes; a join whose paths all stand for one node
	// stands for it.
	out := make([]int32, len(fb.nodes))
	for i := range fb.nodes {
		out[i] = -1
	}
	var flow []navindex.FlowNode
	for i, n := range fb.nodes {
		if !kept[i] {
			continue
		}
		out[i] = int32(len(flow))
		fn := navindex.FlowNode{Kind: n.kind, A: n.a, B: n.b, Prev: -1}
		flow = append(flow, fn)
	}
	final := func(i int32) int32 {
		if i < 0 {
			return -1
		}
		return out[to[i]]
	}
	var preds []int32
	for i, n := range fb.nodes {
		if !kept[i] {
			continue
		}
		fn := &flow[out[i]]
		if n.prev >= 0 {
			fn.Prev = final(n.prev)
		}
		if n.kind == navindex.FlowJoin {
			fn.A = int32(len(preds))
			for _, p := range n.preds {
				if q := final(p); q >= 0 && !slices.Contains(preds[fn.A:], q) {
					preds = append(preds, q)
				}
			}
			fn.B = int32(len(preds)) - fn.A
		}
	}
	for _, x := range fb.exits {
		// B is the returned value's offset (+1; 0 none) until the
		// def's return values are made (fixFlowDefs).
		fn := navindex.FlowNode{Kind: navindex.FlowExit, A: x.fn, B: 0, Prev: final(x.node)}
		if !x.value.IsNull() {
			fn.B = int32(x.value.StartByte()) + 1
		}
		flow = append(flow, fn)
	}
	b.s.Flow, b.s.FlowPreds = flow, preds
	b.readFlow = make([]int32, len(fb.readNode))
	for r, n := range fb.readNode {
		if n == 0 {
			continue
		}
		ref := b.m.Refs[r]
		if ref.Ctx&(pysem.CtxLoad|pysem.CtxAugAssign) == 0 || ref.Ctx.Has(pysem.CtxStringAnnotation) {
			continue
		}
		sym := b.refSym(ref)
		if !keepName(sym) && !(has(sym, attrs) && fb.attrRead(sym, ref)) {
			continue
		}
		node := final(n - 1)
		if node < 0 {
			continue
		}
		b.readFlow[r] = node + 1
		if aug := fb.augRead[int32(r)]; aug > 0 {
			node = final(aug - 1)
		}
		l, c := b.position(ref.Start)
		b.s.Reads = append(b.s.Reads, navindex.FlowRead{Pos: navindex.Pos{Line: l, Col: c}, Node: node})
	}
	for _, st := range fb.storeAt {
		if kept[st.node] {
			l, c := b.position(st.off)
			b.s.Reads = append(b.s.Reads, navindex.FlowRead{Pos: navindex.Pos{Line: l, Col: c}, Node: out[st.node]})
		}
	}
	slices.SortFunc(b.s.Reads, func(x, y navindex.FlowRead) int {
		if x.Pos.Less(y.Pos) {
			return -1
		}
		if y.Pos.Less(x.Pos) {
			return 1
		}
		return 0
	})
	// The conditions' expressions, now that their reads have nodes.
	for i, n := range fb.nodes {
		if kept[i] && n.kind == navindex.FlowCond {
			flow[out[i]].A = b.condExpr(n.cond)
		}
		if kept[i] && n.kind == navindex.FlowStore {
			flow[out[i]].A, flow[out[i]].B = b.val(n.cond), -1
			if n.b >= 0 {
				flow[out[i]].B = b.val(fb.stored[n.b])
			}
		}
		if kept[i] && n.kind == navindex.FlowCall {
			// A is the call's end offset (+1) until its expression is
			// made (fixFlowCalls: the one the call site records).
			flow[out[i]].A = int32(n.cond.EndByte()) + 1
		}
		if kept[i] && n.kind == navindex.FlowAugAssign {
			op := strings.TrimSuffix(b.opText(n.cond.ChildByFieldID(b.f.operator)), "=")
			left := n.cond.ChildByFieldID(b.f.left)
			flow[out[i]].B = b.oper(op, b.flowNameExpr(left.StartByte()), b.val(n.cond.ChildByFieldID(b.f.right)))
		}
	}
	// A store whose target could not be described is an unknown value.
	for i := range flow {
		if f := &flow[i]; f.Kind == navindex.FlowStore && f.A < 0 {
			f.Kind, f.A, f.B = navindex.FlowCond, -1, 0
		}
	}
}

// condExpr describes a condition: its value, with a walrus operand as
// the name it binds.
func (b *builder) condExpr(n tree.Node) int32 {
	switch b.kt.Of(n) {
	case kParenthesized:
		if n.NamedChildCount() == 1 {
			return b.condExpr(n.NamedChild(0))
		}
	case kNamedExpr:
		return b.boundNameExpr(n.ChildByFieldID(b.f.name))
	case kComparison:
		if n.NamedChildCount() == 2 {
			return b.oper(b.comparisonOp(n), b.condExpr(n.NamedChild(0)), b.condExpr(n.NamedChild(1)))
		}
	}
	return b.val(n)
}

// boundNameExpr is the value of the name a binding's identifier n binds.
func (b *builder) boundNameExpr(n tree.Node) int32 {
	if b.kt.Of(n) != kIdentifier {
		return -1
	}
	if i := b.flowBindAt(n.StartByte()); i > 0 {
		return b.expr(navindex.ExprSym, b.localSym(b.m.Bindings[i-1]), "")
	}
	return -1
}

// fixFlowDefs turns the bindings of the assignment nodes into their
// defs, once defs are made.
func (b *builder) fixFlowDefs() {
	for i := range b.s.Flow {
		switch f := &b.s.Flow[i]; f.Kind {
		case navindex.FlowAssign:
			f.B = b.defOf[f.B] - 1
		case navindex.FlowExit:
			if f.B > 0 {
				v, ok := b.returnAt[int(f.B)-1]
				if !ok || v < 0 {
					// A return the def does not list (in a branch
					// that never runs) or whose value is not
					// described: no way out.
					f.Kind, f.A, f.B = navindex.FlowCond, -1, 0
					continue
				}
				f.B = v
			} else {
				f.B = -1
			}
		}
	}
}

// fixFlowCalls turns the offsets of the call nodes into the calls'
// expressions, once the call sites are made.
func (b *builder) fixFlowCalls() {
	for i := range b.s.Flow {
		if f := &b.s.Flow[i]; f.Kind == navindex.FlowCall {
			x, ok := b.callAt[int(f.A)-1]
			if !ok || x < 0 || b.s.Exprs[x].Op != navindex.ExprCall {
				x = -1
			}
			f.A = x
		}
	}
}

// flowNameExpr is the value of the name read at off: an ExprSym carrying
// the read's flow node when it has one.
func (b *builder) flowNameExpr(off int) int32 {
	if off < len(b.refIdx) && b.refIdx[off] > 0 {
		r := b.refIdx[off] - 1
		if int(r) < len(b.readFlow) && b.readFlow[r] > 0 {
			sym := b.refSym(b.m.Refs[r])
			k := [2]int32{sym, b.readFlow[r] - 1}
			if id, ok := b.flowSyms[k]; ok {
				return id
			}
			id := b.addExpr(navindex.Expr{Op: navindex.ExprSym, A: sym, B: k[1]})
			if b.flowSyms == nil {
				b.flowSyms = map[[2]int32]int32{}
			}
			b.flowSyms[k] = id
			return id
		}
	}
	return b.nameExpr(off)
}
