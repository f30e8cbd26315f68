// Package textpos converts between byte offsets in a source file and the
// (line, character) positions of the wire protocol. pyws counts character
// in UTF-16 code units, as LSP does, so positions from editors and agents
// that follow LSP mean the same thing here. Lines end at "\n"; a "\r"
// before it belongs to the line terminator and is not addressable. A bare
// "\r" is not a line break (Python's tokenizer agrees for source files
// saved on modern systems). The package is stdlib-only: the kernel and the
// guests both import it.
package textpos

import (
	"errors"
	"unicode/utf8"
)

// Index maps offsets and positions for one source text.
type Index struct {
	src        []byte
	lineStarts []int // byte offset of the start of each line
}

// ErrOutOfRange is returned for a position or offset outside the text.
var ErrOutOfRange = errors.New("position out of range")

// New indexes src. It keeps a reference to src; do not mutate it.
func New(src []byte) *Index {
	starts := make([]int, 1, len(src)/32+1)
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Index{src: src, lineStarts: starts}
}

// LineCount returns the number of lines; a text ending in "\n" has an empty
// last line, as in LSP.
func (x *Index) LineCount() int { return len(x.lineStarts) }

// LineStart returns the byte offset where line begins.
func (x *Index) LineStart(line int) int { return x.lineStarts[line] }

// LineEnd returns the byte offset of the end of line's content, before any
// "\r\n" or "\n".
func (x *Index) LineEnd(line int) int {
	end := len(x.src)
	if line+1 < len(x.lineStarts) {
		end = x.lineStarts[line+1] - 1
		if end > x.lineStarts[line] && x.src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// LineLength returns the length of line's content in UTF-16 code units.
func (x *Index) LineLength(line int) int {
	return UTF16Len(x.src[x.lineStarts[line]:x.LineEnd(line)])
}

// Position returns the (line, character) of a byte offset. An offset inside
// a multi-byte character maps to that character's start; one inside a
// "\r\n" terminator maps to the line's end.
func (x *Index) Position(offset int) (line, character int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(x.src) {
		offset = len(x.src)
	}
	lo, hi := 0, len(x.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if x.lineStarts[mid] <= offset {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	start := x.lineStarts[lo]
	if end := x.LineEnd(lo); offset > end {
		offset = end // inside a "\r\n" terminator: the line's end
	}
	return lo, UTF16Len(x.src[start:offset])
}

// Offset returns the byte offset of (line, character). A character past the
// end of the line's content, or inside a UTF-16 surrogate pair, is
// ErrOutOfRange; callers that want LSP's clamping use OffsetClamped.
func (x *Index) Offset(line, character int) (int, error) {
	if line < 0 || line >= len(x.lineStarts) || character < 0 {
		return 0, ErrOutOfRange
	}
	start, end := x.lineStarts[line], x.LineEnd(line)
	units := 0
	for i := start; i < end; {
		if units == character {
			return i, nil
		}
		r, size := utf8.DecodeRune(x.src[i:end])
		units += runeUnits(r)
		i += size
		if units > character {
			return 0, ErrOutOfRange
		}
	}
	if units == character {
		return end, nil
	}
	return 0, ErrOutOfRange
}

// OffsetClamped is Offset with character clamped to the line's length.
func (x *Index) OffsetClamped(line, character int) (int, error) {
	if line < 0 || line >= len(x.lineStarts) || character < 0 {
		return 0, ErrOutOfRange
	}
	if n := x.LineLength(line); character > n {
		character = n
	}
	return x.Offset(line, character)
}

// UTF16Len returns the number of UTF-16 code units needed for b. Invalid
// UTF-8 bytes count as one unit each (they decode to U+FFFD).
func UTF16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		n += runeUnits(r)
		i += size
	}
	return n
}

func runeUnits(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
