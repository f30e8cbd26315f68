package black

import (
	"iter"
	"strings"
)

// Line splitting: Black's transform_line and its transformers.

type splitError struct{ msg string }

func (e *splitError) Error() string { return e.msg }

func cannot(msg string) error { return &splitError{msg} }

type features struct {
	commaInCall, commaInDef bool
	forceOptionalParens     bool
}

type transformKind int

const (
	tfDelimiter transformKind = iota
	tfStandalone
	tfRHS
	tfLHS
	tfHug
)

// The work of splitting one logical line is bounded, counted in leaves
// handled by split attempts. Black tries a split, then splits the parts
// again, and tries omitting each pair of invisible parentheses and each
// trailer in turn, every attempt copying the line: quadratic or worse in
// the nesting. A line nesting hundreds of levels (`a = a = ... = 1`,
// `a[0][0]...` over lines) took seconds and gigabytes, and exhausted the
// guest's 256 MiB at 990 levels; Black itself stops with a RecursionError
// there. Real lines stay far below the bound (the largest in the Python
// 3.11 stdlib, in pickletools.py, uses 24,688 of the 262,144 a short
// line gets). Past it the remaining parts are left as they are, Black's
// own answer for a line it cannot split; the result is still checked
// equivalent like any other.
const (
	splitBudgetBase    = 1 << 18
	splitBudgetPerLeaf = 16 // so a huge one-line literal is still split in full
)

// spend charges a split attempt on ln against the line's budget.
func (f *formatter) spend(ln *line) error {
	f.splitWork += len(ln.leaves)
	if f.splitWork > f.splitBudget {
		return cannot("line too complex to split")
	}
	return nil
}

func (f *formatter) transformLine(ln *line, feat features) []*line {
	if ln.isComment() || f.splitWork > f.splitBudget {
		return []*line{ln}
	}
	lineStr := ln.str()
	var tfs []transformKind
	if !ln.containsUncollapsableTypeComments() && !ln.shouldSplitRHS && ln.magicComma == nil &&
		(isLineShortEnough(ln, f.o.LineLength, lineStr) || ln.containsUnsplittableTypeIgnore()) &&
		!(ln.insideBrackets && ln.containsStandaloneComments(maxDepth)) {
		tfs = nil
	} else if ln.isDef() {
		tfs = []transformKind{tfLHS}
	} else if ln.insideBrackets {
		tfs = []transformKind{tfDelimiter, tfStandalone, tfRHS}
	} else {
		tfs = []transformKind{tfRHS}
	}
	tfs = append(tfs, tfHug)
	for _, tf := range tfs {
		res, err := f.runTransformer(ln, tf, feat, lineStr)
		if err != nil {
			continue
		}
		return res
	}
	return []*line{ln}
}

func (f *formatter) applyTransform(ln *line, tf transformKind, feat features) ([]*line, error) {
	if err := f.spend(ln); err != nil {
		return nil, err
	}
	switch tf {
	case tfDelimiter:
		return f.delimiterSplit(ln, feat)
	case tfStandalone:
		return f.standaloneCommentSplit(ln)
	case tfRHS:
		return f.rhs(ln, feat)
	case tfLHS:
		return f.leftHandSplit(ln)
	default:
		return f.hugPowerOp(ln)
	}
}

func (f *formatter) runTransformer(ln *line, tf transformKind, feat features, lineStr string) ([]*line, error) {
	if lineStr == "" {
		lineStr = ln.str()
	}
	out, err := f.applyTransform(ln, tf, feat)
	if err != nil {
		return nil, err
	}
	var result []*line
	for _, tl := range out {
		if tl.str() == lineStr {
			return nil, cannot("unchanged result")
		}
		result = append(result, f.transformLine(tl, feat)...)
	}
	if feat.forceOptionalParens || tf != tfRHS || len(ln.bt.invisible) == 0 {
		return result, nil
	}
	for _, b := range ln.bt.invisible {
		if b.value != "" {
			return result, nil
		}
	}
	if ln.containsMultilineStrings() || result[0].containsUncollapsableTypeComments() ||
		result[0].containsUnsplittableTypeIgnore() || isLineShortEnough(result[0], f.o.LineLength, "") {
		return result, nil
	}
	for _, l := range ln.leaves {
		if l.orphan {
			return result, nil
		}
	}
	lineCopy := ln.clone()
	for i, old := range ln.leaves {
		nl := &leaf{}
		*nl = *old
		nl.prefix = ""
		nl.depth = 0
		nl.opening = nil
		if i > 0 || len(lineCopy.leaves) > 0 {
			// whitespace is recomputed by append (non-preformatted)
		}
		old.orphan = true
		lineCopy.append(nl, false, false)
		for _, c := range ln.commentsAfter(old) {
			lineCopy.append(c, true, false)
		}
	}
	fop := feat
	fop.forceOptionalParens = true
	second, err := f.runTransformer(lineCopy, tf, fop, lineStr)
	if err != nil {
		return result, nil
	}
	for _, sl := range second {
		if !isLineShortEnough(sl, f.o.LineLength, "") {
			return result, nil
		}
	}
	return second, nil
}

type component int

const (
	compHead component = iota
	compBody
	compTail
)

func ensureVisible(l *leaf) {
	if l.typ == tLPAR {
		l.value = "("
	} else if l.typ == tRPAR {
		l.value = ")"
	}
}

func (f *formatter) leftHandSplit(ln *line) ([]*line, error) {
	var head, body, tail []*leaf
	cur := &head
	var matching *leaf
	for _, l := range ln.leaves {
		if cur == &body && l.typ.closing() && l.opening == matching && matching != nil {
			ensureVisible(l)
			ensureVisible(matching)
			if len(body) > 0 {
				cur = &tail
			} else {
				cur = &head
			}
		}
		*cur = append(*cur, l)
		if cur == &head && l.typ.opening() {
			matching = l
			cur = &body
		}
	}
	if matching == nil {
		return nil, cannot("no brackets found")
	}
	h := f.bracketSplitBuildLine(head, ln, matching, compHead)
	b := f.bracketSplitBuildLine(body, ln, matching, compBody)
	t := f.bracketSplitBuildLine(tail, ln, matching, compTail)
	if err := bracketSplitSucceededOrRaise(h, b, t); err != nil {
		return nil, err
	}
	var out []*line
	for _, r := range []*line{h, b, t} {
		if !r.empty() {
			out = append(out, r)
		}
	}
	return out, nil
}

type rhsResult struct {
	head, body, tail *line
	opening, closing *leaf
}

func (f *formatter) firstRightHandSplit(ln *line, omit map[*leaf]bool) (*rhsResult, error) {
	if err := f.spend(ln); err != nil {
		return nil, err
	}
	var tail, body, head []*leaf
	cur := &tail
	var opening, closing *leaf
	for i := len(ln.leaves) - 1; i >= 0; i-- {
		l := ln.leaves[i]
		if cur == &body {
			if l == opening {
				if len(body) > 0 {
					cur = &head
				} else {
					cur = &tail
				}
			}
		}
		*cur = append(*cur, l)
		if cur == &tail {
			if l.typ.closing() && !omit[l] {
				opening = l.opening
				closing = l
				cur = &body
			}
		}
	}
	if opening == nil || closing == nil || len(head) == 0 {
		return nil, cannot("no brackets found")
	}
	reverse(tail)
	reverse(body)
	reverse(head)
	h := f.bracketSplitBuildLine(head, ln, opening, compHead)
	b := f.bracketSplitBuildLine(body, ln, opening, compBody)
	t := f.bracketSplitBuildLine(tail, ln, opening, compTail)
	if err := bracketSplitSucceededOrRaise(h, b, t); err != nil {
		return nil, err
	}
	return &rhsResult{h, b, t, opening, closing}, nil
}

func reverse(s []*leaf) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func (f *formatter) rightHandSplit(ln *line, feat features, omit map[*leaf]bool) ([]*line, error) {
	r, err := f.firstRightHandSplit(ln, omit)
	if err != nil {
		return nil, err
	}
	return f.maybeSplitOmittingOptionalParens(r, ln, feat, omit)
}

func (f *formatter) maybeSplitOmittingOptionalParens(r *rhsResult, ln *line, feat features, omit map[*leaf]bool) ([]*line, error) {
	ll := f.o.LineLength
	if !feat.forceOptionalParens && r.opening.typ == tLPAR && r.opening.value == "" &&
		r.closing.typ == tRPAR && r.closing.value == "" && !ln.isImport() &&
		!r.body.containsStandaloneComments(0) && canOmitInvisibleParens(r.body, ll) {
		omit2 := map[*leaf]bool{r.closing: true}
		for k := range omit {
			omit2[k] = true
		}
		roop, err := f.firstRightHandSplit(ln, omit2)
		if err == nil {
			res, err2 := f.maybeSplitOmittingOptionalParens(roop, ln, feat, omit2)
			if err2 == nil {
				return res, nil
			}
			err = err2
		}
		if !(canBeSplit(r.body) || isLineShortEnough(r.body, ll, "")) {
			return nil, cannot("body still too long")
		}
		if r.head.containsMultilineStrings() || r.tail.containsMultilineStrings() {
			return nil, cannot("multiline strings in head or tail")
		}
	}
	ensureVisible(r.opening)
	ensureVisible(r.closing)
	var out []*line
	for _, x := range []*line{r.head, r.body, r.tail} {
		if !x.empty() {
			out = append(out, x)
		}
	}
	return out, nil
}

func bracketSplitSucceededOrRaise(head, body, tail *line) error {
	tailLen := runeLen(strings.TrimSpace(tail.String()))
	if body.empty() {
		if tailLen == 0 {
			return cannot("same line")
		} else if tailLen < 3 {
			return cannot("not worth it")
		}
	}
	return nil
}

func leavesInsideMatchingBrackets(leaves []*leaf) map[*leaf]bool {
	start := -1
	for i, l := range leaves {
		if l.typ.opening() {
			start = i
			break
		}
	}
	ids := map[*leaf]bool{}
	if start < 0 {
		return ids
	}
	type ent struct {
		typ tokType
		i   int
	}
	var stack []ent
	for i := start; i < len(leaves); i++ {
		l := leaves[i]
		if l.typ.opening() {
			stack = append(stack, ent{closingFor(l.typ), i})
		}
		if l.typ.closing() {
			if len(stack) > 0 && l.typ == stack[len(stack)-1].typ {
				s := stack[len(stack)-1].i
				stack = stack[:len(stack)-1]
				for j := s; j <= i; j++ {
					ids[leaves[j]] = true
				}
			} else {
				break
			}
		}
	}
	return ids
}

func newComma() *leaf {
	return &leaf{typ: tCOMMA, value: ",", orphan: true}
}

func (f *formatter) bracketSplitBuildLine(leaves []*leaf, original *line, opening *leaf, comp component) *line {
	result := newLine(f.o, original.depth, false)
	if comp == compBody {
		result.insideBrackets = true
		result.depth++
		if len(leaves) > 0 {
			leaves[0].prefix = ""
			noCommas := original.isDef() && opening.value == "(" && !opening.annParen
			if noCommas {
				for _, l := range leaves {
					if l.typ == tCOMMA {
						noCommas = false
						break
					}
				}
			}
			if original.isImport() || noCommas {
				for i := len(leaves) - 1; i >= 0; i-- {
					if leaves[i].typ == tSTANDALONE {
						continue
					}
					if leaves[i].typ != tCOMMA {
						nl := make([]*leaf, 0, len(leaves)+1)
						nl = append(nl, leaves[:i+1]...)
						nl = append(nl, newComma())
						nl = append(nl, leaves[i+1:]...)
						leaves = nl
					}
					break
				}
			}
		}
	}
	var track map[*leaf]bool
	if comp == compHead {
		track = leavesInsideMatchingBrackets(leaves)
	}
	for _, l := range leaves {
		result.append(l, true, track[l])
		for _, c := range original.commentsAfter(l) {
			result.append(c, true, false)
		}
	}
	if comp == compBody && shouldSplitLine(result, opening) {
		result.shouldSplitRHS = true
	}
	return result
}

func shouldSplitLine(ln *line, opening *leaf) bool {
	if opening.orphan {
		return false
	}
	if len(ln.leaves) == 0 {
		return false
	}
	var exclude *leaf
	trailingComma := false
	last := ln.leaves[len(ln.leaves)-1]
	if last.typ == tCOMMA {
		trailingComma = true
		exclude = last
	}
	maxP := ln.bt.maxDelimiterPriority(exclude)
	if maxP == 0 {
		return false
	}
	return maxP == prioComma && ((!ln.o.SkipMagicTrailingComma && trailingComma) || opening.parentAtom)
}

func (f *formatter) delimiterSplit(ln *line, feat features) ([]*line, error) {
	if len(ln.leaves) == 0 {
		return nil, cannot("empty")
	}
	lastLeaf := ln.leaves[len(ln.leaves)-1]
	bt := &ln.bt
	prio := bt.maxDelimiterPriority(lastLeaf)
	if prio == 0 {
		return nil, cannot("no delimiters")
	}
	if prio == prioDot && bt.delimiterCountWithPriority(prio) == 1 {
		return nil, cannot("single attribute")
	}
	var out []*line
	cur := newLine(f.o, ln.depth, ln.insideBrackets)
	lowest := maxDepth
	trailingCommaSafe := true
	appendTo := func(l *leaf) {
		if err := cur.appendSafe(l, true); err != nil {
			out = append(out, cur)
			cur = newLine(f.o, ln.depth, ln.insideBrackets)
			cur.append(l, false, false)
		}
	}
	for _, l := range ln.leaves {
		appendTo(l)
		for _, c := range ln.commentsAfter(l) {
			appendTo(c)
		}
		if l.depth < lowest {
			lowest = l.depth
		}
		if l.depth == lowest {
			if l.varargDef && !l.orphan {
				trailingCommaSafe = trailingCommaSafe && feat.commaInDef
			} else if l.varargCall && !l.orphan {
				trailingCommaSafe = trailingCommaSafe && feat.commaInCall
			}
		}
		if p, ok := bt.delimiters[l]; ok && p == prio {
			out = append(out, cur)
			cur = newLine(f.o, ln.depth, ln.insideBrackets)
		}
	}
	if !cur.empty() {
		if trailingCommaSafe && prio == prioComma && len(cur.leaves) > 0 &&
			cur.leaves[len(cur.leaves)-1].typ != tCOMMA && cur.leaves[len(cur.leaves)-1].typ != tSTANDALONE {
			c := newComma()
			cur.append(c, false, false)
		}
		out = append(out, cur)
	}
	for _, o := range out {
		if len(o.leaves) > 0 {
			o.leaves[0].prefix = ""
		}
	}
	return out, nil
}

func (f *formatter) standaloneCommentSplit(ln *line) ([]*line, error) {
	if !ln.containsStandaloneComments(0) {
		return nil, cannot("no standalone comments")
	}
	var out []*line
	cur := newLine(f.o, ln.depth, ln.insideBrackets)
	appendTo := func(l *leaf) {
		if err := cur.appendSafe(l, true); err != nil {
			out = append(out, cur)
			cur = newLine(f.o, ln.depth, ln.insideBrackets)
			cur.append(l, false, false)
		}
	}
	for _, l := range ln.leaves {
		appendTo(l)
		for _, c := range ln.commentsAfter(l) {
			appendTo(c)
		}
	}
	if !cur.empty() {
		out = append(out, cur)
	}
	for _, o := range out {
		if len(o.leaves) > 0 {
			o.leaves[0].prefix = ""
		}
	}
	return out, nil
}

func (f *formatter) rhs(ln *line, feat features) ([]*line, error) {
	for omit := range generateTrailersToOmit(ln, f.o.LineLength) {
		lines, err := f.rightHandSplit(ln, feat, omit)
		if err != nil {
			return nil, err
		}
		if isLineShortEnough(lines[0], f.o.LineLength, "") {
			return lines, nil
		}
	}
	return f.rightHandSplit(ln, feat, nil)
}

// generateTrailersToOmit yields the successive omit sets (cumulative).
// Like Black's generator it is lazy: it reads leaf values and lengths
// only when the next set is requested, after the caller's split attempt
// may have made invisible parentheses visible.
func generateTrailersToOmit(ln *line, lineLength int) iter.Seq[map[*leaf]bool] {
	return func(yield func(map[*leaf]bool) bool) {
		omit := map[*leaf]bool{}
		snapshot := func() map[*leaf]bool {
			c := make(map[*leaf]bool, len(omit))
			for k := range omit {
				c[k] = true
			}
			return c
		}
		if ln.magicComma == nil {
			if !yield(snapshot()) {
				return
			}
		}
		length := 4 * ln.depth
		var opening, closing *leaf
		inner := map[*leaf]bool{}
		for idx := len(ln.leaves) - 1; idx >= 0; idx-- {
			l := ln.leaves[idx]
			if strings.Contains(l.value, "\n") {
				return
			}
			ll := runeLen(l.prefix) + runeLen(l.value)
			for _, c := range ln.commentsAfter(l) {
				ll += runeLen(c.value)
			}
			length += ll
			if length > lineLength {
				break
			}
			hasInlineComment := ll > runeLen(l.value)+runeLen(l.prefix)
			if l.typ == tSTANDALONE || hasInlineComment {
				break
			}
			if opening != nil {
				if l == opening {
					opening = nil
				} else if l.typ.closing() {
					var prev *leaf
					if idx > 0 {
						prev = ln.leaves[idx-1]
					}
					if prev != nil && prev.typ == tCOMMA && l.opening != nil && !isOneSequenceBetween(l.opening, l, ln.leaves, tLPAR, tRPAR) {
						break
					}
					inner[l] = true
				}
			} else if l.typ.closing() {
				var prev *leaf
				if idx > 0 {
					prev = ln.leaves[idx-1]
				}
				if prev != nil && prev.typ.opening() {
					inner[l] = true
					continue
				}
				if closing != nil {
					omit[closing] = true
					for k := range inner {
						omit[k] = true
					}
					inner = map[*leaf]bool{}
					if !yield(snapshot()) {
						return
					}
				}
				if prev != nil && prev.typ == tCOMMA && l.opening != nil && !isOneSequenceBetween(l.opening, l, ln.leaves, tLPAR, tRPAR) {
					break
				}
				if l.value != "" {
					opening = l.opening
					closing = l
				}
			}
		}
	}
}

func canBeSplit(ln *line) bool {
	leaves := ln.leaves
	if len(leaves) < 2 {
		return false
	}
	if leaves[0].typ == tSTRING && leaves[1].typ == tDOT {
		callCount, dotCount := 0, 0
		next := leaves[len(leaves)-1]
		for i := len(leaves) - 2; i >= 0; i-- {
			l := leaves[i]
			if l.typ.opening() {
				if !next.typ.closing() {
					return false
				}
				callCount++
			} else if l.typ == tDOT {
				dotCount++
			} else if l.typ == tNAME {
				if !(next.typ == tDOT || next.typ.opening()) {
					return false
				}
			} else if !l.typ.closing() {
				return false
			}
			if dotCount > 1 && callCount > 1 {
				return false
			}
			next = l
		}
	}
	return true
}

func canOmitInvisibleParens(ln *line, lineLength int) bool {
	bt := &ln.bt
	if len(bt.delimiters) == 0 {
		return true
	}
	maxP := bt.maxDelimiterPriority(nil)
	if bt.delimiterCountWithPriority(maxP) > 1 {
		return false
	}
	if maxP == prioDot {
		return true
	}
	if len(ln.leaves) < 2 {
		return false
	}
	first, second := ln.leaves[0], ln.leaves[1]
	if first.typ.opening() && !second.typ.closing() {
		if canOmitOpeningParen(ln, first, lineLength) {
			return true
		}
	}
	penultimate := ln.leaves[len(ln.leaves)-2]
	last := ln.leaves[len(ln.leaves)-1]
	if last.typ == tRPAR || last.typ == tRBRACE || (last.typ == tRSQB && !last.trailer) {
		if penultimate.typ.opening() {
			return false
		}
		if first.isMultilineString() {
			return true
		}
		if canOmitClosingParen(ln, last, lineLength) {
			return true
		}
	}
	return false
}

func canOmitOpeningParen(ln *line, first *leaf, lineLength int) bool {
	remainder := false
	length := 4 * ln.depth
	idx := -1
	es := ln.enumerateWithLength(false)
	broke := false
	for _, e := range es {
		idx = e.idx
		if e.l.typ.closing() && e.l.opening == first {
			remainder = true
		}
		if remainder {
			length += e.length
			if length > lineLength {
				broke = true
				break
			}
			if e.l.typ.opening() {
				remainder = false
			}
		}
	}
	if !broke && len(ln.leaves) == idx+1 {
		return true
	}
	return false
}

func canOmitClosingParen(ln *line, last *leaf, lineLength int) bool {
	length := 4 * ln.depth
	seenOther := false
	for _, e := range ln.enumerateWithLength(false) {
		length += e.length
		if e.l == last.opening {
			if seenOther || length <= lineLength {
				return true
			}
		} else if e.l.typ.opening() {
			seenOther = true
		}
	}
	return false
}

// hugPowerOp removes the spaces around ** between simple operands.
func (f *formatter) hugPowerOp(ln *line) ([]*line, error) {
	found := false
	for _, l := range ln.leaves {
		if l.typ == tDSTAR {
			found = true
			break
		}
	}
	if !found {
		return nil, cannot("no doublestar")
	}
	leaves := ln.leaves
	isSimpleLookup := func(index, step int) bool {
		for 0 <= index && index < len(leaves) {
			cur := leaves[index]
			if step == -1 && (cur.typ == tRPAR || cur.typ == tRSQB) {
				return false
			}
			if step == 1 && (cur.typ == tLPAR || cur.typ == tLSQB) {
				return false
			}
			if !(cur.typ == tNAME || cur.typ == tDOT) || cur.value == "for" {
				return true
			}
			index += step
		}
		return true
	}
	isSimpleOperand := func(index int, exponent bool) bool {
		start := leaves[index]
		if start.typ == tNAME || start.typ == tNUMBER {
			step := -1
			if exponent {
				step = 1
			}
			return isSimpleLookup(index, step)
		}
		if start.typ == tPLUS || start.typ == tMINUS || start.typ == tTILDE {
			if index+1 < len(leaves) && (leaves[index+1].typ == tNAME || leaves[index+1].typ == tNUMBER) {
				return isSimpleLookup(index+1, 1)
			}
		}
		return false
	}
	nl := ln.clone()
	shouldHug := false
	for idx, l := range leaves {
		c := &leaf{}
		*c = *l
		c.orphan = true
		if shouldHug {
			c.prefix = ""
			shouldHug = false
		}
		shouldHug = 0 < idx && idx < len(leaves)-1 && l.typ == tDSTAR && isSimpleOperand(idx-1, false) &&
			leaves[idx-1].value != "lambda" && isSimpleOperand(idx+1, true)
		if shouldHug {
			c.prefix = ""
		}
		nl.append(c, true, false)
		for _, cm := range ln.commentsAfter(l) {
			nl.append(cm, true, false)
		}
	}
	return []*line{nl}, nil
}
