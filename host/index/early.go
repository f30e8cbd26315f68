package index

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Early answers while the first Build runs. A cold build of Django takes
// seconds; a get_definition or get_hover names one file, and its answer
// depends on that file and what it imports. So a query that arrives
// during the build gets a small index of its own: the file, the modules
// it imports and where packages among them re-export the names it
// imports from them (earlyDepth levels, at most earlyFiles files),
// summarized in a lane ahead of the build's batches (WithEarly), linked
// with the same stubs. Summaries land in the same disk cache, so the
// build reuses them. References and rename grow it to the files holding
// the name (EarlyComplete, earlyrefs.go): a partial list would be
// silently wrong, so they answer only once theirs is the complete one.
const (
	earlyDepth      = 2
	earlyFiles      = 96
	earlyBatchBytes = 32 << 10
)

// early is the index of the files queried during the first build.
type early struct {
	// scans are the name scans' answers (earlyrefs.go containing).
	scans map[string]scanResult
	mu    sync.Mutex
	idx   *Index
	all   *moduleMap       // every listed file, unsummarized: import resolution
	byRel map[string]*File // the listed files by Rel
	set   []string         // absolute paths indexed so far
	has   map[string]bool
	// followed are the import symbols of each queried file whose modules
	// are indexed (-1: all of them).
	followed map[string]map[int32]bool
	// asked and askedAll: the names imported of a package's __init__ (by
	// absolute path), or all of them.
	asked    map[string]map[string]bool
	askedAll map[string]bool
	// most is how many files imports may grow the set to (earlyFiles;
	// a references query's share of the workspace while it follows its
	// candidates' imports).
	most int
	// staged are files summarized but not yet linked (by Rel): a
	// references query follows its candidates' imports through them and
	// links once (earlyrefs.go).
	staged map[string]*File
	// batchBytes is the build's summarizer batch bound (stage's).
	batchBytes int
}

type earlyKey struct{}

// WithEarly marks ctx as an early query's summarizing: the Summarizer
// queues it apart from the build (IsEarly).
func WithEarly(ctx context.Context) context.Context { return context.WithValue(ctx, earlyKey{}, true) }

// IsEarly reports a context made by WithEarly.
func IsEarly(ctx context.Context) bool { v, _ := ctx.Value(earlyKey{}).(bool); return v }

// Early returns an index that holds abs and what it imports, for a query
// that arrives before the first Build finished; nil (and no error) once
// the build is done: ask x itself then.
func (x *Index) Early(ctx context.Context, abs string) (*Index, error) {
	return x.EarlyAt(ctx, abs, -1, 0)
}

// EarlyAt is Early for a query at a position of abs (line < 0: anywhere):
// a name bound by an import there needs that import's modules only, not
// every import of the file (Django's query.py imports 20 modules, most
// of them large); anything else needs them all (a local's value, an
// attribute's receiver may be typed through any of them).
func (x *Index) EarlyAt(ctx context.Context, abs string, line, char int) (*Index, error) {
	e, done := x.enterEarly()
	if e == nil {
		return nil, nil
	}
	defer done()
	return x.earlyAt(WithEarly(ctx), e, abs, line, char)
}

// enterEarly returns the early index's state, locked and with the
// build's next batches held (its calls in flight finish, then both
// workers are the query's), and the func releasing both; nil once the
// build is done.
func (x *Index) enterEarly() (*early, func()) {
	if x.built.Load() {
		return nil, nil
	}
	x.earlyMu.Lock()
	e := x.early
	if e == nil {
		e = &early{has: map[string]bool{}, followed: map[string]map[int32]bool{}, most: earlyFiles}
		x.early = e
	}
	x.earlyMu.Unlock()
	e.mu.Lock()
	if x.built.Load() {
		e.mu.Unlock()
		return nil, nil
	}
	x.earlyGate.hold()
	x.earlyRan.Store(true)
	return e, func() {
		x.earlyGate.release()
		e.mu.Unlock()
	}
}

// earlyAt is EarlyAt with e entered.
func (x *Index) earlyAt(ctx context.Context, e *early, abs string, line, char int) (*Index, error) {
	level, err := x.earlyFile(ctx, e, abs)
	if err != nil {
		return nil, err
	}
	need := e.importsAt(x, abs, line, char)
	if !e.follow(abs, need) {
		return e.idx, nil
	}
	frontier := e.imports(x, []string{abs}, false, need)
	for depth := 1; len(frontier) > 0; depth++ {
		if err := level(depth); err != nil {
			return nil, err
		}
		if depth == earlyDepth || len(e.set) >= earlyFiles {
			break
		}
		// Past the queried file's own imports, only packages'
		// re-exports (`from .query import QuerySet` in an __init__.py)
		// lead to definitions; a module's own imports would only refine
		// types, at the cost of many files.
		frontier = slices.DeleteFunc(frontier, func(abs string) bool { return !e.byRel[x.rel(abs)].IsInit })
		frontier = e.imports(x, frontier, true, nil)
	}
	return e.idx, nil
}

// earlyFile makes the early index (listing the workspace the first
// time) hold abs, linked (level 0), and returns the func that
// summarizes what was added since and links it (level depth).
func (x *Index) earlyFile(ctx context.Context, e *early, abs string) (func(depth int) error, error) {
	if e.idx == nil {
		start := time.Now()
		paths, err := x.cfg.Files(ctx)
		if err != nil {
			return nil, err
		}
		x.log.Debug("early index listed", "files", len(paths), "took", time.Since(start))
		e.byRel = make(map[string]*File, len(paths))
		for _, p := range paths {
			rel := x.rel(p)
			e.byRel[rel] = newFile(rel, p)
		}
		e.all = newModuleMap(e.byRel)
		cfg := x.cfg
		cfg.Files = func(context.Context) ([]string, error) { return slices.Clone(e.set), nil }
		// Small batches, so both workers share each level's few files.
		e.batchBytes = cfg.BatchBytes
		cfg.BatchBytes = min(cfg.BatchBytes, earlyBatchBytes)
		e.idx = New(cfg)
		// Imports resolve as in the complete index, and a module the
		// early index lacks is recorded when a link looks it up.
		e.idx.whole = e.all
	}
	// level summarizes what was added and links it.
	level := func(depth int) error {
		start, first := time.Now(), !e.idx.Built()
		var err error
		if first {
			err = e.idx.Build(ctx)
		} else {
			err = e.idx.Rescan(ctx)
		}
		if err != nil {
			return err
		}
		// The trace of an early answer, level by level (the first
		// level's phases: its stubs and linking are most of it).
		if ph := e.idx.Phases(); first {
			x.log.Debug("early index level", "file", x.rel(abs), "depth", depth, "files", len(e.set), "took", time.Since(start),
				"target", ph.Target, "summarize", ph.Summarize, "stubs", ph.Stubs, "link", ph.Link)
		} else {
			x.log.Debug("early index level", "file", x.rel(abs), "depth", depth, "files", len(e.set), "took", time.Since(start))
		}
		return nil
	}
	if !e.has[abs] {
		e.add(abs)
		if err := level(0); err != nil {
			return nil, err
		}
	}
	return level, nil
}

// importsAt are the import symbols of abs a query at line, char needs:
// the one binding the name there, or nil for all of them.
func (e *early) importsAt(x *Index, abs string, line, char int) map[int32]bool {
	if line < 0 {
		return nil
	}
	h := e.idx.At(abs, line, char)
	if h == nil {
		return nil
	}
	syms := h.f.S.Syms
	y := syms[h.o.Sym]
	switch {
	case y.Kind == navindex.SymImport:
		return map[int32]bool{h.o.Sym: true}
	case y.Kind == navindex.SymLocal && y.Target >= 0 && int(y.Target) < len(syms) && syms[y.Target].Kind == navindex.SymImport:
		if _, ok := h.f.defKind(h.o.Sym); !ok { // bound by the import alone
			return map[int32]bool{y.Target: true}
		}
	}
	return nil
}

// follow records that the imports need (nil: all) of abs are followed,
// and reports whether any was not yet.
func (e *early) follow(abs string, need map[int32]bool) bool {
	done := e.followed[abs]
	if done[-1] {
		return false
	}
	if need == nil {
		e.followed[abs] = map[int32]bool{-1: true}
		return true
	}
	if done == nil {
		done = map[int32]bool{}
		e.followed[abs] = done
	}
	more := false
	for i := range need {
		more = more || !done[i]
		done[i] = true
	}
	return more
}

func (e *early) add(abs string) {
	e.has[abs] = true
	e.set = append(e.set, abs)
}

// imports adds the workspace files the files of frontier import (the
// module, its packages' __init__ files, and `from m import n`'s m.n when
// that is a module) and returns them. Of a package's __init__ reached by
// an import (reexports), only the imports binding a name asked of it
// (`from pkg import Name`, or all of them after `import pkg`, less its
// plain `import m`: its own dependencies) and its star imports are
// followed: Django's models/__init__.py imports 20
// modules, a file importing two names from it needs two. only, when not
// nil, are the import symbols of the frontier's files to follow.
func (e *early) imports(x *Index, frontier []string, reexports bool, only map[int32]bool) []string {
	var next []string
	// addModule adds module name and its packages' __init__ files; member
	// is the name asked of it ("" for all of it), none when !ask.
	addModule := func(name, member string, ask bool) {
		for p := name; p != ""; {
			for _, g := range e.all.byName[p] {
				if ask && p == name && g.IsInit {
					e.ask(g.Abs, member)
				}
				if len(e.set) >= e.most || e.has[g.Abs] {
					continue
				}
				if p == name || g.IsInit {
					e.add(g.Abs)
					next = append(next, g.Abs)
				}
			}
			i := strings.LastIndexByte(p, '.')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	e.idx.mu.RLock()
	defer e.idx.mu.RUnlock()
	for _, abs := range frontier {
		rel := x.rel(abs)
		f, lf := e.idx.files[rel], e.byRel[rel]
		if f == nil {
			f = e.staged[rel]
		}
		if f == nil || lf == nil || f.S == nil {
			continue
		}
		// A module is asked all of only where a name is bound to it
		// (`import m`, `import a.b as c`): a from-import's module entry is
		// bound to nothing, and `import a.b` binds a for the sake of a.b.
		bound, dotted := map[int32]bool{}, map[string]bool{}
		for _, y := range f.S.Syms {
			if y.Kind == navindex.SymLocal && y.Target >= 0 {
				bound[y.Target] = true
			}
			if y.Kind == navindex.SymImport && y.Name == "" && y.Level == 0 {
				for i := strings.LastIndexByte(y.Module, '.'); i > 0; i = strings.LastIndexByte(y.Module[:i], '.') {
					dotted[y.Module[:i]] = true
				}
			}
		}
		follow := func(i int32) {
			y := f.S.Syms[i]
			name, ok := e.all.absolute(lf, y.Level, y.Module)
			if !ok {
				return
			}
			addModule(name, y.Name, y.Name != "" || bound[i] && !dotted[y.Module])
			if y.Name != "" {
				addModule(name+"."+y.Name, "", true)
			}
		}
		if reexports && !e.askedAll[abs] {
			asked := e.asked[abs]
			for _, y := range f.S.Syms {
				if y.Kind == navindex.SymLocal && y.Target >= 0 && int(y.Target) < len(f.S.Syms) && asked[y.Name] &&
					f.S.Syms[y.Target].Kind == navindex.SymImport {
					follow(y.Target)
				}
			}
		} else {
			// Of a package asked all of (`import pkg`), a plain `import
			// enum` binds the package's own dependency, not its API:
			// re/__init__.py's enum and functools were most of the bytes
			// of json/decoder.py's early index, and no definition in it
			// went through them.
			own := map[int32]bool{}
			if reexports {
				for _, y := range f.S.Syms {
					if y.Kind == navindex.SymLocal && y.Target >= 0 && int(y.Target) < len(f.S.Syms) {
						if t := f.S.Syms[y.Target]; t.Kind == navindex.SymImport && t.Name == "" && t.Level == 0 &&
							strings.SplitN(t.Module, ".", 2)[0] == y.Name {
							own[y.Target] = true
						}
					}
				}
			}
			for i, y := range f.S.Syms {
				if y.Kind == navindex.SymImport && !own[int32(i)] && (only == nil || only[int32(i)]) {
					follow(int32(i))
				}
			}
		}
		if only != nil {
			continue // a name bound by an import comes from no star
		}
		for _, st := range f.S.Stars {
			if name, ok := e.all.absolute(lf, st.Level, st.Module); ok {
				addModule(name, "", true)
			}
		}
	}
	return next
}

// ask records that a file imports member of the package __init__ abs
// ("" for all of it).
func (e *early) ask(abs, member string) {
	if member == "" {
		if e.askedAll == nil {
			e.askedAll = map[string]bool{}
		}
		e.askedAll[abs] = true
		return
	}
	if e.asked == nil {
		e.asked = map[string]map[string]bool{}
	}
	if e.asked[abs] == nil {
		e.asked[abs] = map[string]bool{}
	}
	e.asked[abs][member] = true
}

// gate is held by early queries; the build waits while any holds it.
type gate struct {
	mu   sync.Mutex
	n    int
	free chan struct{} // closed when n drops to 0
}

func (g *gate) hold() {
	g.mu.Lock()
	if g.n == 0 {
		g.free = make(chan struct{})
	}
	g.n++
	g.mu.Unlock()
}

func (g *gate) release() {
	g.mu.Lock()
	g.n--
	if g.n == 0 {
		close(g.free)
	}
	g.mu.Unlock()
}

// wait returns once no early query holds the gate.
func (g *gate) wait(ctx context.Context) error {
	g.mu.Lock()
	if g.n == 0 {
		g.mu.Unlock()
		return nil
	}
	free := g.free
	g.mu.Unlock()
	select {
	case <-free:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
