package black

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A cheap self-check run on every result: the output's tokens, ignoring
// parentheses and commas (which Black adds and removes), must be the
// input's tokens in the same order, and the comments the same multiset.
// It catches merged tokens, a comment swallowing code and broken string
// literals; the host's AST comparison remains the full safety net.

type vtok struct {
	kind byte // 'n' name/op, 's' string, 'd' number, 'c' comment
	val  string
}

var pyOps = []string{
	"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "<>",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
}

// pyOpStarts are the first bytes of pyOps: other bytes need no search.
const pyOpStarts = "*/><.-:=!+%&|^@"

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) || r >= 0x80 }
func isIdentPart(r rune) bool  { return isIdentStart(r) || unicode.IsDigit(r) || r >= 0x80 }

// isASCIIIdentPart is isIdentPart for a byte below utf8.RuneSelf.
func isASCIIIdentPart(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// scanPython splits Python source into verification tokens; ok is false
// when the text cannot be tokenized (an unterminated string).
func scanPython(src string) (toks []vtok, comments []string, ok bool) {
	toks = make([]vtok, 0, len(src)/6) // about a token per 6 bytes of Python
	i := 0
	n := len(src)
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n' || c == '\\':
			i++
		case c == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = n - i
			}
			comments = append(comments, squash(src[i:i+j]))
			i += j
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			j := scanNumber(src, i)
			toks = append(toks, vtok{'d', normalizeNumber(src[i:j])})
			i = j
		default:
			r, size := utf8.DecodeRuneInString(src[i:])
			if isIdentStart(r) {
				j := i
				for j < n {
					if b := src[j]; b < utf8.RuneSelf { // ASCII: no decoding
						if !isASCIIIdentPart(b) {
							break
						}
						j++
						continue
					}
					r2, s2 := utf8.DecodeRuneInString(src[j:])
					if !isIdentPart(r2) {
						break
					}
					j += s2
				}
				if j < n && (src[j] == '"' || src[j] == '\'') && j-i <= 3 && strings.Trim(src[i:j], "rRbBuUfF") == "" {
					end, good := scanString(src, j)
					if !good {
						return nil, nil, false
					}
					toks = append(toks, vtok{'s', ""})
					i = end
					continue
				}
				toks = append(toks, vtok{'n', src[i:j]})
				i = j
				continue
			}
			if c == '"' || c == '\'' {
				end, good := scanString(src, i)
				if !good {
					return nil, nil, false
				}
				toks = append(toks, vtok{'s', ""})
				i = end
				continue
			}
			op := ""
			if strings.IndexByte(pyOpStarts, c) >= 0 {
				for _, o := range pyOps {
					if strings.HasPrefix(src[i:], o) {
						op = o
						break
					}
				}
			}
			if op == "" {
				op = src[i : i+size]
			}
			i += len(op)
			if op == "(" || op == ")" || op == "," || op == ";" {
				continue
			}
			toks = append(toks, vtok{'n', op})
		}
	}
	return toks, comments, true
}

// scanString returns the end of the string literal whose quote is at q.
func scanString(src string, q int) (int, bool) {
	quote := src[q : q+1]
	triple := `"""`
	if quote == "'" {
		triple = "'''"
	}
	if strings.HasPrefix(src[q:], triple) {
		quote = triple
	}
	i := q + len(quote)
	for i < len(src) {
		switch {
		case src[i] == '\\':
			i += 2
		case strings.HasPrefix(src[i:], quote):
			return i + len(quote), true
		case src[i] == '\n' && len(quote) == 1:
			return 0, false
		default:
			i++
		}
	}
	return 0, false
}

func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// verify compares input and output token streams.
func verify(in, out string) bool {
	a, ca, ok1 := scanPython(in)
	b, cb, ok2 := scanPython(out)
	if !ok1 {
		return true // our scanner does not understand the input: no opinion
	}
	if !ok2 || len(a) != len(b) || len(ca) != len(cb) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	sort.Strings(ca)
	sort.Strings(cb)
	for i := range ca {
		if ca[i] != cb[i] {
			return false
		}
	}
	return true
}

func isDigitOrUnderscore(d byte) bool { return d >= '0' && d <= '9' || d == '_' }

// scanNumber returns the end of the numeric literal starting at i.
func scanNumber(src string, i int) int {
	n := len(src)
	j := i
	if j+1 < n && src[j] == '0' && strings.ContainsRune("xXoObB", rune(src[j+1])) {
		j += 2
		for j < n && (isDigitOrUnderscore(src[j]) || strings.ContainsRune("abcdefABCDEF", rune(src[j]))) {
			j++
		}
		return j
	}
	for j < n && isDigitOrUnderscore(src[j]) {
		j++
	}
	if j < n && src[j] == '.' {
		j++
		for j < n && isDigitOrUnderscore(src[j]) {
			j++
		}
	}
	if j < n && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < n && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < n && src[k] >= '0' && src[k] <= '9' {
			j = k
			for j < n && isDigitOrUnderscore(src[j]) {
				j++
			}
		}
	}
	if j < n && strings.ContainsRune("jJlL", rune(src[j])) {
		j++
	}
	return j
}
