package pycomplete

import "github.com/pyws/pyws/plugin-sdk/pylex"

// EnclosingBlocks returns the lines (0-based) of the statements whose
// indented blocks hold the position (line, byte column col), innermost
// first: the headers of the def, class, if, for ... around it. A
// position on a line blank up to it belongs to the blocks its column is
// indented into, as Python would read a statement typed there. Lines
// inside brackets, strings and after a backslash continue their logical
// line and are skipped; so are blank and comment-only lines.
func EnclosingBlocks(src []byte, line, col int) []int {
	starts := logicalLines(src, line)
	if len(starts) == 0 {
		return nil
	}
	indent := col
	last := starts[len(starts)-1]
	if last.line == line && last.indent < col {
		indent = last.indent
		starts = starts[:len(starts)-1]
	} else if last.line == line {
		starts = starts[:len(starts)-1]
	}
	var out []int
	for k := len(starts) - 1; k >= 0 && indent > 0; k-- {
		if s := starts[k]; s.indent < indent {
			out = append(out, s.line)
			indent = s.indent
		}
	}
	return out
}

type logicalLine struct{ line, indent int }

// logicalLines lists the lines up to maxLine that begin a logical line
// with code, with their indentation (a tab counts to the next multiple
// of 8, as CPython's tokenizer does).
func logicalLines(src []byte, maxLine int) []logicalLine {
	var out []logicalLine
	line, depth := 0, 0
	bol := true // at the beginning of a line that starts a logical line
	for i := 0; i < len(src) && line <= maxLine; {
		if bol {
			bol = false
			indent := 0
			j := i
			for ; j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f'); j++ {
				if src[j] == '\t' {
					indent = indent/8*8 + 8
				} else if src[j] == ' ' {
					indent++
				}
			}
			if j < len(src) && src[j] != '\n' && src[j] != '\r' && src[j] != '#' {
				out = append(out, logicalLine{line, indent})
			}
			i = j
			continue
		}
		switch c := src[i]; {
		case c == '\n':
			line++
			bol = depth == 0 && !(i > 0 && src[i-1] == '\\')
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			end := pylex.StringEnd(src, i)
			for _, b := range src[i:end] {
				if b == '\n' {
					line++
				}
			}
			i = end
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			i++
		default:
			i++
		}
	}
	return out
}
