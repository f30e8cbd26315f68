package pysem

// Analyze groups bindings and resolves refs by name. Go's string maps are
// slow in a wasm guest (the string hash emulates a 64-bit multiply), so
// the builder numbers the distinct names once, with a cheap hash, and
// then groups and looks up by number; the scopes' public Bindings maps are
// filled once per name at the end.

// nameTable numbers distinct names.
type nameTable struct {
	slots  []int32 // id+1 by hash, 0 when empty; the length is a power of two
	names  []string
	hashes []uint32 // by id
}

// id returns the number of name, numbering it if new.
func (t *nameTable) id(name string) int32 {
	if len(t.slots) == 0 {
		t.slots = make([]int32, 1024)
	}
	h := uint32(2166136261) // FNV-1a: 32-bit multiplies are cheap in wasm
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			id := int32(len(t.names))
			t.names = append(t.names, name)
			t.hashes = append(t.hashes, h)
			t.slots[i] = id + 1
			if 2*len(t.names) > len(t.slots) {
				t.grow()
			}
			return id
		}
		if t.hashes[v-1] == h && t.names[v-1] == name {
			return v - 1
		}
	}
}

func (t *nameTable) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := uint32(len(t.slots) - 1)
	for id, h := range t.hashes {
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(id) + 1
	}
}

// symbol is the bindings one scope owns for one name.
type symbol struct {
	scope *Scope
	nid   int32
	n     int // len(bs) once filled
	bs    []*Binding
}

// groupByOwner returns the symbols of bindings (whose Scope is set):
// ordered by owner scope index, then by name in order of first binding;
// each symbol's bindings in creation order. No hashing: bindings are
// bucketed by scope index, and within a scope the name numbers index a
// scratch table.
func groupByOwner(bindings []*Binding, nscopes, nnames int) []symbol {
	start := make([]int32, nscopes+1)
	for _, bd := range bindings {
		start[bd.Scope.Index+1]++
	}
	for i := 1; i <= nscopes; i++ {
		start[i] += start[i-1]
	}
	byScope := make([]*Binding, len(bindings))
	next := append([]int32(nil), start[:nscopes]...)
	for _, bd := range bindings {
		byScope[next[bd.Scope.Index]] = bd
		next[bd.Scope.Index]++
	}

	// sym[nid] is the name's symbol while its scope is processed, else -1.
	sym := make([]int32, nnames)
	for i := range sym {
		sym[i] = -1
	}
	symOf := make([]int32, len(byScope))
	var syms []symbol
	for s := 0; s < nscopes; s++ {
		first := len(syms)
		for j := start[s]; j < start[s+1]; j++ {
			bd := byScope[j]
			k := sym[bd.nid]
			if k < 0 {
				k = int32(len(syms))
				sym[bd.nid] = k
				syms = append(syms, symbol{scope: bd.Scope, nid: bd.nid})
			}
			syms[k].n++
			symOf[j] = k
		}
		for _, sy := range syms[first:] {
			sym[sy.nid] = -1
		}
	}

	// Carve the symbols' slices from one array, capacity capped so that an
	// append to one cannot overwrite the next.
	all := make([]*Binding, len(bindings))
	off := 0
	for i := range syms {
		syms[i].bs = all[off : off : off+syms[i].n]
		off += syms[i].n
	}
	for j, bd := range byScope {
		k := symOf[j]
		syms[k].bs = append(syms[k].bs, bd)
	}
	return syms
}

// lookup stands in for the scopes' Bindings maps while the builder
// resolves the refs of one name: byScope holds that name's bindings by
// scope index.
type lookup struct {
	byScope [][]*Binding
	builtin int8 // whether the name is a builtin: 0 not known yet, 1 yes, -1 no
}

// bindingsIn returns s.Bindings[name], from lk when resolving in bulk.
func bindingsIn(lk *lookup, s *Scope, name string) []*Binding {
	if lk != nil {
		return lk.byScope[s.Index]
	}
	return s.Bindings[name]
}

// isBuiltin reports m.builtins[name], computed once per name in bulk.
func (m *Module) isBuiltin(lk *lookup, name string) bool {
	if lk == nil {
		return m.builtins[name]
	}
	if lk.builtin == 0 {
		lk.builtin = -1
		if m.builtins[name] {
			lk.builtin = 1
		}
	}
	return lk.builtin > 0
}

// NameID numbers r.Name within its module: refs and bindings of one name
// share the number, in [0, Module.NameCount()), so clients can group or
// look up names through slices instead of string maps (the indexer
// plugin does).
func (r *Ref) NameID() int32 { return r.nid }

// NameID is Ref.NameID for a binding's Name.
func (b *Binding) NameID() int32 { return b.nid }

// NameCount bounds the NameIDs of the module's refs and bindings.
func (m *Module) NameCount() int { return m.nnames }
