package tree

import "encoding/binary"

// A test-only encoder for hand-made blobs.

type bsym struct {
	name  string
	flags uint8
}

type bnode struct {
	sym        uint16
	field      uint8
	flags      uint8
	start, end uint32
	kids       []bnode
	size       uint32 // used instead of the real subtree size when sizeSet
	sizeSet    bool
}

type blobSpec struct {
	version uint32
	srcLen  uint32
	syms    []bsym
	fields  []string
	root    bnode
}

func (s blobSpec) encode() []byte {
	b := []byte(Magic)
	b = binary.LittleEndian.AppendUint32(b, s.version)
	b = binary.LittleEndian.AppendUint32(b, s.srcLen)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.syms)))
	for _, y := range s.syms {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(y.name)))
		b = append(b, y.name...)
		b = append(b, y.flags)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.fields)))
	for _, f := range s.fields {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(f)))
		b = append(b, f...)
	}
	var recs []byte
	var emit func(n bnode) uint32
	emit = func(n bnode) uint32 {
		at := len(recs)
		recs = append(recs, make([]byte, NodeSize)...)
		count := uint32(1)
		for _, k := range n.kids {
			count += emit(k)
		}
		size := count
		if n.sizeSet {
			size = n.size
		}
		r := recs[at:]
		binary.LittleEndian.PutUint16(r[OffsetSymbol:], n.sym)
		r[OffsetField] = n.field
		r[OffsetFlags] = n.flags
		binary.LittleEndian.PutUint32(r[OffsetStart:], n.start)
		binary.LittleEndian.PutUint32(r[OffsetEnd:], n.end)
		binary.LittleEndian.PutUint32(r[OffsetSize:], size)
		return count
	}
	emit(s.root)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(recs)/NodeSize))
	return append(b, recs...)
}

// sampleSource and sampleSpec model "f(x)\n" as a tiny grammar.
const sampleSource = "f(x)\n"

var sampleSyms = []bsym{
	{"end", SymbolVisible},
	{"module", SymbolNamed | SymbolVisible},
	{"call", SymbolNamed | SymbolVisible},
	{"identifier", SymbolNamed | SymbolVisible},
	{"argument_list", SymbolNamed | SymbolVisible},
	{"(", SymbolVisible},
	{")", SymbolVisible},
	{"_hidden", 0},
}

func sampleSpec() blobSpec {
	const named = FlagNamed
	return blobSpec{
		version: Version,
		srcLen:  uint32(len(sampleSource)),
		syms:    sampleSyms,
		fields:  []string{"function", "arguments"},
		root: bnode{sym: 1, flags: named, start: 0, end: 5, kids: []bnode{
			{sym: 2, flags: named, start: 0, end: 4, kids: []bnode{
				{sym: 3, field: 1, flags: named, start: 0, end: 1},
				{sym: 4, field: 2, flags: named, start: 1, end: 4, kids: []bnode{
					{sym: 5, start: 1, end: 2},
					{sym: 3, flags: named, start: 2, end: 3},
					{sym: 6, start: 3, end: 4},
				}},
			}},
		}},
	}
}
