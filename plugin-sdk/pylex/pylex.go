// Package pylex holds the lexical facts about Python that both the kernel
// and the guests need without a parse tree: the keyword lists, and which
// keyword of code (not of a string or a comment) stands at an offset. It
// imports only the standard library, so the host may import it (the
// kernel still never parses Python: KeywordAt only tells strings and
// comments from code).
package pylex

var hardKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true,
	"del": true, "elif": true, "else": true, "except": true, "finally": true, "for": true,
	"from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true,
}

var softKeywords = map[string]bool{"match": true, "case": true, "type": true, "_": true}

// IsKeyword reports whether s is a hard keyword of Python 3 (never an
// identifier).
func IsKeyword(s string) bool { return hardKeywords[s] }

// IsSoftKeyword reports whether s is a soft keyword (match, case, type,
// _): a keyword in some statements, an identifier everywhere else.
func IsSoftKeyword(s string) bool { return softKeywords[s] }

// KeywordAt returns the word of code containing byte offset off of src (or
// ending at off, when no word starts there) when it is a hard or soft
// keyword; ok is false for identifiers that are not keywords, for words
// inside strings (f-strings included) and comments, and for whitespace
// and punctuation. The caller decides what a soft keyword means there (an
// identifier at the same place is a name, not the keyword).
func KeywordAt(src []byte, off int) (word string, ok bool) {
	if off < 0 || off > len(src) {
		return "", false
	}
	i := 0
	for i < len(src) && i <= off {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			i = skipString(src, i)
		case identStart(c):
			j := i
			for j < len(src) && identPart(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && stringPrefix(src[i:j]) {
				i = skipString(src, j)
				continue
			}
			// off inside the word, or just past it with no word starting there
			if off < j || off == j && (j == len(src) || !identPart(src[j])) {
				w := string(src[i:j])
				if hardKeywords[w] || softKeywords[w] {
					return w, true
				}
				return "", false
			}
			i = j
		case c >= '0' && c <= '9':
			// numbers: 1e5, 0x1F, 1_000j; letters inside are not words
			for i < len(src) && (identPart(src[i]) || src[i] == '.') {
				i++
			}
		default:
			i++
		}
	}
	return "", false
}

// skipString returns the offset after the string literal whose opening
// quote is at q (unterminated: the end of its line, or of src for a
// triple-quoted one). A backslash always keeps the next character in the
// string, in raw strings too (r"\"" is one string).
func skipString(src []byte, q int) int {
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(src) {
		switch c := src[i]; {
		case c == '\\':
			i += 2
		case c == quote:
			if !triple {
				return i + 1
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				return i + 3
			}
			i++
		case c == '\n' && !triple:
			return i
		default:
			i++
		}
	}
	return len(src)
}

// stringPrefix reports whether w is a string prefix (r, u, b, f, t and
// their combinations, any case).
func stringPrefix(w []byte) bool {
	if len(w) == 0 || len(w) > 2 {
		return false
	}
	for _, c := range w {
		switch c | 0x20 {
		case 'r', 'u', 'b', 'f', 't':
		default:
			return false
		}
	}
	return true
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func identPart(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// InCode reports whether byte offset off of src is in code: not inside a
// string literal (f-strings included, their replacement fields too) nor a
// comment. The offset just after a closing quote is code; an unterminated
// string runs to the end of its line (triple-quoted: of src).
func InCode(src []byte, off int) bool {
	if off < 0 || off > len(src) {
		return false
	}
	i := 0
	for i < off {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if off <= i {
				return false
			}
		case c == '"' || c == '\'':
			end, ok := stringEnd(src, i)
			if i = end; off < i || off == i && !ok {
				return false
			}
		case identStart(c):
			j := i
			for j < len(src) && identPart(src[j]) {
				j++
			}
			if j < off && (src[j] == '"' || src[j] == '\'') && stringPrefix(src[i:j]) {
				end, ok := stringEnd(src, j)
				if i = end; off < i || off == i && !ok {
					return false
				}
				continue
			}
			i = j
		default:
			i++
		}
	}
	return true
}

// StringEnd returns the offset after the string literal whose opening
// quote is at q (unterminated: the end of its line, or of src for a
// triple-quoted one).
func StringEnd(src []byte, q int) int { return skipString(src, q) }

// stringEnd is skipString that also reports whether the literal has
// its closing quote.
func stringEnd(src []byte, q int) (end int, closed bool) {
	end = skipString(src, q)
	quote := src[q]
	n := 1
	if q+2 < len(src) && src[q+1] == quote && src[q+2] == quote {
		n = 3
	}
	if end-q < 2*n {
		return end, false
	}
	for k := end - n; k < end; k++ {
		if src[k] != quote {
			return end, false
		}
	}
	// A backslash before the closing quote escapes it: skipString then
	// never stops there, so a quote at the end is a real closing one
	// unless the literal ran to src's end.
	return end, end < len(src) || src[end-n-1] != '\\'
}
