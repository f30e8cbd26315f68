package black

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// "# fmt: off" / "# fmt: on" regions and trailing "# fmt: skip" at
// statement level: the source is kept verbatim, as one standalone
// comment leaf, like Black's convert_one_fmt_off_pair.

func isFmtOff(v string) bool  { return v == "# fmt: off" || v == "# fmt:off" || v == "# yapf: disable" }
func isFmtOn(v string) bool   { return v == "# fmt: on" || v == "# fmt:on" || v == "# yapf: enable" }
func isFmtSkip(v string) bool { return v == "# fmt: skip" || v == "# fmt:skip" }

type commentPos struct {
	protoComment
	consumed int // bytes of the prefix up to the end of the comment's line
}

func listCommentsPos(prefix string) []commentPos {
	var res []commentPos
	consumed := 0
	nlines := 0
	for _, ln := range strings.Split(prefix, "\n") {
		consumed += len(ln) + 1
		st := pyLStrip(ln)
		if st == "" {
			nlines++
		}
		if !strings.HasPrefix(st, "#") {
			continue
		}
		res = append(res, commentPos{protoComment{true, makeComment(st), nlines}, consumed})
		nlines = 0
	}
	return res
}

// fmtOnState reports whether the last fmt comment of prefix turns
// formatting on.
func fmtOnIn(prefix string) bool {
	on := false
	for _, c := range listCommentsPos(prefix) {
		if isFmtOn(c.value) {
			on = true
		} else if isFmtOff(c.value) {
			on = false
		}
	}
	return on
}

func (g *gen) stmtFirstTok(s tree.Node) int {
	for i := g.cur; i < len(g.toks); i++ {
		if g.toks[i].start >= s.StartByte() {
			return i
		}
	}
	return -1
}

func (g *gen) stmtLastTok(s tree.Node) int {
	last := -1
	for i := g.cur; i < len(g.toks) && g.toks[i].start < s.EndByte(); i++ {
		last = i
	}
	return last
}

// fmtOff handles a "# fmt: off" in the prefix of stmts[i]; it returns the
// number of statements consumed (0 if none).
func (g *gen) fmtOff(stmts []tree.Node, i int) int {
	ft := g.stmtFirstTok(stmts[i])
	if ft < 0 {
		return 0
	}
	prefix := g.prefix[ft]
	if !strings.Contains(prefix, "fmt:") && !strings.Contains(prefix, "yapf:") {
		return 0
	}
	cs := listCommentsPos(prefix)
	prevConsumed := 0
	var off *commentPos
	for k := range cs {
		if isFmtOff(cs[k].value) {
			off = &cs[k]
			break
		}
		prevConsumed = cs[k].consumed
	}
	if off == nil {
		return 0
	}
	// the ignored statements run until one whose prefix turns fmt on
	j := i
	for ; j < len(stmts); j++ {
		if j > i {
			t := g.stmtFirstTok(stmts[j])
			if t >= 0 && fmtOnIn(g.prefix[t]) {
				break
			}
		}
		if compoundKinds[stmts[j].Kind()] {
			// a "# fmt: on" inside a nested block is not supported
			lt := g.stmtLastTok(stmts[j])
			for t := ft + 1; t <= lt; t++ {
				if strings.Contains(g.prefix[t], "fmt: on") || strings.Contains(g.prefix[t], "fmt:on") {
					panic(refuse("# fmt: on inside a nested block"))
				}
			}
		}
	}
	n := j - i
	last := stmts[j-1]
	lt := g.stmtLastTok(last)
	// verbatim text: the prefix after the fmt: off line, then the source
	// through the end of the last statement's line
	var b strings.Builder
	b.WriteString(off.value)
	b.WriteString("\n")
	b.WriteString(prefix[off.consumed:])
	endLine := g.lineOf(g.toks[lt].end - 1)
	end := len(g.src)
	if endLine < len(g.lineStarts) {
		end = g.lineStarts[endLine]
	}
	text := string(g.src[g.toks[ft].start:end])
	text = strings.ReplaceAll(text, "\r\n", "\n")
	b.WriteString(text)
	var nextPrefix *string
	if lt+1 < len(g.toks) {
		nextPrefix = &g.prefix[lt+1]
	} else {
		nextPrefix = &g.endPrefix
	}
	// a NEWLINE prefix after the last token is part of the text already
	if compoundKinds[last.Kind()] {
		col := g.innerIndent(last)
		consumed, rest := partiallyConsumePrefix(*nextPrefix, col)
		b.WriteString(consumed)
		*nextPrefix = rest
	}
	hidden := strings.TrimSuffix(b.String(), "\n")

	// comments before the fmt: off line are regular comments
	g.takeRange(ft, lt)
	g.emitStandalone(prefix[:prevConsumed], hidden, off.newlines)
	return n
}

// innerIndent is the column of the statements of the last block of a
// compound statement.
func (g *gen) innerIndent(s tree.Node) int {
	var blk tree.Node
	for _, c := range kids(s) {
		if c.Kind() == "block" {
			blk = c
		} else if strings.HasSuffix(c.Kind(), "_clause") {
			for _, cc := range kids(c) {
				if cc.Kind() == "block" {
					blk = cc
				}
			}
		}
	}
	if blk.IsNull() {
		return 1 << 20
	}
	ks := kids(blk)
	if len(ks) == 0 {
		return 1 << 20
	}
	return g.column(ks[0].StartByte())
}

// takeRange skips tokens ft..lt (their NEWLINEs included).
func (g *gen) takeRange(ft, lt int) {
	g.cur = lt + 1
	for t := ft; t <= lt; t++ {
		g.nlDone[t] = true
	}
}

func (g *gen) emitStandalone(prefix, value string, newlines int) {
	if !g.line.bt.anyOpenBrackets() {
		g.newLineFlush(0)
	}
	g.emitComments(prefix, false)
	c := &leaf{typ: tSTANDALONE, value: value, prefix: strings.Repeat("\n", newlines)}
	if g.line.bt.anyOpenBrackets() {
		c.prefix = ""
	}
	g.line.append(c, false, false)
	g.prev = c
}

// fmtSkip handles a simple statement line ending in "# fmt: skip".
func (g *gen) fmtSkip(stmts []tree.Node, i int) bool {
	s := stmts[i]
	if compoundKinds[s.Kind()] {
		lt := g.headerLastTok(s)
		if lt >= 0 && g.hasNL[lt] {
			if cs := listComments(g.nlPrefix[lt], false); len(cs) > 0 && isFmtSkip(cs[0].value) {
				panic(refuse("# fmt: skip on a block header"))
			}
		}
		return false
	}
	// the statements sharing this line: stmts[i..j]
	j := i
	for ; j < len(stmts); j++ {
		lt := g.stmtLastTok(stmts[j])
		if lt >= 0 && g.hasNL[lt] {
			break
		}
	}
	if j == len(stmts) {
		return false
	}
	lt := g.stmtLastTok(stmts[j])
	cs := listComments(g.nlPrefix[lt], false)
	if len(cs) == 0 || !isFmtSkip(cs[0].value) {
		return false
	}
	if i != j || stmts[i].Kind() == ";" {
		// several statements on the line: Black keeps them together
	}
	ft := g.stmtFirstTok(stmts[i])
	text := strings.ReplaceAll(string(g.src[g.toks[ft].start:g.toks[lt].end]), "\r\n", "\n")
	hidden := text + "  " + cs[0].value
	prefix := g.prefix[ft]
	g.takeRange(ft, lt)
	// Black keeps the whole original prefix on the standalone leaf
	open := g.line.bt.anyOpenBrackets()
	if !open {
		g.newLineFlush(0)
	}
	g.emitComments(prefix, false)
	c := &leaf{typ: tSTANDALONE, value: hidden, prefix: strings.Repeat("\n", nlCountAfterComments(prefix))}
	g.line.append(c, false, false)
	g.prev = c
	// skip the statements consumed (";" included)
	for k := i + 1; k <= j; k++ {
		_ = k
	}
	g.skipStmts = j - i
	return true
}

func (g *gen) headerLastTok(s tree.Node) int {
	for _, c := range kids(s) {
		if c.Kind() == "block" {
			// the token before the block
			for t := g.cur; t < len(g.toks); t++ {
				if g.toks[t].start >= c.StartByte() {
					return t - 1
				}
			}
		}
	}
	return -1
}
