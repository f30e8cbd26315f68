// Package pycomplete holds the Python knowledge completion needs without
// a parse tree, so it works on the half-typed file a completion request
// is about (`resp.` does not parse): what is being completed at a byte
// offset (a name, an attribute of a receiver, a module after `import`, a
// member after `from m import`), the keywords valid there, and which
// block headers (def, class) enclose the position by indentation. The
// kernel resolves what it finds through the index; this package only
// reads text. It imports only the standard library and pylex.
package pycomplete

import (
	"bytes"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pylex"
)

// What is being completed.
type What uint8

const (
	Nothing      What = iota // a string, a comment, a number, after a def/class keyword: no completion
	Name                     // a name in code
	Attribute                // after `receiver.`
	ImportModule             // after `import ` or `from ` (Module is the dotted package typed so far, "" at the top)
	ImportMember             // after `from Module import `
)

// Context is what the text says about a completion position.
type Context struct {
	What What
	// Prefix is the part of the identifier written before the position;
	// PrefixStart its byte offset.
	Prefix      string
	PrefixStart int
	// Receiver is the receiver of an Attribute as written, one entry per
	// dotted part ("self", "session"); a part ending in "()" was called,
	// one ending in "[]" subscripted; a string literal receiver is `""`.
	// DotOffset is the byte offset of the dot.
	Receiver  []string
	DotOffset int
	// Module is the module of an import context: the dotted package
	// before the part being typed (ImportModule), or the module imported
	// from (ImportMember); Level counts its leading dots.
	Module string
	Level  int
	// StatementStart: nothing but indentation before the prefix on its
	// logical line, so statement keywords are valid.
	StatementStart bool
}

// At reads the completion context at byte offset off of src.
func At(src []byte, off int) Context {
	if off < 0 || off > len(src) || !pylex.InCode(src, off) {
		return Context{}
	}
	start := off
	for start > 0 && identPart(src[start-1]) {
		start--
	}
	c := Context{What: Name, Prefix: string(src[start:off]), PrefixStart: start}
	if start < off && src[start] >= '0' && src[start] <= '9' {
		return Context{} // a number
	}
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	before := strings.TrimRight(string(src[lineStart:start]), " \t")
	// An import statement on this line (continuation lines aside).
	if imp, ok := importContext(before); ok {
		if imp.What != Nothing {
			imp.Prefix, imp.PrefixStart = c.Prefix, c.PrefixStart
		}
		return imp
	}
	if strings.HasSuffix(before, ".") {
		dot := lineStart + len(before) - 1
		if dot > 0 && src[dot-1] >= '0' && src[dot-1] <= '9' && numberBefore(src[lineStart:dot]) {
			return Context{} // 1.5, a float being typed
		}
		recv, ok := receiver(src[lineStart:dot])
		if !ok {
			return Context{}
		}
		c.What, c.Receiver, c.DotOffset = Attribute, recv, dot
		return c
	}
	// Where a new name is declared, nothing is offered.
	if w := lastWord(before); w == "def" || w == "class" || w == "as" || w == "global" || w == "nonlocal" {
		return Context{}
	}
	c.StatementStart = strings.TrimSpace(before) == "" && !continuation(src, lineStart)
	return c
}

// importContext reads `import a.b`, `from a.b import x, y`, `from .a import (x`
// up to the prefix; ok false when the line is no import statement.
func importContext(before string) (Context, bool) {
	s := strings.TrimLeft(before, " \t")
	switch {
	case s == "import" || strings.HasPrefix(s, "import "):
		rest := strings.TrimSpace(strings.TrimPrefix(s, "import"))
		if i := strings.LastIndexByte(rest, ','); i >= 0 {
			rest = strings.TrimSpace(rest[i+1:])
		}
		if strings.Contains(rest, " ") {
			return Context{}, true // `import a as b`: a new name
		}
		mod := strings.TrimSuffix(rest, ".")
		if rest != "" && !strings.HasSuffix(rest, ".") {
			return Context{}, true
		}
		return Context{What: ImportModule, Module: mod}, true
	case s == "from" || strings.HasPrefix(s, "from "):
		rest := strings.TrimSpace(strings.TrimPrefix(s, "from"))
		mod, tail, hasImport := strings.Cut(rest, " import")
		if !hasImport {
			if strings.Contains(rest, " ") {
				return Context{}, true
			}
			level := len(rest) - len(strings.TrimLeft(rest, "."))
			dotted := rest[level:]
			if dotted != "" && !strings.HasSuffix(dotted, ".") {
				return Context{}, true
			}
			return Context{What: ImportModule, Module: strings.TrimSuffix(dotted, "."), Level: level}, true
		}
		tail = strings.TrimLeft(tail, " (")
		if i := strings.LastIndexByte(tail, ','); i >= 0 {
			tail = strings.TrimSpace(tail[i+1:])
		}
		if tail != "" {
			return Context{}, true // `from m import x as y`
		}
		level := len(mod) - len(strings.TrimLeft(mod, "."))
		return Context{What: ImportMember, Module: mod[level:], Level: level}, true
	}
	return Context{}, false
}

// receiver splits the expression ending at the end of line (before a
// dot) into dotted parts: identifiers, each maybe called or subscripted
// (the arguments are dropped), or a string literal. ok false for what it
// cannot describe.
func receiver(line []byte) ([]string, bool) {
	i := len(line)
	for i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') {
		i--
	}
	if i > 0 && (line[i-1] == '"' || line[i-1] == '\'') {
		return []string{`""`}, true
	}
	var parts []string
	for {
		suffix := ""
		for i > 0 && (line[i-1] == ')' || line[i-1] == ']') {
			open, close := byte('('), line[i-1]
			if close == ']' {
				open = '['
			}
			depth := 0
			j := i - 1
			for ; j >= 0; j-- {
				if line[j] == close {
					depth++
				} else if line[j] == open {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j < 0 {
				return nil, false
			}
			suffix = string([]byte{open, close}) + suffix
			i = j
		}
		end := i
		for i > 0 && identPart(line[i-1]) {
			i--
		}
		if i == end || line[i] >= '0' && line[i] <= '9' {
			return nil, false
		}
		parts = append(parts, string(line[i:end])+suffix)
		if i == 0 || line[i-1] != '.' {
			break
		}
		i--
	}
	for l, r := 0, len(parts)-1; l < r; l, r = l+1, r-1 {
		parts[l], parts[r] = parts[r], parts[l]
	}
	if pylex.IsKeyword(strings.TrimRight(parts[0], "()[]")) {
		return nil, false
	}
	return parts, true
}

// numberBefore reports whether the text before a dot ends in a number
// (so the dot is a decimal point).
func numberBefore(b []byte) bool {
	i := len(b)
	for i > 0 && identPart(b[i-1]) {
		i--
	}
	return i < len(b) && b[i] >= '0' && b[i] <= '9'
}

// continuation reports whether the line starting at lineStart continues
// the previous one (a backslash, or an open bracket).
func continuation(src []byte, lineStart int) bool {
	if lineStart >= 2 && src[lineStart-2] == '\\' {
		return true
	}
	depth := 0
	for i := 0; i < lineStart; i++ {
		switch c := src[i]; {
		case c == '#':
			for i < lineStart && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			i = pylex.StringEnd(src, i) - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		}
	}
	return depth > 0
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

func identPart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
