package pycomplete

import (
	"bytes"

	"github.com/pyws/pyws/plugin-sdk/pylex"
)

// ImportLine is the byte offset of the line where a new top-level import
// statement goes before isort places it: the first line of the module's
// first top-level `import`/`from` statement; without one, the line after
// the leading comments, blank lines and module docstring.
func ImportLine(src []byte) int {
	after := 0 // just past the header: comments, blank lines, the docstring
	docDone := false
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off + 1
		}
		line := bytes.TrimRight(src[off:end], "\r\n")
		trimmed := bytes.TrimLeft(line, " \t")
		switch {
		case len(line) > 0 && line[0] != ' ' && line[0] != '\t' && (bytes.HasPrefix(line, []byte("import ")) || bytes.HasPrefix(line, []byte("from "))):
			return off
		case len(trimmed) == 0 || trimmed[0] == '#':
			if !docDone || after == off {
				after = end
			}
		case !docDone && (trimmed[0] == '"' || trimmed[0] == '\'' || len(trimmed) > 1 && (trimmed[0]|0x20 == 'r' || trimmed[0]|0x20 == 'u') && (trimmed[1] == '"' || trimmed[1] == '\'')):
			q := off + bytes.IndexAny(src[off:end], `"'`)
			stop := pylex.StringEnd(src, q)
			end = stop + bytes.IndexByte(src[stop:], '\n') + 1
			if end <= stop {
				end = len(src)
			}
			after = end
			docDone = true
		default:
			docDone = true
			// Code before any import: imports go above it, below the
			// header, unless an import follows later at top level.
			rest := ImportLine(src[end:])
			if rest < len(src)-end && isImportAt(src[end+rest:]) {
				return end + rest
			}
			return after
		}
		off = end
	}
	return after
}

func isImportAt(b []byte) bool {
	return bytes.HasPrefix(b, []byte("import ")) || bytes.HasPrefix(b, []byte("from "))
}
