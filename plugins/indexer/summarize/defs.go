package summarize

import (
	"encoding/binary"
	"math"
	mathbits "math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// paramQual gives a parameter of a reachable function a qualified name
// ("f(a", "C.m(a") so keyword arguments in other files can refer to it;
// bs are the bindings of name in sc.
func (b *builder) paramQual(sc *pysem.Scope, name string, bs []*pysem.Binding) string {
	if sc.Kind != pysem.ScopeFunction || sc.Owner == nil {
		return ""
	}
	if len(bs) == 0 || bs[0].Kind != pysem.BindParameter {
		return ""
	}
	p, ok := b.qualPrefix(sc.Owner.Scope)
	if !ok {
		return ""
	}
	if defs := sc.Owner.Symbol(); defs[len(defs)-1] != sc.Owner {
		return "" // a property's setter, an overload: calls reach the last def
	}
	return p + sc.Owner.Name + "(" + name
}

func (b *builder) defs() {
	b.s.Defs = slices.Grow(b.s.Defs, len(b.m.Bindings))
	b.defOf = make([]int32, len(b.m.Bindings))
	for _, bd := range b.m.Bindings {
		switch bd.Kind {
		case pysem.BindDel, pysem.BindAugAssign:
			continue
		}
		if bd.NameNode.IsNull() {
			continue
		}
		id := b.localSym(bd)
		d := navindex.Def{Sym: id, Name: b.span(bd.NameNode.StartByte(), bd.NameNode.EndByte()), Returns: -1, Body: -1, Annot: -1, Value: -1, Import: bd.Import != nil, DefLists: b.defLists.New()}
		if bd.Body != nil {
			d.Body = int32(bd.Body.Index)
		}
		switch bd.Kind {
		case pysem.BindFunction:
			d.Kind = navindex.KindFunction
			if bd.Site != nil && bd.Site.Kind == pysem.ScopeClass {
				d.Kind = navindex.KindMethod
			}
			if bd.PropertyRole != pysem.NotProperty {
				d.Kind = navindex.KindProperty
			}
			if !bd.Annotation.IsNull() {
				d.Returns = b.instance(bd.Annotation)
			}
			if d.Kind == navindex.KindProperty {
				d.Sig = b.annotated(bd.Name, bd.Annotation)
			} else {
				d.Sig = b.funcSig(bd)
			}
			d.Doc = Markdown(bd.Docstring)
		case pysem.BindClass:
			d.Kind = navindex.KindClass
			for _, base := range bd.Bases {
				d.Bases = append(d.Bases, b.val(base)) // v5: a subscripted base (Generic[T], Mapping[str, int]) is kept
			}
			d.Sig = b.classSig(bd)
			d.Doc = Markdown(bd.Docstring)
		case pysem.BindParameter:
			d.Kind = navindex.KindParameter
			d.Sig = b.annotated(bd.Name, bd.Annotation)
		case pysem.BindImport:
			d.Kind = navindex.KindModule
			d.Sig = bd.Import.Module
		default:
			d.Kind = navindex.KindVariable
			d.Sig = bd.Name
			if !bd.Annotation.IsNull() {
				d.Sig = b.annotated(bd.Name, bd.Annotation)
			} else if !bd.Unpacked {
				if t := b.literalType(bd.Value); t != "" {
					d.Sig += ": " + t
				}
			}
			d.Doc = Markdown(bd.Docstring)
		}
		b.typeFacts(bd, &d)
		if d.Kind == navindex.KindVariable {
			b.assignSite(bd, &d)
		}
		d.Extent = b.extent(bd)
		b.s.Defs = append(b.s.Defs, d)
		b.defOf[bd.Index] = int32(len(b.s.Defs))
	}
}

// extent is where the statement of a def or class (decorators included)
// or of an assignment is, and where a def's or class's block starts.
func (b *builder) extent(bd *pysem.Binding) navindex.Extent {
	n := bd.DefNode
	if n.IsNull() {
		return navindex.Extent{}
	}
	var x navindex.Extent
	switch bd.Kind {
	case pysem.BindFunction, pysem.BindClass:
		if body := n.ChildByFieldID(b.f.body); !body.IsNull() {
			x.BodyLine, x.BodyCol = b.position(body.StartByte())
		}
		if p := n.Parent(); b.kt.Of(p) == kDecorated {
			n = p
		}
	case pysem.BindAssignment, pysem.BindAnnotated:
		for b.kt.Of(n.Parent()) == kAssignment { // a = b = 1
			n = n.Parent()
		}
		if p := n.Parent(); b.kt.Of(p) == kExprStatement {
			n = p
		}
	default:
		return navindex.Extent{}
	}
	x.Line, x.Col = b.position(n.StartByte())
	x.EndLine, x.EndCol = b.position(n.EndByte())
	return x
}

// Signatures are built in b.buf, reused, so that each costs one
// allocation: its string.

// annotated is "name: T" for annotation T, name when ann is null.
func (b *builder) annotated(name string, ann tree.Node) string {
	if ann.IsNull() {
		return name
	}
	buf := append(b.buf[:0], name...)
	buf = append(buf, ": "...)
	b.buf = appendOneLine(buf, ann.Text())
	return string(b.buf)
}

// classSig is "class C(Base, metaclass=M)", on one line.
func (b *builder) classSig(bd *pysem.Binding) string {
	buf := append(b.buf[:0], "class "...)
	buf = append(buf, bd.Name...)
	if len(bd.Bases)+len(bd.Keywords) > 0 {
		buf = append(buf, '(')
		for i, n := range bd.Bases {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendOneLine(buf, n.Text())
		}
		for i, n := range bd.Keywords {
			if i > 0 || len(bd.Bases) > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendOneLine(buf, n.Text())
		}
		buf = append(buf, ')')
	}
	b.buf = buf
	return string(buf)
}

// funcSig is "def name(params) -> ret" with whitespace and comments of
// the parameter list folded onto one line.
func (b *builder) funcSig(bd *pysem.Binding) string {
	n := bd.DefNode
	buf := b.buf[:0]
	if bd.Async {
		buf = append(buf, "async "...)
	}
	buf = append(buf, "def "...)
	buf = append(buf, bd.Name...)
	if tp := n.ChildByFieldID(b.f.typeParameters); !tp.IsNull() {
		buf = appendOneLine(buf, tp.Text())
	}
	if p := n.ChildByFieldID(b.f.parameters); !p.IsNull() {
		buf = appendOneLine(buf, p.Text())
	} else {
		buf = append(buf, "()"...)
	}
	if !bd.Annotation.IsNull() {
		buf = append(buf, " -> "...)
		buf = appendOneLine(buf, bd.Annotation.Text())
	}
	b.buf = buf
	return string(buf)
}

// appendOneLine appends src folded onto one line to dst: comments
// dropped, runs of whitespace made one space, no space just inside
// brackets, no trailing comma before a closing bracket but a one-element
// tuple's (`("a", )`), numbers as their values (`-180.0` is `-180`,
// `0x10` is `16`): what pyright's printExpression gives.
func appendOneLine(dst, src []byte) []byte {
	start := len(dst) // the folding looks at this call's output only
	inStr := byte(0)
	space := false
	// tuples[i]: bracket i open is a parenthesized tuple (not a call's
	// or a def's parentheses); commas[i] its commas so far.
	var tuples []bool
	var commas []int
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr != 0 {
			dst = append(dst, c)
			if c == '\\' && i+1 < len(src) {
				i++
				dst = append(dst, src[i])
			} else if c == inStr {
				inStr = 0
			}
			continue
		}
		switch c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			space = true
			continue
		case ' ', '\t', '\n', '\r', '\\':
			space = true
			continue
		case '"', '\'':
			inStr = c
		}
		if space {
			if len(dst) > start {
				last := dst[len(dst)-1]
				if last != 0 && last != '(' && last != '[' && last != '{' && c != ')' && c != ']' && c != '}' && c != ',' && c != ':' {
					dst = append(dst, ' ')
				}
			}
			space = false
		}
		switch c {
		case '(', '[', '{':
			tuple := c == '('
			if len(dst) > start {
				last := dst[len(dst)-1]
				tuple = tuple && !(isWordByte(last) || last == ')' || last == ']' || last == '"' || last == '\'')
			}
			tuples = append(tuples, tuple)
			commas = append(commas, 0)
		case ',':
			if n := len(commas); n > 0 {
				commas[n-1]++
			}
		case ')', ']', '}':
			oneTuple := false
			if n := len(tuples); n > 0 {
				oneTuple = tuples[n-1] && commas[n-1] == 1
				tuples, commas = tuples[:n-1], commas[:n-1]
			}
			if len(dst) > start && dst[len(dst)-1] == ',' {
				if oneTuple {
					dst = append(dst, ' ')
				} else {
					dst = dst[:len(dst)-1]
				}
			}
		}
		if c >= '0' && c <= '9' && (len(dst) == start || !isWordByte(dst[len(dst)-1]) && dst[len(dst)-1] != '.') {
			j := numberEnd(src, i)
			dst = appendNumber(dst, src[i:j])
			i = j - 1
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// numberEnd is the end of the number literal starting at src[i].
func numberEnd(src []byte, i int) int {
	hex := i+1 < len(src) && src[i] == '0' && (src[i+1] == 'x' || src[i+1] == 'X')
	j := i
	for j < len(src) {
		c := src[j]
		switch {
		case isWordByte(c) || c == '.':
		case (c == '+' || c == '-') && !hex && j > i && (src[j-1] == 'e' || src[j-1] == 'E'):
		default:
			return j
		}
		j++
	}
	return j
}

// appendNumber appends number literal lit as pyright prints its value
// (JavaScript's Number toString); what it cannot read is kept.
func appendNumber(dst, lit []byte) []byte {
	text := strings.ReplaceAll(string(lit), "_", "")
	suffix := ""
	if n := len(text); n > 1 && (text[n-1] == 'j' || text[n-1] == 'J') {
		text, suffix = text[:n-1], "j"
	}
	lower := strings.ToLower(text)
	if strings.HasPrefix(lower, "0x") || !strings.ContainsAny(lower, ".e") {
		if v, err := strconv.ParseInt(text, 0, 64); err == nil {
			return append(append(dst, strconv.FormatInt(v, 10)...), suffix...)
		}
		return append(dst, lit...) // past int64: kept as written
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return append(dst, lit...)
	}
	if a := math.Abs(f); a >= 1e21 || a != 0 && a < 1e-6 {
		e := strconv.FormatFloat(f, 'e', -1, 64) // 1e-07: JavaScript says 1e-7
		mant, exp, _ := strings.Cut(e, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		return append(dst, mant+"e"+string(sign)+exp+suffix...)
	}
	return append(dst, strconv.FormatFloat(f, 'f', -1, 64)+suffix...)
}

// literalType is the type pyright would infer for a simple value.
func (b *builder) literalType(n tree.Node) string {
	if n.IsNull() {
		return ""
	}
	switch b.kt.Of(n) {
	case kInteger:
		return "int"
	case kFloat:
		return "float"
	case kString, kConcatString:
		t := n.Text()
		if len(t) > 0 && (t[0] == 'b' || t[0] == 'B' || len(t) > 1 && (t[0] == 'r' || t[0] == 'R') && (t[1] == 'b' || t[1] == 'B')) {
			return "bytes"
		}
		return "str"
	case kBool:
		return "bool"
	case kNone:
		return "None"
	case kList, kListComp:
		return "list"
	case kDict, kDictComp:
		return "dict"
	case kSet, kSetComp:
		return "set"
	case kTuple:
		return "tuple"
	case kCall:
		f := n.ChildByFieldID(b.f.function)
		if k := b.kt.Of(f); k == kIdentifier || k == kAttribute {
			name := string(f.Text())
			last := lastSegment(name)
			if last != "" && last[0] >= 'A' && last[0] <= 'Z' {
				return name
			}
		}
	}
	return ""
}

// addOcc records an occurrence of sym at [start, end) unless one starts
// there already.
func (b *builder) addOcc(start, end int, sym int32, flags uint8, scope int32) {
	if sym < 0 || b.occAt[start] != 0 {
		return
	}
	b.occs = append(b.occs, occ{start: int32(start), end: int32(end), sym: sym, flags: flags, scope: scope})
	b.occAt[start] = int32(len(b.occs))
	b.occBits[start>>6] |= 1 << (start & 63)
}

// sortedOccs lays the occurrences out by position: in offset order, read
// off occBits (no sort; a loop over a word of bits rather than over each
// offset, as every iteration costs in a wasm guest), their lines found by
// walking the line starts along, their columns by counting UTF-16 units
// from the previous occurrence on the line (it starts a name: a rune
// boundary), or, in an ASCII file, as byte distances.
func (b *builder) sortedOccs() []navindex.Occ {
	out := make([]navindex.Occ, 0, len(b.occs))
	ascii := isASCII(b.src)
	nlines := b.pos.LineCount()
	line, lineStart, nextLine := -1, 0, 0 // nextLine: the start of line+1
	prev, col := 0, 0
	for w, bits := range b.occBits {
		for ; bits != 0; bits &= bits - 1 {
			off := w<<6 + mathbits.TrailingZeros64(bits)
			o := &b.occs[b.occAt[off]-1]
			if off >= nextLine {
				for line+1 < nlines && b.pos.LineStart(line+1) <= off {
					line++
				}
				lineStart, nextLine = b.pos.LineStart(line), len(b.src)+1
				if line+1 < nlines {
					nextLine = b.pos.LineStart(line + 1)
				}
				prev, col = lineStart, 0
			}
			var n int
			if ascii {
				col, n = off-lineStart, int(o.end)-off
			} else {
				col += textpos.UTF16Len(b.src[prev:off])
				n = textpos.UTF16Len(b.src[off:o.end])
			}
			prev = off
			out = append(out, navindex.Occ{Span: navindex.Span{Line: int32(line), Col: int32(col), End: int32(col + n)}, Sym: o.sym, Flags: o.flags, Scope: o.scope})
		}
	}
	return out
}

// isASCII reports whether src has only ASCII bytes, eight at a time.
func isASCII(src []byte) bool {
	i := 0
	for ; i+8 <= len(src); i += 8 {
		if binary.LittleEndian.Uint64(src[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(src); i++ {
		if src[i] >= 0x80 {
			return false
		}
	}
	return true
}

func (b *builder) occurrences() {
	m := b.m
	for _, bd := range m.Bindings {
		if bd.NameNode.IsNull() {
			continue
		}
		var fl uint8
		switch bd.Kind {
		case pysem.BindDel, pysem.BindAugAssign:
		default:
			fl = navindex.OccDef
		}
		if bd.Import != nil {
			fl |= navindex.OccImport
		}
		b.addOcc(bd.NameNode.StartByte(), bd.NameNode.EndByte(), b.localSym(bd), fl, int32(bd.Site.Index))
	}
	for _, im := range m.Imports {
		if im.Future {
			continue
		}
		site := int32(im.Scope.Index)
		for k, id := range im.ModuleNodes {
			if im.Name == "" && !im.Star && k == 0 && im.AsName == "" {
				continue // `import a.b`: a is the binding
			}
			b.addOcc(id.StartByte(), id.EndByte(), b.importSym(im.Level, im.Prefix(k), ""), navindex.OccImport, site)
		}
		if im.Name != "" && im.AsName != "" && !im.NameNode.IsNull() {
			b.addOcc(im.NameNode.StartByte(), im.NameNode.EndByte(), b.importSym(im.Level, im.Module, im.Name), navindex.OccImport, site)
		}
	}
	for _, r := range m.Refs {
		sym := b.refSym(r)
		var fl uint8
		switch {
		case r.Ctx.Has(pysem.CtxAllEntry):
			fl = navindex.OccAll
		case r.Ctx.Has(pysem.CtxStringAnnotation):
			fl = navindex.OccString
		case r.Ctx&(pysem.CtxGlobal|pysem.CtxNonlocal) != 0:
			fl = navindex.OccDecl
		}
		b.addOcc(r.Start, r.End, sym, fl, int32(r.Scope.Index))
	}
	var strChain map[int]int32 // end offset of an attribute inside a string -> its value expr
	for _, a := range m.Attrs {
		var recv int32 = -1
		if !a.Object.IsNull() {
			recv = b.val(a.Object)
		} else {
			if strChain == nil {
				strChain = map[int]int32{}
			}
			if prev, ok := strChain[a.Start-1]; ok {
				recv = prev
			} else if a.ObjectRef != nil {
				recv = b.expr(navindex.ExprSym, b.refSym(a.ObjectRef), "")
			}
			strChain[a.End] = b.expr(navindex.ExprAttr, recv, a.Name)
		}
		var fl uint8
		if a.Ctx&(pysem.CtxStore|pysem.CtxAugAssign) != 0 {
			fl = navindex.OccStore
			if ob := a.ObjectBinding; ob != nil && ob.Kind == pysem.BindParameter && ob.Scope != nil && ob.Scope.Self == ob && ob.Scope.Method == pysem.InstanceMethod && a.Ctx.Has(pysem.CtxStore) {
				fl |= navindex.OccDef
			}
		}
		if a.Object.IsNull() {
			fl |= navindex.OccString
		}
		scope := int32(0)
		if a.Scope != nil {
			scope = int32(a.Scope.Index)
		}
		sym := b.attrSym(recv, a.Name)
		b.addOcc(a.Start, a.End, sym, fl, scope)
		if a.Ctx.Has(pysem.CtxStore) && !a.Object.IsNull() {
			b.attributeSite(a, sym)
		}
	}
	if m.Tree != nil {
		b.keywordArgs(m.Tree)
	}
	b.s.Occs = b.sortedOccs()
}

// keywordArgKinds singles out keyword arguments for Scan.
var keywordArgKinds = tree.NewKindClasses(map[string]uint8{"keyword_argument": 1})

// keywordArgs adds an occurrence for each keyword argument of a call: it
// names a parameter of whatever the callee turns out to be.
func (b *builder) keywordArgs(t *tree.Tree) {
	kt, end := keywordArgKinds.Table(t), t.NodeCount()
	for i := kt.Scan(0, end, 0); i < end; i = kt.Scan(i+1, end, 0) {
		n := t.NodeAt(i)
		al := n.Parent()
		if b.kt.Of(al) != kArgumentList || b.kt.Of(al.Parent()) != kCall {
			continue
		}
		name := n.ChildByFieldID(b.f.name)
		if b.kt.Of(name) != kIdentifier {
			continue
		}
		// The callee as the call reads it (a name's read through the
		// flow, when it has one), so the evaluator finds this call by it.
		callee := b.val(al.Parent().ChildByFieldID(b.f.function))
		if callee < 0 {
			continue
		}
		k := attrKey{callee, string(name.Text())}
		id, ok := b.kwargs[k]
		if !ok {
			id = b.add(navindex.Sym{Kind: navindex.SymKeyword, Name: k.name, Recv: callee, Scope: -1, Class: -1, Target: -1, Value: -1})
			b.kwargs[k] = id
		}
		b.addOcc(name.StartByte(), name.EndByte(), id, 0, int32(b.scopeAt(name.StartByte()).Index))
	}
}

// callKinds singles out calls for Scan.
var callKinds = tree.NewKindClasses(map[string]uint8{"call": 1})

// callSites records every call's argument list as written, for
// signature help: the call's expression (described now when no value
// needed it), its parentheses, commas and keywords.
func (b *builder) callSites(t *tree.Tree) {
	kt, end := callKinds.Table(t), t.NodeCount()
	for i := kt.Scan(0, end, 0); i < end; i = kt.Scan(i+1, end, 0) {
		n := t.NodeAt(i)
		al := n.ChildByFieldID(b.f.arguments)
		if al.IsNull() {
			continue
		}
		x, ok := b.callAt[n.EndByte()]
		if !ok {
			x = b.val(n)
		}
		if x >= 0 && b.s.Exprs[x].Op != navindex.ExprCall {
			// super() as a value is its class's bases; its arguments are
			// the builtin super's.
			x = b.expr(navindex.ExprCall, b.builtinExpr("super"), "")
		}
		b.argumentSites(n, x)
		c := navindex.Call{Expr: x, Open: b.pos16(al.StartByte() + 1), Close: b.pos16(al.EndByte())}
		if b.kt.Of(al) == kGenerator { // f(x for x in y)
			c.Keys = []string{""}
			c.Close = b.pos16(al.EndByte() - 1)
			b.s.Calls = append(b.s.Calls, c)
			continue
		}
		// The commas and keys go to the builder's shared lists, each
		// call's a capped slice of them: one allocation per growth of
		// the lists, not per call.
		commas, keys := len(b.commas), len(b.keys)
		for ch := al.FirstChild(); !ch.IsNull(); ch = ch.NextSibling() {
			switch {
			case ch.IsMissing():
			case !ch.IsNamed():
				switch string(ch.Text()) {
				case ",":
					b.commas = append(b.commas, b.pos16(ch.StartByte()))
				case ")":
					c.Close = b.pos16(ch.StartByte())
				}
			case b.kt.Of(ch) == kComment:
			case b.kt.Of(ch) == kKeywordArgument:
				b.keys = append(b.keys, text(ch.ChildByFieldID(b.f.name)))
			case b.kt.Of(ch) == kListSplat:
				b.keys = append(b.keys, "*")
			case b.kt.Of(ch) == kDictSplat:
				b.keys = append(b.keys, "**")
			default:
				b.keys = append(b.keys, "")
			}
		}
		if len(b.commas) > commas {
			c.Commas = b.commas[commas:len(b.commas):len(b.commas)]
		}
		if len(b.keys) > keys {
			c.Keys = b.keys[keys:len(b.keys):len(b.keys)]
		}
		b.s.Calls = append(b.s.Calls, c)
	}
	for i := 0; i < end; i++ {
		if n := t.NodeAt(i); n.IsError() {
			b.unclosedCalls(n)
		}
	}
	slices.SortFunc(b.s.Calls, func(p, q navindex.Call) int {
		switch {
		case p.Open.Less(q.Open):
			return -1
		case q.Open.Less(p.Open):
			return 1
		}
		return 0
	})
}

// pos16 is byte offset offset as a navindex.Pos.
func (b *builder) pos16(offset int) navindex.Pos {
	l, c := b.position(offset)
	return navindex.Pos{Line: l, Col: c}
}

// unclosedCalls records the calls a parse error left open, as in `f(a, `
// being typed: a "(" after a name, attribute or call among the error's
// children, without its ")".
func (b *builder) unclosedCalls(n tree.Node) {
	var open []navindex.Call
	var prev tree.Node
	for ch := n.FirstChild(); !ch.IsNull(); ch = ch.NextSibling() {
		if ch.IsNamed() && b.kt.Of(ch) == kComment {
			continue
		}
		top := len(open) - 1
		switch {
		case !ch.IsNamed() && string(ch.Text()) == "(":
			c := navindex.Call{Expr: -1, Open: b.pos16(ch.EndByte())}
			if k := b.kt.Of(prev); !prev.IsNull() && (k == kIdentifier || k == kAttribute || k == kCall) {
				if callee := b.errorValue(prev); callee >= 0 {
					c.Expr = b.expr(navindex.ExprCall, callee, "")
				}
			}
			open = append(open, c)
		case top < 0:
		case !ch.IsNamed() && string(ch.Text()) == ")":
			open = open[:top] // closed: the parser kept it out of a call node
		case !ch.IsNamed() && string(ch.Text()) == ",":
			open[top].Commas = append(open[top].Commas, b.pos16(ch.StartByte()))
		case ch.IsNamed() && len(open[top].Keys) <= len(open[top].Commas):
			key := ""
			switch b.kt.Of(ch) {
			case kKeywordArgument:
				key = text(ch.ChildByFieldID(b.f.name))
			case kListSplat:
				key = "*"
			case kDictSplat:
				key = "**"
			}
			open[top].Keys = append(open[top].Keys, key)
		}
		prev = ch
	}
	// An unclosed call reaches to the end of the error's last line: the
	// cursor after `f(a, ` is in it.
	l, _ := b.pos.Position(n.EndByte())
	end := max(n.EndByte(), b.pos.LineEnd(l))
	for _, c := range open {
		if c.Expr >= 0 {
			c.Close = b.pos16(end)
			b.s.Calls = append(b.s.Calls, c)
		}
	}
}

// errorValue describes a name, attribute or call inside a parse error,
// whose names the semantic model did not read: each name resolved where
// it is written.
func (b *builder) errorValue(n tree.Node) int32 {
	switch b.kt.Of(n) {
	case kIdentifier:
		if v := b.nameExpr(n.StartByte()); v >= 0 {
			return v
		}
		name := string(n.Text())
		r := b.scopeAt(n.StartByte()).Resolve(name, n.StartByte())
		switch {
		case r.Binding != nil:
			return b.expr(navindex.ExprSym, b.localSym(r.Binding), "")
		case r.Builtin:
			return b.builtinExpr(name)
		}
		return b.expr(navindex.ExprSym, b.simpleSym(navindex.SymUnresolved, b.unres, name), "")
	case kAttribute:
		obj, attr := b.errorValue(n.ChildByFieldID(b.f.object)), n.ChildByFieldID(b.f.attribute)
		if obj >= 0 && !attr.IsNull() {
			return b.expr(navindex.ExprAttr, obj, text(attr))
		}
	case kCall:
		if v := b.val(n); v >= 0 {
			return v
		}
		if fn := b.errorValue(n.ChildByFieldID(b.f.function)); fn >= 0 {
			return b.expr(navindex.ExprCall, fn, "")
		}
	}
	return -1
}
