// Package pytext holds the Python str behaviours the formatter engines
// must reproduce exactly (Black and isort both split text the way Python's
// str.splitlines does, which breaks on more than "\n").
package pytext

import "unicode/utf8"

// SplitLines is Python's str.splitlines(keepends): it breaks on \n, \r,
// \r\n, \v, \f, \x1c-\x1e, \x85, U+2028 and U+2029.
func SplitLines(s string, keepends bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		brk := 0
		switch r {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			brk = size
		case '\r':
			brk = 1
			if i+1 < len(s) && s[i+1] == '\n' {
				brk = 2
			}
		}
		if brk == 0 {
			i += size
			continue
		}
		if keepends {
			out = append(out, s[start:i+brk])
		} else {
			out = append(out, s[start:i])
		}
		i += brk
		start = i
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
