package black

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pyws/pyws/plugins/formatter/pytext"
)

// String, numeric and docstring normalization, following Black 23.1's
// stable style.

const stringPrefixChars = "furbFURB"

// stringPrefix returns the prefix letters of a string literal.
func stringPrefix(s string) string {
	i := 0
	for i < len(s) && strings.IndexByte(stringPrefixChars, s[i]) >= 0 {
		i++
	}
	return s[:i]
}

func hasTripleQuotes(s string) bool {
	raw := s[len(stringPrefix(s)):]
	return strings.HasPrefix(raw, `"""`) || strings.HasPrefix(raw, `'''`)
}

// normalizeStringPrefix drops u/U and lowercases F and B (R is kept).
func normalizeStringPrefix(s string) string {
	p := stringPrefix(s)
	rest := s[len(p):]
	var b []byte
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case 'u', 'U':
		case 'F':
			b = append(b, 'f')
		case 'B':
			b = append(b, 'b')
		default:
			b = append(b, c)
		}
	}
	if len(b) == 2 && b[0] != 'r' && b[0] != 'R' {
		b[0], b[1] = b[1], b[0]
	}
	return string(b) + rest
}

type quoteRes struct {
	escapedNew, escapedOrig, unescapedNew *regexp.Regexp
}

var quoteRegexps = map[string]*quoteRes{}

func init() {
	for _, q := range [][2]string{{`'`, `"`}, {`"`, `'`}, {`'''`, `"""`}} {
		orig, nw := q[0], q[1]
		quoteRegexps[orig] = &quoteRes{
			escapedNew:   regexp.MustCompile(`([^\\]|^)\\((?:\\\\)*)` + regexp.QuoteMeta(nw)),
			escapedOrig:  regexp.MustCompile(`([^\\]|^)\\((?:\\\\)*)` + regexp.QuoteMeta(orig)),
			unescapedNew: regexp.MustCompile(`(([^\\]|^)(\\\\)*)` + regexp.QuoteMeta(nw)),
		}
	}
}

func subTwice(re *regexp.Regexp, repl, s string) string {
	return re.ReplaceAllString(re.ReplaceAllString(s, repl), repl)
}

// fstringExprsHaveBackslash mimics Black's check that no {expression} of
// an f-string body contains a backslash.
func fstringExprsHaveBackslash(body string) bool {
	n := len(body)
	i := 0
	for i < n {
		if body[i] != '{' || (i > 0 && body[i-1] == '{') || i+1 >= n || body[i+1] == '{' {
			i++
			continue
		}
		// group: body[i+1] then lazily up to a '}' not followed by '}'.
		found := -1
		for j := i + 2; j < n; j++ {
			if body[j] == '}' && (j+1 == n || body[j+1] != '}') {
				found = j
				break
			}
			if body[j] == '\n' {
				break
			}
		}
		if found < 0 {
			i++
			continue
		}
		if strings.Contains(body[i+1:found], `\`) {
			return true
		}
		i = found + 1
	}
	return false
}

// normalizeStringQuotes prefers double quotes unless that adds escapes.
func normalizeStringQuotes(s string) string {
	value := strings.TrimLeft(s, stringPrefixChars)
	var orig, nw string
	switch {
	case strings.HasPrefix(value, `"""`):
		return s
	case strings.HasPrefix(value, `'''`):
		orig, nw = `'''`, `"""`
	case strings.HasPrefix(value, `"`):
		orig, nw = `"`, `'`
	default:
		orig, nw = `'`, `"`
	}
	pos := strings.Index(s, orig)
	if pos < 0 || len(s) < pos+2*len(orig) {
		return s
	}
	prefix := s[:pos]
	body := s[pos+len(orig) : len(s)-len(orig)]
	lp := strings.ToLower(prefix)
	if !strings.ContainsAny(body, "\\'\"") {
		// nothing to escape or unescape
		if orig == `"` {
			return s
		}
		return prefix + nw + body + nw
	}
	res := quoteRegexps[orig]
	var newBody string
	if strings.Contains(lp, "r") {
		if res.unescapedNew.MatchString(body) {
			return s
		}
		newBody = body
	} else {
		newBody = subTwice(res.escapedNew, "${1}${2}"+nw, body)
		if body != newBody {
			body = newBody
			s = prefix + orig + body + orig
		}
		newBody = subTwice(res.escapedOrig, "${1}${2}"+orig, newBody)
		newBody = subTwice(res.unescapedNew, `${1}\`+nw, newBody)
	}
	if strings.Contains(lp, "f") && fstringExprsHaveBackslash(newBody) {
		return s
	}
	if nw == `"""` && strings.HasSuffix(newBody, `"`) {
		newBody = newBody[:len(newBody)-1] + `\"`
	}
	origEsc := strings.Count(body, `\`)
	newEsc := strings.Count(newBody, `\`)
	if newEsc > origEsc {
		return s
	}
	if newEsc == origEsc && orig == `"` {
		return s
	}
	return prefix + nw + newBody + nw
}

// normalizeNumber lowercases a numeric literal and fixes its parts.
func normalizeNumber(text string) string {
	t := strings.ToLower(text)
	switch {
	case strings.HasPrefix(t, "0o"), strings.HasPrefix(t, "0b"):
	case strings.HasPrefix(t, "0x"):
		t = "0x" + strings.ToUpper(t[2:])
	case strings.Contains(t, "e"):
		before, after, _ := strings.Cut(t, "e")
		sign := ""
		if strings.HasPrefix(after, "-") {
			after, sign = after[1:], "-"
		} else if strings.HasPrefix(after, "+") {
			after = after[1:]
		}
		t = formatFloatOrInt(before) + "e" + sign + after
	case strings.HasSuffix(t, "j"):
		t = formatFloatOrInt(t[:len(t)-1]) + "j"
	default:
		t = formatFloatOrInt(t)
	}
	return t
}

func formatFloatOrInt(t string) string {
	before, after, ok := strings.Cut(t, ".")
	if !ok {
		return t
	}
	if before == "" {
		before = "0"
	}
	if after == "" {
		after = "0"
	}
	return before + "." + after
}

func isPySpace(r rune) bool {
	switch r {
	case 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	}
	return unicode.IsSpace(r)
}

func pyStrip(s string) string  { return strings.TrimFunc(s, isPySpace) }
func pyLStrip(s string) string { return strings.TrimLeftFunc(s, isPySpace) }
func pyRStrip(s string) string { return strings.TrimRightFunc(s, isPySpace) }

// expandTabs is Python's str.expandtabs() with tab size 8.
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// linesWithLeadingTabsExpanded expands tabs in each line's leading
// whitespace when it contains one.
func linesWithLeadingTabsExpanded(s string) []string {
	var lines []string
	for _, line := range pytext.SplitLines(s, false) {
		// \s*\t+\s*(\S)
		i := 0
		sawTab := false
		for i < len(line) {
			r, size := utf8.DecodeRuneInString(line[i:])
			if !isPySpace(r) {
				break
			}
			if r == '\t' {
				sawTab = true
			}
			i += size
		}
		if sawTab && i < len(line) {
			lines = append(lines, expandTabs(line[:i])+line[i:])
		} else {
			lines = append(lines, line)
		}
	}
	return lines
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// fixDocstring re-indents a docstring body (PEP 257 algorithm).
func fixDocstring(doc, prefix string) string {
	if doc == "" {
		return ""
	}
	lines := linesWithLeadingTabsExpanded(doc)
	indent := -1
	for _, line := range lines[1:] {
		st := pyLStrip(line)
		if st != "" {
			d := runeLen(line) - runeLen(st)
			if indent < 0 || d < indent {
				indent = d
			}
		}
	}
	trimmed := []string{pyStrip(lines[0])}
	if indent >= 0 {
		last := len(lines) - 2
		for i, line := range lines[1:] {
			rs := []rune(line)
			var sl string
			if indent < len(rs) {
				sl = pyRStrip(string(rs[indent:]))
			}
			if sl != "" || i == last {
				trimmed = append(trimmed, prefix+sl)
			} else {
				trimmed = append(trimmed, "")
			}
		}
	}
	return strings.Join(trimmed, "\n")
}

// formatDocstring applies Black's docstring rules to a string leaf value
// at the given indentation depth.
func formatDocstring(value string, depth int, o *Options) string {
	var doc string
	if !o.SkipStringNormalization {
		doc = normalizeStringQuotes(normalizeStringPrefix(value))
	} else {
		doc = value
	}
	prefix := stringPrefix(doc)
	doc = doc[len(prefix):]
	quoteChar := doc[0]
	quoteLen := 1
	if len(doc) > 1 && doc[1] == quoteChar {
		quoteLen = 3
	}
	if len(doc) < 2*quoteLen {
		doc = "" // Python slicing of '""' as a triple-quoted string
	} else {
		doc = doc[quoteLen : len(doc)-quoteLen]
	}
	startedEmpty := doc == ""
	indent := strings.Repeat(" ", 4*depth)
	if strings.Contains(doc, "\n") && quoteLen == 3 {
		doc = fixDocstring(doc, indent)
	} else {
		doc = pyStrip(doc)
	}
	hasTrailingBackslash := false
	if doc != "" {
		if doc[0] == quoteChar {
			doc = " " + doc
		}
		if doc[len(doc)-1] == quoteChar {
			doc += " "
		}
		if doc[len(doc)-1] == '\\' {
			n := len(doc) - len(strings.TrimRight(doc, `\`))
			if n%2 == 1 {
				doc += " "
				hasTrailingBackslash = true
			}
		}
	} else if !startedEmpty {
		doc = " "
	}
	quote := strings.Repeat(string(quoteChar), quoteLen)
	if quoteLen == 3 {
		lines := pytext.SplitLines(doc, false)
		lastLen := 0
		if doc != "" && len(lines) > 0 {
			lastLen = runeLen(lines[len(lines)-1])
		}
		if len(lines) > 1 && lastLen+quoteLen > o.LineLength && len(indent)+quoteLen <= o.LineLength && !hasTrailingBackslash {
			return prefix + quote + doc + "\n" + indent + quote
		}
	}
	return prefix + quote + doc + quote
}
