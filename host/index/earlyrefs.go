package index

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Early references and rename. A reference to a symbol named n is an
// occurrence spelled n (an import, an attribute, a keyword argument, an
// `__all__` entry, a string annotation: the index keys no occurrence by
// another spelling; an alias `import x as y` is its own symbol, spelled
// y), so only a file whose text holds the word n can hold one: pyright
// parses no other file for a references query either. The early index
// answers such a query during the first build once it holds, besides the
// queried file, every listed file containing the word and what resolving
// those occurrences reads. Its module map is part of the whole
// listing's (partOf), so an import resolves as in the complete index,
// and every lookup of a module it does not hold is recorded
// (moduleMap.modules). A probe, a link of the candidates' occurrences
// spelled so (and their module imports) in a memo of its own, lazy as
// the complete index's answer is, records what they need; those files
// are summarized and probed again until nothing is missing, then linked;
// the query runs, and what it looked up besides (the evaluator's
// receivers, rename's checks) is added the same way, until a run looks
// up nothing the early index lacks. The answer is then computed from the
// same summaries and the same module lookups as the complete index's.
// A name most files hold (`get`) would need most of the workspace: past
// 1/earlyRefsShare of its files the query waits for the build instead;
// a small workspace answers whatever the name (earlyRefsSmall files).
const (
	earlyRefsShare = 2
	earlyRefsSmall = 64
)

// earlyRefsMost bounds the files a references query adds to the early
// set: a quarter of the workspace's. The early index lives beside the
// build's until the build ends, so its files count twice at the
// server's peak; past a quarter, that costs nearly a second index (the
// stdlib's `posixpath.join`, 355 of 668 files: peak 623 MiB against
// 530 waiting) for an answer not much sooner than the build's.
func earlyRefsMost(files int) int { return max(files/4, earlyRefsSmall) }

// EarlyComplete runs query on an early index holding every file its
// answer at abs:line:char depends on (h is the occurrence there, nil
// when there is none), for references and rename during the first
// build: the answer is the complete index's. query may run more than
// once (a run that looked up a module not yet indexed is run again
// with it); its last run's result stands. false, and query not run:
// the build is done, or the answer would need too much of the
// workspace; ask x after the build.
func (x *Index) EarlyComplete(ctx context.Context, abs string, line, char int, query func(e *Index, h *Hit) error) (bool, error) {
	e, done := x.enterEarly()
	if e == nil {
		return false, nil
	}
	defer done()
	ctx = WithEarly(ctx)
	start := time.Now()
	// The queried file alone: what its answer needs besides, the probe
	// finds (following every import of a class's file, as a definition
	// query does, took 87 of Django's files before the first probe).
	if _, err := x.earlyFile(ctx, e, abs); err != nil {
		return false, err
	}
	most := earlyRefsMost(len(e.byRel))
	// A later definition query may still follow its imports.
	defer func() { e.most = max(e.most, len(e.set)+earlyFiles) }()
	// What a query that gives up added and did not link is dropped: the
	// set is left to the queries it answers.
	linked := len(e.set)
	held := linked // what this query adds is bounded, not what earlier ones did
	giveUp := func() (bool, error) {
		for _, abs := range e.set[linked:] {
			delete(e.has, abs)
		}
		e.set, e.staged = e.set[:linked], nil
		return false, nil
	}
	var added []string
	for round := 0; ; round++ {
		h := e.idx.At(abs, line, char)
		var names []string
		if h != nil {
			if names = e.idx.refNames(h); len(names) == 0 {
				return giveUp()
			}
		}
		t := time.Now()
		cands, ok := e.containing(x, names, max(len(e.byRel)/earlyRefsShare, earlyRefsSmall))
		x.log.Debug("early references scanned", "file", x.rel(abs), "round", round, "names", names, "candidates", len(cands), "took", time.Since(t))
		if !ok {
			x.log.Debug("early answer waits for the build", "file", x.rel(abs), "names", names, "reason", "the name is in most files")
			return giveUp()
		}
		if h != nil && !slices.Contains(cands, abs) {
			cands = append(cands, abs)
		}
		// Every candidate, also one held but not linked yet (a query
		// that gave up after adding it): stage takes what is summarized.
		e.unheld(cands)
		added = append(added, cands...)
		// Summarize what was added and resolve the candidates'
		// occurrences over it, adding what that looks up, until nothing.
		for len(added) > 0 {
			if len(e.set)-held > most {
				x.log.Debug("early answer waits for the build", "file", x.rel(abs), "names", names, "reason", "its files are most of the workspace", "files", len(e.set))
				return giveUp()
			}
			t := time.Now()
			if err := e.stage(ctx, added); err != nil {
				return false, err
			}
			staged := time.Since(t)
			added = e.missing(e.probe(names, cands))
			x.log.Debug("early references staged", "file", x.rel(abs), "round", round, "files", len(e.set), "summarize", staged, "probe", time.Since(t)-staged)
		}
		if len(e.staged) > 0 {
			t := time.Now()
			if err := e.idx.Rescan(ctx); err != nil {
				return false, err
			}
			x.log.Debug("early references linked", "file", x.rel(abs), "round", round, "files", len(e.set), "took", time.Since(t))
			e.staged, linked = nil, len(e.set)
			e.idx.takeMissed() // the link's: what the answer needs is the probe's and the query's
			if round < 8 {
				continue // the hit and its names again, from the new link
			}
		}
		// The query may look up more (the evaluator's receivers,
		// rename's checks): it runs again with them.
		t = time.Now()
		err := query(e.idx, h)
		x.log.Debug("early references queried", "file", x.rel(abs), "round", round, "took", time.Since(t))
		if added = e.missing(e.idx.takeMissed()); len(added) == 0 {
			x.log.Debug("early complete answer", "file", x.rel(abs), "rounds", round+1, "files", len(e.set), "candidates", len(cands), "took", time.Since(start))
			return true, err
		}
	}
}

// unheld adds the files of paths the early set does not hold.
func (e *early) unheld(paths []string) {
	for _, abs := range paths {
		if !e.has[abs] {
			e.add(abs)
		}
	}
}

// probe resolves, in a memo of its own over the files held and staged,
// what a link computes for the occurrences of cands spelled one of names
// (and for their module imports, which a name's occurrence may be part
// of), following aliases as keys do; it returns the modules that looked
// up and the early set lacks. Lazy, as the complete index's answer is:
// the rest of those files, and the files they import for it, are not
// resolved.
func (e *early) probe(names []string, cands []string) []string {
	e.idx.mu.RLock()
	defer e.idx.mu.RUnlock()
	files := maps.Clone(e.idx.files)
	maps.Copy(files, e.staged)
	m := partOf(e.all, files)
	l := &linker{mods: m, st: map[*File]*linkState{}}
	for _, abs := range cands {
		f := files[e.idx.rel(abs)]
		if f == nil || f.S == nil {
			continue
		}
		f.prepare()
		seen := make([]bool, len(f.S.Syms))
		for _, o := range f.S.Occs {
			if o.Sym < 0 || int(o.Sym) >= len(seen) || seen[o.Sym] {
				continue
			}
			seen[o.Sym] = true
			y := f.S.Syms[o.Sym]
			if !slices.Contains(names, y.Name) && !e.spellsModule(f, y, names) {
				continue
			}
			t := l.symTarget(f, o.Sym)
			for range 8 {
				if t.kind != tSym {
					break
				}
				ty := t.f.S.Syms[t.sym]
				if ty.Kind != navindex.SymLocal || ty.Target < 0 {
					break
				}
				t = l.symTarget(t.f, ty.Target)
			}
			if t.kind == tModule {
				m.modules(t.name)
			}
		}
	}
	return m.takeMissed()
}

// spellsModule reports whether y is a module import (`import a.b`, the
// module of `from a.b import c`) whose module, resolved in f, has a
// component spelled one of names: a module's references are its
// components' occurrences. Another module import needs no probing: a
// name's occurrence through it (`models.Model`) is an attribute, whose
// probe looks the module up; resolving every import of every candidate
// took 131 files more for Django's class Model, none of them in its
// answer.
func (e *early) spellsModule(f *File, y navindex.Sym, names []string) bool {
	if y.Kind != navindex.SymImport || y.Name != "" {
		return false
	}
	name, ok := e.all.absolute(e.byRel[f.Rel], y.Level, y.Module)
	if !ok {
		return true // unresolved: probe it as before
	}
	for part := range strings.SplitSeq(name, ".") {
		if slices.Contains(names, part) {
			return true
		}
	}
	return false
}

// stage summarizes the files of paths the early index does not hold
// yet, without linking them: their imports are followed next, and the
// link after (Rescan) finds their summaries in the index's cache.
func (e *early) stage(ctx context.Context, paths []string) error {
	if e.batchBytes == 0 {
		e.batchBytes = earlyBatchBytes
	}
	var todo []string
	e.idx.mu.RLock()
	for _, abs := range paths {
		rel := e.idx.rel(abs)
		if e.idx.files[rel] == nil && e.staged[rel] == nil {
			todo = append(todo, abs)
		}
	}
	e.idx.mu.RUnlock()
	if len(todo) == 0 {
		return nil
	}
	e.idx.refreshMu.Lock()
	// The build's batches: a candidate set is hundreds of files, not a
	// level's few (cfg is read by load only, under refreshMu).
	small := e.idx.cfg.BatchBytes
	e.idx.cfg.BatchBytes = max(small, e.batchBytes)
	files, err := e.idx.load(ctx, todo, nil, "", nil)
	e.idx.cfg.BatchBytes = small
	e.idx.refreshMu.Unlock()
	if err != nil {
		return err
	}
	if e.staged == nil {
		e.staged = map[string]*File{}
	}
	for rel, f := range files {
		e.staged[rel] = f
	}
	return nil
}

// missing adds the files of modules looked up and lacking.
func (e *early) missing(mods []string) []string {
	var out []string
	for _, name := range mods {
		for _, g := range e.all.byName[name] {
			if !e.has[g.Abs] {
				e.add(g.Abs)
				out = append(out, g.Abs)
			}
		}
	}
	return out
}

// containing lists the files whose text holds one of names as a whole
// word (sorted); false when more than most files do. Each scan reads the
// files again (a few at a time: the reads are syscall-bound; an
// unreadable file holds no word) rather than keeping them: the texts of
// the stdlib are 11 MB the server would hold through the build, and
// reading them from the page cache takes milliseconds.
func (e *early) containing(x *Index, names []string, most int) ([]string, bool) {
	if len(names) == 0 {
		return nil, true
	}
	// A client polling with the same query during the build (or asking
	// again after a refusal) scans once.
	key := strings.Join(names, "\x00")
	if c, ok := e.scans[key]; ok && c.most == most {
		return c.files, c.ok
	}
	files, ok := e.scan(x, names, most)
	if e.scans == nil {
		e.scans = map[string]scanResult{}
	}
	e.scans[key] = scanResult{files, ok, most}
	return files, ok
}

// scanResult is a containing answer kept for the names it scanned.
type scanResult struct {
	files []string
	ok    bool
	most  int
}

func (e *early) scan(x *Index, names []string, most int) ([]string, bool) {
	words := make([][]byte, len(names))
	for i, n := range names {
		words[i] = []byte(n)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var out []string
	paths := make(chan string)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for abs := range paths {
				text, _ := x.cfg.Read(abs)
				for _, w := range words {
					if holdsWord(text, w) {
						mu.Lock()
						out = append(out, abs)
						mu.Unlock()
						break
					}
				}
			}
		}()
	}
	for _, f := range e.byRel {
		paths <- f.Abs
	}
	close(paths)
	wg.Wait()
	if len(out) > most {
		return nil, false
	}
	sort.Strings(out)
	return out, true
}

// holdsWord reports whether w occurs in text with no identifier
// character either side (bytes of 0x80 and up count as one: a name is
// ASCII, refNames says, and may stand next to no other letter).
func holdsWord(text, w []byte) bool {
	for i := 0; ; {
		j := bytes.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !identByte(text[j-1])) && (end == len(text) || !identByte(text[end])) {
			return true
		}
		i = j + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// refNames are the spellings of the occurrences References and Rename
// may answer for h (refsOf's names), nil when one is not plain ASCII (a
// name the summarizer normalized may be spelled otherwise in the text).
func (x *Index) refNames(h *Hit) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.current(h)
	if err != nil {
		return nil
	}
	names := []string{h.f.S.Syms[h.o.Sym].Name, targetName(h.t)}
	if h.t.kind == tModule { // `import a.b`, `from . import b`: spelled b
		names = append(names, h.t.name[strings.LastIndexByte(h.t.name, '.')+1:])
	}
	if h.t.kind == tSym {
		if src, ok := x.stubSource(h.t); ok {
			names = append(names, targetName(src))
		}
	}
	var out []string
	for _, n := range names {
		if n == "" || slices.Contains(out, n) {
			continue
		}
		for i := 0; i < len(n); i++ {
			if !identByte(n[i]) || n[i] >= 0x80 {
				return nil
			}
		}
		out = append(out, n)
	}
	return out
}

// takeMissed returns the modules the index lacks that its link and
// queries looked up since the last call (an early index's).
func (x *Index) takeMissed() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.mods.takeMissed()
}
