package index

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// LinkDigest prints what queries read of the current link, for tests
// comparing two links: each occurrence's target and key, each key's
// occurrences in order, and the attributes left to the evaluator, in
// file order. Two links of the same files answer alike when their
// digests are equal.
func (x *Index) LinkDigest() string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var b strings.Builder
	tgt := func(t target) string {
		rel := ""
		if t.f != nil {
			rel = t.f.Rel
			if t.f.typeshed {
				rel = "stub:" + t.f.Module
			}
		}
		return fmt.Sprintf("%d %s#%d %s %s %s", t.kind, rel, t.sym, t.name, t.mod, t.smod)
	}
	for _, f := range x.sorted {
		fmt.Fprintf(&b, "file %s %d\n", f.Rel, f.order)
		for i, o := range f.S.Occs {
			t, ok := x.memo.linked(f, o.Sym)
			key := ""
			if k := f.occKeys[i]; k >= 0 {
				key = x.keys[k]
			}
			fmt.Fprintf(&b, "  occ %d %v %s key %q\n", i, ok, tgt(t), key)
		}
		for i, y := range f.S.Syms {
			if y.Target >= 0 {
				t, ok := x.memo.linked(f, y.Target)
				fmt.Fprintf(&b, "  target %d %v %s\n", i, ok, tgt(t))
			}
		}
	}
	keys := make([]string, 0, len(x.keyIDs))
	for k := range x.keyIDs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		id := x.keyIDs[k]
		fmt.Fprintf(&b, "key %q:", k)
		for _, r := range x.inv[id] {
			fmt.Fprintf(&b, " %s:%d", r.file.Rel, r.occ)
		}
		b.WriteByte('\n')
	}
	var names []string
	for n := range x.typed.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "typed %q:", n)
		for _, r := range x.typed.byName[n] {
			fmt.Fprintf(&b, " %s#%d%v", r.f.Rel, r.sym, x.typed.occs[r])
		}
		b.WriteByte('\n')
	}
	var cands []symRef
	for r := range x.typed.occs {
		cands = append(cands, r)
	}
	slices.SortFunc(cands, func(a, b symRef) int { return cmp.Or(strings.Compare(a.f.Rel, b.f.Rel), int(a.sym-b.sym)) })
	for _, r := range cands {
		fmt.Fprintf(&b, "candidate %s#%d %v\n", r.f.Rel, r.sym, x.typed.occs[r])
	}
	return b.String()
}

// Relinks counts the links made since New: all files, or only the
// changed files and their readers; redone counts the full links made
// because an incremental one turned out unsafe (they are in full too).
func (x *Index) Relinks() (full, changed, redone int) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.fullLinks, x.changedLinks, x.unsafeRelinks
}

// Keys counts the reference keys some occurrence has now (live) and the
// ids given out since the last full link (interned): a key that loses its
// last occurrence keeps its id until then, so stale hits stay stale.
func (x *Index) Keys() (live, interned int) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.keyIDs), len(x.keys)
}
