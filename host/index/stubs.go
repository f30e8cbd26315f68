package index

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/typeshed"
)

// Typeshed's stdlib stubs as units of the index: a StubSet summarizes a
// stub the first time a link needs its module, through the same
// Summarizer as workspace files, and keeps it for the life of the
// process, shared read-only by every workspace linking for the same
// Target. What a link computes about a stub (targets, values) lives in
// that link's linker, never on the shared *File.

// StubConfig wires the stub sets of a process.
type StubConfig struct {
	// Stubs is the verified stubs tree (typeshed.Verify).
	Stubs *typeshed.Stubs
	// Summarizer summarizes stubs as it does workspace files.
	Summarizer Summarizer
	// CacheDir holds stub summaries on disk (<state>/stubs); "" keeps
	// them in memory only.
	CacheDir string
	// PreparedDir holds summaries made before the process started, laid
	// out as CacheDir (`pyws prepare` at build time); read-only, looked
	// up when CacheDir misses. "" none.
	PreparedDir string
	// Parallel is the number of concurrent summarizer calls (default
	// GOMAXPROCS); BatchBytes bounds one call's sources (default 256 KiB).
	Parallel   int
	BatchBytes int
	Logger     *slog.Logger
}

// StubSets hands out one StubSet per Target, made on first use. One
// value serves a process: every workspace of the same Target shares the
// same stub units.
type StubSets struct {
	cfg   StubConfig
	mu    sync.Mutex
	sets  map[Target]*StubSet
	sites map[siteKey]*StubSet
}

// NewStubSets returns the stub sets over cfg.
func NewStubSets(cfg StubConfig) *StubSets {
	batchDefaults(&cfg.Parallel, &cfg.BatchBytes, &cfg.Logger)
	return &StubSets{cfg: cfg, sets: map[Target]*StubSet{}}
}

// For returns the stub set of t (nil for a nil StubSets).
func (s *StubSets) For(t Target) *StubSet {
	if s == nil || s.cfg.Stubs == nil || s.cfg.Summarizer == nil {
		return nil
	}
	t = t.withDefaults()
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.sets[t]
	if set == nil {
		set = &StubSet{cfg: s.cfg, target: t, version: typeshed.Version{Major: 3, Minor: t.Minor}, mods: map[string]*stubEntry{}, srcs: map[srcKey]*srcEntry{},
			depth: maxStubDepth, maxModules: maxStubModules}
		set.setDirs(t)
		s.sets[t] = set
	}
	return set
}

// StubSet is typeshed's stdlib for one Target, loaded module by module.
// It is safe for concurrent use; the units it returns never change.
type StubSet struct {
	cfg     StubConfig
	target  Target
	version typeshed.Version
	dir     string // disk cache, "" none
	// prepared is the read-only cache made at build time, "" none.
	prepared string
	// site, for a set of installed packages (StubSets.ForSite), are the
	// directories searched; nil for typeshed's stdlib (isSite tells).
	site   []string
	isSite bool
	// depth and maxModules bound a closure (Load).
	depth, maxModules int

	mu   sync.Mutex
	mods map[string]*stubEntry // by module name, absent modules included

	summarized atomic.Int64

	// The interpreters' stdlib sources, for docstrings (stdlibdocs.go),
	// under mu.
	srcs          map[srcKey]*srcEntry
	srcSummarized atomic.Int64
}

// stubEntry is one module: loading until done is closed, then f (nil
// when the target has no stub for it) or err (the load was canceled; the
// entry is gone from the set and a later Load tries again).
type stubEntry struct {
	done chan struct{}
	f    *File
	err  error
}

// stubRoots are the modules every link loads: what builtins and the
// evaluator's special forms come from.
var stubRoots = []string{"builtins", "typing", "typing_extensions", "_typeshed", "types", "collections.abc"}

// Bounds of a closure: levels of imports followed, and module names
// looked up (the stdlib has 752 stub files; names a `from m import n`
// suggests as submodules are mostly absent).
const (
	maxStubDepth   = 32
	maxStubModules = 8192
)

// Target is the Python the set's stubs are summarized for.
func (s *StubSet) Target() Target { return s.target }

// Summarized counts the stub files summarized so far (not found in a
// cache).
func (s *StubSet) Summarized() int64 { return s.summarized.Load() }

// Loaded returns the unit of module when it is loaded, nil otherwise
// (and for a nil set); it never loads.
func (s *StubSet) Loaded(module string) *File {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	e := s.mods[module]
	s.mu.Unlock()
	if e == nil {
		return nil
	}
	select {
	case <-e.done:
		return e.f
	default:
		return nil
	}
}

// Load loads modules, their parent packages and, breadth first, every
// stub module they import (bounded by maxStubDepth levels and
// maxStubModules modules), summarizing each level's new stubs in
// parallel batches, and returns the closure by module name. Modules
// without a stub for the target (not in VERSIONS for its version, or not
// the standard library's) are left out. A module another caller is
// loading is waited for, never summarized twice.
func (s *StubSet) Load(ctx context.Context, modules []string) (map[string]*File, error) {
	out := map[string]*File{}
	seen := map[string]bool{}
	var level []string
	add := func(m string) {
		for m != "" && !seen[m] && len(seen) < s.maxModules {
			seen[m] = true
			level = append(level, m)
			i := strings.LastIndexByte(m, '.')
			if i < 0 {
				break
			}
			m = m[:i]
		}
	}
	for _, m := range modules {
		add(m)
	}
	for depth := 0; len(level) > 0 && depth < s.depth; depth++ {
		cur := level
		level = nil
		sort.Strings(cur)
		files, err := s.loadLevel(ctx, cur)
		if err != nil {
			return nil, err
		}
		for _, name := range cur {
			f := files[name]
			if f == nil {
				continue
			}
			out[name] = f
			for _, m := range f.stubImports {
				add(m)
			}
		}
	}
	return out, nil
}

// withoutPositions is what a shared unit keeps of its summary: a copy
// without the parts only a query at a position of the file, a rename in
// it or its own type check reads (its occurrences, flow reads, calls,
// type-check sites, and its scopes' bound and used names). No query
// names a position in a typeshed stub or an installed package (they are
// no workspace's files), so nothing reads them there; the link and the
// evaluator read the symbols, expressions, definitions, scopes and flow
// graphs they keep. On Django's stubs that is 4.8 of 31.5 MiB live (see
// RATIONALE.md, "Where does the memory go?"). A copy, so the summary
// decoded stays whole for whoever else holds it.
func withoutPositions(s *navindex.Summary) *navindex.Summary {
	c := *s
	c.Occs, c.Reads, c.Calls, c.Sites = nil, nil, nil, nil
	c.Scopes = make([]navindex.Scope, len(s.Scopes))
	for i, sc := range s.Scopes {
		c.Scopes[i] = navindex.Scope{Kind: sc.Kind, Parent: sc.Parent}
	}
	return &c
}

// stubImports lists the modules a stub imports (each `from m import n`
// also names m.n, which may be a submodule).
func stubImports(f *File) []string {
	var out []string
	for _, y := range f.S.Syms {
		if y.Kind != navindex.SymImport {
			continue
		}
		if m, ok := relativeModule(f, y.Level, y.Module); ok {
			out = append(out, m)
			if y.Name != "" {
				out = append(out, m+"."+y.Name)
			}
		}
	}
	for _, st := range f.S.Stars {
		if m, ok := relativeModule(f, st.Level, st.Module); ok {
			out = append(out, m)
		}
	}
	return out
}

// loadLevel returns the units of names, loading those nobody loaded.
func (s *StubSet) loadLevel(ctx context.Context, names []string) (map[string]*File, error) {
	s.mu.Lock()
	var mine []string
	entries := make(map[string]*stubEntry, len(names))
	for _, n := range names {
		e := s.mods[n]
		if e == nil {
			e = &stubEntry{done: make(chan struct{})}
			s.mods[n] = e
			mine = append(mine, n)
		}
		entries[n] = e
	}
	s.mu.Unlock()
	// Fill this caller's entries before waiting for anyone else's: two
	// callers waiting for each other's modules both make progress.
	if len(mine) > 0 {
		s.fill(ctx, mine, entries)
	}
	out := make(map[string]*File, len(names))
	var retry []string
	for _, n := range names {
		e := entries[n]
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		switch {
		case e.err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case e.err != nil:
			retry = append(retry, n) // another caller gave up on it
		case e.f != nil:
			out[n] = e.f
		}
	}
	if len(retry) > 0 {
		more, err := s.loadLevel(ctx, retry)
		if err != nil {
			return nil, err
		}
		for n, f := range more {
			out[n] = f
		}
	}
	return out, nil
}

// fill loads the modules names (entries this caller created): from the
// disk cache, else through the summarizer, then publishes each unit,
// prepared, by closing its entry.
func (s *StubSet) fill(ctx context.Context, names []string, entries map[string]*stubEntry) {
	var todo []pending
	ready := map[string]*File{}
	for _, n := range names {
		file, text, ok := s.find(n)
		if !ok {
			ready[n] = nil // no unit for the target
			continue
		}
		f := newFile(file, "")
		f.Module, f.typeshed = n, true
		f.Hash = sha256.Sum256(text)
		key := cacheKey(f.Hash, file)
		if sum := s.cached(key); sum != nil {
			f.S = sum
			ready[n] = f
			continue
		}
		todo = append(todo, pending{f: f, text: text, key: key})
	}
	job := s.summaryJob(&s.summarized)
	var err error
	if len(todo) > 0 {
		err = job.run(ctx, todo)
	}
	for _, p := range todo {
		if err == nil {
			ready[p.f.Module] = p.f
		}
	}
	var gone []string
	for _, n := range names {
		e := entries[n]
		f, ok := ready[n]
		if !ok {
			e.err = err
			if e.err == nil {
				e.err = errors.New("stub not summarized")
			}
			gone = append(gone, n)
			continue
		}
		if f != nil {
			if f.S == nil {
				f.S = &navindex.Summary{}
			}
			f.S = withoutPositions(f.S)
			f.prepare() // before any workspace sees it: never written again
			f.stubImports = stubImports(f)
		}
		e.f = f
	}
	if len(gone) > 0 {
		s.mu.Lock()
		for _, n := range gone {
			delete(s.mods, n)
		}
		s.mu.Unlock()
	}
	for _, n := range names {
		close(entries[n].done)
	}
}

// setDirs places the set's disk caches for t: keyed by the summarizer's
// build and the target, the entries by content hash and path.
func (s *StubSet) setDirs(t Target) {
	sub := cacheSubdir(s.cfg.Summarizer, t)
	if s.cfg.CacheDir != "" {
		s.dir = filepath.Join(s.cfg.CacheDir, sub)
	}
	if s.cfg.PreparedDir != "" {
		s.prepared = filepath.Join(s.cfg.PreparedDir, sub)
	}
}

// cached returns the summary stored under key in the disk cache, else in
// the prepared one, nil in neither.
func (s *StubSet) cached(key string) *navindex.Summary {
	for _, dir := range []string{s.dir, s.prepared} {
		if dir == "" {
			continue
		}
		if sum := readCached(dir, key); sum != nil {
			return sum
		}
	}
	return nil
}

// find returns the file of module (its slash path in the set's tree,
// the unit's Rel) and its bytes: typeshed's stub for the target, or an
// installed package's file for a site set.
func (s *StubSet) find(module string) (file string, text []byte, ok bool) {
	if s.isSite {
		return findSiteModule(s.cfg.Stubs, s.site, module)
	}
	file, err := s.cfg.Stubs.ModuleFile(module, s.version)
	if err != nil {
		return "", nil, false
	}
	text, err = s.cfg.Stubs.ReadFile(file)
	if err != nil {
		s.cfg.Logger.Warn("typeshed stub unreadable", "file", file, "err", err)
		return "", nil, false
	}
	return file, text, true
}

// summaryJob summarizes for the set's target into its disk cache,
// counting files in done.
func (s *StubSet) summaryJob(done *atomic.Int64) summaryJob {
	return summaryJob{s: s.cfg.Summarizer, t: s.target, batchBytes: s.cfg.BatchBytes, parallel: s.cfg.Parallel, log: s.cfg.Logger,
		store: func(key string, enc []byte) {
			if s.dir != "" {
				writeCached(s.dir, key, enc)
			}
		},
		progress: func(n int) { done.Add(int64(n)) },
	}
}

// stubModules are the modules a link of files may reach outside the
// workspace: every absolute import and star import, and stubRoots.
func stubModules(files map[string]*File) []string {
	set := map[string]bool{}
	for _, m := range stubRoots {
		set[m] = true
	}
	for _, f := range files {
		for _, y := range f.S.Syms {
			if y.Kind == navindex.SymImport && y.Level == 0 && y.Module != "" {
				set[y.Module] = true
				if y.Name != "" {
					set[y.Module+"."+y.Name] = true
				}
			}
		}
		for _, st := range f.S.Stars {
			if st.Level == 0 && st.Module != "" {
				set[st.Module] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// loadStubs loads the stubs files may link into (nil without a stub set).
// It runs before a relink, outside mu: summarizing a stub is a plugin
// call.
func (x *Index) loadStubs(ctx context.Context, files map[string]*File) (map[string]*File, error) {
	if x.stubs == nil {
		return nil, nil
	}
	mods := stubModules(files)
	out, err := x.stubs.Load(ctx, mods)
	if err != nil || x.site == nil {
		return out, err
	}
	return out, x.loadSite(ctx, mods, workspaceTops(files), out)
}

// LoadAll summarizes every stub module of t into the disk cache, what
// any workspace's closure may need (`pyws prepare`, at build time), and
// returns how many modules have a stub.
func (s *StubSets) LoadAll(ctx context.Context, t Target) (int, error) {
	set := s.For(t)
	if set == nil {
		return 0, errors.New("no stubs or no summarizer")
	}
	mods, err := s.cfg.Stubs.Modules(set.version)
	if err != nil {
		return 0, err
	}
	out, err := set.Load(ctx, mods)
	return len(out), err
}
