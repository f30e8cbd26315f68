package index

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// relinkChanged links again, after an edit, only the files that changed
// and those whose link read them (directly or through others), keeping
// the rest of the memo; false, and the caller links every file, when it
// cannot be sure the answers would be those of a full link:
//   - the file set or the stubs differ (the module map and the stubs
//     are read by every file's link);
//   - a computation nested deeper than half the depth bound (a deeper
//     start could then cut it short where the last link did not);
//   - a kept symbol or expression whose computation a cycle cut short
//     was computed by a step linking a file again, or one of those steps
//     now reads one that a later step computed (a cycle's cut depends on
//     where the link enters it, and that may move);
//   - the ids of keys no occurrence holds any more outnumber the live
//     ones (and 1,024): only a full link numbers keys afresh, so without
//     it every edit that drops a key would grow x.keys for the life of
//     the process (an edit renaming one function with 17 locals left 17).
//
// On Django an edit relinks 2 files at the median and 554 at p90 (a
// central module such as query.py is read by most of the workspace):
// 2.4 ms of CPU at the median against 110 for every file.
func (x *Index) relinkChanged(stubs map[string]*File) bool {
	l := x.memo
	if !x.linked || l == nil || l.deps == nil || l.deepest > maxDepth/2 || len(x.files) != len(x.sorted) || !maps.Equal(x.mods.stubs, stubs) {
		return false
	}
	if dead := len(x.keys) - len(x.keyIDs); dead > max(len(x.keyIDs), 1024) {
		return false
	}
	var changed []*File
	for _, old := range x.sorted {
		f := x.files[old.Rel]
		if f == nil { // the same paths make the same module map
			return false
		}
		if f != old {
			changed = append(changed, old)
		}
	}
	if len(changed) == 0 {
		return false
	}
	// Who read a changed file, through any chain of reads.
	readers := map[*File][]*File{}
	for f, d := range l.deps {
		for g := range d {
			readers[g] = append(readers[g], f)
		}
	}
	again := map[*File]bool{}
	queue := slices.Clone(changed)
	for _, f := range queue {
		again[f] = true
	}
	for len(queue) > 0 {
		g := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, f := range readers[g] {
			if !again[f] {
				again[f] = true
				queue = append(queue, f)
			}
		}
	}
	// A kept file's cycle first met by a step of a file linked again:
	// that step may now not meet it, and a later one cut it elsewhere.
	for e, at := range l.cuts {
		if !again[e.f] && at != math.MaxInt && again[x.sorted[at&(1<<32-1)]] {
			return false
		}
	}
	// Forget what the files linked again computed; nothing kept points
	// into them (it would have read them).
	for f := range again {
		delete(l.st, f)
		delete(l.deps, f)
	}
	l.lastDep = [2]*File{} // it may name a read just forgotten
	maps.DeleteFunc(l.cuts, func(e memoEntry, _ int) bool { return again[e.f] })
	x.sorted = slices.Clone(x.sorted) // statChanged may read the old one unlocked
	var olds, todo []*File
	oldKeys := map[*File][]int32{} // linkFiles gives each file a new slice
	l.guard = map[*File]bool{}
	for i, old := range x.sorted {
		f := x.files[old.Rel]
		if f != old {
			f.prepare()
			f.order = i
			x.sorted[i] = f
		}
		if again[old] {
			olds, todo = append(olds, old), append(todo, f)
			oldKeys[old] = old.occKeys
			l.guard[f] = true
		}
	}
	x.mods = x.moduleMap()
	x.mods.stubs = stubs
	l.mods = x.mods
	l.unsafe = false
	x.linkFiles(todo)
	l.guard = nil
	if l.unsafe {
		// A step linked again read what a later step computed with a
		// cut: a full link would compute it here. Link all.
		x.memo = nil
		x.unsafeRelinks++
		return false
	}
	if len(todo) > max(64, len(x.sorted)/8) {
		x.finishLink() // past an eighth of the files, rebuilding all is cheaper
		for ks, k := range x.keyIDs {
			if len(x.inv[k]) == 0 {
				delete(x.keyIDs, ks) // no occurrence has it now
			}
		}
	} else {
		x.finishChanged(olds, oldKeys, todo)
	}
	x.changedLinks++
	x.lastRelinked = len(todo)
	return true
}

// finishChanged is finishLink for files linked again (olds, their
// occurrence keys before, and todo, the same paths now): only the keys
// and attribute names they had or have are indexed again, each list kept
// in x.sorted's order, as finishLink would build it.
func (x *Index) finishChanged(olds []*File, oldKeys map[*File][]int32, todo []*File) {
	again := map[*File]bool{}
	for _, f := range olds {
		again[f] = true
	}
	for _, f := range todo {
		again[f] = true
	}
	typed := &typedAttrs{byName: x.typed.byName, occs: x.typed.occs, done: map[symRef]typedAttr{}}
	touched := map[int32]bool{}
	names := map[string]bool{}
	for _, f := range olds {
		for i, k := range oldKeys[f] {
			if k >= 0 {
				touched[k] = true
				continue
			}
			r := symRef{f, f.S.Occs[i].Sym}
			if _, ok := typed.occs[r]; ok {
				names[f.S.Syms[r.sym].Name] = true
				delete(typed.occs, r)
			}
		}
	}
	added := map[int32][]occRef{}
	fresh := newTypedAttrs()
	for _, f := range todo {
		x.indexOccs(f, fresh, func(k int32, r occRef) {
			touched[k] = true
			added[k] = append(added[k], r)
		})
	}
	inOrder := func(a, b occRef) int { return cmp.Or(a.file.order-b.file.order, int(a.occ-b.occ)) }
	for k := range touched {
		refs := slices.DeleteFunc(slices.Clone(x.inv[k]), func(r occRef) bool { return again[r.file] })
		x.inv[k] = mergeSorted(refs, added[k], inOrder)
		if len(x.inv[k]) == 0 {
			delete(x.keyIDs, x.keys[k]) // no occurrence has it now
		}
	}
	for name := range fresh.byName {
		names[name] = true
	}
	maps.Copy(typed.occs, fresh.occs)
	byFile := func(a, b symRef) int { return a.f.order - b.f.order }
	for name := range names {
		refs := slices.DeleteFunc(slices.Clone(typed.byName[name]), func(r symRef) bool { return again[r.f] })
		if refs = mergeSorted(refs, fresh.byName[name], byFile); len(refs) > 0 {
			typed.byName[name] = refs
		} else {
			delete(typed.byName, name)
		}
	}
	x.typed = typed
	x.newView()
}

// mergeSorted merges two lists sorted by cmp, a's first among equals.
func mergeSorted[T any](a, b []T, cmp func(T, T) int) []T {
	if len(b) == 0 {
		return a
	}
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
