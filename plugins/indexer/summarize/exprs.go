package summarize

import (
	"encoding/binary"
	"unsafe"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The version-5 expressions: values and annotations as the type
// evaluator reads them. valueExpr (v4) stays as it was, for the
// kernel's navigation; val and annot share its ExprSym, ExprAttr and
// argument-less ExprCall expressions.

// text is n's source text as a string sharing the source's memory, as
// pysem's names do: the tree's source never changes, and a copy per
// name costs an allocation in the guest.
func text(n tree.Node) string {
	t := n.Text()
	if len(t) == 0 {
		return ""
	}
	return unsafe.String(&t[0], len(t))
}

// int32s copies v into the builder's arena (one allocation per chunk
// rather than per argument list).
func (b *builder) int32s(v []int32) []int32 {
	if len(v) == 0 {
		return nil
	}
	if len(b.arena)+len(v) > cap(b.arena) {
		b.arena = make([]int32, 0, max(1024, len(v)))
	}
	from := len(b.arena)
	b.arena = append(b.arena, v...)
	return b.arena[from:len(b.arena):len(b.arena)]
}

// newExprLists is ExprLists{Args: args, Keys: keys} from the builder's
// slab.
func (b *builder) newExprLists(args []int32, keys []string) *navindex.ExprLists {
	l := b.exprLists.New()
	l.Args, l.Keys = args, keys
	return l
}

// symModule is SymModule{Module: module, Level: level} from the
// builder's slab.
func (b *builder) symModule(module string, level int32) *navindex.SymModule {
	m := b.symModules.New()
	m.Module, m.Level = module, level
	return m
}

// noExprLists are the lists of every expression made without any, and
// noSymModule the module of every symbol other than an import's. They
// are never written: an expression given lists gets its own (see
// navindex.ExprLists), an import symbol its own SymModule.
var (
	noExprLists = &navindex.ExprLists{}
	noSymModule = &navindex.SymModule{}
)

// addExpr appends x (B -1 unless set) and returns its index.
func (b *builder) addExpr(x navindex.Expr) int32 {
	if x.ExprLists == nil {
		x.ExprLists = noExprLists
	}
	b.s.Exprs = append(b.s.Exprs, x)
	return int32(len(b.s.Exprs) - 1)
}

// oper is ExprOper name on a and c (-1 none).
func (b *builder) oper(name string, a, c int32) int32 {
	return b.addExpr(navindex.Expr{Op: navindex.ExprOper, A: a, B: c, Name: name})
}

// union is a | c in an annotation, made once per file.
func (b *builder) union(a, c int32) int32 {
	return b.intern(navindex.Expr{Op: navindex.ExprOper, A: a, B: c, Name: "|"}, nil)
}

// intern returns the expression made before that equals x with
// arguments args, or adds it. Annotations repeat (`str | None` is
// written hundreds of times in a stub), and an expression says nothing
// of where it stands; values are made each time (they rarely repeat,
// and a key costs a string hash, slow in the guest).
func (b *builder) intern(x navindex.Expr, args []int32) int32 {
	le := binary.LittleEndian
	k := append(b.keyBuf[:0], byte(x.Op))
	k = le.AppendUint32(k, uint32(x.A))
	k = le.AppendUint32(k, uint32(x.B))
	k = le.AppendUint32(k, uint32(len(args)))
	for _, a := range args {
		k = le.AppendUint32(k, uint32(a))
	}
	k = append(append(k, x.Name...), 0)
	for _, key := range x.Lists().Keys {
		k = append(append(k, key...), 0)
	}
	b.keyBuf = k
	if id, ok := b.interned[string(k)]; ok {
		return id
	}
	x.ExprLists = b.newExprLists(b.int32s(args), x.Lists().Keys)
	id := b.addExpr(x)
	if b.interned == nil {
		b.interned = map[string]int32{}
	}
	b.interned[string(k)] = id
	return id
}

// lit is an ExprLit, made once per file for each value: Text tells
// the types apart ("1", "'1'", "b'1'"), and the ones without a value
// (float, f-strings, ...) have a slot each by type.
func (b *builder) lit(typ, text string) int32 {
	if text == "" {
		slot := 0
		for slot < len(litTypes) && litTypes[slot] != typ {
			slot++
		}
		if slot == len(litTypes) {
			return b.addExpr(navindex.Expr{Op: navindex.ExprLit, A: -1, B: -1, Name: typ})
		}
		if b.consts[slot] == 0 {
			b.consts[slot] = b.addExpr(navindex.Expr{Op: navindex.ExprLit, A: -1, B: -1, Name: typ}) + 1
		}
		return b.consts[slot] - 1
	}
	if id, ok := b.lits[text]; ok {
		return id
	}
	id := b.addExpr(navindex.Expr{Op: navindex.ExprLit, A: -1, B: -1, Name: typ, Text: text})
	if b.lits == nil {
		b.lits = map[string]int32{}
	}
	b.lits[text] = id
	return id
}

// litTypes are the literal types whose Text may be "".
var litTypes = [...]string{"ellipsis", "float", "complex", "str", "bytes"}

// builtinExpr is the value of builtin name.
func (b *builder) builtinExpr(name string) int32 {
	return b.expr(navindex.ExprSym, b.simpleSym(navindex.SymBuiltin, b.builtins, name), "")
}

// val describes the value of expression n for the type evaluator.
func (b *builder) val(n tree.Node) int32 {
	if n.IsNull() {
		return -1
	}
	switch k := b.kt.Of(n); k {
	case kIdentifier:
		return b.flowNameExpr(n.StartByte())
	case kAttribute:
		attr := n.ChildByFieldID(b.f.attribute)
		if attr.IsNull() {
			return -1
		}
		return b.expr(navindex.ExprAttr, b.val(n.ChildByFieldID(b.f.object)), text(attr))
	case kCall:
		return b.call(n)
	case kInteger, kFloat, kString, kConcatString, kBool, kNone, kEllipsis:
		return b.literal(n)
	case kList, kTuple, kSet, kDict, kPatternList:
		return b.display(n, k, false)
	case kListComp, kSetComp, kGenerator, kDictComp:
		return b.comprehension(n, k)
	case kParenthesized:
		if n.NamedChildCount() == 1 {
			return b.val(n.NamedChild(0))
		}
	case kAwait:
		if n.NamedChildCount() == 1 {
			return b.addExpr(navindex.Expr{Op: navindex.ExprAwait, A: b.val(n.NamedChild(0)), B: -1})
		}
	case kSubscript, kGenericType:
		return b.subscript(n, k, false)
	case kBinaryOperator:
		return b.oper(b.opText(n.ChildByFieldID(b.f.operator)), b.val(n.ChildByFieldID(b.f.left)), b.val(n.ChildByFieldID(b.f.right)))
	case kUnaryOp:
		arg := n.ChildByFieldID(b.f.argument)
		op := b.opText(n.ChildByFieldID(b.f.operator))
		if op == "-" && b.kt.Of(arg) == kInteger {
			if t := intText(arg.Text()); t != "" && t != "0" {
				return b.lit("int", "-"+t) // Literal[-1]
			}
		}
		return b.oper(op, b.val(arg), -1)
	case kNotOp:
		return b.oper("not", b.val(n.ChildByFieldID(b.f.argument)), -1)
	case kBoolOp:
		return b.oper(b.opText(n.ChildByFieldID(b.f.operator)), b.val(n.ChildByFieldID(b.f.left)), b.val(n.ChildByFieldID(b.f.right)))
	case kComparison:
		return b.comparison(n)
	case kConditional:
		if n.NamedChildCount() >= 3 {
			return b.addExpr(navindex.Expr{Op: navindex.ExprIf, A: b.val(n.NamedChild(0)), B: b.val(n.NamedChild(2))})
		}
	case kLambda:
		x := navindex.Expr{Op: navindex.ExprLambda, A: b.val(n.ChildByFieldID(b.f.body)), B: -1}
		if names, ok := b.lambdaParams(n); ok {
			x.B = int32(len(names))
			x.ExprLists = b.exprLists.New()
			x.ExprLists.Keys = names
		}
		return b.addExpr(x)
	case kNamedExpr:
		return b.val(n.ChildByFieldID(b.f.value))
	case kType:
		if n.NamedChildCount() == 1 {
			return b.val(n.NamedChild(0))
		}
	}
	return -1
}

// lambdaParams are the parameter names of lambda n ("*a" and "**kw"
// for its splats), ok false when one has a default or a separator
// stands among them (left undescribed: `(...) -> R`).
func (b *builder) lambdaParams(n tree.Node) ([]string, bool) {
	ps := n.ChildByFieldID(b.f.parameters)
	if ps.IsNull() {
		return nil, true
	}
	var names []string
	for c := firstNamed(ps); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kIdentifier:
			names = append(names, text(c))
		case kListSplatPattern:
			names = append(names, "*"+text(firstNamed(c)))
		case kDictSplatPattern:
			names = append(names, "**"+text(firstNamed(c)))
		case kComment:
		default:
			return nil, false
		}
	}
	return names, true
}

// opText is an operator token's text ("not in", "is not" with one space).
func (b *builder) opText(op tree.Node) string {
	if op.IsNull() {
		return ""
	}
	if op.ChildCount() == 2 {
		return string(op.Child(0).Text()) + " " + string(op.Child(1).Text())
	}
	return text(op)
}

// comparison is `a < b` as ExprOper, a chain `a < b <= c` as the "and"
// of its pairs.
func (b *builder) comparison(n tree.Node) int32 {
	var e, left int32 = -1, -1
	var op string
	first := true
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.FieldID() == b.f.operators {
			op = b.opText(c)
			continue
		}
		if !c.IsNamed() || b.kt.Of(c) == kComment {
			continue
		}
		v := b.val(c)
		if !first {
			pair := b.oper(op, left, v)
			if e < 0 {
				e = pair
			} else {
				e = b.oper("and", e, pair)
			}
		}
		first, left = false, v
	}
	return e
}

// call is a call with its arguments: positional ones first (a *x
// among them, keyed "*"), then keyword ones (**x keyed "**").
func (b *builder) call(n tree.Node) int32 {
	x := b.callExpr(n)
	b.callAt[n.EndByte()] = x
	return x
}

func (b *builder) callExpr(n tree.Node) int32 {
	fn := n.ChildByFieldID(b.f.function)
	al := n.ChildByFieldID(b.f.arguments)
	if b.kt.Of(al) == kGenerator { // f(x for x in y)
		callee := b.val(fn)
		if callee < 0 {
			return -1
		}
		return b.addExpr(navindex.Expr{Op: navindex.ExprCall, A: callee, B: -1, ExprLists: b.newExprLists([]int32{b.val(al)}, nil)})
	}
	if b.kt.Of(fn) == kIdentifier && string(fn.Text()) == "super" {
		if v := b.valueExpr(n); v >= 0 && b.s.Exprs[v].Op == navindex.ExprSuper {
			return v // super() in a method: its class's bases
		}
	}
	callee := b.val(fn)
	if callee < 0 {
		return -1
	}
	if al.NamedChildCount() == 0 || b.onlyComments(al) {
		return b.expr(navindex.ExprCall, callee, "") // made once per callee
	}
	x := navindex.Expr{Op: navindex.ExprCall, A: callee, B: -1, ExprLists: b.exprLists.New()}
	var buf [8]int32
	args := buf[:0]
	star := -1 // the Args index of the first *x
	for c := firstNamed(al); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kKeywordArgument, kDictSplat, kComment:
			continue
		case kListSplat:
			if star < 0 {
				star = len(args)
			}
			args = append(args, b.val(c.NamedChild(0)))
		default:
			args = append(args, b.val(c))
		}
	}
	if star >= 0 {
		// Keys cover the last len(Keys) Args: from the first *x on.
		for c := firstNamed(al); !c.IsNull(); c = nextNamed(c) {
			switch b.kt.Of(c) {
			case kListSplat:
				x.Keys = append(x.Keys, "*")
			case kKeywordArgument, kDictSplat, kComment:
			default:
				if len(x.Keys) > 0 {
					x.Keys = append(x.Keys, "")
				}
			}
		}
	}
	for c := firstNamed(al); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kKeywordArgument:
			args = append(args, b.val(c.ChildByFieldID(b.f.value)))
			x.Keys = append(x.Keys, text(c.ChildByFieldID(b.f.name)))
		case kDictSplat:
			args = append(args, b.val(c.NamedChild(0)))
			x.Keys = append(x.Keys, "**")
		}
	}
	x.Args = b.int32s(args)
	return b.addExpr(x)
}

func (b *builder) onlyComments(n tree.Node) bool {
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		if b.kt.Of(c) != kComment {
			return false
		}
	}
	return true
}

// display is a tuple, list, set or dict display; in annotations
// (`Callable[[int], str]`) its elements are type expressions.
func (b *builder) display(n tree.Node, k uint8, typ bool) int32 {
	x := navindex.Expr{Op: navindex.ExprDisplay, A: -1, B: -1, Name: containerName(k), ExprLists: b.exprLists.New()}
	var buf [8]int32
	args := buf[:0]
	elem := b.val
	if typ {
		elem = b.annot
	}
	var keys []string // parallel to Args
	for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
		switch b.kt.Of(c) {
		case kComment:
		case kListSplat, kListSplatPattern:
			args, keys = append(args, elem(c.NamedChild(0))), append(keys, "*")
		case kDictSplat: // **d takes a key and value slot
			args, keys = append(args, elem(c.NamedChild(0)), -1), append(keys, "**", "")
		case kPair:
			args, keys = append(args, elem(c.ChildByFieldID(b.f.key)), elem(c.ChildByFieldID(b.f.value))), append(keys, "", "")
		default:
			args, keys = append(args, elem(c)), append(keys, "")
		}
	}
	star := -1
	for i, k := range keys {
		if k != "" {
			star = i
			break
		}
	}
	if star >= 0 {
		x.Keys = keys[star:]
	}
	if typ {
		return b.intern(x, args)
	}
	x.Args = b.int32s(args)
	return b.addExpr(x)
}

// containerName is the Name of a display or comprehension of kind k.
func containerName(k uint8) string {
	switch k {
	case kList, kListComp:
		return "list"
	case kSet, kSetComp:
		return "set"
	case kDict, kDictComp:
		return "dict"
	case kGenerator:
		return "generator"
	}
	return "tuple"
}

// comprehension is ExprComp of the element (a dict's key and value).
func (b *builder) comprehension(n tree.Node, k uint8) int32 {
	x := navindex.Expr{Op: navindex.ExprComp, A: -1, B: -1, Name: containerName(k)}
	body := n.ChildByFieldID(b.f.body)
	if k == kDictComp && b.kt.Of(body) == kPair {
		x.A, x.B = b.val(body.ChildByFieldID(b.f.key)), b.val(body.ChildByFieldID(b.f.value))
	} else {
		x.A = b.val(body)
	}
	return b.addExpr(x)
}

// subscript is A[Args...]: a tuple index split into Args, a slice the
// builtin slice called with its bounds. In an annotation (typ) the
// indexes are type expressions, except the values of Literal[...] and
// the metadata of Annotated[...].
func (b *builder) subscript(n tree.Node, k uint8, typ bool) int32 {
	var head tree.Node
	var idx []tree.Node
	if k == kSubscript {
		head = n.ChildByFieldID(b.f.value)
		for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
			if c.FieldID() == b.f.subscript {
				idx = append(idx, c)
			}
		}
	} else {
		head = n.NamedChild(0)
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			if b.kt.Of(c) == kTypeParameter {
				for a := firstNamed(c); !a.IsNull(); a = nextNamed(a) {
					if b.kt.Of(a) != kComment {
						idx = append(idx, a)
					}
				}
			}
		}
	}
	x := navindex.Expr{Op: navindex.ExprSubscript, A: b.val(head), B: -1, ExprLists: b.exprLists.New()}
	var buf [8]int32
	args := buf[:0]
	if len(idx) == 1 && b.kt.Of(idx[0]) == kTuple && !typ {
		tup := idx[0]
		idx = idx[:0]
		for c := firstNamed(tup); !c.IsNull(); c = nextNamed(c) {
			idx = append(idx, c)
		}
	}
	last := ""
	if typ {
		last = lastSegment(string(head.Text()))
	}
	for i, c := range idx {
		switch {
		case b.kt.Of(c) == kSlice:
			args = append(args, b.slice(c))
		case !typ, last == "Literal", last == "Annotated" && i > 0:
			args = append(args, b.val(c))
		default:
			args = append(args, b.annot(c))
		}
	}
	if typ {
		return b.intern(x, args)
	}
	x.Args = b.int32s(args)
	return b.addExpr(x)
}

// slice is `lo:hi:step` as slice(lo, hi, step) (an omitted bound None).
func (b *builder) slice(n tree.Node) int32 {
	callee := b.builtinExpr("slice")
	x := navindex.Expr{Op: navindex.ExprCall, A: callee, B: -1, ExprLists: b.exprLists.New()}
	var cur tree.Node
	for c := n.FirstChild(); ; c = c.NextSibling() {
		if c.IsNull() || (!c.IsNamed() && string(c.Text()) == ":") {
			if cur.IsNull() {
				x.Args = append(x.Args, b.lit("None", "None"))
			} else {
				x.Args = append(x.Args, b.val(cur))
			}
			cur = tree.Node{}
			if c.IsNull() {
				break
			}
			continue
		}
		if c.IsNamed() && b.kt.Of(c) != kComment {
			cur = c
		}
	}
	return b.addExpr(x)
}

// annot describes annotation n as a type expression, as written.
func (b *builder) annot(n tree.Node) int32 {
	if n.IsNull() {
		return -1
	}
	switch k := b.kt.Of(n); k {
	case kType:
		if n.NamedChildCount() == 1 {
			return b.annot(n.NamedChild(0))
		}
		return -1
	case kString, kConcatString:
		return b.stringAnnot(n)
	case kSubscript, kGenericType:
		return b.subscript(n, k, true)
	case kUnionType, kBinaryOperator:
		var l, r tree.Node
		if k == kUnionType {
			l, r = n.NamedChild(0), n.NamedChild(1)
		} else {
			if b.opText(n.ChildByFieldID(b.f.operator)) != "|" {
				return b.val(n)
			}
			l, r = n.ChildByFieldID(b.f.left), n.ChildByFieldID(b.f.right)
		}
		return b.union(b.annot(l), b.annot(r))
	case kList, kTuple:
		return b.display(n, k, true)
	case kParenthesized:
		if n.NamedChildCount() == 1 {
			return b.annot(n.NamedChild(0))
		}
	}
	return b.val(n)
}
