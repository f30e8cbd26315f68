package isort

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pyws/pyws/plugins/formatter/pytext"
)

// Python str semantics the port relies on: isort compares lengths in code
// points, strips Unicode whitespace and splits lines on more than "\n".

func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

func pyStrip(s string) string  { return strings.TrimFunc(s, isPySpace) }
func pyLStrip(s string) string { return strings.TrimLeftFunc(s, isPySpace) }
func pyRStrip(s string) string { return strings.TrimRightFunc(s, isPySpace) }

// pyLen is len() of a Python str: code points.
func pyLen(s string) int { return utf8.RuneCountInString(s) }

// pySplit is str.split() with no arguments.
func pySplit(s string) []string { return strings.FieldsFunc(s, isPySpace) }

// leadingWS is line[: -len(line.lstrip())], which is "" when the line is
// all whitespace (s[:-0] is empty in Python).
func leadingWS(s string) string {
	rest := pyLStrip(s)
	if rest == "" {
		return ""
	}
	return s[:len(s)-len(rest)]
}

// pyIsUpper is str.isupper(): at least one cased character, none lower.
func pyIsUpper(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsLower(r) || unicode.IsTitle(r) {
			return false
		}
		if unicode.IsUpper(r) {
			cased = true
		}
	}
	return cased
}

func hasPrefixAny(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// splitFirst is s.split(sep, 1) returning the head and, when sep occurs,
// the tail.
func splitFirst(s, sep string) (head, tail string, ok bool) {
	return strings.Cut(s, sep)
}

// beforeHash is s.split("#")[0].
func beforeHash(s string) string {
	h, _, _ := strings.Cut(s, "#")
	return h
}

// removeFirst is list.remove(x); it reports whether x was present (Python
// raises ValueError otherwise).
func removeFirst(l []string, x string) ([]string, bool) {
	for i, v := range l {
		if v == x {
			return append(l[:i:i], l[i+1:]...), true
		}
	}
	return l, false
}

func indexOf(l []string, x string) int {
	for i, v := range l {
		if v == x {
			return i
		}
	}
	return -1
}

// textwrapIndent is textwrap.indent(text, prefix): prefix every line that
// is not whitespace only.
func textwrapIndent(text, prefix string) string {
	var b strings.Builder
	for _, l := range pytext.SplitLines(text, true) {
		if pyStrip(l) != "" {
			b.WriteString(prefix)
		}
		b.WriteString(l)
	}
	return b.String()
}
