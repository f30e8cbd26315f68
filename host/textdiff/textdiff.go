// Package textdiff turns a file's old and new text into minimal LSP text
// edits: a line diff (Myers' O(ND) algorithm in its linear-space,
// divide-and-conquer form) whose hunks become one TextEdit each, covering
// only the changed lines. Positions are (line, UTF-16 character) as on
// the wire; applying the edits to the old text (host/edits, or any LSP
// client) yields the new text exactly, and equal texts give no edits.
//
// The work is bounded: after the common prefix and suffix are trimmed,
// each subproblem's search stops at maxCost edit steps and then treats its
// whole range as replaced, so a rewrite of a huge file costs
// O((N+M)·maxCost) rather than O((N+M)·D), at the price of coarser (still
// correct) edits for pathological inputs.
package textdiff

import (
	"bytes"
	"hash/maphash"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// maxCost bounds the edit distance searched in one subproblem.
const maxCost = 2048

// Edits returns the edits that turn old into new, in document order,
// non-overlapping; nil when the texts are equal.
func Edits(old, new []byte) []abi.TextEdit {
	if bytes.Equal(old, new) {
		return nil
	}
	a, b := splitLines(old), splitLines(new)
	ha, hb := hashLines(a, b)
	delA, insB := make([]bool, len(a)), make([]bool, len(b))
	d := &differ{a: ha, b: hb, delA: delA, insB: insB}
	d.compare(0, len(a), 0, len(b))

	idx := textpos.New(old)
	endsInNewline := len(old) > 0 && old[len(old)-1] == '\n'
	pos := func(line int) abi.Position {
		// The start of old line `line`; past the last line of a text
		// without a final newline, the end of that line.
		if line < len(a) || endsInNewline || len(a) == 0 {
			return abi.Position{Line: line}
		}
		return abi.Position{Line: len(a) - 1, Character: idx.LineLength(len(a) - 1)}
	}
	var out []abi.TextEdit
	for i, j := 0, 0; i < len(a) || j < len(b); {
		if i < len(a) && j < len(b) && !delA[i] && !insB[j] {
			i++
			j++
			continue
		}
		i0, j0 := i, j
		for i < len(a) && delA[i] {
			i++
		}
		for j < len(b) && insB[j] {
			j++
		}
		if i == i0 && j == j0 { // cannot happen with a consistent diff; never loop
			break
		}
		out = append(out, abi.TextEdit{
			Range:   abi.Range{Start: pos(i0), End: pos(i)},
			NewText: string(bytes.Join(b[j0:j], nil)),
		})
	}
	return out
}

// splitLines splits after each "\n"; the last line may lack one.
func splitLines(s []byte) [][]byte {
	if len(s) == 0 {
		return nil
	}
	lines := bytes.SplitAfter(s, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// hashLines numbers distinct lines, so comparisons are integer compares.
func hashLines(a, b [][]byte) ([]int, []int) {
	seed := maphash.MakeSeed()
	ids := map[uint64][]struct {
		line []byte
		id   int
	}{}
	next := 0
	id := func(l []byte) int {
		h := maphash.Bytes(seed, l)
		for _, e := range ids[h] {
			if bytes.Equal(e.line, l) {
				return e.id
			}
		}
		next++
		ids[h] = append(ids[h], struct {
			line []byte
			id   int
		}{l, next})
		return next
	}
	ha, hb := make([]int, len(a)), make([]int, len(b))
	for i, l := range a {
		ha[i] = id(l)
	}
	for i, l := range b {
		hb[i] = id(l)
	}
	return ha, hb
}

type differ struct {
	a, b       []int
	delA, insB []bool
	vf, vb     []int // scratch, reused across subproblems
}

// compare marks the lines of a[aLo:aHi] deleted and b[bLo:bHi] inserted
// that a shortest edit script deletes and inserts.
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo++
		bLo++
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi--
		bHi--
	}
	switch {
	case aLo == aHi:
		for j := bLo; j < bHi; j++ {
			d.insB[j] = true
		}
		return
	case bLo == bHi:
		for i := aLo; i < aHi; i++ {
			d.delA[i] = true
		}
		return
	}
	x, y, ok := d.middle(aLo, aHi, bLo, bHi)
	if !ok {
		for i := aLo; i < aHi; i++ {
			d.delA[i] = true
		}
		for j := bLo; j < bHi; j++ {
			d.insB[j] = true
		}
		return
	}
	d.compare(aLo, x, bLo, y)
	d.compare(x, aHi, y, bHi)
}

// middle returns a point (x, y) on a shortest edit path from (aLo, bLo)
// to (aHi, bHi), found where the forward and backward searches meet (the
// end of Myers' middle snake); ok is false when the distance exceeds
// maxCost. The ends of both ranges differ (compare trimmed them).
func (d *differ) middle(aLo, aHi, bLo, bHi int) (int, int, bool) {
	n, m := aHi-aLo, bHi-bLo
	delta := n - m
	odd := delta&1 != 0
	limit := min((n+m+1)/2, maxCost)
	size := 2*limit + 3
	if cap(d.vf) < size {
		d.vf, d.vb = make([]int, size), make([]int, size)
	}
	vf, vb := d.vf[:size], d.vb[:size]
	off := limit + 1
	// vf[off+k]: furthest x on forward diagonal k (x - y = k).
	// vb[off+k]: furthest distance walked back from the end on reversed
	// diagonal k (in reversed coordinates x' = n - x, y' = m - y).
	vf[off+1], vb[off+1] = 0, 0
	a, b := d.a, d.b
	for D := 0; D <= limit; D++ {
		for k := -D; k <= D; k += 2 {
			var x int
			if k == -D || (k != D && vf[off+k-1] < vf[off+k+1]) {
				x = vf[off+k+1]
			} else {
				x = vf[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[aLo+x] == b[bLo+y] {
				x++
				y++
			}
			vf[off+k] = x
			if odd {
				kr := delta - k
				if kr >= -(D-1) && kr <= D-1 && x+vb[off+kr] >= n {
					return aLo + x, bLo + y, true
				}
			}
		}
		for k := -D; k <= D; k += 2 {
			var x int
			if k == -D || (k != D && vb[off+k-1] < vb[off+k+1]) {
				x = vb[off+k+1]
			} else {
				x = vb[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[aHi-1-x] == b[bHi-1-y] {
				x++
				y++
			}
			vb[off+k] = x
			if !odd {
				kf := delta - k
				if kf >= -D && kf <= D && x+vf[off+kf] >= n {
					return aHi - x, bHi - y, true
				}
			}
		}
	}
	return 0, 0, false
}
