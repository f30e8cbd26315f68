// Package textenc turns the bytes of a Python source file into UTF-8 text
// the way Python's tokenizer would, and says which encoding it used.
//
// Detection order, first match wins:
//  1. a byte order mark: UTF-8 (reported as "utf-8"), UTF-16 LE or BE
//     (reported as "utf-16"); the BOM is stripped from the text;
//  2. a PEP 263 coding cookie ("# -*- coding: latin-1 -*-") on the first
//     line, or on the second when the first is blank or a comment only, as
//     in CPython's tokenize.detect_encoding;
//  3. the requested encoding (default "utf-8").
//
// The requestable encodings are exactly Supported(): "utf-8", "ascii",
// "latin-1", "utf-16" and "cp1252"; Canonical accepts Python's aliases for
// them ("utf8", "iso-8859-1", "windows-1252", "us-ascii", ...). A cookie may
// also name any other encoding the IANA registry knows (shift_jis, koi8-r,
// gbk, ...); those are decoded through golang.org/x/text, and invalid
// sequences in them become U+FFFD instead of an error.
//
// The five supported encodings decode strictly, as Python does: invalid
// UTF-8, a byte >= 0x80 in ASCII, one of cp1252's five undefined bytes, an
// odd-length or unpaired-surrogate UTF-16 text all fail with *DecodeError.
// UTF-16 without a BOM is read little-endian (Python's default on the
// platforms pyws runs on). No input makes this package panic (FuzzDecode).
package textenc

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
)

// Canonical encoding names, spelled as the service spec lists them.
const (
	UTF8   = "utf-8"
	ASCII  = "ascii"
	Latin1 = "latin-1"
	UTF16  = "utf-16"
	CP1252 = "cp1252"
)

// Internal names for UTF-16 with a known byte order (from a BOM). They are
// reported as UTF16 but decode without looking for a BOM.
const (
	utf16LE = "utf-16-le"
	utf16BE = "utf-16-be"
)

// Source says where the encoding used for a text came from.
type Source int

const (
	FromRequest Source = iota // nothing detected; the requested encoding was used
	FromBOM                   // a byte order mark
	FromCookie                // a PEP 263 coding cookie
)

func (s Source) String() string {
	switch s {
	case FromBOM:
		return "bom"
	case FromCookie:
		return "cookie"
	}
	return "request"
}

// Supported returns the encodings a caller may request, in the spec's order.
func Supported() []string { return []string{UTF8, ASCII, Latin1, UTF16, CP1252} }

// aliases maps normalized names (lower case, '_' and ' ' as '-') to the
// canonical ones. Taken from Python's encodings.aliases for these codecs.
var aliases = map[string]string{
	"utf-8": UTF8, "utf8": UTF8, "u8": UTF8, "utf": UTF8, "utf8-ucs2": UTF8, "utf8-ucs4": UTF8, "cp65001": UTF8,
	"utf-8-sig": UTF8, "utf8-sig": UTF8,
	"ascii": ASCII, "us-ascii": ASCII, "646": ASCII, "us": ASCII, "ansi-x3.4-1968": ASCII, "iso646-us": ASCII, "cp367": ASCII, "csascii": ASCII,
	"latin-1": Latin1, "latin1": Latin1, "latin": Latin1, "l1": Latin1, "iso-8859-1": Latin1, "iso8859-1": Latin1,
	"iso-8859-1:1987": Latin1, "iso-ir-100": Latin1, "8859": Latin1, "cp819": Latin1, "ibm819": Latin1, "iso-latin-1": Latin1,
	"utf-16": UTF16, "utf16": UTF16, "u16": UTF16,
	"cp1252": CP1252, "windows-1252": CP1252, "windows1252": CP1252, "1252": CP1252,
}

func normalize(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("_", "-", " ", "-").Replace(n)
	return n
}

// Canonical returns the canonical name of a supported encoding or alias.
func Canonical(name string) (string, bool) {
	c, ok := aliases[normalize(name)]
	return c, ok
}

// cookieName applies Python's tokenizer normalization (utf-8-*, latin-1-*)
// and then the alias table; other names are returned normalized.
func cookieName(raw string) string {
	n := normalize(raw)
	if c, ok := aliases[n]; ok {
		return c
	}
	if strings.HasPrefix(n, "utf-8-") {
		return UTF8
	}
	for _, p := range []string{"latin-1-", "iso-8859-1-", "iso-latin-1-"} {
		if strings.HasPrefix(n, p) {
			return Latin1
		}
	}
	return strings.ToLower(strings.TrimSpace(raw))
}

// Detect returns the encoding named by a BOM or a coding cookie in src, the
// length of the BOM, and where it was found. It returns "" and FromRequest
// when src declares nothing.
func Detect(src []byte) (name string, bomLen int, from Source) {
	switch {
	case bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}):
		return UTF8, 3, FromBOM
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return utf16LE, 2, FromBOM
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return utf16BE, 2, FromBOM
	}
	if c := cookie(src); c != "" {
		return cookieName(c), 0, FromCookie
	}
	return "", 0, FromRequest
}

// cookie finds a PEP 263 declaration, following tokenize.detect_encoding:
// line 1, then line 2 only when line 1 is blank or a comment.
func cookie(src []byte) string {
	first, rest := splitLine(src)
	if c := lineCookie(first); c != "" {
		return c
	}
	if !blankOrComment(first) {
		return ""
	}
	second, _ := splitLine(rest)
	return lineCookie(second)
}

func splitLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

func blankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\f")
	return len(t) == 0 || t[0] == '#' || t[0] == '\r'
}

// lineCookie implements ^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+).
func lineCookie(line []byte) string {
	t := bytes.TrimLeft(line, " \t\f")
	if len(t) == 0 || t[0] != '#' {
		return ""
	}
	for i := 1; i+6 < len(t); i++ {
		if !bytes.HasPrefix(t[i:], []byte("coding")) {
			continue
		}
		j := i + 6
		if j >= len(t) || (t[j] != ':' && t[j] != '=') {
			continue
		}
		j++
		for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
			j++
		}
		k := j
		for k < len(t) && isNameByte(t[k]) {
			k++
		}
		if k > j {
			return string(t[j:k])
		}
	}
	return ""
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// LineUnit says how a newline is spelled in the raw bytes of an encoding:
// one byte 0x0A for ASCII-compatible encodings, or a two-byte UTF-16 unit.
func LineUnit(name string) (width int, bigEndian bool) {
	switch name {
	case UTF16, utf16LE:
		return 2, false
	case utf16BE:
		return 2, true
	}
	return 1, false
}

// Public reports the name under which an encoding is shown to callers:
// UTF-16 with a byte order is shown as "utf-16".
func Public(name string) string {
	if name == utf16LE || name == utf16BE {
		return UTF16
	}
	return name
}

// ErrUnknownEncoding is wrapped by Decode when the requested name is not one
// of Supported().
var ErrUnknownEncoding = errors.New("unknown encoding")

// DecodeError reports bytes that are not valid in the encoding used.
type DecodeError struct {
	Encoding string // encoding tried (public name)
	From     Source // where Encoding came from
	Offset   int    // byte offset of the first invalid byte, -1 if unknown
	Reason   string
	Guess    string // a supported encoding the bytes do decode in, or ""
}

func (e *DecodeError) Error() string {
	msg := fmt.Sprintf("cannot decode as %s", e.Encoding)
	if e.Offset >= 0 {
		msg += fmt.Sprintf(" at byte %d", e.Offset)
	}
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Plan picks the encoding for src: the detected one, else requested
// (canonicalized; "" means utf-8). It fails only for an unknown requested
// name, and then wraps ErrUnknownEncoding.
func Plan(src []byte, requested string) (name string, bomLen int, from Source, err error) {
	req := UTF8
	if requested != "" {
		c, ok := Canonical(requested)
		if !ok {
			return "", 0, FromRequest, fmt.Errorf("%w: %q (allowed: %s)", ErrUnknownEncoding, requested, strings.Join(Supported(), ", "))
		}
		req = c
	}
	name, bomLen, from = Detect(src)
	if from == FromRequest {
		name = req
		if name == UTF16 {
			// A requested utf-16 still honours a BOM (handled by Detect); a
			// text without one is little-endian.
			name = utf16LE
		}
	}
	return name, bomLen, from, nil
}

// Decode returns src as UTF-8 (BOM stripped) and the public name of the
// encoding used. Errors are *DecodeError or wrap ErrUnknownEncoding.
func Decode(src []byte, requested string) ([]byte, string, error) {
	name, bomLen, from, err := Plan(src, requested)
	if err != nil {
		return nil, "", err
	}
	out, err := DecodeAs(src[bomLen:], name)
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			de.From = from
			if de.Offset >= 0 {
				de.Offset += bomLen
			}
			de.Guess = Guess(src)
		}
		return nil, Public(name), err
	}
	return out, Public(name), nil
}

// DecodeAs decodes src (no BOM expected) in the named encoding, which is a
// canonical name, an internal UTF-16 byte-order name, or an IANA name.
func DecodeAs(src []byte, name string) ([]byte, error) {
	switch name {
	case UTF8:
		if !utf8.Valid(src) {
			return nil, &DecodeError{Encoding: UTF8, Offset: firstInvalidUTF8(src), Reason: "invalid UTF-8 sequence"}
		}
		return src, nil
	case ASCII:
		for i, c := range src {
			if c >= 0x80 {
				return nil, &DecodeError{Encoding: ASCII, Offset: i, Reason: fmt.Sprintf("byte 0x%02x is not ASCII", c)}
			}
		}
		return src, nil
	case Latin1:
		return latin1(src), nil
	case CP1252:
		for i, c := range src {
			if c == 0x81 || c == 0x8D || c == 0x8F || c == 0x90 || c == 0x9D {
				return nil, &DecodeError{Encoding: CP1252, Offset: i, Reason: fmt.Sprintf("byte 0x%02x is undefined in cp1252", c)}
			}
		}
		return transform(charmap.Windows1252, src, CP1252)
	case UTF16, utf16LE:
		return decodeUTF16(src, false)
	case utf16BE:
		return decodeUTF16(src, true)
	}
	var enc encoding.Encoding
	for _, n := range []string{name, strings.ReplaceAll(name, "_", "-"), strings.ReplaceAll(name, "-", "_")} {
		if e, err := ianaindex.IANA.Encoding(n); err == nil && e != nil {
			enc = e
			break
		}
	}
	if enc == nil {
		return nil, &DecodeError{Encoding: name, Offset: -1, Reason: "unknown encoding declared in the coding cookie"}
	}
	return transform(enc, src, name)
}

func transform(enc encoding.Encoding, src []byte, name string) (out []byte, err error) {
	defer func() {
		// x/text decoders are not expected to panic; an analyzer feed must
		// not die if one does.
		if r := recover(); r != nil {
			out, err = nil, &DecodeError{Encoding: name, Offset: -1, Reason: fmt.Sprint("decoder failed: ", r)}
		}
	}()
	out, err = enc.NewDecoder().Bytes(src)
	if err != nil {
		return nil, &DecodeError{Encoding: name, Offset: -1, Reason: err.Error()}
	}
	return out, nil
}

func latin1(src []byte) []byte {
	n := len(src)
	for _, c := range src {
		if c >= 0x80 {
			n++
		}
	}
	if n == len(src) {
		return src
	}
	out := make([]byte, 0, n)
	for _, c := range src {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

func decodeUTF16(src []byte, bigEndian bool) ([]byte, error) {
	if len(src)%2 != 0 {
		return nil, &DecodeError{Encoding: UTF16, Offset: len(src) - 1, Reason: "odd number of bytes"}
	}
	out := make([]byte, 0, len(src))
	unit := func(i int) uint16 {
		if bigEndian {
			return uint16(src[i])<<8 | uint16(src[i+1])
		}
		return uint16(src[i+1])<<8 | uint16(src[i])
	}
	for i := 0; i < len(src); i += 2 {
		u := unit(i)
		switch {
		case utf16.IsSurrogate(rune(u)):
			if u >= 0xDC00 || i+3 >= len(src) {
				return nil, &DecodeError{Encoding: UTF16, Offset: i, Reason: "unpaired surrogate"}
			}
			lo := unit(i + 2)
			if lo < 0xDC00 || lo > 0xDFFF {
				return nil, &DecodeError{Encoding: UTF16, Offset: i, Reason: "unpaired surrogate"}
			}
			out = utf8.AppendRune(out, utf16.DecodeRune(rune(u), rune(lo)))
			i += 2
		default:
			out = utf8.AppendRune(out, rune(u))
		}
	}
	return out, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// Guess names a supported encoding that src decodes in, for error messages
// that tell the caller what to retry with: utf-8, then utf-16 when the text
// looks like it (NULs in alternate bytes; checked first, since such a text
// is also valid UTF-8), then cp1252, then latin-1 (which
// always decodes). A BOM decides by itself.
func Guess(src []byte) string {
	if name, _, from := Detect(src); from == FromBOM {
		return Public(name)
	}
	if looksUTF16(src) {
		if _, err := decodeUTF16(src, false); err == nil {
			return UTF16
		}
	}
	if utf8.Valid(src) {
		return UTF8
	}
	if _, err := DecodeAs(src, CP1252); err == nil {
		return CP1252
	}
	return Latin1
}

func looksUTF16(b []byte) bool {
	if len(b) < 2 || len(b)%2 != 0 {
		return false
	}
	n := min(len(b), 512)
	zeros := 0
	for i := 1; i < n; i += 2 {
		if b[i] == 0 {
			zeros++
		}
	}
	return zeros*4 >= n/2*3 // three quarters of the high bytes are zero
}
