package tree

// The tree blob, version 1. All integers are little-endian; there is no
// padding. The producer is wasm/csrc/pyws_parser.c; docs/plugin-abi.md ("Tree layout") says
// the same in prose for plugins written in other languages.
//
//	header   magic "PYWT" | u32 version | u32 source length in bytes
//	symbols  u32 count n (n <= MaxSymbols)
//	         n times: u16 name length | name bytes | u8 symbol flags
//	fields   u32 count m (m <= MaxFields); field ids are 1..m, 0 means none
//	         m times: u16 name length | name bytes
//	nodes    u32 count c (c >= 1), then c records of NodeSize bytes in
//	         preorder; record 0 is the root:
//	           +0  u16 symbol (index into symbols, or ErrorSymbol)
//	           +2  u8  field id of this node within its parent (0: none)
//	           +3  u8  node flags
//	           +4  u32 start byte
//	           +8  u32 end byte (exclusive)
//	           +12 u32 subtree size in records, counting the node itself
//
// The blob ends after the last record. Structure follows from subtree
// sizes alone: the first child of record i is i+1 (if size > 1), the next
// sibling of i is i+size(i), and children lie inside their parent's record
// range. Byte ranges nest the same way and siblings do not overlap.
// Lines and columns are not stored: derive them from byte offsets with
// package textpos, which is what the wire protocol needs (UTF-16 columns)
// anyway and what tree-sitter's own byte-based columns would not give.
const (
	Magic       = "PYWT"
	Version     = 1
	HeaderSize  = 12 // magic, version, source length
	NodeSize    = 16 // bytes per node record
	ErrorSymbol = 0xFFFF
	MaxSymbols  = 0xFFFF // symbol ids 0..0xFFFE; 0xFFFF is ErrorSymbol
	MaxFields   = 0xFF
)

// Offsets inside a node record.
const (
	OffsetSymbol = 0
	OffsetField  = 2
	OffsetFlags  = 3
	OffsetStart  = 4
	OffsetEnd    = 8
	OffsetSize   = 12
)

// Node flags (record byte +3). Bits 5-7 are reserved: producers write 0
// and decoders ignore them, so version 1 can grow flags additively.
const (
	FlagNamed    = 1 << 0 // a named node (grammar rule), not a token literal
	FlagExtra    = 1 << 1 // may appear anywhere (comments, line continuations)
	FlagError    = 1 << 2 // an ERROR node; set exactly when symbol is ErrorSymbol
	FlagMissing  = 1 << 3 // inserted by error recovery; zero width
	FlagHasError = 1 << 4 // this subtree contains an ERROR or MISSING node
)

// Symbol flags (the byte after each symbol name). Bits 3-7 are reserved.
// Hidden symbols (neither named nor visible, names starting with "_")
// never occur as nodes; they are listed so symbol ids equal tree-sitter's.
const (
	SymbolNamed     = 1 << 0
	SymbolVisible   = 1 << 1
	SymbolSupertype = 1 << 2
)
