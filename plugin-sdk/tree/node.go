package tree

import (
	"iter"
	"strings"
)

// Source returns the source text the tree was decoded over.
func (t *Tree) Source() []byte { return t.src }

// Root returns the root node.
func (t *Tree) Root() Node { return Node{t, 0} }

// NodeCount returns the number of nodes, anonymous ones included.
func (t *Tree) NodeCount() int { return len(t.nodes) }

// NodeAt returns the node with preorder index i (see Node.Index), or the
// null Node when i is out of range.
func (t *Tree) NodeAt(i int) Node {
	if i < 0 || i >= len(t.nodes) {
		return Node{}
	}
	return Node{t, int32(i)}
}

// Depth returns the depth of the tree's deepest node (the root alone is
// 1), found while decoding.
func (t *Tree) Depth() int { return t.depth }

// FirstDeeperThan returns the first node in preorder deeper than limit, or
// the null Node. One pass over the records with a stack of open subtrees,
// no recursion, so any tree is safe to search.
func (t *Tree) FirstDeeperThan(limit int) Node {
	if t.depth <= limit {
		return Node{}
	}
	nodes := t.nodes
	ends := make([]uint32, 0, 64) // subtree ends of the open ancestors
	for i := range nodes {
		for len(ends) > 0 && ends[len(ends)-1] <= uint32(i) {
			ends = ends[:len(ends)-1]
		}
		if len(ends) == limit {
			return Node{t, int32(i)}
		}
		ends = append(ends, uint32(i)+nodes[i].size)
	}
	return Node{}
}

// KindID returns the symbol id of the kind called name, named or
// anonymous (e.g. "identifier" is named, "def" and "(" are anonymous), so
// hot loops can compare ids instead of strings.
func (t *Tree) KindID(name string, named bool) (uint16, bool) {
	if name == "ERROR" && named {
		return ErrorSymbol, true
	}
	for i, k := range t.lang.kinds {
		f := t.lang.symFlags[i]
		if k == name && f&SymbolVisible != 0 && (f&SymbolNamed != 0) == named {
			return uint16(i), true
		}
	}
	return 0, false
}

// FieldID returns the id of the field called name; ids are >= 1.
func (t *Tree) FieldID(name string) (uint8, bool) {
	l := t.lang
	if len(name) >= len(l.fieldsByLen) {
		id, ok := l.fieldIDs[name]
		return id, ok
	}
	for _, id := range l.fieldsByLen[len(name)] {
		// Same length: the first byte tells most names apart.
		if f := l.fields[id]; (len(f) == 0 || f[0] == name[0]) && f == name {
			return id, true
		}
	}
	return 0, false
}

// DescendantForByteRange is t.Root().DescendantForByteRange.
func (t *Tree) DescendantForByteRange(start, end int) Node {
	return t.Root().DescendantForByteRange(start, end)
}

// NamedDescendantForByteRange is t.Root().NamedDescendantForByteRange.
func (t *Tree) NamedDescendantForByteRange(start, end int) Node {
	return t.Root().NamedDescendantForByteRange(start, end)
}

// Node is one node of a Tree. Compare nodes with ==.
type Node struct {
	t *Tree
	i int32
}

func (n Node) rec() *node { return &n.t.nodes[n.i] }

// IsNull reports whether n is the null Node.
func (n Node) IsNull() bool { return n.t == nil }

// Tree returns the tree n belongs to (nil for the null Node).
func (n Node) Tree() *Tree { return n.t }

// Index returns n's preorder index, usable to key side tables of size
// Tree.NodeCount(); -1 for the null Node.
func (n Node) Index() int {
	if n.t == nil {
		return -1
	}
	return int(n.i)
}

// KindID returns n's symbol id (ErrorSymbol for ERROR nodes).
func (n Node) KindID() uint16 {
	if n.t == nil {
		return 0
	}
	return n.rec().symbol
}

// Kind returns the grammar name of n's kind: "function_definition",
// "identifier", "def", ":", or "ERROR".
func (n Node) Kind() string {
	if n.t == nil {
		return ""
	}
	s := n.rec().symbol
	if s == ErrorSymbol {
		return "ERROR"
	}
	return n.t.lang.kinds[s]
}

func (n Node) flag(f uint8) bool { return n.t != nil && n.rec().flags&f != 0 }

// IsNamed reports whether n is a grammar rule rather than a literal token.
func (n Node) IsNamed() bool { return n.flag(FlagNamed) }

// IsError reports whether n is an ERROR node.
func (n Node) IsError() bool { return n.flag(FlagError) }

// IsMissing reports whether n was inserted by error recovery.
func (n Node) IsMissing() bool { return n.flag(FlagMissing) }

// IsExtra reports whether n is an extra (a comment, a line continuation).
func (n Node) IsExtra() bool { return n.flag(FlagExtra) }

// HasError reports whether n's subtree contains an ERROR or MISSING node.
func (n Node) HasError() bool { return n.flag(FlagHasError) }

// StartByte returns the offset of n's first byte in the source.
func (n Node) StartByte() int {
	if n.t == nil {
		return 0
	}
	return int(n.rec().start)
}

// EndByte returns the offset just after n's last byte.
func (n Node) EndByte() int {
	if n.t == nil {
		return 0
	}
	return int(n.rec().end)
}

// Text returns n's source bytes, aliasing the tree's source.
func (n Node) Text() []byte {
	if n.t == nil {
		return nil
	}
	r := n.rec()
	return n.t.src[r.start:r.end:r.end]
}

// FieldID returns the id of the field n occupies in its parent, 0 if none.
func (n Node) FieldID() uint8 {
	if n.t == nil {
		return 0
	}
	return n.rec().field
}

// FieldName returns the name of the field n occupies in its parent
// ("name", "body", ...), or "".
func (n Node) FieldName() string {
	if n.t == nil {
		return ""
	}
	return n.t.lang.fields[n.rec().field]
}

// Parent returns n's parent, null for the root.
func (n Node) Parent() Node {
	if n.t == nil {
		return Node{}
	}
	p := n.t.parent[n.i]
	if p < 0 {
		return Node{}
	}
	return Node{n.t, p}
}

// end is the index just past n's subtree.
func (n Node) end() int32 { return n.i + int32(n.rec().size) }

// SubtreeEnd returns the preorder index just past n's subtree (n's index
// plus the number of nodes in the subtree); 0 for the null Node.
func (n Node) SubtreeEnd() int {
	if n.t == nil {
		return 0
	}
	return int(n.end())
}

// FirstChild returns n's first child, or null.
func (n Node) FirstChild() Node {
	if n.t == nil || n.rec().size == 1 {
		return Node{}
	}
	return Node{n.t, n.i + 1}
}

// NextSibling returns the node after n under the same parent, or null.
func (n Node) NextSibling() Node {
	if n.t == nil {
		return Node{}
	}
	p := n.t.parent[n.i]
	next := n.end()
	if p < 0 || next >= (Node{n.t, p}).end() {
		return Node{}
	}
	return Node{n.t, next}
}

// PrevSibling returns the node before n under the same parent, or null.
func (n Node) PrevSibling() Node {
	if n.t == nil {
		return Node{}
	}
	p := n.t.prevSiblings()[n.i]
	if p < 0 {
		return Node{}
	}
	return Node{n.t, p}
}

// ChildCount returns the number of children, anonymous ones included.
func (n Node) ChildCount() int {
	k := 0
	for range n.Children() {
		k++
	}
	return k
}

// Child returns the i-th child, or null.
func (n Node) Child(i int) Node {
	for c := range n.Children() {
		if i == 0 {
			return c
		}
		i--
	}
	return Node{}
}

// NamedChildCount returns the number of named children.
func (n Node) NamedChildCount() int {
	k := 0
	for range n.NamedChildren() {
		k++
	}
	return k
}

// NamedChild returns the i-th named child, or null.
func (n Node) NamedChild(i int) Node {
	for c := range n.NamedChildren() {
		if i == 0 {
			return c
		}
		i--
	}
	return Node{}
}

// Children yields n's children in order, anonymous ones included.
func (n Node) Children() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		if n.t == nil {
			return
		}
		for c, end := n.i+1, n.end(); c < end; c += int32(n.t.nodes[c].size) {
			if !yield(Node{n.t, c}) {
				return
			}
		}
	}
}

// NamedChildren yields n's named children in order.
func (n Node) NamedChildren() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := range n.Children() {
			if c.IsNamed() && !yield(c) {
				return
			}
		}
	}
}

// ChildByField returns the first child in field name, or null.
func (n Node) ChildByField(name string) Node {
	if n.t == nil {
		return Node{}
	}
	id, ok := n.t.FieldID(name)
	if !ok {
		return Node{}
	}
	return n.ChildByFieldID(id)
}

// ChildByFieldID is ChildByField for a field id from Tree.FieldID (0
// matches nothing), for hot loops that resolve their fields once.
func (n Node) ChildByFieldID(id uint8) Node {
	if n.t == nil || id == 0 {
		return Node{}
	}
	for c, end := n.i+1, n.end(); c < end; c += int32(n.t.nodes[c].size) {
		if n.t.nodes[c].field == id {
			return Node{n.t, c}
		}
	}
	return Node{}
}

// ChildrenByField yields the children in field name (some fields repeat,
// e.g. "alternative" of an if_statement).
func (n Node) ChildrenByField(name string) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		if n.t == nil {
			return
		}
		id, ok := n.t.FieldID(name)
		if !ok {
			return
		}
		for c := range n.Children() {
			if c.rec().field == id && !yield(c) {
				return
			}
		}
	}
}

// Walk visits n's subtree in preorder. When visit returns false, the
// node's descendants are skipped and the walk goes on with its next
// sibling.
func (n Node) Walk(visit func(Node) bool) {
	if n.t == nil {
		return
	}
	for i, end := n.i, n.end(); i < end; {
		if visit(Node{n.t, i}) {
			i++
		} else {
			i += int32(n.t.nodes[i].size)
		}
	}
}

// Descendants yields n and all its descendants in preorder.
func (n Node) Descendants() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		if n.t == nil {
			return
		}
		for i, end := n.i, n.end(); i < end; i++ {
			if !yield(Node{n.t, i}) {
				return
			}
		}
	}
}

// covers reports whether c contains the byte range [start, end] in the
// sense tree-sitter uses: a non-empty node must extend past start, so at a
// boundary between two tokens the one that begins there wins.
func (c Node) covers(start, end uint32) bool {
	r := c.rec()
	return r.start <= start && r.end >= end && (r.end > start || r.start == r.end)
}

func (n Node) descend(start, end int, named bool) Node {
	if n.t == nil {
		return Node{}
	}
	if start < 0 || end < start {
		return n
	}
	s, e := uint32(min(start, len(n.t.src))), uint32(min(end, len(n.t.src)))
	best := n
	for cur := n; ; {
		next := Node{}
		for c := range cur.Children() {
			if c.rec().start > s {
				break
			}
			if c.covers(s, e) {
				next = c
				break
			}
		}
		if next.IsNull() {
			return best
		}
		cur = next
		if !named || cur.IsNamed() {
			best = cur
		}
	}
}

// DescendantForByteRange returns the smallest node in n's subtree that
// contains [start, end], or n itself when no descendant does. For a
// position (start == end) this is the token at that byte.
func (n Node) DescendantForByteRange(start, end int) Node {
	return n.descend(start, end, false)
}

// NamedDescendantForByteRange is DescendantForByteRange restricted to
// named nodes (n itself is returned when no named descendant contains the
// range).
func (n Node) NamedDescendantForByteRange(start, end int) Node {
	return n.descend(start, end, true)
}

// String returns n's subtree as an S-expression of named nodes with their
// fields, e.g. (module (expression_statement (identifier))), the shape
// tree-sitter's own tests use. MISSING nodes print as (MISSING kind).
func (n Node) String() string {
	if n.t == nil {
		return "<null>"
	}
	var b strings.Builder
	n.sexpr(&b)
	return b.String()
}

func (n Node) sexpr(b *strings.Builder) {
	if n.IsMissing() {
		b.WriteString("(MISSING ")
		if n.IsNamed() {
			b.WriteString(n.Kind())
		} else {
			b.WriteString(`"` + n.Kind() + `"`)
		}
		b.WriteByte(')')
		return
	}
	b.WriteByte('(')
	b.WriteString(n.Kind())
	for c := range n.Children() {
		if !c.IsNamed() && !c.IsMissing() {
			continue
		}
		b.WriteByte(' ')
		if f := c.FieldName(); f != "" {
			b.WriteString(f)
			b.WriteString(": ")
		}
		c.sexpr(b)
	}
	b.WriteByte(')')
}
