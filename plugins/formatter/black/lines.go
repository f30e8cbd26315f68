package black

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

type tokType uint8

const (
	tNAME tokType = iota
	tNUMBER
	tSTRING
	tLPAR
	tRPAR
	tLSQB
	tRSQB
	tLBRACE
	tRBRACE
	tCOMMA
	tDOT
	tCOLON
	tEQUAL
	tAT
	tSTAR
	tDSTAR
	tPLUS
	tMINUS
	tTILDE
	tOP // any other operator
	tCOMMENT
	tSTANDALONE
	tELLIPSIS
)

func (t tokType) opening() bool { return t == tLPAR || t == tLSQB || t == tLBRACE }
func (t tokType) closing() bool { return t == tRPAR || t == tRSQB || t == tRBRACE }
func (t tokType) bracket() bool { return t.opening() || t.closing() }

func closingFor(t tokType) tokType {
	switch t {
	case tLPAR:
		return tRPAR
	case tLSQB:
		return tRSQB
	}
	return tRBRACE
}

// Delimiter priorities (Black's brackets.py).
const (
	prioComprehension = 20
	prioComma         = 18
	prioTernary       = 16
	prioLogic         = 14
	prioString        = 12
	prioComparator    = 10
	prioDot           = 1
)

var mathPriorities = map[string]int{
	"|": 9, "^": 8, "&": 7, "<<": 6, ">>": 6, "+": 5, "-": 5,
	"*": 4, "/": 4, "//": 4, "%": 4, "@": 4, "~": 3, "**": 2,
}

// leaf is one token of a logical line, with the context Black reads from
// its blib2to3 tree precomputed from the tree-sitter tree.
type leaf struct {
	typ    tokType
	value  string
	prefix string
	ws     string // whitespace before it when appended after another leaf

	lineno int // 1-based source line, 0 for synthesized leaves

	staticDelim int  // split-before priority known from the tree
	attrDot     bool // a "." eligible for DOT_PRIORITY
	varargDef   bool // * ** / in a def's parameter list
	varargCall  bool // * ** in a call's arguments
	parentAtom  bool // an opening bracket of an atom or import-from
	trailer     bool // a bracket of a call/subscript (lib2to3 trailer)
	commaArgs   bool // a comma directly in arglist/typedargslist
	commaSubscr bool // a comma directly in a subscript list
	annParen    bool // invisible paren around a return annotation
	isImport    bool // "import"/"from" starting an import statement
	orphan      bool // no parent in Black's tree (synthesized comma, clone)
	// (the flags side by side: 128 bytes a leaf, not 144)
	noSpaceAfter bool
	sliceColon   bool
	atomLeaves   int // for invisible rpar: leaves in its atom

	node tree.Node // null for synthesized leaves

	// bracket tracking (mutable, as in Black)
	depth   int
	opening *leaf
}

func (l *leaf) isMultilineString() bool {
	return l.typ == tSTRING && strings.Contains(l.value, "\n") && hasTripleQuotes(l.value)
}

func isTypeComment(l *leaf, suffix string) bool {
	return (l.typ == tCOMMENT || l.typ == tSTANDALONE) && strings.HasPrefix(l.value, "# type:"+suffix)
}

type bracketKey struct {
	depth int
	typ   tokType
}

type bracketTracker struct {
	depth          int
	bracketMatch   openBrackets
	delimiters     map[*leaf]int
	previous       *leaf
	forLoopDepths  []int
	lambdaArgDepth []int
	invisible      []*leaf
}

func (bt *bracketTracker) mark(l *leaf) {
	if l.typ == tCOMMENT {
		return
	}
	if bt.depth == 0 && l.typ.closing() {
		if _, ok := bt.bracketMatch.get(bracketKey{0, l.typ}); !ok {
			return
		}
	}
	// maybe_decrement_after_for_loop_variable
	if n := len(bt.forLoopDepths); n > 0 && bt.forLoopDepths[n-1] == bt.depth && l.typ == tNAME && l.value == "in" {
		bt.depth--
		bt.forLoopDepths = bt.forLoopDepths[:n-1]
	}
	if n := len(bt.lambdaArgDepth); n > 0 && bt.lambdaArgDepth[n-1] == bt.depth && l.typ == tCOLON {
		bt.depth--
		bt.lambdaArgDepth = bt.lambdaArgDepth[:n-1]
	}
	if l.typ.closing() {
		bt.depth--
		k := bracketKey{bt.depth, l.typ}
		op, ok := bt.bracketMatch.get(k)
		if !ok {
			panic(errBracketMatch)
		}
		bt.bracketMatch.remove(k)
		l.opening = op
		if l.value == "" {
			bt.invisible = append(bt.invisible, l)
		}
	}
	l.depth = bt.depth
	if bt.depth == 0 {
		delim := splitBeforeDelimiter(l, bt.previous)
		if delim > 0 && bt.previous != nil {
			if bt.delimiters == nil {
				bt.delimiters = map[*leaf]int{}
			}
			bt.delimiters[bt.previous] = delim
		} else if l.typ == tCOMMA {
			if bt.delimiters == nil {
				bt.delimiters = map[*leaf]int{}
			}
			bt.delimiters[l] = prioComma
		}
	}
	if l.typ.opening() {
		bt.bracketMatch.put(bracketKey{bt.depth, closingFor(l.typ)}, l)
		bt.depth++
		if l.value == "" {
			bt.invisible = append(bt.invisible, l)
		}
	}
	bt.previous = l
	if l.typ == tNAME && l.value == "lambda" {
		bt.depth++
		bt.lambdaArgDepth = append(bt.lambdaArgDepth, bt.depth)
	}
	if l.typ == tNAME && l.value == "for" {
		bt.depth++
		bt.forLoopDepths = append(bt.forLoopDepths, bt.depth)
	}
}

// openBrackets maps a bracket's depth and closing type to its opening
// leaf, as Black's bracket_match dict does. A line has few brackets open
// at once, so a slice searched from the end costs less than a map, which
// every line would allocate.
type openBrackets []openBracket

type openBracket struct {
	key     bracketKey
	opening *leaf
}

func (o openBrackets) get(k bracketKey) (*leaf, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == k {
			return o[i].opening, true
		}
	}
	return nil, false
}

func (o *openBrackets) put(k bracketKey, l *leaf) {
	for i := len(*o) - 1; i >= 0; i-- {
		if (*o)[i].key == k {
			(*o)[i].opening = l
			return
		}
	}
	*o = append(*o, openBracket{k, l})
}

func (o *openBrackets) remove(k bracketKey) {
	for i := len(*o) - 1; i >= 0; i-- {
		if (*o)[i].key == k {
			*o = append((*o)[:i], (*o)[i+1:]...)
			return
		}
	}
}

type bracketError struct{}

var errBracketMatch = bracketError{}

func splitBeforeDelimiter(l, previous *leaf) int {
	if l.orphan {
		if l.typ == tSTRING && previous != nil && previous.typ == tSTRING {
			return prioString
		}
		switch l.value {
		case "<", ">", "==", "!=", "<=", ">=", "<>", "is":
			return prioComparator
		}
		return 0
	}
	if l.attrDot && (previous == nil || previous.typ.closing()) {
		return prioDot
	}
	if l.staticDelim > 0 {
		return l.staticDelim
	}
	if l.typ == tSTRING && previous != nil && previous.typ == tSTRING {
		return prioString
	}
	return 0
}

func (bt *bracketTracker) anyOpenBrackets() bool { return len(bt.bracketMatch) > 0 }

func (bt *bracketTracker) maxDelimiterPriority(exclude *leaf) int {
	m := 0
	for k, v := range bt.delimiters {
		if k != exclude && v > m {
			m = v
		}
	}
	return m
}

func (bt *bracketTracker) delimiterCountWithPriority(p int) int {
	if len(bt.delimiters) == 0 {
		return 0
	}
	if p == 0 {
		p = bt.maxDelimiterPriority(nil)
	}
	n := 0
	for _, v := range bt.delimiters {
		if v == p {
			n++
		}
	}
	return n
}

// line is Black's Line.
type line struct {
	depth          int
	leaves         []*leaf
	commentKeys    []*leaf
	comments       map[*leaf][]*leaf
	bt             bracketTracker
	insideBrackets bool
	shouldSplitRHS bool
	magicComma     *leaf
	o              *Options
	// room for the first leaves, allocated with the line: most lines are
	// short, and growing leaves from nil took up to four allocations
	small [8]*leaf
}

func newLine(o *Options, depth int, inside bool) *line {
	ln := &line{o: o, depth: depth, insideBrackets: inside}
	ln.leaves = ln.small[:0]
	return ln
}

func (ln *line) empty() bool { return len(ln.leaves) == 0 && len(ln.commentKeys) == 0 }

func (ln *line) append(l *leaf, preformatted, trackBracket bool) {
	hasValue := l.typ.bracket() || strings.TrimSpace(l.value) != ""
	if !hasValue {
		return
	}
	if l.typ == tCOLON && ln.isClassParenEmpty() {
		ln.leaves = ln.leaves[:len(ln.leaves)-2]
	}
	if len(ln.leaves) > 0 && !preformatted {
		l.prefix += l.ws
	}
	if ln.insideBrackets || !preformatted || trackBracket {
		ln.bt.mark(l)
		if !ln.o.SkipMagicTrailingComma {
			if ln.hasMagicTrailingComma(l, false) {
				ln.magicComma = l
			}
		} else if ln.hasMagicTrailingComma(l, true) {
			ln.removeTrailingComma()
		}
	}
	if !ln.appendComment(l) {
		ln.leaves = append(ln.leaves, l)
	}
}

var errAppend = &splitError{"cannot append"}

func (ln *line) appendSafe(l *leaf, preformatted bool) error {
	if ln.bt.depth == 0 {
		if ln.isComment() {
			return errAppend
		}
		if len(ln.leaves) > 0 && l.typ == tSTANDALONE {
			return errAppend
		}
	}
	ln.append(l, preformatted, false)
	return nil
}

func (ln *line) isComment() bool {
	return len(ln.leaves) == 1 && ln.leaves[0].typ == tSTANDALONE
}

func (ln *line) isDecorator() bool { return len(ln.leaves) > 0 && ln.leaves[0].typ == tAT }
func (ln *line) isImport() bool    { return len(ln.leaves) > 0 && ln.leaves[0].isImport }
func (ln *line) isClass() bool {
	return len(ln.leaves) > 0 && ln.leaves[0].typ == tNAME && ln.leaves[0].value == "class"
}
func (ln *line) isStubClass() bool {
	return ln.isClass() && len(ln.leaves) > 0 && ln.leaves[len(ln.leaves)-1].typ == tELLIPSIS
}
func (ln *line) isDef() bool {
	if len(ln.leaves) == 0 {
		return false
	}
	f := ln.leaves[0]
	if f.typ == tNAME && f.value == "def" {
		return true
	}
	return f.typ == tNAME && f.value == "async" && len(ln.leaves) > 1 && ln.leaves[1].typ == tNAME && ln.leaves[1].value == "def"
}
func (ln *line) isClassParenEmpty() bool {
	return len(ln.leaves) == 4 && ln.isClass() && ln.leaves[2].typ == tLPAR && ln.leaves[2].value == "(" &&
		ln.leaves[3].typ == tRPAR && ln.leaves[3].value == ")"
}
func (ln *line) isTripleQuotedString() bool {
	return len(ln.leaves) > 0 && ln.leaves[0].typ == tSTRING &&
		(strings.HasPrefix(ln.leaves[0].value, `"""`) || strings.HasPrefix(ln.leaves[0].value, `'''`))
}
func (ln *line) opensBlock() bool {
	return len(ln.leaves) > 0 && ln.leaves[len(ln.leaves)-1].typ == tCOLON
}

func (ln *line) containsStandaloneComments(depthLimit int) bool {
	for _, l := range ln.leaves {
		if l.typ == tSTANDALONE && l.depth <= depthLimit {
			return true
		}
	}
	return false
}

const maxDepth = 1 << 30

func (ln *line) containsUncollapsableTypeComments() bool {
	if len(ln.leaves) == 0 {
		return false
	}
	ignored := map[*leaf]bool{}
	last := ln.leaves[len(ln.leaves)-1]
	ignored[last] = true
	if last.typ == tCOMMA || (last.typ == tRPAR && last.value == "") {
		if len(ln.leaves) < 2 {
			return false
		}
		last = ln.leaves[len(ln.leaves)-2]
		ignored[last] = true
	}
	commentSeen := false
	for _, k := range ln.commentKeys {
		for _, c := range ln.comments[k] {
			if isTypeComment(c, "") {
				if commentSeen || (!isTypeComment(c, " ignore") && !ignored[k]) {
					return true
				}
			}
			commentSeen = true
		}
	}
	return false
}

func (ln *line) containsUnsplittableTypeIgnore() bool {
	if len(ln.leaves) == 0 {
		return false
	}
	first, last := 0, 0
	for _, l := range ln.leaves {
		if l.lineno != 0 {
			first = l.lineno
			break
		}
	}
	for i := len(ln.leaves) - 1; i >= 0; i-- {
		if ln.leaves[i].lineno != 0 {
			last = ln.leaves[i].lineno
			break
		}
	}
	if first == last {
		start := len(ln.leaves) - 2
		if start < 0 {
			start = 0
		}
		for _, l := range ln.leaves[start:] {
			for _, c := range ln.comments[l] {
				if isTypeComment(c, " ignore") {
					return true
				}
			}
		}
	}
	return false
}

func (ln *line) containsMultilineStrings() bool {
	for _, l := range ln.leaves {
		if l.isMultilineString() {
			return true
		}
	}
	return false
}

func isOneSequenceBetween(opening, closing *leaf, leaves []*leaf, open, close tokType) bool {
	if opening.typ != open || closing.typ != close {
		return false
	}
	depth := closing.depth + 1
	idx := -1
	for i, l := range leaves {
		if l == opening {
			idx = i
			break
		}
	}
	if idx < 0 {
		return false
	}
	commas := 0
	for _, l := range leaves[idx+1:] {
		if l == closing {
			break
		}
		if l.depth == depth && l.typ == tCOMMA {
			commas++
			if l.commaArgs && !l.orphan {
				commas++
				break
			}
		}
	}
	return commas < 2
}

func (ln *line) hasMagicTrailingComma(closing *leaf, ensureRemovable bool) bool {
	if !(closing.typ.closing() && len(ln.leaves) > 0 && ln.leaves[len(ln.leaves)-1].typ == tCOMMA) {
		return false
	}
	if closing.typ == tRBRACE {
		return true
	}
	if closing.typ == tRSQB {
		if closing.trailer && closing.opening != nil && isOneSequenceBetween(closing.opening, closing, ln.leaves, tLSQB, tRSQB) {
			return false
		}
		if !ensureRemovable {
			return true
		}
		comma := ln.leaves[len(ln.leaves)-1]
		if comma.orphan {
			return false
		}
		return !comma.commaSubscr || closing.opening == nil || !isOneSequenceBetween(closing.opening, closing, ln.leaves, tLSQB, tRSQB)
	}
	if ln.isImport() {
		return true
	}
	if closing.opening != nil && !isOneSequenceBetween(closing.opening, closing, ln.leaves, tLPAR, tRPAR) {
		return true
	}
	return false
}

func (ln *line) addComment(key, c *leaf) {
	if ln.comments == nil {
		ln.comments = map[*leaf][]*leaf{}
	}
	if _, ok := ln.comments[key]; !ok {
		ln.commentKeys = append(ln.commentKeys, key)
	}
	ln.comments[key] = append(ln.comments[key], c)
}

func (ln *line) appendComment(c *leaf) bool {
	if c.typ == tSTANDALONE && ln.bt.anyOpenBrackets() {
		c.prefix = ""
		return false
	}
	if c.typ != tCOMMENT {
		return false
	}
	if len(ln.leaves) == 0 {
		c.typ = tSTANDALONE
		c.prefix = ""
		return false
	}
	last := ln.leaves[len(ln.leaves)-1]
	if last.typ == tRPAR && last.value == "" && !last.orphan && last.atomLeaves <= 3 && !isTypeComment(c, "") {
		if len(ln.leaves) < 2 {
			c.typ = tSTANDALONE
			c.prefix = ""
			return false
		}
		last = ln.leaves[len(ln.leaves)-2]
	}
	ln.addComment(last, c)
	return true
}

func (ln *line) commentsAfter(l *leaf) []*leaf { return ln.comments[l] }

func (ln *line) removeTrailingComma() {
	tc := ln.leaves[len(ln.leaves)-1]
	ln.leaves = ln.leaves[:len(ln.leaves)-1]
	cs := ln.comments[tc]
	if cs != nil {
		delete(ln.comments, tc)
		for i, k := range ln.commentKeys {
			if k == tc {
				ln.commentKeys = append(ln.commentKeys[:i:i], ln.commentKeys[i+1:]...)
				break
			}
		}
	}
	last := ln.leaves[len(ln.leaves)-1]
	if _, ok := ln.comments[last]; !ok {
		if ln.comments == nil {
			ln.comments = map[*leaf][]*leaf{}
		}
		ln.commentKeys = append(ln.commentKeys, last)
	}
	ln.comments[last] = append(ln.comments[last], cs...)
}

func (ln *line) clone() *line {
	c := &line{o: ln.o, depth: ln.depth, insideBrackets: ln.insideBrackets, shouldSplitRHS: ln.shouldSplitRHS, magicComma: ln.magicComma}
	c.leaves = c.small[:0]
	return c
}

func (ln *line) String() string {
	if ln.empty() {
		return "\n"
	}
	var b strings.Builder
	b.Grow(ln.renderedLen() + 1)
	ln.render(&b)
	b.WriteByte('\n')
	return b.String()
}

// renderedLen is the length render writes, so String allocates once.
func (ln *line) renderedLen() int {
	n := 4 * ln.depth
	for _, l := range ln.leaves {
		n += len(l.prefix) + len(l.value)
	}
	for _, k := range ln.commentKeys {
		for _, c := range ln.comments[k] {
			n += len(c.prefix) + len(c.value)
		}
	}
	return n
}

// indents holds the indentation of the shallower depths, so rendering a
// line does not allocate it.
var indents = strings.Repeat("    ", 32)

func indentOf(depth int) string {
	if 4*depth <= len(indents) {
		return indents[:4*depth]
	}
	return strings.Repeat("    ", depth)
}

func (ln *line) render(b *strings.Builder) {
	indent := indentOf(ln.depth)
	if len(ln.leaves) > 0 {
		first := ln.leaves[0]
		b.WriteString(first.prefix)
		b.WriteString(indent)
		b.WriteString(first.value)
		for _, l := range ln.leaves[1:] {
			b.WriteString(l.prefix)
			b.WriteString(l.value)
		}
	}
	for _, k := range ln.commentKeys {
		for _, c := range ln.comments[k] {
			b.WriteString(c.prefix)
			b.WriteString(c.value)
		}
	}
}

// str is line_to_string: the rendering without surrounding newlines.
func (ln *line) str() string {
	return strings.Trim(ln.String(), "\n")
}

func isLineShortEnough(ln *line, lineLength int, lineStr string) bool {
	if lineStr == "" {
		lineStr = ln.str()
	}
	return runeLen(lineStr) <= lineLength && !strings.Contains(lineStr, "\n") && !ln.containsStandaloneComments(maxDepth)
}

type leafLen struct {
	idx    int
	l      *leaf
	length int
}

// enumerateWithLength lists leaves with their rendered lengths, stopping
// at the first multiline string.
func (ln *line) enumerateWithLength(reversed bool) []leafLen {
	var out []leafLen
	n := len(ln.leaves)
	for k := 0; k < n; k++ {
		i := k
		if reversed {
			i = n - 1 - k
		}
		l := ln.leaves[i]
		if strings.Contains(l.value, "\n") {
			return out
		}
		length := runeLen(l.prefix) + runeLen(l.value)
		for _, c := range ln.commentsAfter(l) {
			length += runeLen(c.value)
		}
		out = append(out, leafLen{i, l, length})
	}
	return out
}

// --- Empty line tracking ---

type linesBlock struct {
	previous *linesBlock
	original *line
	before   int
	content  []string
	after    int
}

type emptyLineTracker struct {
	o                  *Options
	previousLine       *line
	previousBlock      *linesBlock
	previousDefs       []int
	semanticLeadingCmt *linesBlock
}

func (e *emptyLineTracker) maybeEmptyLines(cur *line) *linesBlock {
	before, after := e.computeEmptyLines(cur)
	prevAfter := 0
	if e.previousBlock != nil {
		prevAfter = e.previousBlock.after
	}
	if e.previousLine == nil {
		before = 0
	} else {
		before -= prevAfter
	}
	block := &linesBlock{previous: e.previousBlock, original: cur, before: before, after: after}
	if cur.isComment() {
		if e.previousLine == nil || (!e.previousLine.isDecorator() && (!e.previousLine.isComment() || before > 0) &&
			(e.semanticLeadingCmt == nil || before > 0)) {
			e.semanticLeadingCmt = block
		}
	} else if !cur.isDecorator() || before > 0 {
		e.semanticLeadingCmt = nil
	}
	e.previousLine = cur
	e.previousBlock = block
	return block
}

func (e *emptyLineTracker) computeEmptyLines(cur *line) (int, int) {
	maxAllowed := 1
	if cur.depth == 0 {
		maxAllowed = 2
		if e.o.IsPyi {
			maxAllowed = 1
		}
	}
	before := 0
	if len(cur.leaves) > 0 {
		first := cur.leaves[0]
		before = strings.Count(first.prefix, "\n")
		if before > maxAllowed {
			before = maxAllowed
		}
		first.prefix = ""
	}
	depth := cur.depth
	for len(e.previousDefs) > 0 && e.previousDefs[len(e.previousDefs)-1] >= depth {
		if e.o.IsPyi {
			if depth > 0 && !cur.isDef() && e.previousLine.isDef() {
				if before > 1 {
					before = 1
				}
			} else if depth > 0 {
				before = 0
			} else {
				before = 1
			}
		} else {
			if depth > 0 {
				before = 1
			} else if e.previousDefs[len(e.previousDefs)-1] > 0 && len(cur.leaves) > 0 && cur.leaves[len(cur.leaves)-1].typ == tCOLON &&
				!isOneOf(cur.leaves[0].value, "with", "try", "for", "while", "if", "match") {
				before = 1
			} else {
				before = 2
			}
		}
		e.previousDefs = e.previousDefs[:len(e.previousDefs)-1]
	}
	if cur.isDecorator() || cur.isDef() || cur.isClass() {
		return e.forClassOrDef(cur, before)
	}
	p := e.previousLine
	if p != nil && p.isImport() && !cur.isImport() && depth == p.depth {
		if before == 0 {
			before = 1
		}
		return before, 0
	}
	if p != nil && p.isClass() && cur.isTripleQuotedString() {
		return before, 1
	}
	if p != nil && p.opensBlock() {
		return 0, 0
	}
	return before, 0
}

func isOneOf(s string, vals ...string) bool {
	for _, v := range vals {
		if s == v {
			return true
		}
	}
	return false
}

func (e *emptyLineTracker) forClassOrDef(cur *line, before int) (int, int) {
	if !cur.isDecorator() {
		e.previousDefs = append(e.previousDefs, cur.depth)
	}
	p := e.previousLine
	if p == nil {
		return 0, 0
	}
	if p.isDecorator() {
		if e.o.IsPyi && cur.isStubClass() {
			return 0, 1
		}
		return 0, 0
	}
	if p.depth < cur.depth && (p.isClass() || p.isDef()) {
		return 0, 0
	}
	var commentToAdd *linesBlock
	if p.isComment() && p.depth == cur.depth && before == 0 {
		slc := e.semanticLeadingCmt
		if slc != nil && slc.previous != nil && !slc.previous.original.isClass() && !slc.previous.original.opensBlock() && slc.before <= 1 {
			commentToAdd = slc
		} else {
			return 0, 0
		}
	}
	var newlines int
	if e.o.IsPyi {
		switch {
		case cur.isClass() || p.isClass():
			if p.depth < cur.depth {
				newlines = 0
			} else if p.depth > cur.depth {
				newlines = 1
			} else if cur.isStubClass() && p.isStubClass() {
				newlines = 0
			} else {
				newlines = 1
			}
		case (cur.isDef() || cur.isDecorator()) && !p.isDef():
			if cur.depth > 0 {
				newlines = before
				if newlines > 1 {
					newlines = 1
				}
			} else {
				newlines = 1
			}
		case p.depth > cur.depth:
			newlines = 1
		default:
			newlines = 0
		}
	} else {
		newlines = 2
		if cur.depth > 0 {
			newlines = 1
		}
	}
	if commentToAdd != nil {
		if pb := commentToAdd.previous; pb != nil {
			b := commentToAdd.before
			if newlines > b {
				b = newlines
			}
			commentToAdd.before = b - pb.after
			newlines = 0
		}
	}
	return newlines, 0
}
