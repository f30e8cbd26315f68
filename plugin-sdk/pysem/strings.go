package pysem

import (
	"bytes"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pylex"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// plainString returns the byte range of a string literal's contents when
// it is a plain literal: no interpolation, no escape sequence, no b/f
// prefix. ok is false otherwise.
func (b *builder) plainString(s tree.Node) (start, end int, ok bool) {
	kinds := b.vk
	if kinds.Of(s) != vkString || s.HasError() {
		return 0, 0, false
	}
	start, end = -1, -1
	for c := s.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		switch kinds.Of(c) {
		case vkStringStart:
			for _, ch := range c.Text() {
				switch ch {
				case 'f', 'F', 'b', 'B', 't', 'T':
					return 0, 0, false
				}
			}
			start = c.EndByte()
		case vkStringEnd:
			end = c.StartByte()
		case vkStringContent:
			if c.FirstChild().IsNull() {
				continue
			}
			return 0, 0, false // escape sequences: offsets would not map 1:1
		case vkComment:
		default:
			return 0, 0, false
		}
	}
	if start < 0 || end < start {
		return 0, 0, false
	}
	return start, end, true
}

// docString returns the string node of a docstring statement.
func (b *builder) docString(stmt tree.Node) tree.Node {
	if b.vk.Of(stmt) != vkExpressionStatement {
		return tree.Node{}
	}
	var s tree.Node
	n := 0
	for c := range stmt.NamedChildren() {
		if c.IsExtra() {
			continue
		}
		s = c
		n++
	}
	if n != 1 || b.vk.Of(s) != vkString {
		return tree.Node{}
	}
	for c := s.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if b.vk.Of(c) == vkInterpolation {
			return tree.Node{}
		}
	}
	return s
}

// docstring returns the docstring of a module or block.
func (b *builder) docstring(body tree.Node) (tree.Node, string) {
	for c := range body.NamedChildren() {
		if c.IsExtra() {
			continue
		}
		if s := b.docString(c); !s.IsNull() {
			return s, b.cleanDoc(s)
		}
		break
	}
	return tree.Node{}, ""
}

// cleanDoc returns a string literal's raw contents cleaned like
// inspect.cleandoc (escape sequences are left as written).
func (b *builder) cleanDoc(s tree.Node) string {
	if b.skipDocs {
		return ""
	}
	start, end := s.StartByte(), s.EndByte()
	for c := s.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		switch b.vk.Of(c) {
		case vkStringStart:
			start = c.EndByte()
		case vkStringEnd:
			end = c.StartByte()
		}
	}
	if end < start {
		return ""
	}
	return CleanDoc(string(b.src[start:end]))
}

// CleanDoc cleans a docstring like Python's inspect.cleandoc: tabs
// expanded, the first line stripped, the common indentation of the
// following lines removed, leading and trailing blank lines dropped.
func CleanDoc(doc string) string {
	doc = strings.ReplaceAll(doc, "\r\n", "\n")
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		if strings.IndexByte(l, '\t') >= 0 {
			lines[i] = expandTabs(l)
		}
	}
	margin := -1
	for _, l := range lines[1:] {
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if ind := len(l) - len(t); margin < 0 || ind < margin {
			margin = ind
		}
	}
	lines[0] = strings.TrimLeft(lines[0], " ")
	if margin > 0 {
		for i := 1; i < len(lines); i++ {
			if len(lines[i]) >= margin {
				lines[i] = lines[i][margin:]
			} else {
				lines[i] = strings.TrimLeft(lines[i], " ")
			}
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func expandTabs(l string) string {
	var sb strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 8 - col%8
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		sb.WriteRune(r)
		col++
	}
	return sb.String()
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func identPart(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// stringAnnotation tokenizes a string annotation: each identifier becomes
// a Ref, each identifier after a dot an AttrRef on the name before it.
// Quoted parts inside (Literal['x']) and keywords are skipped.
func (b *builder) stringAnnotation(s tree.Node) {
	start, end, ok := b.plainString(s)
	if !ok {
		b.children(s)
		return
	}
	b.annotationText(s, start, end, CtxLoad|CtxAnnotation|CtxStringAnnotation)
}

// typeComment tokenizes a PEP 484 type comment (`# type: List[int]`,
// `# type: (int, str) -> bool`); `# type: ignore` is not one.
func (b *builder) typeComment(c tree.Node) {
	t := c.Text()
	i := 1
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(t[i:], []byte("type:")) {
		return
	}
	i += len("type:")
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	rest := t[i:]
	if bytes.HasPrefix(rest, []byte("ignore")) && (len(rest) == 6 || !identPart(rest[6])) {
		return
	}
	end := len(t)
	if j := bytes.IndexByte(rest, '#'); j >= 0 {
		end = i + j
	}
	b.annotationText(c, c.StartByte()+i, c.StartByte()+end, CtxLoad|CtxAnnotation|CtxStringAnnotation|CtxTypeComment)
}

// annotationText records the names of an annotation written as text
// (src[start:end], inside node s).
func (b *builder) annotationText(s tree.Node, start, end int, ctx RefContext) {
	src := b.src
	nRefs, nAttrs := len(b.m.Refs), len(b.m.Attrs)
	depth := 0    // bracket depth; unbalanced text is not an expression
	wordEnd := -1 // end of the previous token when it was a name or number
	invalid := false
	var head *Ref // head of the current dotted chain
	var prev = -1 // start of the previous identifier in the chain, -1: no chain
	dot := false  // a '.' follows the chain
	for i := start; i < end; {
		c := src[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < end && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			prev, dot, wordEnd = -1, false, -1
		case identStart(c):
			j := i
			for j < end && identPart(src[j]) {
				j++
			}
			word := srcString(src[i:j])
			kw := pylex.IsKeyword(word) && word != "None" && word != "True" && word != "False"
			if wordEnd >= 0 && !kw && !dot {
				invalid = true // two names in a row: prose, not an expression
			}
			wordEnd = -1
			if !kw {
				wordEnd = j
			}
			switch {
			case pylex.IsKeyword(word):
				prev, dot = -1, false
			case dot && prev >= 0:
				a := b.attrSlab.New()
				*a = AttrRef{Name: word, NameNode: s, Start: i, End: j, Ctx: ctx, Scope: b.scope, ObjectRef: head}
				b.m.Attrs = append(b.m.Attrs, a)
				head = nil
				prev, dot = i, false
			default:
				head = b.refSlab.New()
				*head = Ref{Name: word, nid: b.names.id(word), Node: s, Start: i, End: j, Scope: b.scope, Ctx: ctx, Deferred: true}
				b.m.Refs = append(b.m.Refs, head)
				prev, dot = i, false
			}
			i = j
		case c >= '0' && c <= '9':
			if wordEnd >= 0 {
				invalid = true
			}
			for i < end && (identPart(src[i]) || src[i] == '.') {
				i++
			}
			prev, dot, wordEnd = -1, false, i
		case c == '.':
			if dot || prev < 0 {
				prev = -1
			}
			dot = prev >= 0
			wordEnd = -1
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			i++
		default:
			switch c {
			case '[', '(', '{':
				depth++
			case ']', ')', '}':
				depth--
				if depth < 0 {
					invalid = true
				}
			}
			prev, dot, wordEnd = -1, false, -1
			i++
		}
	}
	if invalid || depth != 0 {
		// Not a Python expression (a docstring-like sentence, 'Node[T'):
		// it names nothing.
		b.m.Refs, b.m.Attrs = b.m.Refs[:nRefs], b.m.Attrs[:nAttrs]
	}
}

// ---- __all__ ----

func (b *builder) allStmt(stmt, value tree.Node, isAppend bool) {
	if b.m.All == nil {
		b.m.All = &AllList{}
	}
	b.m.All.Stmts = append(b.m.All.Stmts, stmt)
	if isAppend {
		b.allEntry(value)
		return
	}
	b.allExpr(value)
}

func (b *builder) allExpr(v tree.Node) {
	a := b.m.All
	switch v.Kind() {
	case "list", "tuple":
		for c := range v.NamedChildren() {
			if c.IsExtra() {
				continue
			}
			b.allEntry(c)
		}
	case "parenthesized_expression":
		for c := range v.NamedChildren() {
			if !c.IsExtra() {
				b.allExpr(c)
			}
		}
	case "binary_operator":
		for c := range v.NamedChildren() {
			if !c.IsExtra() {
				b.allExpr(c)
			}
		}
	default:
		a.Partial = true
		if !v.IsNull() {
			a.Sources = append(a.Sources, v)
		}
	}
}

func (b *builder) allEntry(s tree.Node) {
	a := b.m.All
	start, end, ok := b.plainString(s)
	if !ok || end == start {
		a.Partial = true
		a.Sources = append(a.Sources, s)
		return
	}
	name := srcString(b.src[start:end])
	r := &Ref{Name: name, nid: b.names.id(name), Node: s, Start: start, End: end, Scope: b.m.Root, Ctx: CtxAllEntry, Deferred: true}
	b.m.Refs = append(b.m.Refs, r)
	a.Names = append(a.Names, AllName{Name: name, Node: s, Start: start, End: end, Ref: r})
}

// ---- imports ----

// dottedIdents returns the identifiers of a dotted_name and the dotted
// text without whitespace.
func (b *builder) dottedIdents(dn tree.Node) ([]tree.Node, string) {
	var ids []tree.Node
	var sb strings.Builder
	if dn.Kind() == "identifier" {
		return []tree.Node{dn}, b.name(dn)
	}
	for c := range dn.NamedChildren() {
		if c.Kind() != "identifier" {
			continue
		}
		if len(ids) > 0 {
			sb.WriteByte('.')
		}
		sb.Write(c.Text())
		ids = append(ids, c)
	}
	if len(ids) == 1 {
		return ids, b.name(ids[0])
	}
	return ids, sb.String()
}

func (b *builder) newImport(n tree.Node) *Import {
	im := &Import{Node: n, Scope: b.scope, Conditional: b.cond > 0, InTypeChecking: b.typeChecking > 0,
		InTryImportError: b.tryImport > 0}
	b.m.Imports = append(b.m.Imports, im)
	return im
}

func (b *builder) importStmt(n tree.Node) {
	for c := range n.NamedChildren() {
		if c.FieldID() != b.f.name {
			continue
		}
		var dn, alias tree.Node
		switch c.Kind() {
		case "aliased_import":
			dn, alias = field(c, b.f.name), field(c, b.f.alias)
		case "dotted_name":
			dn = c
		default:
			continue
		}
		ids, mod := b.dottedIdents(dn)
		if len(ids) == 0 {
			continue
		}
		im := b.newImport(n)
		im.Module, im.ModuleNodes, im.AliasNode = mod, ids, alias
		nameNode := ids[0]
		if b.validIdent(alias) {
			im.AsName = b.name(alias)
			nameNode = alias
		}
		if bd := b.bind(nameNode, BindImport, n, tree.Node{}, n.EndByte()); bd != nil {
			bd.Import = im
			im.Binding = bd
		}
	}
}

func (b *builder) importFrom(n tree.Node) {
	level := 0
	var modIDs []tree.Node
	mod := ""
	mn := field(n, b.f.moduleName)
	switch mn.Kind() {
	case "relative_import":
		for c := range mn.NamedChildren() {
			switch c.Kind() {
			case "import_prefix":
				level = strings.Count(string(c.Text()), ".")
			case "dotted_name":
				modIDs, mod = b.dottedIdents(c)
			}
		}
	case "dotted_name":
		modIDs, mod = b.dottedIdents(mn)
	}
	if level == 0 && mod == "__future__" {
		b.futureImport(n)
		return
	}
	for c := range n.NamedChildren() {
		if c.Kind() == "wildcard_import" {
			im := b.newImport(n)
			im.Module, im.Level, im.ModuleNodes, im.Star = mod, level, modIDs, true
			if b.scope == b.m.Root {
				b.m.HasStarImport = true
			}
			continue
		}
		if c.FieldID() != b.f.name || c == mn {
			continue
		}
		var dn, alias tree.Node
		switch c.Kind() {
		case "aliased_import":
			dn, alias = field(c, b.f.name), field(c, b.f.alias)
		case "dotted_name", "identifier":
			dn = c
		default:
			continue
		}
		ids, member := b.dottedIdents(dn)
		if len(ids) == 0 {
			continue
		}
		im := b.newImport(n)
		im.Module, im.Level, im.ModuleNodes, im.Name = mod, level, modIDs, member
		im.NameNode, im.AliasNode = ids[len(ids)-1], alias
		nameNode := ids[len(ids)-1]
		if b.validIdent(alias) {
			im.AsName = b.name(alias)
			nameNode = alias
		}
		if bd := b.bind(nameNode, BindImportFrom, n, tree.Node{}, n.EndByte()); bd != nil {
			bd.Import = im
			im.Binding = bd
		}
	}
}

func (b *builder) futureImport(n tree.Node) {
	for c := range n.NamedChildren() {
		if c.FieldID() != b.f.name {
			continue
		}
		dn := c
		var alias tree.Node
		if c.Kind() == "aliased_import" {
			dn, alias = field(c, b.f.name), field(c, b.f.alias)
		}
		ids, name := b.dottedIdents(dn)
		if len(ids) == 0 {
			continue
		}
		im := b.newImport(n)
		im.Module, im.Future, im.Name, im.NameNode, im.AliasNode = "__future__", true, name, ids[0], alias
		b.m.Future[name] = true
		if name == "annotations" {
			b.deferAnn = true
		}
	}
}
