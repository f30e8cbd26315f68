package summarize

import (
	"bytes"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// literal is the ExprLit of a literal node, its Text as pyright prints
// the value in Literal[...].
func (b *builder) literal(n tree.Node) int32 {
	switch b.kt.Of(n) {
	case kInteger:
		t := n.Text()
		if c := t[len(t)-1]; c == 'j' || c == 'J' {
			return b.lit("complex", "")
		}
		return b.lit("int", intText(t))
	case kFloat:
		t := n.Text()
		if c := t[len(t)-1]; c == 'j' || c == 'J' {
			return b.lit("complex", "")
		}
		return b.lit("float", "")
	case kBool:
		return b.lit("bool", string(n.Text()))
	case kNone:
		return b.lit("None", "None")
	case kEllipsis:
		return b.lit("ellipsis", "")
	case kString:
		typ, text := b.stringLit(n.Text())
		return b.lit(typ, text)
	case kConcatString:
		typ := ""
		var all []byte
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			if b.kt.Of(c) != kString {
				continue
			}
			t, val, ok := stringValue(c.Text(), literalBytes-len(all))
			if typ != "" && t != typ {
				return -1 // str and bytes: a syntax error
			}
			typ = t
			if !ok {
				return b.lit(typ, "")
			}
			all = append(all, val...)
			if len(all) > literalBytes {
				break // repr cuts it
			}
		}
		if typ == "" {
			return -1
		}
		return b.lit(typ, repr(typ, all))
	}
	return -1
}

func (b *builder) stringLit(src []byte) (typ, text string) {
	typ, val, ok := stringValue(src, literalBytes)
	if !ok {
		return typ, ""
	}
	return typ, repr(typ, val)
}

// intText is an integer literal's decimal value ("" when it is not one).
func intText(t []byte) string {
	s := string(t)
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return strconv.FormatInt(v, 10)
	}
	if len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
		s = strings.TrimLeft(s, "0_") // 00 is zero, not octal
		if s == "" {
			return "0"
		}
	}
	if v, ok := new(big.Int).SetString(s, 0); ok {
		return v.String()
	}
	return ""
}

// stringValue decodes a string literal: its type (str or bytes) and
// value; ok false for an f-string or an escape it does not know
// (\N{...}). Decoding stops once the value is longer than limit bytes
// (when limit >= 0).
func stringValue(src []byte, limit int) (typ string, val []byte, ok bool) {
	typ = "str"
	raw := false
	i := 0
	for ; i < len(src) && src[i] != '\'' && src[i] != '"'; i++ {
		switch src[i] {
		case 'b', 'B':
			typ = "bytes"
		case 'r', 'R':
			raw = true
		case 'f', 'F', 't', 'T':
			return typ, nil, false
		}
	}
	body := src[i:]
	q := 1
	if len(body) >= 6 && body[1] == body[0] && body[2] == body[0] {
		q = 3
	}
	if len(body) < 2*q {
		return typ, nil, false
	}
	body = body[q : len(body)-q]
	if bytes.IndexByte(body, '\\') < 0 && bytes.IndexByte(body, '\r') < 0 {
		return typ, body, true // the value as written: no copy
	}
	if limit < 0 {
		limit = len(body)
	}
	val = make([]byte, 0, min(len(body), limit+8))
	for j := 0; j < len(body) && len(val) <= limit; j++ {
		c := body[j]
		if c == '\r' { // a newline in the source is \n in the value
			if j+1 < len(body) && body[j+1] == '\n' {
				j++
			}
			val = append(val, '\n')
			continue
		}
		if c != '\\' || j+1 == len(body) {
			val = append(val, c)
			continue
		}
		if raw {
			val = append(val, c, body[j+1])
			j++
			continue
		}
		j++
		switch e := body[j]; e {
		case '\n':
		case '\\', '\'', '"':
			val = append(val, e)
		case 'a':
			val = append(val, 7)
		case 'b':
			val = append(val, 8)
		case 'f':
			val = append(val, 12)
		case 'n':
			val = append(val, '\n')
		case 'r':
			val = append(val, '\r')
		case 't':
			val = append(val, '\t')
		case 'v':
			val = append(val, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, k := 0, 0
			for ; k < 3 && j+k < len(body) && body[j+k] >= '0' && body[j+k] <= '7'; k++ {
				v = v*8 + int(body[j+k]-'0')
			}
			j += k - 1
			val = appendCode(val, typ, v)
		case 'x', 'u', 'U':
			w := 2
			switch {
			case e != 'x' && typ == "bytes": // no \u in bytes
				val = append(val, '\\', e)
				continue
			case e == 'u':
				w = 4
			case e == 'U':
				w = 8
			}
			if j+w >= len(body) {
				return typ, nil, false
			}
			v, err := strconv.ParseUint(string(body[j+1:j+1+w]), 16, 32)
			if err != nil || v > unicode.MaxRune {
				return typ, nil, false
			}
			j += w
			val = appendCode(val, typ, int(v))
		case 'N':
			if typ == "str" {
				return typ, nil, false
			}
			val = append(val, '\\', e)
		default:
			val = append(val, '\\', e)
		}
	}
	return typ, val, true
}

// appendCode appends code point (str) or byte (bytes) v.
func appendCode(val []byte, typ string, v int) []byte {
	if typ == "bytes" {
		return append(val, byte(v))
	}
	return utf8.AppendRune(val, rune(v))
}

// maxLiteralLen is where pyright's printer cuts a literal string
// (Literal['abc…']): Text keeps no more, so long strings cost no size.
const maxLiteralLen = 50

// literalBytes is enough of a value's bytes for maxLiteralLen+1
// characters: decoding stops there.
const literalBytes = 4*maxLiteralLen + 4

// repr is Python's repr of a str or bytes value, cut after
// maxLiteralLen characters with "…" as pyright prints it.
func repr(typ string, val []byte) string {
	cut := false
	if len(val) > maxLiteralLen {
		if typ == "bytes" {
			val, cut = val[:maxLiteralLen], true
		} else if n := utf8.RuneCount(val); n > maxLiteralLen {
			i := 0
			for k := 0; k < maxLiteralLen; k++ {
				_, w := utf8.DecodeRune(val[i:])
				i += w
			}
			val, cut = val[:i], true
		}
	}
	// pyright quotes str with ' and bytes with " (Literal['a'],
	// Literal[b""]), the other one when the value has its own and not the
	// other.
	quote, other := byte('\''), byte('"')
	if typ == "bytes" {
		quote, other = other, quote
	}
	hasQuote, plain := false, !cut
	for _, c := range val {
		hasQuote = hasQuote || c == quote
		plain = plain && c >= 0x20 && c < 0x7f && c != '\\' && c != quote
	}
	if plain { // the common case: one allocation
		if typ == "bytes" {
			return "b" + string(quote) + string(val) + string(quote)
		}
		return "'" + string(val) + "'"
	}
	if hasQuote && bytes.IndexByte(val, other) < 0 {
		quote = other
	}
	var sb strings.Builder
	if typ == "bytes" {
		sb.WriteByte('b')
	}
	sb.WriteByte(quote)
	esc := func(c rune) bool {
		switch c {
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if c == rune(quote) {
				sb.WriteByte('\\')
				sb.WriteByte(quote)
				return true
			}
			return false
		}
		return true
	}
	if typ == "bytes" {
		for _, c := range val {
			if !esc(rune(c)) {
				if c < 0x20 || c >= 0x7f {
					sb.WriteString(`\x`)
					sb.WriteString(hex2(int(c), 2))
				} else {
					sb.WriteByte(c)
				}
			}
		}
	} else {
		for _, c := range string(val) {
			if esc(c) {
				continue
			}
			switch {
			case c == utf8.RuneError && !utf8.ValidString(string(val)):
				sb.WriteRune(c)
			case unicode.IsPrint(c):
				sb.WriteRune(c)
			case c == '\b':
				sb.WriteString(`\b`) // control characters as pyright's JSON-style printer
			case c == '\f':
				sb.WriteString(`\f`)
			case c < 0x20:
				sb.WriteString(`\u` + hex2(int(c), 4)) // string.whitespace's \v is \u000b
			case c < 0x100:
				sb.WriteString(`\x` + hex2(int(c), 2))
			case c < 0x10000:
				sb.WriteString(`\u` + hex2(int(c), 4))
			default:
				sb.WriteString(`\U` + hex2(int(c), 8))
			}
		}
	}
	if cut {
		sb.WriteString("…")
	}
	sb.WriteByte(quote)
	return sb.String()
}

func hex2(v, w int) string {
	s := strconv.FormatInt(int64(v), 16)
	return strings.Repeat("0", w-len(s)) + s
}
