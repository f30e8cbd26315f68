package black

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// tokInfo is one token of the source: a tree-sitter leaf, or a whole
// string literal.
type tokInfo struct {
	n          tree.Node
	start, end int
}

// gen walks the tree-sitter tree and produces Black's logical lines.
type gen struct {
	f    *formatter
	src  []byte
	text string // src as a string, which leaves' values and prefixes slice
	toks []tokInfo
	// tokAt maps a node index to its token index + 1 (0: not a token); a
	// slice, not a map: collect fills it for every token of the file, and
	// a map's growth was the formatter's largest allocation.
	tokAt []int32
	cur   int // next token index

	prefix    []string // per token, comments/newlines before it (blib2to3 prefix)
	nlPrefix  []string // per token, prefix of a NEWLINE right after it
	hasNL     []bool
	nlDone    []bool
	endPrefix string
	lastTok   int

	line *line
	prev *leaf

	leafSlab   []leaf // allocLeaf's current slab
	leavesMade int

	parenMode map[int]int // node index -> 1 invisible parens, 2 omitted parens
	atomCount []*int      // open counters of leaves inside invisible atoms

	lineStarts      []int
	pendingNewlines int
	annParenNodes   map[int]bool
	atomStack       []*int
	complexCache    map[int]bool
	docstring       bool
	preTaken        int
	skipStmts       int
}

const (
	parenInvisible = 1
	parenOmit      = 2
)

func isStringNode(n tree.Node) bool { return n.Kind() == "string" && n.IsNamed() }

func (g *gen) collect(root tree.Node) {
	g.tokAt = make([]int32, root.Tree().NodeCount())
	g.toks = make([]tokInfo, 0, root.Tree().NodeCount()/2)
	var walk func(n tree.Node)
	walk = func(n tree.Node) {
		for c := range n.Children() {
			k := c.Kind()
			if c.IsExtra() && (k == "comment" || k == "line_continuation") {
				continue
			}
			if isStringNode(c) || c.ChildCount() == 0 {
				if c.EndByte() == c.StartByte() {
					continue
				}
				g.tokAt[c.Index()] = int32(len(g.toks) + 1)
				g.toks = append(g.toks, tokInfo{c, c.StartByte(), c.EndByte()})
				continue
			}
			walk(c)
		}
	}
	walk(root)
}

// tokIndex returns the token index of node n, if n is a token.
func (g *gen) tokIndex(n tree.Node) (int, bool) {
	x := n.Index()
	if x < 0 || x >= len(g.tokAt) {
		return 0, false
	}
	i := int(g.tokAt[x]) - 1
	return i, i >= 0
}

func (g *gen) lineOf(off int) int {
	lo, hi := 0, len(g.lineStarts)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if g.lineStarts[m] <= off {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo + 1
}

// gapPrefix turns the source between two tokens into a blib2to3-style
// prefix: backslash continuations vanish, "\r\n" becomes "\n".
func gapPrefix(s string) string {
	if !strings.ContainsAny(s, "\\\r") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '#':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			com := s[i : i+j]
			com = strings.TrimSuffix(com, "\r")
			b.WriteString(com)
			i += len(s[i:i+j]) - 1
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
		case c == '\\' && i+2 < len(s) && s[i+1] == '\r' && s[i+2] == '\n':
			i += 2
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (g *gen) computePrefixes() {
	n := len(g.toks)
	g.prefix = make([]string, n)
	g.nlPrefix = make([]string, n)
	g.hasNL = make([]bool, n)
	g.nlDone = make([]bool, n)
	depth := 0
	prevEnd := 0
	for i := 0; i <= n; i++ {
		start := len(g.src)
		if i < n {
			start = g.toks[i].start
		}
		gap := gapPrefix(g.text[prevEnd:start])
		if i > 0 && depth == 0 {
			// a NEWLINE token ends the logical line after token i-1, unless
			// the next token continues it on the same line (";" or more code)
			j := strings.IndexByte(gap, '\n')
			if j >= 0 || i == n {
				if j < 0 {
					j = len(gap)
				} else {
					j++
				}
				g.hasNL[i-1] = true
				g.nlPrefix[i-1] = gap[:j]
				gap = gap[j:]
			}
		}
		if i == n {
			g.endPrefix = gap
			break
		}
		g.prefix[i] = gap
		switch g.toks[i].n.Kind() {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth > 0 {
				depth--
			}
		}
		prevEnd = g.toks[i].end
	}
	if n == 0 {
		g.endPrefix = gapPrefix(g.text)
	}
}

// protoComment is Black's ProtoComment.
type protoComment struct {
	standalone bool
	value      string
	newlines   int
}

func makeComment(content string) string {
	content = pyRStrip(content)
	if content == "" {
		return "#"
	}
	if content[0] == '#' {
		content = content[1:]
	}
	if strings.HasPrefix(content, "\u00a0") && !strings.HasPrefix(pyLStrip(content), "type:") {
		content = " " + content[len("\u00a0"):]
	}
	if content != "" && !strings.ContainsRune(" !:#'", rune(content[0])) {
		content = " " + content
	}
	return "#" + content
}

func listComments(prefix string, isEndmarker bool) []protoComment {
	if !strings.Contains(prefix, "#") {
		return nil
	}
	var res []protoComment
	nlines := 0
	ignored := 0
	for index, ln := range strings.Split(prefix, "\n") {
		ln = pyLStrip(ln)
		if ln == "" {
			nlines++
		}
		if !strings.HasPrefix(ln, "#") {
			if strings.HasSuffix(ln, "\\") {
				ignored++
			}
			continue
		}
		res = append(res, protoComment{
			standalone: !(index == ignored && !isEndmarker),
			value:      makeComment(ln),
			newlines:   nlines,
		})
		nlines = 0
	}
	return res
}

// partiallyConsumePrefix is blib2to3's split of comments at a dedent.
func partiallyConsumePrefix(prefix string, column int) (string, string) {
	var lines []string
	cur := strings.Builder{}
	curCol := 0
	waitForNL := false
	consumed := 0
	for i := 0; i < len(prefix); i++ {
		ch := prefix[i]
		cur.WriteByte(ch)
		if waitForNL {
			if ch == '\n' {
				s := cur.String()
				if strings.TrimSpace(s) != "" && curCol < column {
					return prefix[:consumed], prefix[consumed:]
				}
				lines = append(lines, s)
				consumed += len(s)
				cur.Reset()
				curCol = 0
				waitForNL = false
			}
		} else if ch == ' ' {
			curCol++
		} else if ch == '\t' {
			curCol++
		} else if ch == '\n' {
			curCol = 0
		} else {
			waitForNL = true
		}
	}
	_ = lines
	return prefix[:consumed], prefix[consumed:]
}

func nlCountAfterComments(prefix string) int {
	spl := strings.Split(prefix, "#")
	n := strings.Count(spl[len(spl)-1], "\n")
	if len(spl) > 1 {
		n--
	}
	return n
}

// --- line emission ---

func (g *gen) newLineFlush(delta int) {
	if g.line.empty() {
		g.line.depth += delta
		return
	}
	complete := g.line
	g.line = newLine(g.f.o, complete.depth+delta, false)
	g.f.emit(complete)
}

func (g *gen) emitComments(prefix string, isEndmarker bool) {
	for _, pc := range listComments(prefix, isEndmarker) {
		if (isFmtOff(pc.value) || isFmtSkip(pc.value) || isFmtOn(pc.value)) && g.line.bt.anyOpenBrackets() {
			panic(refuse("# fmt: comments inside brackets are not supported"))
		}
		if isFmtSkip(pc.value) && !pc.standalone {
			panic(refuse("# fmt: skip here is not supported"))
		}
		c := &leaf{value: pc.value, ws: "  "}
		if pc.standalone {
			c.typ = tSTANDALONE
			c.prefix = strings.Repeat("\n", pc.newlines)
			c.ws = ""
		} else {
			c.typ = tCOMMENT
		}
		open := g.line.bt.anyOpenBrackets()
		switch {
		case open:
			g.line.append(c, false, false)
		case c.typ == tCOMMENT:
			g.line.append(c, false, false)
			g.newLineFlush(0)
		default:
			g.newLineFlush(0)
			g.line.append(c, false, false)
			g.newLineFlush(0)
		}
	}
}

// flushNL processes the NEWLINE after the last consumed token.
func (g *gen) flushNL() {
	i := g.cur - 1
	if i < 0 || !g.hasNL[i] || g.nlDone[i] {
		return
	}
	g.nlDone[i] = true
	g.emitComments(g.nlPrefix[i], false)
}

// dedent closes an indented block whose statements start at column col.
func (g *gen) dedent(col int) {
	g.newLineFlush(0)
	var p *string
	if g.cur < len(g.toks) {
		p = &g.prefix[g.cur]
	} else {
		p = &g.endPrefix
	}
	consumed, rest := partiallyConsumePrefix(*p, col)
	*p = rest
	g.emitComments(consumed, false)
	g.newLineFlush(-1)
}

func (g *gen) appendLeaf(l *leaf) {
	if g.pendingNewlines > 0 {
		l.prefix = strings.Repeat("\n", g.pendingNewlines)
		g.pendingNewlines = 0
	}
	if g.prev != nil && l.ws == "" && l.typ != tCOMMENT {
		l.ws = g.ws(l)
	}
	g.line.append(l, false, false)
	g.prev = l
	for _, c := range g.atomCount {
		*c++
	}
}

// takeTok consumes token n (which must be next), handling the comments in
// its prefix, and returns its index.
func (g *gen) takeTok(n tree.Node) int {
	i, ok := g.tokIndex(n)
	if !ok {
		panic(refuse("token out of order"))
	}
	for g.cur < i {
		// tokens skipped by the visitor (should not happen): drop them
		g.cur++
	}
	if i != g.cur {
		panic(refuse("token out of order"))
	}
	g.cur++
	g.lastTok = i
	prefix := g.prefix[i]
	if g.preTaken == i+1 {
		return i
	}
	open := g.line.bt.anyOpenBrackets()
	g.emitComments(prefix, false)
	if !open {
		g.pendingNewlines = nlCountAfterComments(prefix)
	} else {
		g.pendingNewlines = 0
	}
	return i
}

// preTake handles the prefix of the next token before a synthesized
// opening paren is appended (Black moves the prefix onto the new atom).
func (g *gen) preTake() {
	i := g.cur
	if i >= len(g.toks) || g.preTaken == i+1 {
		return
	}
	g.preTaken = i + 1
	prefix := g.prefix[i]
	open := g.line.bt.anyOpenBrackets()
	g.emitComments(prefix, false)
	if !open {
		g.pendingNewlines = nlCountAfterComments(prefix)
	} else {
		g.pendingNewlines = 0
	}
}

func refuse(msg string) error { return &refuseError{msg} }

type refuseError struct{ msg string }

func (e *refuseError) Error() string { return "black: " + e.msg }
