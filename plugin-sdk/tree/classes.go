package tree

import "sync/atomic"

// KindClasses sorts nodes into small integer classes by kind name, so a
// hot loop can switch on n's class instead of comparing n.Kind() with
// several strings: a string comparison is a call in a wasm guest, a class
// is one table load. Of(n) is exactly names[n.Kind()] ("ERROR" for error
// nodes, "" for the null Node), named and anonymous kinds alike.
//
// A KindClasses is safe for concurrent use; declare one per package and
// reuse it for every tree. The table by symbol id is built on first use
// and rebuilt only when a tree comes from a different parser language.
type KindClasses struct {
	names map[string]uint8
	null  uint8
	table atomic.Pointer[classTable]
}

type classTable struct {
	lang *language
	// bySymbol has an entry for every uint16, ErrorSymbol included, so a
	// lookup needs no bounds check.
	bySymbol *[1 << 16]uint8
}

// NewKindClasses returns the classifier of names (kind name to class;
// kinds not listed are class 0). names must not be modified afterwards.
func NewKindClasses(names map[string]uint8) *KindClasses {
	return &KindClasses{names: names, null: names[""]}
}

// Of returns the class of n's kind. In a loop over one tree, Table's Of
// is cheaper: this one loads the table atomically, a call in wasm.
func (k *KindClasses) Of(n Node) uint8 {
	if n.t == nil {
		return k.null
	}
	return k.tableFor(n.t.lang).bySymbol[n.t.nodes[n.i].symbol]
}

// Table returns k resolved for the nodes of t.
func (k *KindClasses) Table(t *Tree) KindTable {
	if t == nil {
		return KindTable{k: k}
	}
	return KindTable{t, k.tableFor(t.lang).bySymbol, k}
}

func (k *KindClasses) tableFor(l *language) *classTable {
	if tb := k.table.Load(); tb != nil && tb.lang == l {
		return tb
	}
	tb := &classTable{lang: l, bySymbol: new([1 << 16]uint8)}
	for i, name := range l.kinds {
		tb.bySymbol[i] = k.names[name]
	}
	tb.bySymbol[ErrorSymbol] = k.names["ERROR"]
	k.table.Store(tb)
	return tb
}

// KindTable is a KindClasses resolved for the nodes of one tree (see
// KindClasses.Table), for loops where even an atomic load per node
// counts. Its zero value is not usable.
type KindTable struct {
	t        *Tree
	bySymbol *[1 << 16]uint8
	k        *KindClasses
}

// Of returns the class of n's kind, as KindClasses.Of does, for any node
// (one of another tree, or the null Node, takes the slow path).
func (kt KindTable) Of(n Node) uint8 {
	if n.t != kt.t {
		return kt.k.Of(n)
	}
	return kt.bySymbol[n.t.nodes[n.i].symbol]
}

// Scan returns the preorder index of the first node in [from, to) whose
// class is not 0 or whose flags (FlagError, FlagMissing, ...) include
// any of flags; to when there is none. A loop of Scans visits the nodes
// it cares about without a call per node, as a Walk would make:
//
//	for i := kt.Scan(from, to, 0); i < to; i = kt.Scan(i+1, to, 0) { n := t.NodeAt(i) ... }
//
// (skip a subtree by continuing from its SubtreeEnd).
func (kt KindTable) Scan(from, to int, flags uint8) int {
	if kt.t == nil {
		return to
	}
	nodes, classes := kt.t.nodes, kt.bySymbol
	for i, end := max(from, 0), min(to, len(nodes)); i < end; i++ {
		if classes[nodes[i].symbol] != 0 || nodes[i].flags&flags != 0 {
			return i
		}
	}
	return to
}
