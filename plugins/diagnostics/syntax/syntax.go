// Package syntax turns the syntax errors in a tree-sitter-python tree into
// diagnostics (code "syntax-error", severity error). It reports every
// ERROR and MISSING node that is not inside another ERROR node, with a
// message derived from the tokens around it (a clause keyword such as
// `else` with no statement to continue is named as such), plus errors
// tree-sitter-python accepts silently but CPython rejects: a compound
// statement with an empty body, a statement or clause indented
// differently from its siblings, Python 2's print and exec statements, a
// try without except or finally, and call arguments out of order (a
// positional argument after a keyword argument or **unpacking, *unpacking
// after **unpacking). Ranges are UTF-16 based (package
// textpos). Output is sorted by position, deduplicated and capped at
// MaxDiagnostics. The package uses only the standard library and the
// plugin SDK, so it runs inside the diagnostics plugin.
package syntax

import (
	"fmt"
	"slices"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Code is the diagnostic code of every finding.
const Code = "syntax-error"

// MaxDiagnostics caps one file's findings: after a hundred, more syntax
// errors tell nobody anything.
const MaxDiagnostics = 100

type finding struct {
	start, end int // bytes
	msg        string
}

type checker struct {
	t        *tree.Tree
	src      []byte
	k        tree.KindTable // kinds for t
	out      []finding
	unclosed map[int]bool // preorder index of an opening bracket never closed
	stray    map[int]string
}

// Classes of the kinds Check looks at (tree.KindClasses): Check visits
// every node, and comparing kind names costs calls in the wasm plugin.
const (
	kOther uint8 = iota
	kPy2Statement
	kTryStatement
	kBlock
	kModule
	kElifClause
	kElseClause
	kExceptClause
	kExceptGroupClause
	kFinallyClause
	kArgumentList
	kKeywordArgument
	kListSplat
	kDictionarySplat
)

var kinds = tree.NewKindClasses(map[string]uint8{
	"print_statement":     kPy2Statement,
	"exec_statement":      kPy2Statement,
	"try_statement":       kTryStatement,
	"block":               kBlock,
	"module":              kModule,
	"elif_clause":         kElifClause,
	"else_clause":         kElseClause,
	"except_clause":       kExceptClause,
	"except_group_clause": kExceptGroupClause,
	"finally_clause":      kFinallyClause,
	"argument_list":       kArgumentList,
	"keyword_argument":    kKeywordArgument,
	"list_splat":          kListSplat,
	"dictionary_splat":    kDictionarySplat,
})

// Check returns the syntax diagnostics of t; idx must index t.Source().
func Check(t *tree.Tree, idx *textpos.Index) []abi.Diagnostic {
	c := &checker{t: t, src: t.Source(), k: kinds.Table(t)}
	if t.Root().HasError() {
		c.matchBrackets()
	}
	// A walk of the whole tree, in preorder, that stops only at the nodes
	// below (Scan skips the others without a call per node).
	for i, end := 0, t.NodeCount(); ; i++ {
		if i = c.k.Scan(i, end, tree.FlagError|tree.FlagMissing); i >= end {
			break
		}
		n := t.NodeAt(i)
		switch {
		case n.IsError():
			c.errorNode(n)
			i = n.SubtreeEnd() - 1 // nested errors are part of this one
			continue
		case n.IsMissing():
			c.missing(n)
			i = n.SubtreeEnd() - 1
			continue
		}
		switch k := c.k.Of(n); k {
		case kPy2Statement:
			c.py2Statement(n)
		case kTryStatement:
			c.tryClauses(n)
		case kArgumentList:
			c.argumentOrder(n)
		case kBlock, kModule:
			if !n.HasError() {
				// Recovery can misplace statements; the ERROR explains it.
				c.indentation(n, k == kModule)
			}
			if k == kBlock {
				c.emptyBlock(n)
			}
		}
	}
	return c.diagnostics(idx)
}

// TooDeep is the one diagnostic of a file the SDK refused for its nesting
// (sdk.File.TooDeep): CPython's message at CPython's position. The file's
// tree is withheld, so nothing else is reported, as CPython's tokenizer
// stops there too.
func TooDeep(e nesting.Excess, idx *textpos.Index) abi.Diagnostic {
	sl, sc := idx.Position(e.Start)
	el, ec := idx.Position(e.End)
	return abi.Diagnostic{
		Range:    abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}},
		Severity: abi.SeverityError,
		Code:     Code,
		Message:  e.Message,
		Source:   abi.EngineName,
	}
}

func (c *checker) add(start, end int, format string, args ...any) {
	c.out = append(c.out, finding{start, end, fmt.Sprintf(format, args...)})
}

func (c *checker) diagnostics(idx *textpos.Index) []abi.Diagnostic {
	slices.SortStableFunc(c.out, func(a, b finding) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	c.out = slices.Compact(c.out)
	if len(c.out) > MaxDiagnostics {
		c.out = c.out[:MaxDiagnostics]
	}
	var diags []abi.Diagnostic
	for _, f := range c.out {
		sl, sc := idx.Position(f.start)
		el, ec := idx.Position(f.end)
		diags = append(diags, abi.Diagnostic{
			Range:    abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}},
			Severity: abi.SeverityError,
			Code:     Code,
			Message:  f.msg,
			Source:   abi.EngineName,
		})
	}
	return diags
}

// argumentOrder reports what CPython's grammar forbids in a call's (or a
// class's base) arguments and tree-sitter-python accepts: a positional
// argument after a keyword argument or after **unpacking, and *unpacking
// after **unpacking.
func (c *checker) argumentOrder(args tree.Node) {
	keyword, dictSplat := false, false
	for a := args.FirstChild(); !a.IsNull(); a = a.NextSibling() {
		if !a.IsNamed() || a.IsExtra() || a.IsError() || a.IsMissing() {
			continue
		}
		switch c.k.Of(a) {
		case kKeywordArgument:
			keyword = true
		case kDictionarySplat:
			dictSplat = true
		case kListSplat:
			if dictSplat {
				c.add(a.StartByte(), a.EndByte(), "iterable argument unpacking follows keyword argument unpacking")
			}
		default:
			switch {
			case dictSplat:
				c.add(a.StartByte(), a.EndByte(), "positional argument follows keyword argument unpacking")
			case keyword:
				c.add(a.StartByte(), a.EndByte(), "positional argument follows keyword argument")
			}
		}
	}
}

// isToken reports whether n is a leaf that stands for source text.
func isToken(n tree.Node) bool {
	return n.FirstChild().IsNull() && !n.IsMissing() && n.EndByte() > n.StartByte()
}

var closerOf = map[string]string{"(": ")", "[": "]", "{": "}"}

// matchBrackets pairs brackets over the whole file, as CPython's tokenizer
// does, so an ERROR node can tell an unclosed or stray bracket from one
// whose partner lies outside it.
func (c *checker) matchBrackets() {
	c.unclosed = map[int]bool{}
	c.stray = map[int]string{}
	var stack []tree.Node
	c.t.Root().Walk(func(n tree.Node) bool {
		if n.Kind() == "string" || n.Kind() == "comment" {
			return false // "(" inside a string is text, interpolations aside
		}
		if !isToken(n) || n.IsNamed() {
			return true
		}
		k := n.Kind()
		switch k {
		case "(", "[", "{":
			stack = append(stack, n)
		case ")", "]", "}":
			switch {
			case len(stack) == 0:
				c.stray[n.Index()] = fmt.Sprintf("unmatched '%s'", k)
			case closerOf[stack[len(stack)-1].Kind()] != k:
				c.stray[n.Index()] = fmt.Sprintf("closing '%s' does not match opening '%s'", k, stack[len(stack)-1].Kind())
				stack = stack[:len(stack)-1]
			default:
				stack = stack[:len(stack)-1]
			}
		}
		return true
	})
	for _, n := range stack {
		c.unclosed[n.Index()] = true
	}
}

// clauseKeywords start a clause that continues a compound statement.
var clauseKeywords = map[string]bool{"elif": true, "else": true, "except": true, "finally": true}

// compoundKeywords start a statement whose header ends in ":".
var compoundKeywords = map[string]bool{
	"if": true, "elif": true, "else": true, "while": true, "for": true, "with": true,
	"def": true, "class": true, "try": true, "except": true, "finally": true,
}

func (c *checker) errorNode(e tree.Node) {
	var toks []tree.Node
	e.Walk(func(n tree.Node) bool {
		if isToken(n) {
			toks = append(toks, n)
		}
		return true
	})
	if len(toks) == 0 {
		c.add(e.StartByte(), e.EndByte(), "invalid syntax")
		return
	}
	// A bracket problem explains everything after it, so it wins.
	for _, t := range toks {
		if msg, ok := c.stray[t.Index()]; ok {
			c.add(t.StartByte(), t.EndByte(), "%s", msg)
			return
		}
	}
	for _, t := range toks {
		if c.unclosed[t.Index()] {
			c.add(t.StartByte(), t.EndByte(), "unclosed '%s'", t.Kind())
			return
		}
	}
	first := toks[0]
	if compoundKeywords[first.Kind()] && !first.IsNamed() {
		line := c.lineEnd(first.StartByte())
		// Only a ":" outside brackets ends a header: the ones in
		// `def f(a: int)` or `if d[1:2]` belong to annotations and slices.
		last, colon, depth := first, false, 0
		for _, t := range toks {
			if t.StartByte() >= line {
				break
			}
			last = t
			switch t.Kind() {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ":":
				colon = colon || depth == 0
			}
		}
		if !colon {
			c.add(last.EndByte(), last.EndByte(), `expected ":"`)
			return
		}
	}
	// A clause with no statement to belong to (an `else:` after a
	// finished if, say) is a clause keyword directly inside an ERROR,
	// which either starts there or goes on with the clause's ":" (a
	// keyword inside a real clause has the clause as its parent): CPython
	// points at the keyword.
	for _, t := range toks {
		if !clauseKeywords[t.Kind()] || t.IsNamed() || !t.Parent().IsError() {
			continue
		}
		next := t.NextSibling()
		if t.Parent().StartByte() == t.StartByte() || (!next.IsNull() && next.Kind() == ":" && (t.Kind() == "else" || t.Kind() == "finally")) {
			c.add(t.StartByte(), t.EndByte(), "invalid syntax: '%s' does not continue a statement", t.Kind())
			return
		}
	}
	// Inside a construct, the ERROR holds the tokens that do not fit;
	// as a whole statement, the parse failed where the statement ended.
	culprit := first
	if p := e.Parent().Kind(); p == "module" || p == "block" {
		culprit = toks[len(toks)-1]
		if culprit.EndByte() >= c.lineEnd(culprit.StartByte()) || c.restIsComment(culprit.EndByte()) {
			if len(toks) > 1 {
				c.add(culprit.StartByte(), culprit.EndByte(), "invalid syntax: statement ends unexpectedly after %s", quote(culprit))
				return
			}
		}
	}
	c.add(culprit.StartByte(), culprit.EndByte(), "invalid syntax: unexpected %s", quote(culprit))
}

func quote(n tree.Node) string {
	text := n.Text()
	if len(text) > 40 {
		return n.Kind()
	}
	return "'" + string(text) + "'"
}

// lineEnd returns the offset of the "\n" ending the line holding off, or
// the source length.
func (c *checker) lineEnd(off int) int {
	for i := off; i < len(c.src); i++ {
		if c.src[i] == '\n' {
			return i
		}
	}
	return len(c.src)
}

// restIsComment reports whether only blanks and a comment follow off on
// its line.
func (c *checker) restIsComment(off int) bool {
	for i := off; i < len(c.src); i++ {
		switch c.src[i] {
		case ' ', '\t', '\f', '\r':
		case '#', '\n':
			return true
		default:
			return false
		}
	}
	return true
}

func (c *checker) missing(m tree.Node) {
	if m.IsNamed() {
		what := m.Kind()
		if what == "identifier" {
			what = "a name or an expression"
		}
		c.add(m.StartByte(), m.EndByte(), "expected %s", what)
		return
	}
	c.add(m.StartByte(), m.EndByte(), "expected %q", m.Kind())
}

// headerNames names a compound statement as CPython's messages do.
var headerNames = map[string]string{
	"if_statement": "'if' statement", "elif_clause": "'elif' statement", "else_clause": "'else' statement",
	"for_statement": "'for' statement", "while_statement": "'while' statement",
	"with_statement": "'with' statement", "try_statement": "'try' statement",
	"except_clause": "'except' statement", "except_group_clause": "'except*' statement",
	"finally_clause": "'finally' statement", "function_definition": "function definition",
	"class_definition": "class definition", "match_statement": "'match' statement",
	"case_clause": "'case' statement",
}

// emptyBlock reports a block with no statements (comments do not count):
// tree-sitter-python accepts "if x:" followed by a dedent, CPython does not.
func (c *checker) emptyBlock(b tree.Node) {
	for s := range b.NamedChildren() {
		if !s.IsExtra() {
			return
		}
	}
	owner := b.Parent()
	name, ok := headerNames[owner.Kind()]
	if !ok {
		return
	}
	line, _ := lineOf(c.src, owner.StartByte())
	// Point at where the body should start: the next token after the
	// block, or the end of the header.
	at := b.StartByte()
	if next := nextToken(b); !next.IsNull() {
		at = next.StartByte()
	}
	c.add(at, at, "expected an indented block after %s on line %d", name, line+1)
}

// nextToken returns the first token after n in the file, or null.
func nextToken(n tree.Node) tree.Node {
	for ; !n.IsNull(); n = n.Parent() {
		for s := n.NextSibling(); !s.IsNull(); s = s.NextSibling() {
			if s.EndByte() > s.StartByte() {
				for !s.FirstChild().IsNull() {
					s = s.FirstChild()
				}
				return s
			}
		}
	}
	return tree.Node{}
}

func lineOf(src []byte, off int) (line, start int) {
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, start
}

// isClause: the kind continues a compound statement at its own
// indentation.
func isClause(k uint8) bool {
	return k == kElifClause || k == kElseClause || k == kExceptClause || k == kExceptGroupClause || k == kFinallyClause
}

// indentation checks that the statements of a block (or module) that
// begin a line all share one indentation, and that their clauses (else,
// except, ...) line up with the statement they belong to.
func (c *checker) indentation(b tree.Node, module bool) {
	want := -1
	if module {
		want = 0
	}
	for s := b.FirstChild(); !s.IsNull(); s = s.NextSibling() {
		if !s.IsNamed() || s.IsExtra() {
			continue
		}
		col, ok := c.indentOf(s.StartByte())
		if !ok {
			continue
		}
		switch {
		case want < 0:
			want = col
		case col > want:
			c.add(s.StartByte(), s.StartByte(), "unexpected indent")
		case col < want:
			c.add(s.StartByte(), s.StartByte(), "unindent does not match any outer indentation level")
		}
		for cl := s.FirstChild(); !cl.IsNull(); cl = cl.NextSibling() {
			if !cl.IsNamed() || !isClause(c.k.Of(cl)) {
				continue
			}
			if ccol, ok := c.indentOf(cl.StartByte()); ok && ccol != col {
				c.add(cl.StartByte(), cl.StartByte(), "unindent does not match any outer indentation level")
			}
		}
	}
}

// indentOf returns the indentation column (tabs to multiples of 8, as
// CPython counts) of the line holding off, if only blanks precede off on
// a line that does not continue a previous one with a backslash.
func (c *checker) indentOf(off int) (int, bool) {
	src := c.src
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	col := 0
	for i := start; i < off; i++ {
		switch src[i] {
		case ' ':
			col++
		case '\t':
			col = col/8*8 + 8
		case '\f':
			col = 0
		case '\xef', '\xbb', '\xbf': // a BOM at the start of the file
			if start != 0 {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	if start >= 2 && src[start-2] == '\\' || start >= 3 && src[start-2] == '\r' && src[start-3] == '\\' {
		return 0, false
	}
	return col, true
}

// py2Starts are the first tokens of a Python 2 print/exec argument that
// cannot continue "print" as a Python 3 expression ("print >> f, x",
// "print -1" or "print (x)" are valid Python 3).
var py2Starts = map[string]bool{
	"identifier": true, "string_start": true, "integer": true, "float": true,
	"true": true, "false": true, "none": true, "not": true, "lambda": true,
}

// py2Statement reports Python 2's print and exec statements, which
// tree-sitter-python still parses.
func (c *checker) py2Statement(n tree.Node) {
	kw := n.FirstChild()
	arg := kw.NextSibling()
	for !arg.IsNull() && !arg.FirstChild().IsNull() {
		arg = arg.FirstChild()
	}
	if arg.IsNull() || !py2Starts[arg.Kind()] {
		return
	}
	c.add(kw.StartByte(), kw.EndByte(), "missing parentheses in call to '%s'; did you mean %s(...)?", kw.Text(), kw.Text())
}

// tryClauses reports a try statement with neither an except nor a finally
// clause: tree-sitter-python accepts `try:` followed by a dedent, CPython
// does not.
func (c *checker) tryClauses(n tree.Node) {
	for ch := range n.NamedChildren() {
		switch c.k.Of(ch) {
		case kExceptClause, kExceptGroupClause, kFinallyClause:
			return
		}
	}
	end := n.StartByte() + 3
	c.add(n.StartByte(), end, "expected 'except' or 'finally' block after 'try'")
}
