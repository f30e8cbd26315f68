package black

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// tok consumes token node n and appends its leaf to the current line.
func (g *gen) tok(n tree.Node) {
	i := g.takeTok(n)
	k := n.Kind()
	p := n.Parent()
	pk := p.Kind()

	// parentheses of atoms made invisible or removed
	if k == "(" || k == ")" {
		if m := g.parenMode[p.Index()]; m != 0 {
			if m == parenOmit {
				return
			}
			l := g.newLeaf(n, i)
			l.value = ""
			if k == "(" {
				l.parentAtom = true
				l.annParen = g.annParenNodes[p.Index()]
				cnt := 0
				g.atomStack = append(g.atomStack, &cnt)
				g.atomCount = append(g.atomCount, &cnt)
				g.appendLeaf(l)
				cnt = 0
			} else {
				var cnt int
				if len(g.atomStack) > 0 {
					c := g.atomStack[len(g.atomStack)-1]
					g.atomStack = g.atomStack[:len(g.atomStack)-1]
					for j, x := range g.atomCount {
						if x == c {
							g.atomCount = append(g.atomCount[:j:j], g.atomCount[j+1:]...)
							break
						}
					}
					cnt = *c
				}
				l.atomLeaves = cnt + 2
				g.appendLeaf(l)
			}
			return
		}
		if m := g.parenMode[n.Index()]; m != 0 {
			// import-from / with parens marked on the tokens themselves
			l := g.newLeaf(n, i)
			l.value = ""
			if k == "(" {
				l.parentAtom = true
			} else {
				l.atomLeaves = 99
			}
			g.appendLeaf(l)
			return
		}
	}
	if k == ";" {
		return
	}
	l := g.newLeaf(n, i)
	_ = pk
	g.appendLeaf(l)
}

func tokTypeOf(k string) tokType {
	switch k {
	case "(":
		return tLPAR
	case ")":
		return tRPAR
	case "[":
		return tLSQB
	case "]":
		return tRSQB
	case "{":
		return tLBRACE
	case "}":
		return tRBRACE
	case ",":
		return tCOMMA
	case ".":
		return tDOT
	case ":":
		return tCOLON
	case "=":
		return tEQUAL
	case "@":
		return tAT
	case "*":
		return tSTAR
	case "**":
		return tDSTAR
	case "+":
		return tPLUS
	case "-":
		return tMINUS
	case "~":
		return tTILDE
	case "integer", "float":
		return tNUMBER
	case "string":
		return tSTRING
	case "ellipsis":
		return tELLIPSIS
	}
	if k != "" && (k[0] == '_' || (k[0] >= 'a' && k[0] <= 'z') || (k[0] >= 'A' && k[0] <= 'Z')) {
		return tNAME
	}
	return tOP
}

// allocLeaf returns a zero leaf from a slab sized for the file's tokens:
// one allocation instead of one per token (a leaf was the formatter's
// largest allocation, and in wasm an allocation costs far more than its
// bytes). The leaves live as long as the call, so the slab does too.
func (g *gen) allocLeaf() *leaf {
	if len(g.leafSlab) == cap(g.leafSlab) {
		g.leafSlab = make([]leaf, 0, max(len(g.toks)-g.leavesMade, 64))
	}
	g.leafSlab = g.leafSlab[:len(g.leafSlab)+1]
	g.leavesMade++
	return &g.leafSlab[len(g.leafSlab)-1]
}

func (g *gen) newLeaf(n tree.Node, i int) *leaf {
	k := n.Kind()
	p := n.Parent()
	pk := p.Kind()
	l := g.allocLeaf()
	*l = leaf{typ: tokTypeOf(k), value: g.text[n.StartByte():n.EndByte()], node: n}
	l.lineno = g.lineOf(n.StartByte())
	switch {
	case pk == "unary_operator" && n.FieldName() == "operator":
		l.noSpaceAfter = true
	case (k == "*" || k == "**") && (pk == "list_splat" || pk == "dictionary_splat" || pk == "list_splat_pattern" || pk == "dictionary_splat_pattern" || pk == "parenthesized_list_splat" || pk == "splat_pattern"):
		l.noSpaceAfter = true
	case k == "=" && (pk == "keyword_argument" || pk == "default_parameter" || pk == "keyword_pattern"):
		l.noSpaceAfter = true
	case k == "@" && pk == "decorator":
		l.noSpaceAfter = true
	case k == "." && (pk == "attribute" || pk == "dotted_name" || pk == "import_prefix"):
		l.noSpaceAfter = true
	case k == ":" && pk == "slice":
		l.sliceColon = true
	}
	switch l.typ {
	case tSTRING:
		v := strings.ReplaceAll(l.value, "\r\n", "\n")
		if g.docstring {
			g.docstring = false
			if !strings.Contains(v, "\\\n") {
				v = formatDocstring(v, g.line.depth, g.f.o)
			}
		}
		if !g.f.o.SkipStringNormalization {
			v = normalizeStringQuotes(normalizeStringPrefix(v))
		}
		l.value = v
	case tNUMBER:
		l.value = normalizeNumber(l.value)
	}

	// static delimiter priorities and roles
	switch pk {
	case "binary_operator":
		if n.FieldName() == "operator" {
			l.staticDelim = mathPriorities[k]
		}
	case "comparison_operator":
		switch k {
		case "<", ">", "==", "!=", "<=", ">=", "<>", "in", "is":
			l.staticDelim = prioComparator
		}
	case "not in":
		if k == "not" {
			l.staticDelim = prioComparator
		}
	case "is not":
		if k == "is" {
			l.staticDelim = prioComparator
		}
	case "boolean_operator":
		if k == "and" || k == "or" {
			l.staticDelim = prioLogic
		}
	case "conditional_expression":
		if k == "if" || k == "else" {
			l.staticDelim = prioTernary
		}
	case "for_in_clause":
		if k == "async" {
			l.staticDelim = prioComprehension
		} else if k == "for" {
			if ps := n.PrevSibling(); ps.IsNull() || ps.Kind() != "async" {
				l.staticDelim = prioComprehension
			}
		}
	case "if_clause":
		if k == "if" && p.Parent().Kind() != "case_clause" {
			l.staticDelim = prioComprehension
		}
	case "attribute":
		if k == "." {
			l.attrDot = true
		}
	case "list_splat_pattern", "dictionary_splat_pattern", "keyword_separator", "positional_separator":
		gp := p.Parent()
		if gk := gp.Kind(); gk == "typed_parameter" || gk == "typed_default_parameter" {
			gp = gp.Parent()
		}
		if gp.Kind() == "parameters" {
			l.varargDef = true
		}
	case "list_splat", "dictionary_splat":
		if p.Parent().Kind() == "argument_list" {
			l.varargCall = true
		}
	case "argument_list", "parameters":
		if k == "," {
			l.commaArgs = true
		}
	case "subscript", "type_parameter":
		if k == "," {
			l.commaSubscr = true
		}
	case "import_from_statement", "future_import_statement", "import_statement":
		if (k == "from" || k == "import") && n.PrevSibling().IsNull() {
			l.isImport = true
		}
	}
	if l.typ.bracket() {
		switch pk {
		case "argument_list":
			l.trailer = p.Parent().Kind() == "call" || p.Parent().Kind() == "decorator"
		case "generator_expression":
			l.trailer = p.Parent().Kind() == "call"
		case "subscript", "type_parameter":
			l.trailer = true
		}
		if l.typ.opening() {
			switch pk {
			case "parenthesized_expression", "tuple", "list", "dictionary", "set", "list_comprehension",
				"set_comprehension", "dictionary_comprehension", "tuple_pattern", "list_pattern",
				"import_from_statement", "future_import_statement":
				l.parentAtom = true
			case "generator_expression":
				l.parentAtom = !l.trailer
			}
		}
	}
	return l
}

// ws computes Black's whitespace(leaf) for l given the previous leaf.
func (g *gen) ws(l *leaf) string {
	prev := g.prev
	t := l.typ
	if t.closing() || t == tCOMMA || t == tSTANDALONE {
		return ""
	}
	if prev == nil || prev.typ.opening() {
		return ""
	}
	if l.node.IsNull() {
		// synthesized parens
		if prev.noSpaceAfter {
			return ""
		}
		return " "
	}
	n := l.node
	k := n.Kind()
	p := n.Parent()
	pk := p.Kind()
	if t == tCOLON {
		if pk == "slice" {
			if prev.sliceColon {
				return ""
			}
			if prev.typ == tCOMMA {
				return " "
			}
			if g.sliceComplex(p) {
				return " "
			}
			return ""
		}
		return ""
	}
	if k == "import" {
		return " "
	}
	if prev.noSpaceAfter {
		return ""
	}
	switch k {
	case ".":
		if pk == "import_prefix" {
			return " "
		}
		return ""
	case "(":
		if pk == "argument_list" && (p.Parent().Kind() == "call" || p.Parent().Kind() == "class_definition" || p.Parent().Kind() == "decorator") {
			return ""
		}
		if pk == "generator_expression" && p.Parent().Kind() == "call" {
			return ""
		}
		if pk == "parameters" || pk == "class_pattern" {
			return ""
		}
	case "[":
		if pk == "subscript" || pk == "type_parameter" {
			return ""
		}
	case "=":
		switch pk {
		case "keyword_argument", "default_parameter", "keyword_pattern":
			return ""
		}
	case "*":
		if pk == "except_clause" || pk == "except_group_clause" {
			return ""
		}
	}
	if prev.sliceColon {
		if g.sliceComplex(p) || g.sliceComplexOf(prev) {
			return " "
		}
		return ""
	}
	return " "
}

// sliceComplex reports whether the slice containing n has a non-trivial
// expression (Black's is_complex_subscript).
func (g *gen) sliceComplex(n tree.Node) bool {
	for s := n; !s.IsNull(); s = s.Parent() {
		if s.Kind() == "slice" {
			if v, ok := g.complexCache[s.Index()]; ok {
				return v
			}
			c := false
			for d := range s.Descendants() {
				switch d.Kind() {
				case "binary_operator", "boolean_operator", "not_operator", "comparison_operator",
					"conditional_expression", "lambda", "call", "attribute", "subscript", "list_splat", "await":
					c = true
				}
				if c {
					break
				}
			}
			g.complexCache[s.Index()] = c
			return c
		}
		if s.Kind() == "subscript" {
			return false
		}
	}
	return false
}

func (g *gen) sliceComplexOf(colon *leaf) bool {
	if colon.node.IsNull() {
		return false
	}
	return g.sliceComplex(colon.node.Parent())
}

func (g *gen) isDocstring(stmt tree.Node) bool {
	cs := kids(stmt)
	if len(cs) != 1 || !isStringNode(cs[0]) {
		return false
	}
	b := stmt.Parent()
	if b.Kind() != "block" {
		return false
	}
	// first statement of the block
	if ks := kids(b); len(ks) == 0 || ks[0] != stmt {
		return false
	}
	hdr := b.Parent()
	// on a new line (INDENT), or right after "def f(...):"
	prevTok := g.cur - 1
	if prevTok >= 0 && g.lineOf(g.toks[prevTok].start) != g.lineOf(stmt.StartByte()) {
		return true
	}
	if hdr.Kind() == "function_definition" && hdr.ChildByField("return_type").IsNull() {
		return true
	}
	return false
}
