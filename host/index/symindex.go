package index

import (
	"hash/maphash"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// symIndex finds a file's symbols by a key read from the symbols
// themselves: an open-addressed table whose slot holds a symbol's id + 1
// (0 empty) in its low half and its key's hash in its high half, at most
// half full. Every file of a workspace keeps two (its locals and its
// qualified names) between relinks; as Go maps, whose entries copy the
// key strings, they held 17 MiB of a Django index's 150 MiB live heap,
// as these 4-6.
type symIndex []uint64

var symSeed = maphash.MakeSeed()

func newSymIndex(n int) symIndex {
	size := 2
	for size < 2*n {
		size <<= 1
	}
	return make(symIndex, size)
}

// find probes for hash h and returns the symbol same says has the key
// (-1 none) and the slot it is in, or the empty slot ending the probe.
func (t symIndex) find(h uint64, same func(sym int32) bool) (int32, int) {
	mask := uint64(len(t) - 1)
	tag := h >> 32
	for i := h & mask; ; i = (i + 1) & mask {
		v := t[i]
		if v == 0 {
			return -1, int(i)
		}
		if v>>32 == tag && same(int32(uint32(v))-1) {
			return int32(uint32(v)) - 1, int(i)
		}
	}
}

func (t symIndex) put(slot int, h uint64, sym int32) {
	t[slot] = h>>32<<32 | uint64(uint32(sym+1))
}

func qualHash(qual string) uint64 { return maphash.String(symSeed, qual) }

func localHash(scope int32, name string) uint64 {
	return maphash.String(symSeed, name) ^ uint64(uint32(scope))*0x9e3779b97f4a7c15
}

// localScope is the scope a symbol is found in by name: a SymLocal's own
// scope, a SymMember's class as -2 - class (no scope is negative).
func localScope(y *navindex.Sym) int32 {
	if y.Kind == navindex.SymMember {
		return -2 - y.Class
	}
	return y.Scope
}

// indexSymbols builds f's locals (each SymLocal by its scope and name,
// each SymMember by its class and name; the last symbol of a key wins)
// and quals (the first symbol of each qualified name).
func (f *File) indexSymbols() {
	syms := f.S.Syms
	nl, nq := 0, 0
	for i := range syms {
		if k := syms[i].Kind; k == navindex.SymLocal || k == navindex.SymMember {
			nl++
			if syms[i].Qual != "" {
				nq++
			}
		}
	}
	f.locals, f.quals = newSymIndex(nl), newSymIndex(nq)
	for i := range syms {
		y := &syms[i]
		if y.Kind != navindex.SymLocal && y.Kind != navindex.SymMember {
			continue
		}
		scope := localScope(y)
		h := localHash(scope, y.Name)
		_, slot := f.locals.find(h, func(s int32) bool { return localScope(&syms[s]) == scope && syms[s].Name == y.Name })
		f.locals.put(slot, h, int32(i))
		if y.Qual != "" {
			h := qualHash(y.Qual)
			if s, slot := f.quals.find(h, func(s int32) bool { return syms[s].Qual == y.Qual }); s < 0 {
				f.quals.put(slot, h, int32(i))
			}
		}
	}
}

// local is the symbol bound to name in scope (a class's instance
// attributes: scope -2 - class).
func (f *File) local(scope int32, name string) (int32, bool) {
	if len(f.locals) == 0 { // not prepared (its summary may not be there yet)
		return -1, false
	}
	syms := f.S.Syms
	s, _ := f.locals.find(localHash(scope, name), func(s int32) bool {
		return syms[s].Name == name && localScope(&syms[s]) == scope
	})
	return s, s >= 0
}

// qual is the symbol of qualified name qual.
func (f *File) qual(qual string) (int32, bool) {
	if len(f.quals) == 0 {
		return -1, false
	}
	syms := f.S.Syms
	s, _ := f.quals.find(qualHash(qual), func(s int32) bool { return syms[s].Qual == qual })
	return s, s >= 0
}
