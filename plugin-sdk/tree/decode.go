package tree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// ErrInvalid is wrapped by every error Decode returns.
var ErrInvalid = errors.New("tree blob invalid")

// language holds the symbol and field tables. They depend only on the
// parser module, so consecutive blobs usually carry identical tables and
// Decode reuses the last one parsed instead of allocating ~300 strings.
type language struct {
	raw      []byte // the tables' bytes as found in the blob, for reuse checks
	kinds    []string
	symFlags []uint8
	fields   []string // index = field id; fields[0] == ""
	fieldIDs map[string]uint8
	// fieldsByLen[n] lists the ids of the fields whose names are n bytes
	// long, in id order: FieldID compares a few names instead of hashing
	// one, which is slow in wasm.
	fieldsByLen [32][]uint8
}

var lastLanguage atomic.Pointer[language]

type node struct {
	symbol uint16
	field  uint8
	flags  uint8
	start  uint32
	end    uint32
	size   uint32
}

// recordsAreNodes: on a little-endian machine a record's bytes are a
// node's memory, so Decode copies the records in one move instead of
// decoding them field by field (a tenth of a call's time in a wasm guest,
// for a large file).
var recordsAreNodes = binary.NativeEndian.Uint16([]byte{1, 0}) == 1 &&
	unsafe.Sizeof(node{}) == NodeSize && unsafe.Offsetof(node{}.symbol) == OffsetSymbol &&
	unsafe.Offsetof(node{}.field) == OffsetField && unsafe.Offsetof(node{}.flags) == OffsetFlags &&
	unsafe.Offsetof(node{}.start) == OffsetStart && unsafe.Offsetof(node{}.end) == OffsetEnd &&
	unsafe.Offsetof(node{}.size) == OffsetSize

// Tree is a decoded syntax tree over its source.
type Tree struct {
	src    []byte
	lang   *language
	nodes  []node
	parent []int32 // parent[i] is the index of i's parent, -1 for the root
	depth  int     // of the deepest node; the root alone is 1

	// prev[i] is the index of i's previous sibling, or -1. Only
	// PrevSibling needs it, so it is built on first use.
	prevOnce sync.Once
	prev     []int32
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// reader consumes a blob front to back; every read is bounds-checked.
type reader struct {
	b   []byte
	off int
}

func (r *reader) need(n int) bool { return n >= 0 && len(r.b)-r.off >= n }

func (r *reader) u16() (uint16, bool) {
	if !r.need(2) {
		return 0, false
	}
	v := binary.LittleEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v, true
}

func (r *reader) u32() (uint32, bool) {
	if !r.need(4) {
		return 0, false
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v, true
}

func (r *reader) bytes(n int) ([]byte, bool) {
	if !r.need(n) {
		return nil, false
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v, true
}

// Decode validates blob as a tree over source and returns it. The Tree
// keeps a reference to source (not to blob); do not mutate source.
func Decode(blob, source []byte) (*Tree, error) {
	r := &reader{b: blob}
	magic, ok := r.bytes(4)
	if !ok || string(magic) != Magic {
		return nil, invalid("no %q magic", Magic)
	}
	version, ok := r.u32()
	if !ok {
		return nil, invalid("truncated header")
	}
	if version != Version {
		return nil, invalid("layout version %d, this decoder reads %d: rebuild the plugin against the host's plugin-sdk", version, Version)
	}
	srcLen, ok := r.u32()
	if !ok {
		return nil, invalid("truncated header")
	}
	if uint64(srcLen) != uint64(len(source)) {
		return nil, invalid("blob is for a %d-byte source, got %d bytes", srcLen, len(source))
	}

	lang, err := decodeLanguage(r)
	if err != nil {
		return nil, err
	}

	count, ok := r.u32()
	if !ok {
		return nil, invalid("truncated node count")
	}
	rest := len(r.b) - r.off
	// Compare before multiplying: count is untrusted.
	if count == 0 || uint64(count) != uint64(rest/NodeSize) || rest%NodeSize != 0 {
		return nil, invalid("node count %d does not match %d bytes of records", count, rest)
	}
	t := &Tree{
		src:    source,
		lang:   lang,
		nodes:  make([]node, count),
		parent: make([]int32, count),
	}
	if err := t.decodeNodes(r.b[r.off:]); err != nil {
		return nil, err
	}
	return t, nil
}

// RootHasError reports whether the root of blob has FlagHasError, reading
// only the header and the root's record: a host that must know whether a
// tree has syntax errors need not decode it.
func RootHasError(blob []byte) (bool, error) {
	r := &reader{b: blob}
	if magic, ok := r.bytes(4); !ok || string(magic) != Magic {
		return false, invalid("no %q magic", Magic)
	}
	if version, ok := r.u32(); !ok || version != Version {
		return false, invalid("truncated header or layout version %d", version)
	}
	if _, ok := r.u32(); !ok {
		return false, invalid("truncated header")
	}
	if _, _, err := skipTables(r); err != nil {
		return false, err
	}
	if count, ok := r.u32(); !ok || count == 0 || !r.need(NodeSize) {
		return false, invalid("no root record")
	}
	return r.b[r.off+OffsetFlags]&FlagHasError != 0, nil
}

// skipTables moves r over the symbol and field tables, checking their
// bounds, without allocating.
func skipTables(r *reader) (nsym, nfield uint32, err error) {
	nsym, ok := r.u32()
	if !ok {
		return 0, 0, invalid("truncated symbol table")
	}
	if nsym > MaxSymbols {
		return 0, 0, invalid("%d symbols, at most %d", nsym, MaxSymbols)
	}
	for i := uint32(0); i < nsym; i++ {
		n, ok := r.u16()
		if !ok || !r.need(int(n)+1) {
			return 0, 0, invalid("truncated symbol %d", i)
		}
		r.off += int(n) + 1
	}
	if nfield, ok = r.u32(); !ok {
		return 0, 0, invalid("truncated field table")
	}
	if nfield > MaxFields {
		return 0, 0, invalid("%d fields, at most %d", nfield, MaxFields)
	}
	for i := uint32(0); i < nfield; i++ {
		n, ok := r.u16()
		if !ok || !r.need(int(n)) {
			return 0, 0, invalid("truncated field %d", i+1)
		}
		r.off += int(n)
	}
	return nsym, nfield, nil
}

func decodeLanguage(r *reader) (*language, error) {
	start := r.off
	// Walk the tables once without allocating to find their extent.
	nsym, nfield, err := skipTables(r)
	if err != nil {
		return nil, err
	}
	raw := r.b[start:r.off]
	if l := lastLanguage.Load(); l != nil && bytes.Equal(l.raw, raw) {
		return l, nil
	}

	// Second pass: the extent is known to be in bounds.
	l := &language{
		raw:      bytes.Clone(raw),
		kinds:    make([]string, nsym),
		symFlags: make([]uint8, nsym),
		fields:   make([]string, nfield+1),
	}
	p := 4
	for i := range l.kinds {
		n := int(binary.LittleEndian.Uint16(raw[p:]))
		l.kinds[i] = string(raw[p+2 : p+2+n])
		l.symFlags[i] = raw[p+2+n]
		p += 3 + n
	}
	p += 4
	l.fieldIDs = make(map[string]uint8, nfield)
	for i := 1; i < len(l.fields); i++ {
		n := int(binary.LittleEndian.Uint16(raw[p:]))
		l.fields[i] = string(raw[p+2 : p+2+n])
		if _, dup := l.fieldIDs[l.fields[i]]; !dup {
			l.fieldIDs[l.fields[i]] = uint8(i) // the first id wins, as in a linear search
		}
		if n < len(l.fieldsByLen) {
			l.fieldsByLen[n] = append(l.fieldsByLen[n], uint8(i))
		}
		p += 2 + n
	}
	lastLanguage.Store(l)
	return l, nil
}

// decodeNodes fills t.nodes and t.parent from the records in b, checking
// ids, flags, subtree nesting and byte-range nesting in one pass.
func (t *Tree) decodeNodes(b []byte) error {
	nsym := uint32(len(t.lang.kinds))
	nfield := uint8(len(t.lang.fields) - 1)
	srcLen := uint32(len(t.src))
	total := uint32(len(t.nodes))

	if recordsAreNodes {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.nodes))), len(b)), b)
	} else {
		for i := range t.nodes {
			rec := b[i*NodeSize : (i+1)*NodeSize]
			t.nodes[i] = node{
				symbol: binary.LittleEndian.Uint16(rec[OffsetSymbol:]),
				field:  rec[OffsetField],
				flags:  rec[OffsetFlags],
				start:  binary.LittleEndian.Uint32(rec[OffsetStart:]),
				end:    binary.LittleEndian.Uint32(rec[OffsetEnd:]),
				size:   binary.LittleEndian.Uint32(rec[OffsetSize:]),
			}
		}
	}

	// The parent of record i is found by climbing from record i-1 through
	// the parents found so far until a subtree that contains i: the
	// record below it on the way, if any, is i's previous sibling. (A
	// stack of open ancestors would do the same with more bookkeeping.)
	// Locals rather than t's fields, and no pointer into a node: every
	// load through a pointer is checked in wasm.
	nodes, parent := t.nodes, t.parent
	depth, maxDepth := 0, 0 // of node i-1, and the most so far
	for i := uint32(0); i < total; i++ {
		n := nodes[i]
		isErr := n.symbol == ErrorSymbol
		switch {
		case !isErr && uint32(n.symbol) >= nsym:
			return invalid("node %d: symbol %d of %d", i, n.symbol, nsym)
		case isErr != (n.flags&FlagError != 0):
			return invalid("node %d: error flag disagrees with symbol %d", i, n.symbol)
		case n.field > nfield:
			return invalid("node %d: field %d of %d", i, n.field, nfield)
		case n.start > n.end || n.end > srcLen:
			return invalid("node %d: byte range [%d,%d) outside source of %d bytes", i, n.start, n.end, srcLen)
		case n.size == 0 || n.size > total-i:
			return invalid("node %d: subtree size %d overruns %d records", i, n.size, total)
		}
		if i == 0 {
			if n.size != total {
				return invalid("root subtree size %d, want %d", n.size, total)
			}
			if n.field != 0 {
				return invalid("root has field %d", n.field)
			}
			parent[0] = -1
			depth, maxDepth = 1, 1
			continue
		}
		// p is i's parent, prev its previous sibling (or p itself when i
		// is the first child). The root's subtree spans everything.
		p, prev := i-1, i-1
		for p+nodes[p].size <= i {
			prev = p
			p = uint32(parent[p])
			depth--
		}
		depth++ // i is one below p
		maxDepth = max(maxDepth, depth)
		pn := nodes[p]
		if i+n.size > p+pn.size {
			return invalid("node %d: subtree size %d overruns parent %d", i, n.size, p)
		}
		if n.start < pn.start || n.end > pn.end {
			return invalid("node %d: byte range [%d,%d) outside parent %d [%d,%d)", i, n.start, n.end, p, pn.start, pn.end)
		}
		if prev != p && n.start < nodes[prev].end {
			return invalid("node %d: starts at %d, before its previous sibling ends at %d", i, n.start, nodes[prev].end)
		}
		parent[i] = int32(p)
	}
	t.depth = maxDepth
	return nil
}

// prevSiblings returns t.prev, building it on first use.
func (t *Tree) prevSiblings() []int32 {
	t.prevOnce.Do(func() {
		prev := make([]int32, len(t.nodes))
		for i := range prev {
			prev[i] = -1
		}
		for p := range t.nodes {
			last := int32(-1)
			for c, end := int32(p)+1, int32(p)+int32(t.nodes[p].size); c < end; c += int32(t.nodes[c].size) {
				prev[c] = last
				last = c
			}
		}
		t.prev = prev
	})
	return t.prev
}
