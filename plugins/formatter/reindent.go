package main

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// reindent re-expresses Black's 4-space indentation in the requested unit:
// each leading run of n spaces becomes n/4 levels of tabSize spaces (or of
// one tab when insertSpaces is false) plus the n%4 remaining spaces. Only
// whitespace outside string literals changes - the tree says where strings
// (multi-line ones, docstrings included) start and end, and a line that
// begins inside one keeps its bytes - so the change is confined to block
// indentation and to the insignificant indentation of continuation lines
// inside brackets, and the result has the same tree.
func reindent(src []byte, t *tree.Tree, tabSize int, insertSpaces bool) string {
	var strs [][2]int // [start, end) of multi-line string nodes, in order
	t.Root().Walk(func(n tree.Node) bool {
		if n.Kind() == "string" {
			if strings.IndexByte(string(n.Text()), '\n') >= 0 {
				strs = append(strs, [2]int{n.StartByte(), n.EndByte()})
			}
			return false
		}
		return true
	})
	unit := strings.Repeat(" ", tabSize)
	if !insertSpaces {
		unit = "\t"
	}
	var b strings.Builder
	b.Grow(len(src))
	si := 0
	for off := 0; off < len(src); {
		end := off
		for end < len(src) && src[end] != '\n' {
			end++
		}
		if end < len(src) {
			end++ // keep the newline
		}
		for si < len(strs) && strs[si][1] <= off {
			si++
		}
		inString := si < len(strs) && strs[si][0] < off && off < strs[si][1]
		line := src[off:end]
		if !inString {
			n := 0
			for n < len(line) && line[n] == ' ' {
				n++
			}
			if n > 0 && n < len(line) && line[n] != '\n' && line[n] != '\r' {
				b.WriteString(strings.Repeat(unit, n/4))
				b.WriteString(strings.Repeat(" ", n%4))
				b.Write(line[n:])
				off = end
				continue
			}
		}
		b.Write(line)
		off = end
	}
	return b.String()
}
