package index

import (
	"maps"
	"math"
	"slices"
)

// relinkChanged links again, after an edit, only the files that changed
// and those whose link read them (directly or through others), keeping
// the rest of the memo; false, with nothing changed, when it cannot be
// sure the answers would be those of a full link:
//   - the file set or the stubs differ (the module map and the stubs
//     are read by every file's link);
//   - a computation nested deeper than half the depth bound (a deeper
//     start could then cut it short where the last link did not);
//   - a kept symbol or expression whose computation a cycle cut short
//     was computed by a step linking a file again, or one of those steps
//     now reads one that a later step computed (a cycle's cut depends on
//     where the link enters it, and that may move).
//
// Django, an edit inside one file: most files are read by one or two
// others, a central one (query.py) by most of the workspace.
func (x *Index) relinkChanged(stubs map[string]*File) bool {
	l := x.memo
	if !x.linked || l == nil || l.deps == nil || l.deepest > maxDepth/2 || len(x.files) != len(x.sorted) || !maps.Equal(x.mods.stubs, stubs) {
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
	maps.DeleteFunc(l.cuts, func(e memoEntry, _ int) bool { return again[e.f] })
	x.sorted = slices.Clone(x.sorted) // statChanged may read the old one unlocked
	var todo []*File
	l.guard = map[*File]bool{}
	for i, old := range x.sorted {
		f := x.files[old.Rel]
		if f != old {
			f.prepare()
			f.order = i
			x.sorted[i] = f
		}
		if again[old] {
			todo = append(todo, f)
			l.guard[f] = true
		}
	}
	x.mods = newModuleMap(x.files)
	x.mods.stubs = stubs
	l.mods = x.mods
	l.unsafe = false
	x.linkFiles(todo)
	l.guard = nil
	if l.unsafe {
		// A step linked again read what a later step computed with a
		// cut: a full link would compute it here. Link all.
		x.memo = nil
		return false
	}
	x.finishLink()
	x.changedLinks++
	x.lastRelinked = len(todo)
	return true
}
