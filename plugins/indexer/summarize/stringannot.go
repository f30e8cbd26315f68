package summarize

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// stringAnnot describes a string annotation ("Foo", "list[Foo] | None")
// by reading its content as a type expression: dotted names, subscripts,
// commas, |, None, literals and "...". pysem resolved the names inside
// (OccString references), so each name is the symbol referenced at its
// offset. What the reader cannot read is an ExprText of the content.
func (b *builder) stringAnnot(n tree.Node) int32 {
	src := n.Text()
	if b.kt.Of(n) == kString {
		i := bytes.IndexAny(src, `"'`)
		if i == 0 { // no prefix (r, b, f) and so no surprise
			q := 1
			if len(src) >= 6 && src[1] == src[0] && src[2] == src[0] {
				q = 3
			}
			if len(src) >= 2*q {
				body := src[q : len(src)-q]
				if bytes.IndexByte(body, '\\') < 0 {
					r := annotReader{b: b, src: body, base: n.StartByte() + q}
					if r.parse() {
						r = annotReader{b: b, src: body, base: n.StartByte() + q, emit: true}
						r.parse()
						return r.out
					}
				}
			}
		}
	}
	_, val, _ := stringValue(src, -1)
	if b.kt.Of(n) == kConcatString {
		val = val[:0]
		for c := firstNamed(n); !c.IsNull(); c = nextNamed(c) {
			if b.kt.Of(c) == kString {
				_, v, _ := stringValue(c.Text(), -1)
				val = append(val, v...)
			}
		}
	}
	return b.addExpr(navindex.Expr{Op: navindex.ExprText, A: -1, B: -1, Text: string(bytes.TrimSpace(val))})
}

// annotReader is a recursive-descent reader of a type expression in a
// string. It runs twice: first to check that it reads the whole string
// (emit false: no expression is made, so a failure leaves none behind),
// then to make the expressions.
type annotReader struct {
	b    *builder
	src  []byte
	base int // the source offset of src[0]
	pos  int
	emit bool
	out  int32
}

func (r *annotReader) parse() bool {
	e, ok := r.union()
	r.skip()
	r.out = e
	return ok && r.pos == len(r.src)
}

func (r *annotReader) skip() {
	for r.pos < len(r.src) && (r.src[r.pos] == ' ' || r.src[r.pos] == '\t' || r.src[r.pos] == '\n' || r.src[r.pos] == '\r') {
		r.pos++
	}
}

// peek is the next non-blank byte (0 at the end).
func (r *annotReader) peek() byte {
	r.skip()
	if r.pos < len(r.src) {
		return r.src[r.pos]
	}
	return 0
}

func (r *annotReader) union() (int32, bool) {
	e, ok := r.primary()
	for ok && r.peek() == '|' {
		r.pos++
		var x int32
		x, ok = r.primary()
		if r.emit {
			e = r.b.union(e, x)
		}
	}
	return e, ok
}

func (r *annotReader) primary() (int32, bool) {
	e, head, ok := r.atom()
	for ok {
		switch r.peek() {
		case '.':
			r.pos++
			r.skip()
			name := r.name()
			if name == "" {
				return -1, false
			}
			head = name
			if r.emit {
				e = r.b.expr(navindex.ExprAttr, e, name)
			}
		case '[':
			r.pos++
			var args []int32
			args, ok = r.list(']', head == "Literal")
			if r.emit {
				e = r.b.intern(navindex.Expr{Op: navindex.ExprSubscript, A: e, B: -1}, args)
			}
			head = ""
		default:
			return e, ok
		}
	}
	return e, ok
}

// list reads comma-separated expressions up to close.
func (r *annotReader) list(close byte, literal bool) ([]int32, bool) {
	var out []int32
	for {
		if r.peek() == close {
			r.pos++
			return out, true
		}
		var e int32
		var ok bool
		if literal {
			e, _, ok = r.atom()
		} else {
			e, ok = r.union()
		}
		if !ok {
			return nil, false
		}
		out = append(out, e)
		switch r.peek() {
		case ',':
			r.pos++
		case close:
		default:
			return nil, false
		}
	}
}

// name reads an identifier at pos.
func (r *annotReader) name() string {
	start := r.pos
	for r.pos < len(r.src) {
		c, w := utf8.DecodeRune(r.src[r.pos:])
		if c == '_' || unicode.IsLetter(c) || r.pos > start && unicode.IsDigit(c) {
			r.pos += w
			continue
		}
		break
	}
	return string(r.src[start:r.pos])
}

// atom reads a name, None, a literal, "..." or a bracketed list; head
// is the name read (for Literal[...]).
func (r *annotReader) atom() (e int32, head string, ok bool) {
	b := r.b
	c := r.peek()
	start := r.pos
	switch {
	case c == '.':
		if !bytes.HasPrefix(r.src[r.pos:], []byte("...")) {
			return -1, "", false
		}
		r.pos += 3
		if r.emit {
			e = b.lit("ellipsis", "")
		}
		return e, "", true
	case c == '[' || c == '(':
		r.pos++
		close := byte(']')
		if c == '(' {
			close = ')'
		}
		args, ok := r.list(close, false)
		if !ok {
			return -1, "", false
		}
		if c == '(' && len(args) == 1 && r.src[r.pos-2] != ',' {
			return args[0], "", true
		}
		if r.emit {
			name := "list"
			if c == '(' {
				name = "tuple"
			}
			e = b.intern(navindex.Expr{Op: navindex.ExprDisplay, A: -1, B: -1, Name: name}, args)
		}
		return e, "", true
	case c == '\'' || c == '"':
		end := bytes.IndexByte(r.src[r.pos+1:], c)
		if end < 0 {
			return -1, "", false
		}
		r.pos += end + 2
		if r.emit {
			typ, text := b.stringLit(r.src[start:r.pos])
			e = b.lit(typ, text)
		}
		return e, "", true
	case c == '-' || c >= '0' && c <= '9':
		r.pos++
		for r.pos < len(r.src) && (r.src[r.pos] >= '0' && r.src[r.pos] <= '9' || r.src[r.pos] == '_' || r.src[r.pos] >= 'a' && r.src[r.pos] <= 'z' || r.src[r.pos] >= 'A' && r.src[r.pos] <= 'Z') {
			r.pos++
		}
		neg := c == '-'
		digits := r.src[start:r.pos]
		if neg {
			digits = digits[1:]
		}
		t := intText(digits)
		if t == "" {
			return -1, "", false
		}
		if r.emit {
			if neg && t != "0" {
				t = "-" + t
			}
			e = b.lit("int", t)
		}
		return e, "", true
	}
	name := r.name()
	switch name {
	case "":
		return -1, "", false
	case "None":
		if r.emit {
			e = b.lit("None", "None")
		}
		return e, name, true
	case "True", "False":
		if r.emit {
			e = b.lit("bool", name)
		}
		return e, name, true
	}
	ref := b.refAt(r.base + start)
	if ref == nil || ref.Name != name {
		return -1, "", false
	}
	sym := b.refSym(ref)
	if sym < 0 {
		return -1, "", false
	}
	if r.emit {
		e = b.expr(navindex.ExprSym, sym, "")
	}
	return e, name, true
}
