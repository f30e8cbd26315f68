package parser

import (
	"bytes"
	"hash/maphash"
	"slices"
)

// Bounds on the line diff behind InputEdits. Past them the changes are
// sent as the single range InputEdit gives: a text rewritten that much
// reuses little of the old tree anyway, and the diff's cost (time about
// maxDiffWork per gap between anchors, at most 4 MiB of memory) stays
// small beside a parse. Black's changes to Debian's Django fit in all 173
// changed files of 8 KiB or more (without anchors 2 did not, and 13 at
// 512 and 256).
const (
	maxDiffDepth = 1024    // inserted plus deleted lines
	maxEdits     = 1024    // changed ranges sent to the guest
	maxDiffWork  = 1 << 24 // line comparisons per gap, about
)

// InputEdits describes how src differs from prev as tree-sitter edits,
// one per run of changed lines found by a line diff (each narrowed to the
// bytes that differ), ordered from the last range to the first, so each
// is in prev's coordinates when the guest applies them in order. A
// formatter's scattered changes then leave the tree of every unchanged
// statement between them reusable, where one range from the first change
// to the last would cover most of the file. Equal texts give one empty
// edit at the end, as InputEdit does.
func InputEdits(prev, src []byte) [][editWords]uint32 {
	// The common prefix and suffix first: an edit in one place costs no diff.
	start, oldEnd, newEnd := changedRange(prev, src)
	single := [][editWords]uint32{InputEdit(prev, src)}
	// Whole lines from here on: back start to its line's start.
	lineStart := bytes.LastIndexByte(prev[:start], '\n') + 1
	oldLines := splitLines(prev[lineStart:oldEnd], lineStart)
	newLines := splitLines(src[lineStart:newEnd], lineStart)
	if len(oldLines) == 0 || len(newLines) == 0 {
		return single
	}
	runs, ok := diffLines(prev, src, oldLines, newLines)
	if !ok || len(runs) <= 1 || len(runs) > maxEdits {
		return single
	}
	edits := make([][editWords]uint32, 0, len(runs))
	row, col := point(prev[:lineStart])
	at := lineStart // prev offset of (row, col)
	for _, r := range runs {
		// Narrowed to the bytes that differ.
		i, oi, ni := changedRange(prev[r.oldStart:r.oldEnd], src[r.newStart:r.newEnd])
		s, oe, ns, ne := r.oldStart+i, r.oldStart+oi, r.newStart+i, r.newStart+ni
		row, col = advance(row, col, prev[at:s])
		at = s
		oldRow, oldCol := advance(row, col, prev[s:oe])
		newRow, newCol := advance(row, col, src[ns:ne])
		edits = append(edits, [editWords]uint32{uint32(s), uint32(oe), uint32(s + ne - ns), row, col, oldRow, oldCol, newRow, newCol})
	}
	for i, j := 0, len(edits)-1; i < j; i, j = i+1, j-1 {
		edits[i], edits[j] = edits[j], edits[i]
	}
	return edits
}

// changedRun is one run of changed lines: prev[oldStart:oldEnd] became
// src[newStart:newEnd] (byte offsets).
type changedRun struct{ oldStart, oldEnd, newStart, newEnd int }

// lineSpan is a line's byte range in its text, its '\n' included.
type lineSpan struct {
	start, end int
	hash       uint64
}

var lineSeed = maphash.MakeSeed()

// splitLines splits b, which starts at offset base of its text, into lines.
func splitLines(b []byte, base int) []lineSpan {
	lines := make([]lineSpan, 0, bytes.Count(b, []byte{'\n'})+1)
	for len(b) > 0 {
		n := bytes.IndexByte(b, '\n') + 1
		if n == 0 {
			n = len(b)
		}
		lines = append(lines, lineSpan{base, base + n, maphash.Bytes(lineSeed, b[:n])})
		base += n
		b = b[n:]
	}
	return lines
}

// diffLines finds the runs of changed lines between a and b (lines of
// prev and src), or ok false when more than maxDiffDepth lines are
// inserted and deleted between two anchors. Anchors are lines that occur
// once in each text, taken in order; Myers' algorithm runs between
// consecutive anchors, so its cost (gap lines times changed lines, per
// gap) stays local where a formatter's changes are.
func diffLines(prev, src []byte, a, b []lineSpan) (runs []changedRun, ok bool) {
	equal := func(x, y int) bool {
		return a[x].hash == b[y].hash && bytes.Equal(prev[a[x].start:a[x].end], src[b[y].start:b[y].end])
	}
	inA := make(map[uint64]int32, len(a)) // occurrences in a
	for _, l := range a {
		inA[l.hash]++
	}
	inB := make(map[uint64]int32, len(b)) // the line's index in b, or -1 if repeated
	for y, l := range b {
		if _, seen := inB[l.hash]; seen {
			inB[l.hash] = -1
		} else {
			inB[l.hash] = int32(y)
		}
	}
	var lr []lineRun
	x0, y0 := 0, 0 // the gap after the last anchor
	gap := func(x1, y1 int) bool {
		found, ok := myersRuns(equal, x0, x1, y0, y1)
		lr = append(lr, found...)
		return ok
	}
	for x, l := range a {
		y, unique := inB[l.hash]
		if !unique || y < int32(y0) || inA[l.hash] != 1 || !equal(x, int(y)) {
			continue
		}
		if !gap(x, int(y)) {
			return nil, false
		}
		x0, y0 = x+1, int(y)+1
	}
	if !gap(len(a), len(b)) {
		return nil, false
	}
	runs = make([]changedRun, len(lr))
	for i, r := range lr {
		runs[i] = changedRun{
			oldStart: lineOffset(a, r.a0), oldEnd: lineOffset(a, r.a1),
			newStart: lineOffset(b, r.b0), newEnd: lineOffset(b, r.b1),
		}
	}
	return runs, true
}

// lineRun is a run of changed lines: a[a0:a1] became b[b0:b1].
type lineRun struct{ a0, a1, b0, b1 int }

// myersRuns diffs a[x0:x1] against b[y0:y1] (equal compares a line of
// each) with Myers' algorithm and returns the runs of changed lines, first
// first, or ok false past maxDiffDepth.
func myersRuns(equal func(x, y int) bool, x0, x1, y0, y1 int) (runs []lineRun, ok bool) {
	n, m := x1-x0, y1-y0
	if n == 0 && m == 0 {
		return nil, true
	}
	if n == 0 || m == 0 {
		return []lineRun{{x0, x1, y0, y1}}, true
	}
	// Myers' time is about (n+m)·d: a long gap gets a lower bound on d,
	// so a huge file rewritten everywhere costs a bounded diff.
	maxD := min(n+m, maxDiffDepth, max(maxDiffWork/(n+m), 1))
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int32 // v before each depth d, for the walk back
	depth := -1
	for d := 0; d <= maxD && depth < 0; d++ {
		saved := make([]int32, 2*d+3)
		for i, x := range v[off-d-1 : off+d+2] {
			saved[i] = int32(x)
		}
		trace = append(trace, saved)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: a line of b inserted
			} else {
				x = v[off+k-1] + 1 // right: a line of a deleted
			}
			y := x - k
			for x < n && y < m && equal(x0+x, y0+y) {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				depth = d
				break
			}
		}
	}
	if depth < 0 {
		return nil, false
	}
	// Walk back from (n, m), collecting the changed line ranges last first.
	x, y := n, m
	for d := depth; d > 0; d-- {
		prevV := trace[d] // v[off-d-1 : off+d+2] before depth d
		at := func(k int) int { return int(prevV[k+d+1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		// The snake from the move's end to (x, y) is equal lines.
		var sx, sy int // where the move ended
		if pk == k+1 {
			sx, sy = px, py+1
		} else {
			sx, sy = px+1, py
		}
		x, y = sx, sy
		// The move (px, py) -> (sx, sy) changes one line.
		if last := len(runs) - 1; last >= 0 && runs[last].a0 == x0+sx && runs[last].b0 == y0+sy {
			runs[last].a0, runs[last].b0 = x0+px, y0+py
		} else {
			runs = append(runs, lineRun{x0 + px, x0 + sx, y0 + py, y0 + sy})
		}
		x, y = px, py
	}
	slices.Reverse(runs)
	return runs, true
}

// lineOffset is the byte offset where line i of lines starts (the end of
// the last line for i == len(lines)).
func lineOffset(lines []lineSpan, i int) int {
	if i == len(lines) {
		return lines[i-1].end
	}
	return lines[i].start
}
