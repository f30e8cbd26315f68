// Package equiv decides whether a formatter changed what a Python file
// means. Signature serializes a syntax tree into a canonical form that
// keeps every named node and token but forgets what Black and isort may
// legitimately change:
//
//   - whitespace, blank lines, indentation width and comments (comments
//     carry no meaning, and both tools move and respace them);
//   - parentheses: a parenthesized_expression is replaced by its content,
//     and "(" ")" tokens are dropped, so redundant parentheses Black adds
//     or removes (return, for, if, del, assignments, imports) compare equal.
//     Structure still tells `(a + b) * c` from `a + b * c`, and a tuple
//     from a parenthesized value (`(1,)` vs `(1)`);
//   - tuple spellings: expression_list, pattern_list, tuple_pattern and
//     tuple are one kind, so `return 1, 2` equals `return (1, 2)` and
//     `for (a, b) in x` equals `for a, b in x`;
//   - trailing commas before a closing bracket (the magic trailing comma),
//     except in a one-element subscript, where `x[a,]` is a tuple index;
//   - semicolons between statements and backslash continuations;
//   - empty parentheses after a class name (`class A():`);
//   - string spelling: prefix case, order (br, rb) and the u prefix, the quote character,
//     and quotes escaped or not; docstrings (a block's first statement)
//     compare with each line stripped, as Black's own AST check does;
//   - numeric literal spelling Black normalizes: case (0XFF, 1E5, 10J) and
//     the zero it adds to `.5`, `1.` and `1.e5`;
//   - import order: each run of consecutive import statements becomes the
//     sorted set of what it binds, so sorting, merging `from a import b`
//     with `from a import c`, splitting `import a, b` and dropping
//     duplicate imports compare equal.
//
// Everything else - every identifier, keyword, operator, literal value and
// the nesting of every named node - must match. The serialization is
// hashed; Signature of two trees is equal exactly when their canonical
// forms are.
package equiv

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Sig is a tree's canonical form, hashed.
type Sig struct {
	Hash  string `json:"hash"`  // hex SHA-256 of the canonical serialization
	Items int    `json:"items"` // serialized items, for logs
}

// Signature returns t's signature. The tree may contain errors; callers
// check HasError first.
func Signature(t *tree.Tree) Sig {
	w := &writer{h: sha256.New(), src: string(t.Source()), buf: make([]byte, 0, 2*flushAt)}
	w.node(t.Root())
	w.h.Write(w.buf)
	return Sig{Hash: hex.EncodeToString(w.h.Sum(nil)), Items: w.n}
}

// Canonical returns the canonical serialization itself, one item per
// line, for tests and for finding where two trees differ.
func Canonical(t *tree.Tree) string {
	var b strings.Builder
	w := &writer{sb: &b, src: string(t.Source())}
	w.node(t.Root())
	return b.String()
}

type hasher interface {
	Write([]byte) (int, error)
	Sum([]byte) []byte
}

type writer struct {
	h   hasher
	sb  *strings.Builder
	n   int
	src string // the tree's source, which tokens' texts slice
	// buf collects items for h: one Write per flushAt bytes instead of
	// two per item (in a wasm guest the per-item writes and their copies
	// were a tenth of the formatter's time).
	buf []byte
}

const flushAt = 4 << 10

// emit writes one item, the concatenation of parts.
func (w *writer) emit(parts ...string) {
	w.n++
	if w.sb != nil {
		for _, p := range parts {
			w.sb.WriteString(p)
		}
		w.sb.WriteByte('\n')
		return
	}
	for _, p := range parts {
		w.buf = append(w.buf, p...)
	}
	w.buf = append(w.buf, 0)
	if len(w.buf) >= flushAt {
		w.h.Write(w.buf)
		w.buf = w.buf[:0]
	}
}

// text is n's source text, without a copy.
func (w *writer) text(n tree.Node) string { return w.src[n.StartByte():n.EndByte()] }

// isTupleKind and isImportKind are switches, not map lookups: they run
// for every node, and hashing the kind's name was two fifths of
// Signature natively (more in wasm, which hashes without AES).
func isTupleKind(kind string) bool {
	switch kind {
	case "expression_list", "pattern_list", "tuple_pattern", "tuple":
		return true
	}
	return false
}

func isImportKind(kind string) bool {
	switch kind {
	case "import_statement", "import_from_statement", "future_import_statement":
		return true
	}
	return false
}

func isClosing(s string) bool { return s == ")" || s == "]" || s == "}" }

// nextSignificant is the next sibling that is not a comment.
func nextSignificant(n tree.Node) tree.Node {
	for s := n.NextSibling(); !s.IsNull(); s = s.NextSibling() {
		if s.Kind() != "comment" && s.Kind() != "line_continuation" {
			return s
		}
	}
	return tree.Node{}
}

func (w *writer) node(n tree.Node) {
	kind := n.Kind()
	switch {
	case kind == "comment" || kind == "line_continuation":
		return
	case !n.IsNamed():
		text := w.text(n)
		switch text {
		case "(", ")", ";":
			return
		case ",":
			if next := nextSignificant(n); next.IsNull() || (!next.IsNamed() && isClosing(string(next.Text()))) {
				if !oneElementSubscript(n.Parent()) {
					return
				}
			}
		}
		w.emit("t ", text)
		return
	case kind == "parenthesized_expression":
		w.children(n)
		return
	case kind == "string":
		w.emit("s ", normalizeString(w.text(n), isDocstring(n)))
		return
	case kind == "integer" || kind == "float":
		w.emit("n ", normalizeNumber(w.text(n)))
		return
	case kind == "argument_list" && n.Parent().Kind() == "class_definition" && n.NamedChildCount() == 0:
		return
	}
	if isTupleKind(kind) {
		if !hasComma(n) && n.NamedChildCount() == 1 { // `for (x) in y`: tree-sitter's one-element tuple_pattern is parentheses
			w.children(n)
			return
		}
		kind = "tuple"
	}
	if n.ChildCount() == 0 {
		w.emit("l ", kind, " ", w.text(n))
		return
	}
	w.emit("( ", kind)
	w.children(n)
	w.emit(")")
}

// children serializes n's children, folding runs of import statements.
func (w *writer) children(n tree.Node) {
	var run []string
	flush := func() {
		if run == nil {
			return
		}
		sort.Strings(run)
		var uniq []string
		for i, s := range run {
			if i == 0 || s != run[i-1] {
				uniq = append(uniq, s)
			}
		}
		w.emit("imports ", strings.Join(uniq, "; "))
		run = nil
	}
	for c := range n.Children() {
		k := c.Kind()
		if isImportKind(k) {
			if run == nil {
				run = []string{}
			}
			run = append(run, bindings(c)...)
			continue
		}
		if k == "comment" || (k == ";" && !c.IsNamed()) {
			continue
		}
		flush()
		w.node(c)
	}
	flush()
}

func oneElementSubscript(p tree.Node) bool {
	if p.Kind() != "subscript" {
		return false
	}
	k := 0
	for range p.ChildrenByField("subscript") {
		k++
	}
	return k == 1
}

// compact is a node's text without whitespace, backslashes and parens.
func compact(n tree.Node) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\\', '(', ')':
			return -1
		}
		return r
	}, string(n.Text()))
}

func nameOf(n tree.Node) string {
	if n.Kind() == "aliased_import" {
		return compact(n.ChildByField("name")) + " as " + compact(n.ChildByField("alias"))
	}
	return compact(n)
}

// bindings lists what an import statement binds, one canonical string per
// name: "import a.b", "import a as b", "from .m import x as y".
func bindings(n tree.Node) []string {
	var out []string
	switch n.Kind() {
	case "import_statement":
		for c := range n.ChildrenByField("name") {
			out = append(out, "import "+nameOf(c))
		}
	case "import_from_statement", "future_import_statement":
		module := "__future__"
		if n.Kind() == "import_from_statement" {
			module = compact(n.ChildByField("module_name"))
		}
		names := 0
		for c := range n.ChildrenByField("name") {
			out = append(out, "from "+module+" import "+nameOf(c))
			names++
		}
		for c := range n.NamedChildren() {
			if c.Kind() == "wildcard_import" {
				out = append(out, "from "+module+" import *")
				names++
			}
		}
		if names == 0 { // unknown shape: keep the whole statement
			out = append(out, compact(n))
		}
	}
	return out
}

// isDocstring reports whether string node s is a block's or the module's
// first statement, on its own.
func isDocstring(s tree.Node) bool {
	stmt := s.Parent()
	if stmt.Kind() != "expression_statement" || stmt.NamedChildCount() != 1 {
		return false
	}
	block := stmt.Parent()
	if block.Kind() != "module" && block.Kind() != "block" {
		return false
	}
	for c := range block.NamedChildren() {
		if c.Kind() == "comment" {
			continue
		}
		return c == stmt
	}
	return false
}

// normalizeString canonicalizes a string literal's spelling: lowercase
// prefix without u, no quote delimiters, quotes unescaped (outside raw
// strings); a docstring's lines are stripped and the result trimmed.
func normalizeString(text string, docstring bool) string {
	i := 0
	for i < len(text) && text[i] != '\'' && text[i] != '"' {
		i++
	}
	prefix := ""
	if i > 0 { // most strings have no prefix: no allocations for them
		pb := []byte(strings.ReplaceAll(strings.ToLower(text[:i]), "u", ""))
		sort.Slice(pb, func(a, b int) bool { return pb[a] < pb[b] }) // br and rb are one prefix
		prefix = string(pb)
	}
	body := text[i:]
	q := 1
	if strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, `'''`) {
		q = 3
	}
	if len(body) >= 2*q {
		body = body[q : len(body)-q]
	}
	if !strings.Contains(prefix, "r") && strings.IndexByte(body, '\\') >= 0 {
		var b strings.Builder
		for j := 0; j < len(body); j++ {
			if body[j] == '\\' && j+1 < len(body) {
				if body[j+1] == '\'' || body[j+1] == '"' {
					b.WriteByte(body[j+1])
				} else {
					b.WriteByte('\\')
					b.WriteByte(body[j+1])
				}
				j++
				continue
			}
			b.WriteByte(body[j])
		}
		body = b.String()
	}
	if docstring {
		lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
		for k, l := range lines {
			lines[k] = strings.TrimSpace(l)
		}
		body = strings.TrimSpace(strings.Join(lines, "\n"))
	}
	return prefix + "|" + body
}

func hasComma(n tree.Node) bool {
	for c := range n.Children() {
		if !c.IsNamed() && string(c.Text()) == "," {
			return true
		}
	}
	return false
}

// normalizeNumber lowercases a numeric literal and spells floats with a
// digit on both sides of the point, as Black writes them.
func normalizeNumber(text string) string {
	s := strings.ToLower(text)
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0o") || strings.HasPrefix(s, "0b") {
		return s
	}
	if strings.HasPrefix(s, ".") {
		s = "0" + s
	}
	if i := strings.IndexByte(s, '.'); i >= 0 && (i+1 == len(s) || s[i+1] < '0' || s[i+1] > '9') {
		s = s[:i+1] + "0" + s[i+1:]
	}
	return s
}
