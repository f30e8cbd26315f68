package toolspec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// badText finds the first string (member names included) in raw, a valid
// JSON value, whose text is not valid Unicode: an escaped UTF-16
// surrogate without its other half ("\ud800x", or "\udc00" first), or
// bytes that are not UTF-8. encoding/json replaces both with U+FFFD
// without a word, so such text would reach a file or a plugin silently
// altered; it has to be found in the raw bytes. It returns where the
// string is, as a parameter path from raw's root in the form
// edits.DecodeChanges uses (`changes["file:///a.py"][0].newText`), and what is
// wrong with it.
func badText(raw []byte) (path, what string, found bool) {
	type frame struct {
		object bool
		key    string // the member being read, in an object
		index  int    // the element being read, in an array
	}
	var stack []frame
	expectKey := false
	// pathOf is the path of the value being read, or with a name, of the
	// member of that name in the innermost object.
	pathOf := func(name *string) string {
		frames := stack
		if name != nil {
			frames = stack[:len(stack)-1]
		}
		var b strings.Builder
		for _, f := range frames {
			if f.object {
				b.WriteString(pathKey(f.key))
			} else {
				fmt.Fprintf(&b, "[%d]", f.index)
			}
		}
		if name != nil {
			b.WriteString(pathKey(*name))
		}
		return strings.TrimPrefix(b.String(), ".")
	}
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '{':
			stack = append(stack, frame{object: true})
			expectKey = true
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			if top := &stack[len(stack)-1]; top.object {
				expectKey = true
			} else {
				top.index++
			}
		case '"':
			end, problem := scanString(raw, i)
			if expectKey {
				var key string
				json.Unmarshal(raw[i:end], &key) // valid JSON: only U+FFFD can differ
				if problem != "" {
					return pathOf(&key), "its name holds " + problem, true
				}
				stack[len(stack)-1].key = key
				expectKey = false
			} else if problem != "" {
				return pathOf(nil), problem, true
			}
			i = end - 1
		}
	}
	return "", "", false
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func pathKey(k string) string {
	if plainKey.MatchString(k) {
		return "." + k
	}
	return fmt.Sprintf("[%q]", k)
}

// scanString reads the JSON string whose opening quote is at raw[start]
// and returns the offset after its closing quote, and what makes its text
// invalid Unicode ("" when nothing does).
func scanString(raw []byte, start int) (end int, problem string) {
	units := 0 // UTF-16 code units of text before i, for the message
	for i := start + 1; i < len(raw); {
		c := raw[i]
		switch {
		case c == '"':
			return i + 1, problem
		case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u' && i+6 <= len(raw):
			u, _ := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
			switch {
			case u >= 0xD800 && u <= 0xDBFF:
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					if lo, err := strconv.ParseUint(string(raw[i+8:i+12]), 16, 16); err == nil && lo >= 0xDC00 && lo <= 0xDFFF {
						i += 12
						units += 2
						continue
					}
				}
				if problem == "" {
					problem = fmt.Sprintf(`a lone UTF-16 surrogate \u%04x at character %d`, u, units)
				}
			case u >= 0xDC00 && u <= 0xDFFF:
				if problem == "" {
					problem = fmt.Sprintf(`a lone UTF-16 surrogate \u%04x at character %d`, u, units)
				}
			}
			i += 6
			units++
		case c == '\\':
			i += 2
			units++
		case c < utf8.RuneSelf:
			i++
			units++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 && problem == "" {
				problem = fmt.Sprintf("a byte that is not UTF-8 (0x%02x) at character %d", c, units)
			}
			i += size
			units += utf16.RuneLen(r)
		}
	}
	return len(raw), problem
}
