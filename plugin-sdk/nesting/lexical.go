package nesting

// Lexical reports the first place where src goes past CPython's tokenizer
// limits: brackets ()[]{} open at once, indentation levels, f-strings
// open inside each other. Strings and comments are skipped as the
// tokenizer skips them. F-strings are read as CPython 3.12 reads them
// (PEP 701): the braces of a replacement field are brackets, counted with
// those around the string, and the field holds code, strings and
// f-strings of its own. It does not judge anything else: a file that
// passes may still have syntax errors, and broken input (unterminated
// strings, unbalanced brackets) is read on as the tokenizer's error
// recovery would, never refused here.
func Lexical(src []byte) (Excess, bool) {
	s := lexer{src: src, indents: []int{0}, lineStart: true}
	return s.run()
}

type modeKind uint8

const (
	// modeFString is the literal part of an f-string.
	modeFString modeKind = iota
	// modeField is the code of a replacement field, up to its `:` or `}`.
	modeField
	// modeSpec is a field's format spec, after its top-level `:`.
	modeSpec
)

// mode is one open f-string or replacement field, innermost last. Plain
// code (no mode open) is the file's own.
type mode struct {
	kind   modeKind
	quote  byte
	triple bool
	raw    bool
	// level is, for a field, the bracket level its `{` opened; for an
	// f-string, the level before it began (restored when it ends, so an
	// unterminated field cannot leave brackets open).
	level int
}

type lexer struct {
	src       []byte
	i         int
	level     int   // brackets open, f-string fields included
	indents   []int // indentation columns, CPython's indent stack
	modes     []mode
	fstrings  int  // f-strings open
	lineStart bool // at the start of a logical line
}

func (s *lexer) run() (Excess, bool) {
	if len(s.src) >= 3 && s.src[0] == 0xEF && s.src[1] == 0xBB && s.src[2] == 0xBF {
		s.i = 3
	}
	for s.i < len(s.src) {
		var e Excess
		var over bool
		if m := s.top(); m != nil && m.kind != modeField {
			e, over = s.literal(m)
		} else {
			e, over = s.code()
		}
		if over {
			return e, true
		}
	}
	return Excess{}, false
}

func (s *lexer) top() *mode {
	if len(s.modes) == 0 {
		return nil
	}
	return &s.modes[len(s.modes)-1]
}

// code reads one token (or skips one byte) of code: the file's own, or a
// replacement field's.
func (s *lexer) code() (Excess, bool) {
	if s.lineStart {
		s.lineStart = false
		if e, over := s.indentation(); over {
			return e, true
		}
		if s.i >= len(s.src) {
			return Excess{}, false
		}
	}
	src := s.src
	// Most bytes change nothing: skip them in a tight loop (the check runs
	// on every file a guest gets, and calls are dear in wasm).
	i := s.i // a local: a field is a memory access per byte in wasm
	for i < len(src) && !special[src[i]] {
		i++
	}
	s.i = i
	if i >= len(src) {
		return Excess{}, false
	}
	c := src[s.i]
	switch {
	case c == '#':
		for i < len(src) && src[i] != '\n' && src[i] != '\r' {
			i++
		}
		s.i = i
	case c == '\\':
		// A line continuation joins lines: the next is not a logical
		// line start. Any other backslash is an error the parser reports.
		s.i++
		if s.i < len(src) && src[s.i] == '\r' {
			s.i++
		}
		if s.i < len(src) && src[s.i] == '\n' {
			s.i++
		}
	case c == '\n' || c == '\r':
		s.newline()
	case c == '(' || c == '[' || c == '{':
		if s.level >= MaxBrackets {
			return Excess{Start: s.i, End: s.i + 1, Message: MessageBrackets}, true
		}
		s.level++
		s.i++
	case c == '}' && s.fieldCloses():
		s.level--
		s.modes = s.modes[:len(s.modes)-1]
		s.i++
	case c == ')' || c == ']' || c == '}':
		if s.level > 0 {
			s.level--
		}
		s.i++
	case c == ':' && s.fieldCloses():
		// A top-level `:` in a field starts its format spec (3.12: a
		// lambda or walrus there needs parentheses).
		s.top().kind = modeSpec
		s.i++
	case c == ':':
		s.i++
	default: // a quote
		// The name right before it, if any, is its prefix when it is one.
		start := s.i
		for start > 0 && s.i-start < 3 && isNameByte(src[start-1]) {
			start--
		}
		raw, f, ok := false, false, true
		if start < s.i {
			raw, f, ok = stringPrefix(src[start:s.i])
			ok = ok && (start == 0 || !isNameByte(src[start-1]))
		}
		if !ok {
			raw, f, start = false, false, s.i
		}
		return s.string(start, s.i, raw, f)
	}
	return Excess{}, false
}

// special marks the bytes code() must look at.
var special = func() (t [256]bool) {
	for _, c := range []byte("#\\\n\r([{)]}:'\"") {
		t[c] = true
	}
	return t
}()

// fieldCloses reports whether the innermost mode is a replacement field
// whose own bracket level is the current one: its `}` or `:` is next.
func (s *lexer) fieldCloses() bool {
	m := s.top()
	return m != nil && m.kind == modeField && m.level == s.level
}

// newline ends a physical line at s.i (\n, \r\n or \r). Outside brackets
// and f-strings the next line starts a logical line. A single-quoted
// f-string cannot span lines: one still open is unterminated and ends
// here, as the tokenizer's error recovery ends it.
func (s *lexer) newline() {
	if s.src[s.i] == '\r' && s.i+1 < len(s.src) && s.src[s.i+1] == '\n' {
		s.i++
	}
	s.i++
	for {
		k := len(s.modes) - 1
		for k >= 0 && s.modes[k].kind != modeFString {
			k--
		}
		if k < 0 || s.modes[k].triple {
			break
		}
		s.endFString(k)
	}
	if s.level == 0 && len(s.modes) == 0 {
		s.lineStart = true
	}
}

// endFString closes the f-string at s.modes[k] and whatever is open
// inside it.
func (s *lexer) endFString(k int) {
	s.level = s.modes[k].level
	s.modes = s.modes[:k]
	s.fstrings--
}

// indentation measures the line starting at s.i as CPython does (a tab
// moves to the next multiple of 8, a form feed resets the column) and
// updates the indent stack. Blank and comment-only lines do not count.
func (s *lexer) indentation() (Excess, bool) {
	start, col := s.i, 0
	for ; s.i < len(s.src); s.i++ {
		switch s.src[s.i] {
		case ' ':
			col++
			continue
		case '\t':
			col = (col/8 + 1) * 8
			continue
		case '\f':
			col = 0
			continue
		}
		break
	}
	if s.i >= len(s.src) {
		return Excess{}, false
	}
	switch s.src[s.i] {
	case '#', '\n', '\r':
		return Excess{}, false
	case '\\':
		// A continued blank line is not a logical line either.
		if s.i+1 < len(s.src) && (s.src[s.i+1] == '\n' || s.src[s.i+1] == '\r') {
			return Excess{}, false
		}
	}
	top := s.indents[len(s.indents)-1]
	switch {
	case col > top:
		if len(s.indents) > MaxIndent {
			return Excess{Start: start, End: s.i, Message: MessageIndent}, true
		}
		s.indents = append(s.indents, col)
	case col < top:
		for len(s.indents) > 1 && col < s.indents[len(s.indents)-1] {
			s.indents = s.indents[:len(s.indents)-1]
		}
	}
	return Excess{}, false
}

// string reads a string literal whose prefix starts at start and whose
// opening quote is at q. A plain string is skipped whole; an f-string
// opens a mode and is read on by literal.
func (s *lexer) string(start, q int, raw, f bool) (Excess, bool) {
	src, quote := s.src, s.src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	open := 1
	if triple {
		open = 3
	}
	if f {
		if s.fstrings >= MaxFStrings {
			return Excess{Start: start, End: q + open, Message: MessageFStrings}, true
		}
		s.fstrings++
		s.modes = append(s.modes, mode{kind: modeFString, quote: quote, triple: triple, raw: raw, level: s.level})
		s.i = q + open
		return Excess{}, false
	}
	i := q + open
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			// Even in a raw string a backslash keeps the next character
			// (a quote included) from ending it.
			i += 2
			if i < len(src) && src[i-1] == '\r' && src[i] == '\n' {
				i++
			}
			continue
		case c == quote:
			if !triple {
				s.i = i + 1
				return Excess{}, false
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				s.i = i + 3
				return Excess{}, false
			}
		case (c == '\n' || c == '\r') && !triple:
			// Unterminated: the string ends with the line.
			s.i = i
			return Excess{}, false
		}
		i++
	}
	s.i = len(src)
	return Excess{}, false
}

// literal reads the literal part of the f-string m, or the format spec of
// its innermost field, up to the next thing that changes mode.
func (s *lexer) literal(m *mode) (Excess, bool) {
	src := s.src
	k := len(s.modes) - 1 // the f-string's own mode
	for s.modes[k].kind != modeFString {
		k--
	}
	f := s.modes[k]
	for s.i < len(src) {
		c := src[s.i]
		switch {
		case c == '\\':
			next := byte(0)
			if s.i+1 < len(src) {
				next = src[s.i+1]
			}
			switch {
			case next == '{' || next == '}':
				// The brace is not escaped: it opens or closes a field.
				s.i++
			case next == 'N' && !f.raw && s.i+2 < len(src) && src[s.i+2] == '{':
				// \N{NAME}: its braces are no field.
				s.i += 3
				for s.i < len(src) && src[s.i] != '}' && src[s.i] != f.quote && src[s.i] != '\n' {
					s.i++
				}
				if s.i < len(src) && src[s.i] == '}' {
					s.i++
				}
			default:
				s.i += 2
			}
			continue
		case c == f.quote:
			if !f.triple || (s.i+2 < len(src) && src[s.i+1] == f.quote && src[s.i+2] == f.quote) {
				if f.triple {
					s.i += 3
				} else {
					s.i++
				}
				s.endFString(k)
				return Excess{}, false
			}
		case c == '\n' || c == '\r':
			if !f.triple {
				s.newline()
				return Excess{}, false
			}
		case c == '{':
			if m.kind == modeFString && s.i+1 < len(src) && src[s.i+1] == '{' {
				s.i += 2
				continue
			}
			if s.level >= MaxBrackets {
				return Excess{Start: s.i, End: s.i + 1, Message: MessageBrackets}, true
			}
			s.level++
			s.modes = append(s.modes, mode{kind: modeField, level: s.level})
			s.i++
			return Excess{}, false
		case c == '}':
			if m.kind == modeSpec {
				// The end of the field whose spec this is.
				s.level = m.level - 1
				s.modes = s.modes[:len(s.modes)-1]
				s.i++
				return Excess{}, false
			}
			if s.i+1 < len(src) && src[s.i+1] == '}' {
				s.i++
			}
		}
		s.i++
	}
	return Excess{}, false
}

// stringPrefix reports whether p is a string prefix (any case and order of
// r, b, u, f, and t for 3.14's template strings, which nest like
// f-strings) and what kind of string it starts.
func stringPrefix(p []byte) (raw, f, ok bool) {
	if len(p) > 2 {
		return false, false, false
	}
	var b, u bool
	for _, c := range p {
		switch c | 0x20 {
		case 'r':
			if raw {
				return false, false, false
			}
			raw = true
		case 'b':
			b = true
		case 'u':
			u = true
		case 'f', 't':
			if f {
				return false, false, false
			}
			f = true
		default:
			return false, false, false
		}
	}
	if (u && len(p) > 1) || (b && f) || (b && len(p) == 2 && !raw) {
		return false, false, false
	}
	return raw, f, true
}

func isNameStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80
}

func isNameByte(c byte) bool { return isNameStart(c) || (c >= '0' && c <= '9') }
