package black

import (
	"strings"
	"unicode/utf8"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Statement and expression visitors: Black's LineGenerator over the
// tree-sitter tree.

func kids(n tree.Node) []tree.Node {
	out := make([]tree.Node, 0, n.ChildCount())
	for c := range n.Children() {
		if c.IsExtra() && (c.Kind() == "comment" || c.Kind() == "line_continuation") {
			continue
		}
		out = append(out, c)
	}
	return out
}

func isTok(g *gen, n tree.Node) bool {
	_, ok := g.tokIndex(n)
	return ok
}

var compoundKinds = map[string]bool{
	"if_statement": true, "for_statement": true, "while_statement": true, "try_statement": true,
	"with_statement": true, "function_definition": true, "class_definition": true,
	"decorated_definition": true, "match_statement": true, "case_clause": true,
}

func (g *gen) visitModule(root tree.Node) {
	g.visitStatements(kids(root))
	// ENDMARKER
	g.emitComments(g.endPrefix, true)
	g.newLineFlush(0)
}

func (g *gen) visitStatements(stmts []tree.Node) {
	for i := 0; i < len(stmts); i++ {
		if n := g.fmtOff(stmts, i); n > 0 {
			i += n - 1
			continue
		}
		if g.fmtSkip(stmts, i) {
			i += g.skipStmts
			g.skipStmts = 0
			continue
		}
		g.visitStmt(stmts[i])
		g.flushNL()
	}
}

func (g *gen) visitStmt(n tree.Node) {
	k := n.Kind()
	if isTok(g, n) {
		// ";" separators (visit_SEMI) or stray tokens
		g.takeTok(n)
		if k == ";" {
			g.newLineFlush(0)
			return
		}
		panic(refuse("unexpected token " + k))
	}
	switch k {
	case "if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
		"class_definition", "match_statement", "case_clause":
		g.visitCompound(n, false)
	case "function_definition":
		g.visitFuncDef(n)
	case "decorated_definition":
		for _, c := range kids(n) {
			if c.Kind() == "decorator" {
				g.newLineFlush(0)
				g.visitExpr(c)
				g.flushNL()
			} else {
				g.visitStmt(c)
			}
		}
	default:
		g.newLineFlush(0)
		g.visitSimple(n)
	}
}

// visitBlock visits a block after a header ending in ":" (already taken).
func (g *gen) visitBlock(b tree.Node) {
	stmts := kids(b)
	if len(stmts) == 0 {
		panic(refuse("empty block"))
	}
	first := stmts[0]
	colonLine := g.lineOf(g.toks[g.cur-1].start)
	firstTok := g.firstTokIndex(first)
	inline := g.lineOf(g.toks[firstTok].start) == colonLine
	if g.f.o.IsPyi && isStubBody(stmts) {
		// stub body or suite: the "..." stays on (or joins) the header line
		g.visitSimple(stmts[0])
		g.flushNL()
		return
	}
	g.flushNL()
	g.newLineFlush(1)
	if inline {
		g.visitStatements(stmts)
		g.newLineFlush(-1)
		return
	}
	col := g.column(g.toks[firstTok].start)
	g.visitStatements(stmts)
	g.dedent(col)
}

func isStubBody(stmts []tree.Node) bool {
	if len(stmts) != 1 || stmts[0].Kind() != "expression_statement" {
		return false
	}
	ks := kids(stmts[0])
	return len(ks) == 1 && ks[0].Kind() == "ellipsis"
}

func (g *gen) column(off int) int {
	ls := g.lineStarts[g.lineOf(off)-1]
	return utf8.RuneCountInString(g.text[ls:off])
}

func (g *gen) firstTokIndex(n tree.Node) int {
	for i := g.cur; i < len(g.toks); i++ {
		if g.toks[i].start >= n.StartByte() {
			return i
		}
	}
	return len(g.toks) - 1
}

var blockKeywords = map[string]bool{
	"if": true, "elif": true, "else": true, "for": true, "while": true, "try": true,
	"except": true, "finally": true, "with": true, "class": true, "match": true, "case": true,
	"def": true, "async": true,
}

// visitCompound handles compound statements and their clauses.
func (g *gen) visitCompound(n tree.Node, async bool) {
	k := n.Kind()
	cs := kids(n)
	parensAfter := map[string]bool{}
	switch k {
	case "if_statement", "elif_clause":
		parensAfter = map[string]bool{"if": true, "elif": true}
	case "while_statement":
		parensAfter = map[string]bool{"while": true}
	case "for_statement":
		parensAfter = map[string]bool{"for": true, "in": true}
	case "except_clause", "except_group_clause":
		parensAfter = map[string]bool{"except": true}
	}
	if async {
		parensAfter = map[string]bool{}
	}
	prevKw := ""
	for i, c := range cs {
		ck := c.Kind()
		if isTok(g, c) && !(prevKw != "" && ck != ":") {
			if blockKeywords[ck] && !(ck == "async" && i > 0) && !(async && ck != "async") {
				if !(ck == "for" && i > 0 && cs[i-1].Kind() == "async") && !(ck == "with" && i > 0 && cs[i-1].Kind() == "async") {
					g.newLineFlush(0)
				}
			}
			g.tok(c)
			prevKw = ""
			if parensAfter[ck] {
				prevKw = ck
			}
			continue
		}
		switch ck {
		case "block":
			g.visitBlock(c)
			continue
		case "elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause":
			g.visitCompound(c, false)
			continue
		}
		if prevKw != "" {
			switch {
			case k == "except_clause" || k == "except_group_clause":
				if ck == "as_pattern" {
					ks := kids(c)
					g.visitAsPattern(ks, func(x tree.Node) { g.normalizeChild(x, "except_clause", false) })
				} else {
					g.normalizeChild(c, "except_clause", false)
				}
			case k == "for_statement" && prevKw == "for":
				g.normalizeChild(c, "for_stmt", true)
			case k == "for_statement":
				g.normalizeChild(c, "for_stmt", false)
			case k == "while_statement":
				g.normalizeChild(c, "while_stmt", false)
			default:
				g.normalizeChild(c, "if_stmt", false)
			}
			prevKw = ""
			continue
		}
		if ck == "with_clause" && !async {
			g.visitWithClause(c)
			continue
		}
		if ck == "block" {
			g.visitBlock(c)
			continue
		}
		if ck == "argument_list" && k == "class_definition" {
			g.visitExpr(c)
			continue
		}
		g.visitExpr(c)
	}
}

func (g *gen) visitAsPattern(ks []tree.Node, first func(tree.Node)) {
	for j, x := range ks {
		if j == 0 {
			first(x)
		} else if isTok(g, x) {
			g.tok(x)
		} else {
			g.visitExpr(x)
		}
	}
}

func (g *gen) visitWithClause(c tree.Node) {
	cs := kids(c)
	hasParen := len(cs) > 0 && cs[0].Kind() == "("
	if hasParen {
		// an atom around the items: made invisible (remove_with_parens)
		items := 0
		for _, x := range cs {
			if x.Kind() == "with_item" {
				items++
			}
		}
		oneTuple := items == 1 && len(cs) >= 2 && cs[len(cs)-2].Kind() == ","
		if !oneTuple {
			g.parenMode[cs[0].Index()] = parenInvisible
			g.parenMode[cs[len(cs)-1].Index()] = parenInvisible
		}
	}
	for _, x := range cs {
		if isTok(g, x) {
			g.tok(x)
			continue
		}
		if x.Kind() != "with_item" {
			g.visitExpr(x)
			continue
		}
		v := x.ChildByField("value")
		for _, y := range kids(x) {
			if y != v {
				if isTok(g, y) {
					g.tok(y)
				} else {
					g.visitExpr(y)
				}
				continue
			}
			switch {
			case hasParen:
				if y.Kind() == "as_pattern" {
					g.visitAsPattern(kids(y), func(z tree.Node) { g.withParens(z) })
				} else {
					g.withParens(y)
				}
			case isTok(g, y) && y.Kind() != "string" || isStringNode(y) && !strings.Contains(string(y.Text()), "\n"):
				g.wrapInvisible(y, false)
			case isParenAtom(y):
				g.withParens(y)
			case y.Kind() == "as_pattern":
				g.visitAsPattern(kids(y), func(z tree.Node) { g.withParens(z) })
			default:
				g.visitExpr(y)
			}
		}
	}
}

// withParens is remove_with_parens for an atom.
func (g *gen) withParens(n tree.Node) {
	if isParenAtom(n) {
		if g.maybeInvisibleAtom(n, "with_stmt", true) {
			g.wrapInvisible(n, false)
			return
		}
	}
	g.visitExpr(n)
}

func (g *gen) visitFuncDef(n tree.Node) {
	cs := kids(n)
	async := len(cs) > 0 && cs[0].Kind() == "async"
	g.newLineFlush(0)
	afterArrow := false
	for _, c := range cs {
		ck := c.Kind()
		if isTok(g, c) {
			g.tok(c)
			afterArrow = ck == "->"
			continue
		}
		if ck == "block" {
			g.visitBlock(c)
			continue
		}
		if afterArrow && !async {
			// return annotation: the expression inside the "type" node
			e := c
			if ck == "type" {
				if ks := kids(c); len(ks) == 1 {
					e = ks[0]
				}
			}
			g.annotation(e)
			afterArrow = false
			continue
		}
		afterArrow = false
		g.visitExpr(c)
	}
}

func (g *gen) annotation(e tree.Node) {
	annOK := libDepth(e) <= 1
	if isParenAtom(e) {
		if !g.maybeInvisibleAtom(e, "funcdef", false) {
			if g.parenMode[e.Index()] == parenInvisible {
				g.annParenNodes[e.Index()] = annOK
			}
			g.visitExpr(e)
			return
		}
	}
	g.wrapInvisibleAnn(e, annOK)
}

// libDepth approximates how deep the first leaf of e sits below e in
// blib2to3's tree (0: e is a leaf).
func libDepth(e tree.Node) int {
	switch e.Kind() {
	case "call", "attribute", "subscript":
		base := e
		for {
			k := base.Kind()
			var next tree.Node
			switch k {
			case "call":
				next = base.ChildByField("function")
			case "attribute":
				next = base.ChildByField("object")
			case "subscript":
				next = base.ChildByField("value")
			}
			if next.IsNull() {
				break
			}
			base = next
			if k2 := base.Kind(); k2 != "call" && k2 != "attribute" && k2 != "subscript" {
				break
			}
		}
		return 1 + libDepth(base)
	case "binary_operator", "boolean_operator", "comparison_operator":
		l := e.NamedChild(0)
		op := e.ChildByField("operator")
		for l.Kind() == e.Kind() && l.ChildByField("operator").Kind() == op.Kind() {
			l = l.NamedChild(0)
		}
		return 1 + libDepth(l)
	case "unary_operator", "not_operator", "parenthesized_expression", "tuple", "list", "dictionary", "set",
		"list_comprehension", "generator_expression", "conditional_expression", "lambda", "await":
		return 1
	case "concatenated_string":
		return 1
	}
	return 0
}

// visitSimple handles simple statements (visit_stmt partials and
// visit_simple_stmt's arithmetic wrapping).
func (g *gen) visitSimple(n tree.Node) {
	k := n.Kind()
	cs := kids(n)
	switch k {
	case "expression_statement":
		if len(cs) == 1 {
			c := cs[0]
			switch c.Kind() {
			case "assignment", "augmented_assignment":
				g.visitAssignment(c, true)
				return
			case "binary_operator":
				switch c.ChildByField("operator").Kind() {
				case "+", "-", "<<", ">>", "^", "&":
					g.wrapInvisible(c, false)
					return
				}
			case "string":
				if g.isDocstring(n) {
					g.docstring = true
				}
			}
		}
		for _, c := range cs {
			g.visitAny(c)
		}
	case "return_statement":
		g.simpleWithParens(cs, map[string]bool{"return": true}, "return_stmt")
	case "delete_statement":
		g.simpleWithParens(cs, map[string]bool{"del": true}, "del_stmt")
	case "assert_statement":
		g.simpleWithParens(cs, map[string]bool{"assert": true, ",": true}, "assert_stmt")
	case "import_from_statement", "future_import_statement":
		g.visitImportFrom(cs)
	default:
		for _, c := range cs {
			g.visitAny(c)
		}
	}
}

func (g *gen) visitAny(c tree.Node) {
	if isTok(g, c) {
		g.tok(c)
	} else {
		g.visitExpr(c)
	}
}

func (g *gen) simpleWithParens(cs []tree.Node, after map[string]bool, parent string) {
	check := false
	for _, c := range cs {
		if check {
			check = false
			if !(isTok(g, c) && after[c.Kind()]) {
				g.normalizeChild(c, parent, false)
				continue
			}
		}
		g.visitAny(c)
		if isTok(g, c) && after[c.Kind()] {
			check = true
		}
	}
}

func (g *gen) visitImportFrom(cs []tree.Node) {
	for i, c := range cs {
		if c.Kind() == "import" && isTok(g, c) {
			g.tok(c)
			rest := cs[i+1:]
			if len(rest) == 0 {
				return
			}
			if rest[0].Kind() == "(" {
				g.parenMode[rest[0].Index()] = parenInvisible
				g.parenMode[rest[len(rest)-1].Index()] = parenInvisible
				for _, r := range rest {
					g.visitAny(r)
				}
				return
			}
			if rest[0].Kind() == "wildcard_import" {
				for _, r := range rest {
					g.visitAny(r)
				}
				return
			}
			g.preTake()
			lp := g.synth(tLPAR, "", nil)
			lp.parentAtom = true
			g.appendLeaf(lp)
			for _, r := range rest {
				g.visitAny(r)
			}
			rp := g.synth(tRPAR, "", nil)
			rp.atomLeaves = 99
			g.appendLeaf(rp)
			return
		}
		g.visitAny(c)
	}
}

func (g *gen) visitAssignment(n tree.Node, first bool) {
	cs := kids(n)
	check := false
	sawEq := false
	for i, c := range cs {
		if isTok(g, c) && !(check && c.Kind() != ":" && c.Kind() != "=") {
			g.tok(c)
			if c.FieldName() == "operator" || c.Kind() == "=" {
				check = true
				sawEq = true
			}
			continue
		}
		if i == 0 && first && (c.Kind() == "pattern_list" || c.Kind() == "expression_list") {
			g.normalizeChild(c, "expr_stmt", false)
			continue
		}
		if check {
			check = false
			if c.Kind() == "assignment" {
				// chained "a = b = c": b is wrapped, then the rest
				g.visitChainedAssignment(c)
				continue
			}
			parent := "expr_stmt"
			if !n.ChildByField("type").IsNull() {
				parent = "annassign"
			}
			g.normalizeChild(c, parent, false)
			continue
		}
		_ = sawEq
		g.visitExpr(c)
	}
}

func (g *gen) visitChainedAssignment(n tree.Node) {
	cs := kids(n)
	check := true
	for _, c := range cs {
		if isTok(g, c) && !(check && c.Kind() != "=") {
			g.tok(c)
			if c.Kind() == "=" {
				check = true
			}
			continue
		}
		if check {
			check = false
			if c.Kind() == "assignment" {
				g.visitChainedAssignment(c)
				continue
			}
			g.normalizeChild(c, "expr_stmt", false)
			continue
		}
		g.visitExpr(c)
	}
}

// --- invisible parentheses ---

func isParenAtom(n tree.Node) bool {
	switch n.Kind() {
	case "parenthesized_expression", "tuple", "generator_expression", "tuple_pattern":
		cs := n.Child(0)
		return cs.Kind() == "("
	}
	return false
}

func atomContent(n tree.Node) []tree.Node {
	cs := kids(n)
	if len(cs) < 2 {
		return nil
	}
	return cs[1 : len(cs)-1]
}

func isOneTupleNode(n tree.Node) bool {
	switch n.Kind() {
	case "tuple", "tuple_pattern":
		in := atomContent(n)
		return len(in) == 2 && in[1].Kind() == ","
	case "expression_list", "pattern_list":
		in := kids(n)
		return len(in) == 2 && in[1].Kind() == ","
	case "parenthesized_expression":
		in := atomContent(n)
		return len(in) == 1 && isOneTupleNode(in[0]) && in[0].Kind() != "tuple"
	}
	return false
}

func isYieldNode(n tree.Node) bool {
	switch n.Kind() {
	case "yield":
		return true
	case "parenthesized_expression":
		in := atomContent(n)
		return len(in) == 1 && isYieldNode(in[0])
	}
	return false
}

// maxPrioAtLeastComma is max_delimiter_priority_in_atom >= COMMA_PRIORITY.
func maxPrioAtLeastComma(n tree.Node) bool {
	switch n.Kind() {
	case "tuple", "tuple_pattern", "generator_expression":
		return true
	case "parenthesized_expression":
		in := atomContent(n)
		if len(in) == 1 {
			c := in[0]
			switch c.Kind() {
			case "yield":
				for _, x := range kids(c) {
					if x.Kind() == "expression_list" {
						return true
					}
				}
			case "expression_list", "pattern_list":
				return true
			}
		}
	}
	return false
}

func isTupleContainingWalrus(n tree.Node) bool {
	if n.Kind() != "tuple" {
		return false
	}
	for _, c := range atomContent(n) {
		if c.Kind() == "named_expression" {
			return true
		}
	}
	return false
}

func isWalrusAssignment(n tree.Node) bool {
	if n.Kind() != "parenthesized_expression" {
		return false
	}
	in := atomContent(n)
	return len(in) == 1 && in[0].Kind() == "named_expression"
}

func isEmptyTuple(n tree.Node) bool {
	return n.Kind() == "tuple" && len(atomContent(n)) == 0
}

// maybeInvisibleAtom is maybe_make_parens_invisible_in_atom for a
// parenthesized atom: it marks its parens invisible when safe. It
// reports whether the atom should be wrapped in invisible parens (never,
// for parenthesized atoms).
func (g *gen) maybeInvisibleAtom(n tree.Node, parent string, rbac bool) bool {
	if !isParenAtom(n) || isEmptyTuple(n) || isOneTupleNode(n) ||
		(isYieldNode(n) && parent != "expr_stmt") ||
		(!rbac && maxPrioAtLeastComma(n)) || isTupleContainingWalrus(n) {
		return false
	}
	if isWalrusAssignment(n) {
		switch parent {
		case "annassign", "expr_stmt", "assert_stmt", "return_stmt", "except_clause", "funcdef", "with_stmt", "for_stmt", "del_stmt":
			return false
		}
	}
	g.parenMode[n.Index()] = parenInvisible
	in := atomContent(n)
	if len(in) == 1 {
		m := in[0]
		g.maybeInvisibleAtom(m, parent, rbac)
		if g.parenMode[m.Index()] == parenInvisible {
			g.parenMode[m.Index()] = parenOmit
		}
	}
	return false
}

// normalizeChild applies normalize_invisible_parens to one child.
func (g *gen) normalizeChild(c tree.Node, parent string, forTarget bool) {
	switch {
	case isParenAtom(c):
		if g.maybeInvisibleAtom(c, parent, forTarget) {
			g.wrapInvisible(c, false)
		} else {
			g.visitExpr(c)
		}
	case isOneTupleNode(c):
		g.wrapVisible(c)
	case isStringNode(c) && hasTripleQuotes(string(c.Text())) && strings.Contains(string(c.Text()), "\n"):
		g.visitExpr(c)
	default:
		g.wrapInvisible(c, false)
	}
}

func (g *gen) synth(t tokType, v string, n *tree.Node) *leaf {
	return &leaf{typ: t, value: v}
}

func (g *gen) wrapInvisible(c tree.Node, ann bool) {
	g.preTake()
	lp := &leaf{typ: tLPAR, value: "", parentAtom: true, annParen: ann}
	g.appendLeaf(lp)
	cnt := 0
	g.atomCount = append(g.atomCount, &cnt)
	g.visitAny(c)
	g.atomCount = g.atomCount[:len(g.atomCount)-1]
	rp := &leaf{typ: tRPAR, value: "", atomLeaves: cnt + 2}
	g.appendLeaf(rp)
}

func (g *gen) wrapInvisibleAnn(c tree.Node, ann bool) { g.wrapInvisible(c, ann) }

func (g *gen) wrapVisible(c tree.Node) {
	g.preTake()
	lp := &leaf{typ: tLPAR, value: "(", parentAtom: true}
	g.appendLeaf(lp)
	g.visitAny(c)
	g.appendLeaf(&leaf{typ: tRPAR, value: ")"})
}

// --- expressions ---

func (g *gen) visitExpr(n tree.Node) {
	if isTok(g, n) {
		g.tok(n)
		return
	}
	k := n.Kind()
	if n.IsError() || n.IsMissing() {
		panic(refuse("syntax error"))
	}
	switch k {
	case "unary_operator":
		// -x ** 2 -> -(x**2)
		arg := n.ChildByField("argument")
		if arg.Kind() == "binary_operator" && arg.ChildByField("operator").Kind() == "**" && simplePowerBase(arg.ChildByField("left")) {
			for _, c := range kids(n) {
				if c == arg {
					g.wrapVisible(c)
				} else {
					g.visitAny(c)
				}
			}
			return
		}
	case "attribute":
		obj := n.ChildByField("object")
		if obj.Kind() == "integer" || obj.Kind() == "float" {
			v := strings.ToLower(string(obj.Text()))
			if !strings.HasPrefix(v, "0x") && !strings.HasPrefix(v, "0b") && !strings.HasPrefix(v, "0o") && !strings.Contains(v, "j") {
				for _, c := range kids(n) {
					if c == obj {
						g.wrapVisible(c)
					} else {
						g.visitAny(c)
					}
				}
				return
			}
		}
	case "await":
		cs := kids(n)
		if len(cs) == 2 && isParenAtom(cs[1]) {
			g.tok(cs[0])
			g.awaitParens(cs[1])
			return
		}
	}
	for _, c := range kids(n) {
		g.visitAny(c)
	}
}

func simplePowerBase(n tree.Node) bool {
	switch n.Kind() {
	case "call", "attribute", "subscript", "await":
		return false
	}
	return true
}

func (g *gen) awaitParens(a tree.Node) {
	if !g.maybeInvisibleAtomAwait(a) {
		g.visitExpr(a)
		return
	}
	g.visitExpr(a)
}

func (g *gen) maybeInvisibleAtomAwait(a tree.Node) bool {
	g.maybeInvisibleAtom(a, "power", true)
	if g.parenMode[a.Index()] != parenInvisible {
		return false
	}
	// find the innermost content
	c := a
	for {
		in := atomContent(c)
		if len(in) != 1 {
			break
		}
		c = in[0]
		if !(isParenAtom(c) && g.parenMode[c.Index()] == parenOmit) {
			break
		}
	}
	if isTok(g, c) {
		return true
	}
	switch c.Kind() {
	case "call", "attribute", "subscript", "identifier", "integer", "float", "true", "false", "none":
		return true
	case "binary_operator":
		if c.ChildByField("operator").Kind() == "**" {
			return true
		}
	}
	// keep visible
	delete(g.parenMode, a.Index())
	return false
}
