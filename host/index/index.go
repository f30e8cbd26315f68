// Package index is the kernel's workspace symbol index. It keeps one
// navigation summary per Python file (plugin-sdk/navindex, computed by the
// indexer plugin), cached in memory and on disk by content hash, maps
// files to dotted module names, links imports, re-exports, star imports
// and class members across files, and answers definition, references,
// rename and hover from an inverted index (global symbol key ->
// occurrences). It never parses Python: every per-file fact comes from a
// summary.
//
// Lifecycle: Build indexes every file (Progress goes 0..100) and links;
// afterwards every query first calls Refresh, which stats the workspace's
// Python files and re-summarizes those whose size or mtime changed (and
// whose content hash differs), so an edit made behind the server's back
// is seen by the next query. Index is safe for concurrent use.
package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// Source is one file handed to the summarizer.
type Source struct {
	Rel  string // slash-separated, workspace-relative
	Text []byte
}

// Summarizer turns files into encoded summaries, one per file in order
// (nil for a file it could not summarize), for the Python t names: the
// summarizer decides `sys.version_info` and `sys.platform` conditions
// for it (the indexer plugin's pythonMinor and platform arguments).
// Version identifies the code producing them (the indexer plugin's
// SHA-256), so a new plugin invalidates the disk cache.
type Summarizer interface {
	Summarize(ctx context.Context, t Target, files []Source) ([][]byte, error)
	Version() string
}

// Target is the Python a workspace runs on: Python 3.Minor on Platform
// (sys.platform: "linux", "darwin", "win32"). Summaries depend on it, so
// it is part of every cache key; a zero field takes DefaultTarget's.
type Target struct {
	Minor    int
	Platform string
}

// DefaultTarget is the Python assumed when neither configuration nor an
// interpreter says: 3.12 on Linux.
var DefaultTarget = Target{Minor: 12, Platform: "linux"}

func (t Target) withDefaults() Target {
	if t.Minor <= 0 {
		t.Minor = DefaultTarget.Minor
	}
	if t.Platform == "" {
		t.Platform = DefaultTarget.Platform
	}
	return t
}

// String is "3.12-linux", as cache directories name it.
func (t Target) String() string {
	t = t.withDefaults()
	return fmt.Sprintf("3.%d-%s", t.Minor, t.Platform)
}

// Config wires an Index.
type Config struct {
	// Root is the workspace root (absolute, symlinks evaluated).
	Root string
	// Files lists the absolute paths of the workspace's Python files.
	Files func(ctx context.Context) ([]string, error)
	// Read returns a file's text decoded to UTF-8.
	Read func(abs string) ([]byte, error)
	// ListDir lists the names in a workspace directory (slash-separated,
	// "" the root) through the workspace's confined reader: the compiled
	// extension modules an import may name are not Python files. nil
	// knows none.
	ListDir func(rel string) ([]string, error)
	// Summarizer produces summaries.
	Summarizer Summarizer
	// Target is the Python the workspace's files are summarized for (zero:
	// DefaultTarget). TargetFunc, when set, decides it instead at the
	// first Build (it may ask an interpreter, which takes a while).
	Target     Target
	TargetFunc func() Target
	// Stdlib is the interpreter's standard library source directory,
	// where hovers find the docstrings typeshed's stubs lack ("" none);
	// StdlibFunc, when set, decides it instead at the first Build.
	Stdlib     string
	StdlibFunc func() string
	// Site are the interpreter's search directories other than the
	// standard library's, where installed packages are found (nil: none);
	// SiteFunc, when set, decides them instead at the first Build.
	Site     []string
	SiteFunc func() []string
	// Stubs hands out typeshed's stubs for the target: modules the
	// workspace does not have link into them. nil links none (external
	// names stay names).
	Stubs *StubSets
	// CacheDir holds summaries on disk ("" keeps them in memory only).
	CacheDir string
	// Parallel is the number of concurrent summarizer calls (default
	// GOMAXPROCS).
	Parallel int
	// BatchBytes bounds the sources of one summarizer call (default 256 KiB).
	BatchBytes int
	// RetryFailedAfter is how long a file the summarizer failed on (a
	// timeout, a crash, a malformed answer) stays unindexed before a
	// refresh tries it again (default 30 s).
	RetryFailedAfter time.Duration
	Logger           *slog.Logger
}

// File is one indexed file.
type File struct {
	Rel, Abs string
	// Stem is Rel without its extension: a .py and its .pyi share it, and
	// with it the keys of their symbols.
	Stem string
	// Module is the file's dotted module name.
	Module string
	IsInit bool
	// stub: a .pyi file; typeshed: one of typeshed's stubs (a StubSet's
	// unit, shared by the workspaces of a process: Rel is its path in the
	// stubs tree, Abs is "").
	stub, typeshed bool
	Hash           [32]byte
	Size           int64
	MTime          time.Time
	S              *navindex.Summary
	// failedAt: the summarizer failed on this content (an empty S stands
	// in); a refresh after retryFailedAfter summarizes it again. Written
	// before the file is published, read under refreshMu.
	failedAt time.Time
	// unread: reading the file failed (unreadable, gone or replaced
	// meanwhile) and it stands indexed empty, with failedAt set. Its size
	// and mtime say nothing (chmod changes neither), so the next listing,
	// which a chmod's event brings, reads it again.
	unread bool

	// stubImports are the modules a typeshed unit imports, set before
	// the unit is shared.
	stubImports []string

	// prepared: quals, locals, defs and members are built (prepare).
	prepared bool
	quals    symIndex        // Qual -> symbol (File.qual)
	locals   symIndex        // (scope, name) -> SymLocal or SymMember (File.local)
	defs     symDefs         // symbol -> definitions
	members  map[int32]int32 // class symbol -> body scope
	occKeys  []int32         // per occurrence: linked key id, -1 none
	order    int             // position in the sorted file list
}

// Index is one workspace's symbol index.
type Index struct {
	cfg Config
	log *slog.Logger

	progress atomic.Int64 // 0..100
	built    atomic.Bool
	// phases are the first Build's parts, set before built.
	phases BuildPhases
	// early answers queries during the first build (Early); dropped
	// when it is done.
	earlyMu   sync.Mutex
	early     *early
	earlyGate gate // held while an early query summarizes
	earlyRan  atomic.Bool
	// whole, in an early index, maps every listed file (its module map
	// is part of it: moduleMap).
	whole *moduleMap

	refreshMu sync.Mutex // one Refresh at a time
	// target and stubs are decided by the first Build, under refreshMu,
	// before anything is summarized; read-only afterwards.
	target Target
	stubs  *StubSet
	site   *StubSet // installed packages (nil: none)
	stdlib string
	mu     sync.RWMutex
	files  map[string]*File // by Rel
	sorted []*File
	mods   *moduleMap
	cache  map[string]*navindex.Summary // by cache key (hash + flags)

	// linked state (under mu)
	linked bool
	keyIDs map[string]int32
	keys   []string
	inv    [][]occRef
	memo   *linker
	prog   *Program           // the type evaluator's view of this link
	types  *pytypes.Evaluator // over prog, made with it
	typed  *typedAttrs        // attributes only the evaluator resolves, lazily
	gen    uint64             // bumped by every relink
	// fullLinks and changedLinks count the links of every file and
	// those of the changed files and their readers only (relinkChanged).
	// lastRelinked is how many files the last of the latter linked;
	// unsafeRelinks how many incremental relinks found, once linked, that
	// a full link would answer otherwise, and were redone in full.
	fullLinks, changedLinks, lastRelinked, unsafeRelinks int

	findings *findingsMemo // each file's type findings in this link

	// uses counts names for completion ranking, once per link.
	usageMu sync.Mutex
	uses    *usage

	symtab *symbolTable // find_symbols' table, built for one gen
}

type occRef struct {
	file *File
	occ  int32
}

// batchDefaults fills the zero summarizer batching settings and logger
// of a Config or StubConfig: GOMAXPROCS calls, 256 KiB, slog.Default.
func batchDefaults(parallel, batchBytes *int, log **slog.Logger) {
	if *parallel <= 0 {
		*parallel = runtime.GOMAXPROCS(0)
	}
	if *batchBytes <= 0 {
		*batchBytes = 256 << 10
	}
	if *log == nil {
		*log = slog.Default()
	}
}

// New returns an empty index; call Build.
func New(cfg Config) *Index {
	batchDefaults(&cfg.Parallel, &cfg.BatchBytes, &cfg.Logger)
	return &Index{cfg: cfg, log: cfg.Logger, files: map[string]*File{}, cache: map[string]*navindex.Summary{}, mods: newModuleMap(nil)}
}

// moduleMap maps the current files' modules; an early index's is part
// of the whole workspace's (partOf). mu held for writing.
func (x *Index) moduleMap() *moduleMap {
	if x.whole != nil {
		return partOf(x.whole, x.files)
	}
	return newModuleMap(x.files)
}

// Progress is the first build's progress, 0..100.
func (x *Index) Progress() int { return int(x.progress.Load()) }

// Built reports whether the first build finished.
func (x *Index) Built() bool { return x.built.Load() }

// FileCount is the number of indexed files.
func (x *Index) FileCount() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.files)
}

func (x *Index) rel(abs string) string {
	r, err := filepath.Rel(x.cfg.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

func cacheKey(h [32]byte, rel string) string {
	base := filepath.Base(rel)
	flags := "m"
	if strings.HasSuffix(base, ".pyi") {
		flags = "s"
	}
	if strings.HasPrefix(base, "__init__.") {
		flags += "i"
	}
	return hex.EncodeToString(h[:]) + "-" + flags
}

func (x *Index) cacheDir() string {
	if x.cfg.CacheDir == "" || x.cfg.Summarizer == nil {
		return ""
	}
	v := x.cfg.Summarizer.Version()
	if len(v) > 16 {
		v = v[:16]
	}
	return filepath.Join(x.cfg.CacheDir, cacheSubdir(x.cfg.Summarizer, x.target))
}

// cacheSubdir names the cache directory of summaries made by s for t:
// summary format, summarizer version and target.
func cacheSubdir(s Summarizer, t Target) string {
	v := s.Version()
	if len(v) > 16 {
		v = v[:16]
	}
	return fmt.Sprintf("v%d-%s-%s", navindex.Version, v, t)
}

// readCached reads and decodes a cached summary, nil when there is none
// or it does not decode (it is then summarized and written again).
func readCached(dir, key string) *navindex.Summary {
	b, err := os.ReadFile(filepath.Join(dir, key[:2], key))
	if err != nil {
		return nil
	}
	s, err := navindex.Decode(b)
	if err != nil {
		return nil
	}
	return s
}

// writeCached stores an encoded summary atomically (a temporary file
// renamed into place); failures only cost a later summarizer call.
func writeCached(dir, key string, enc []byte) {
	sub := filepath.Join(dir, key[:2])
	if err := os.MkdirAll(sub, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(sub, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(enc)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(sub, key)) != nil {
		os.Remove(tmp.Name())
	}
}

func (x *Index) loadCached(key string) *navindex.Summary {
	x.mu.RLock()
	s := x.cache[key]
	x.mu.RUnlock()
	if s != nil {
		return s
	}
	dir := x.cacheDir()
	if dir == "" {
		return nil
	}
	return readCached(dir, key)
}

func (x *Index) storeCached(key string, enc []byte) {
	if dir := x.cacheDir(); dir != "" {
		writeCached(dir, key, enc)
	}
}

// pending is a file read and hashed but not yet summarized.
type pending struct {
	f    *File
	text []byte
	key  string
}

// Build indexes every Python file of the workspace and links them. It
// reports progress as it goes; on return (without error) the index
// answers queries.
func (x *Index) Build(ctx context.Context) error {
	x.refreshMu.Lock()
	defer x.refreshMu.Unlock()
	mark := time.Now()
	lap := func(d *time.Duration) {
		now := time.Now()
		*d, mark = now.Sub(mark), now
	}
	var ph BuildPhases
	if !x.built.Load() {
		x.target = x.cfg.Target
		if x.cfg.TargetFunc != nil {
			x.target = x.cfg.TargetFunc()
		}
		x.stdlib = x.cfg.Stdlib
		if x.cfg.StdlibFunc != nil {
			x.stdlib = x.cfg.StdlibFunc()
		}
		x.target = x.target.withDefaults()
		if x.cfg.Stubs != nil {
			x.stubs = x.cfg.Stubs.For(x.target)
			site := x.cfg.Site
			if x.cfg.SiteFunc != nil {
				site = x.cfg.SiteFunc()
			}
			x.site = x.cfg.Stubs.ForSite(x.target, site)
			if x.stubs != nil {
				// Every link needs builtins, typing and what they
				// import: read while the files summarize (an early
				// answer waited 40-90 ms for them, 0.3 s busy). The
				// set shares them with whoever asks meanwhile.
				warmed := make(chan struct{})
				go func() {
					defer close(warmed)
					x.stubs.Load(ctx, stubRoots)
				}()
				defer func() { <-warmed }()
			}
		}
	}
	lap(&ph.Target)
	paths, err := x.cfg.Files(ctx)
	if err != nil {
		return err
	}
	lap(&ph.List)
	files, err := x.load(ctx, paths, nil, "", func(done, total int) {
		if total > 0 {
			x.progress.Store(int64(min(99, done*100/total)))
		}
	})
	if err != nil {
		return err
	}
	lap(&ph.Summarize)
	stubs, err := x.loadStubs(ctx, files)
	if err != nil {
		return err
	}
	lap(&ph.Stubs)
	x.mu.Lock()
	x.files = files
	x.relinkLocked(stubs)
	x.mu.Unlock()
	lap(&ph.Link)
	if !x.built.Load() {
		x.phases = ph
	}
	x.progress.Store(100)
	x.built.Store(true)
	x.earlyMu.Lock()
	x.early = nil
	x.earlyMu.Unlock()
	return nil
}

// BuildPhases are the parts of a first Build, in order: asking the
// target (the workspace's interpreter), listing the files, reading and
// summarizing them, loading the stubs and installed packages they
// import, and linking.
type BuildPhases struct {
	Target, List, Summarize, Stubs, Link time.Duration
}

// Phases returns the first Build's parts (zero before it is done).
func (x *Index) Phases() BuildPhases {
	if !x.built.Load() {
		return BuildPhases{}
	}
	return x.phases
}

// load reads, hashes and summarizes paths, reusing old files whose size
// and mtime are unchanged (except force, which is always read again),
// old files whose content hash is unchanged, and cached summaries whose
// content hash matches.
func (x *Index) load(ctx context.Context, paths []string, old map[string]*File, force string, report func(done, total int)) (map[string]*File, error) {
	total := len(paths)
	// Each path's result goes to its own slot, so the loop and the readers
	// it starts never write a shared map (a concurrent map write aborts the
	// whole process); out is assembled once they are done.
	loaded := make([]*File, total)
	var todo []pending
	var mu sync.Mutex // guards todo
	var done atomic.Int64
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, abs := range paths {
		rel := x.rel(abs)
		fi, err := os.Stat(abs)
		if err != nil {
			continue
		}
		if of := old[rel]; of != nil && rel != force && of.Size == fi.Size() && of.MTime.Equal(fi.ModTime()) && !x.retryDue(of) {
			loaded[i] = of
			done.Add(1)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, abs, rel string, fi os.FileInfo) {
			defer wg.Done()
			defer func() { <-sem }()
			text, err := x.cfg.Read(abs)
			f := newFile(rel, abs)
			if err != nil {
				text = nil
				f.failedAt, f.unread = time.Now(), true
			}
			f.Size, f.MTime = fi.Size(), fi.ModTime()
			f.Hash = sha256.Sum256(text)
			key := cacheKey(f.Hash, rel)
			if of := old[rel]; of != nil && of.Hash == f.Hash && !x.retryDue(of) {
				// Size and MTime are read only under refreshMu (by load
				// and statChanged), which the caller holds.
				of.Size, of.MTime = f.Size, f.MTime
				loaded[i] = of
				done.Add(1)
				return
			}
			loaded[i] = f
			if s := x.loadCached(key); s != nil {
				f.S = s
				done.Add(1)
			} else {
				mu.Lock()
				todo = append(todo, pending{f: f, text: text, key: key})
				mu.Unlock()
			}
			if report != nil {
				report(int(done.Load()), total)
			}
		}(i, abs, rel, fi)
	}
	wg.Wait()
	out := make(map[string]*File, total)
	for _, f := range loaded {
		if f != nil {
			out[f.Rel] = f
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(todo) > 0 {
		if err := x.summaryJob(func(n int) {
			if report != nil {
				report(int(done.Add(int64(n))), total)
			}
		}).run(ctx, todo); err != nil {
			return nil, err
		}
	}
	for _, f := range out {
		if f.S == nil {
			f.S = &navindex.Summary{}
		}
	}
	x.mu.Lock()
	for _, p := range todo {
		if p.f.S != nil && p.f.failedAt.IsZero() {
			x.cache[p.key] = p.f.S
		}
	}
	for _, f := range out {
		if f.failedAt.IsZero() {
			x.cache[cacheKey(f.Hash, f.Rel)] = f.S
		}
	}
	x.mu.Unlock()
	return out, nil
}

// summaryJob summarizes files for a target, in batches of at most
// batchBytes, parallel calls at a time: the index's files and a stub
// set's stubs alike.
type summaryJob struct {
	s          Summarizer
	t          Target
	batchBytes int
	parallel   int
	log        *slog.Logger
	// store keeps a summary made (its cache key, encoded).
	store func(key string, enc []byte)
	// progress, when set, counts files done.
	progress func(n int)
	// yield, when set, is waited for before each batch: the build gives
	// way to early queries (Early).
	yield func(ctx context.Context) error
	// reuse, when set, takes out of a batch the files summarized
	// meanwhile (by an early query), setting their summaries.
	reuse func(b []pending) []pending
}

func (x *Index) summaryJob(progress func(int)) summaryJob {
	return summaryJob{s: x.cfg.Summarizer, t: x.target, batchBytes: x.cfg.BatchBytes, parallel: x.cfg.Parallel, log: x.log, store: x.storeCached, progress: progress,
		yield: x.earlyGate.wait, reuse: x.reuseEarly}
}

// reuseEarly takes out of a build batch the files an early query
// summarized since the build decided to (they are in the disk cache).
func (x *Index) reuseEarly(b []pending) []pending {
	if !x.earlyRan.Load() || x.cacheDir() == "" {
		return b
	}
	return slices.DeleteFunc(b, func(p pending) bool {
		s := readCached(x.cacheDir(), p.key)
		if s != nil {
			p.f.S = s
		}
		return s != nil
	})
}

// run summarizes todo, setting each file's S (an empty summary for a
// file the summarizer failed on); the error is the context's.
func (j summaryJob) run(ctx context.Context, todo []pending) error {
	if j.s == nil {
		return errors.New("index: no summarizer")
	}
	sort.Slice(todo, func(i, k int) bool { return todo[i].f.Rel < todo[k].f.Rel })
	batches := j.batches(todo)
	ch := make(chan []pending)
	errc := make(chan error, j.parallel)
	var wg sync.WaitGroup
	for range j.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range ch {
				if j.yield != nil {
					if err := j.yield(ctx); err != nil {
						errc <- err
						return
					}
				}
				n := len(b)
				if j.reuse != nil {
					b = j.reuse(b)
				}
				if len(b) > 0 {
					if err := j.batch(ctx, b); err != nil {
						errc <- err
						return
					}
				}
				if j.progress != nil {
					j.progress(n)
				}
			}
		}()
	}
	var err error
send:
	for _, b := range batches {
		select {
		case ch <- b:
		case err = <-errc:
			break send
		case <-ctx.Done():
			err = ctx.Err()
			break send
		}
	}
	close(ch)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errc:
		default:
		}
	}
	return err
}

// batches cuts todo, in order, into calls of at most batchBytes, smaller
// at both ends: the first call answers soon, which is also what lets the
// worker pool lend the plugin its second worker (a start's first call
// of 256 KiB kept one worker idle for its whole length), and each later
// call holds at most a 2*parallel-th of what is left, so the last calls
// end together instead of one worker finishing a full batch alone.
func (j summaryJob) batches(todo []pending) [][]pending {
	total := 0
	for _, p := range todo {
		total += len(p.text)
	}
	least := max(j.batchBytes/8, 1)
	limit := least
	var batches [][]pending
	var cur []pending
	size := 0
	for _, p := range todo {
		if len(cur) > 0 && size+len(p.text) > limit {
			batches = append(batches, cur)
			total -= size
			cur, size = nil, 0
			limit = min(j.batchBytes, max(least, total/(2*max(j.parallel, 1))))
		}
		cur = append(cur, p)
		size += len(p.text)
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	return batches
}

func (j summaryJob) batch(ctx context.Context, b []pending) error {
	srcs := make([]Source, len(b))
	for i, p := range b {
		srcs[i] = Source{Rel: p.f.Rel, Text: p.text}
	}
	out, err := j.s.Summarize(ctx, j.t, srcs)
	if err != nil && len(b) > 1 && ctx.Err() == nil {
		// One bad file (too large, unparsable in time) fails its batch:
		// retry the files one by one so only it goes unindexed.
		for i := range b {
			if e := j.batch(ctx, b[i:i+1]); e != nil && ctx.Err() != nil {
				return e
			}
		}
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		j.log.Warn("file not indexed", "file", b[0].f.Rel, "err", err)
		b[0].f.S = &navindex.Summary{}
		b[0].f.failedAt = time.Now()
		return nil
	}
	for i, p := range b {
		if i >= len(out) || out[i] == nil {
			p.f.S = &navindex.Summary{}
			p.f.failedAt = time.Now()
			continue
		}
		s, derr := navindex.Decode(out[i])
		if derr != nil {
			j.log.Warn("indexer returned a malformed summary", "file", p.f.Rel, "err", derr)
			p.f.S = &navindex.Summary{}
			p.f.failedAt = time.Now()
			continue
		}
		p.f.S = s
		j.store(p.key, out[i])
	}
	return nil
}

// Summary is the file's navigation summary (pytypes.Unit).
func (f *File) Summary() *navindex.Summary { return f.S }

// ModuleName is the file's dotted module name (pytypes.Unit).
func (f *File) ModuleName() string { return f.Module }

// IsStub reports a .pyi file (pytypes.Unit).
func (f *File) IsStub() bool { return f.stub }

// IsTypeshed reports one of typeshed's stubs, shared by every workspace
// of the process and never answered as a location.
func (f *File) IsTypeshed() bool { return f.typeshed }

func newFile(rel, abs string) *File {
	f := &File{Rel: rel, Abs: abs}
	ext := filepath.Ext(rel)
	f.Stem = strings.TrimSuffix(rel, ext)
	f.stub = ext == ".pyi"
	base := filepath.Base(f.Stem)
	f.IsInit = base == "__init__"
	return f
}

// Refresh brings the indexed files up to date with the disk: files whose
// size or mtime changed are re-read and, when their content hash differs,
// re-summarized; vanished files are dropped. It costs a stat per indexed
// file when nothing changed. Files created since the last Rescan are not
// seen (the workspace watcher's notifications call Rescan; a queried file
// is added by EnsureFile).
func (x *Index) Refresh(ctx context.Context) error {
	return x.refresh(ctx, false, "")
}

// Rescan is Refresh after listing the workspace again: new files are
// indexed too.
func (x *Index) Rescan(ctx context.Context) error {
	return x.refresh(ctx, true, "")
}

func (x *Index) refresh(ctx context.Context, list bool, force string) error {
	if !x.built.Load() {
		return nil
	}
	x.refreshMu.Lock()
	defer x.refreshMu.Unlock()
	x.mu.RLock()
	old := x.files
	paths := make([]string, 0, len(old)+1)
	for _, f := range x.sorted {
		paths = append(paths, f.Abs)
	}
	x.mu.RUnlock()
	if list {
		var err error
		if paths, err = x.cfg.Files(ctx); err != nil {
			return err
		}
	}
	changed := len(paths) != len(old)
	forceRel := ""
	if force != "" {
		forceRel = x.rel(force)
		if old[forceRel] == nil && !slices.Contains(paths, force) && !underLinkedDir(force) {
			paths = append(paths, force)
		}
		changed = true
	}
	if !changed && list {
		for _, abs := range paths {
			if old[x.rel(abs)] == nil {
				changed = true
				break
			}
		}
	}
	reuse := old
	if list {
		for rel, f := range old {
			if f.unread {
				if len(reuse) == len(old) {
					reuse = maps.Clone(old) // old is x.files: never written
				}
				delete(reuse, rel)
				changed = true
			}
		}
	}
	if !changed {
		changed = x.statChanged()
	}
	if !changed {
		return nil
	}
	files, err := x.load(ctx, paths, reuse, forceRel, nil)
	if err != nil {
		return err
	}
	// x.files changes only here and in Build, under refreshMu, which is
	// held: old is still current.
	same := len(files) == len(old)
	if same {
		for rel, f := range files {
			if old[rel] != f {
				same = false
				break
			}
		}
	}
	var stubs map[string]*File
	if !same {
		// Stubs load before the lock: summarizing one takes a plugin call.
		if stubs, err = x.loadStubs(ctx, files); err != nil {
			return err
		}
	}
	x.mu.Lock()
	x.files = files
	if !same {
		x.relinkLocked(stubs)
	}
	x.mu.Unlock()
	return nil
}

// retryDue reports a file the summarizer failed on, due for another try.
func (x *Index) retryDue(f *File) bool {
	after := x.cfg.RetryFailedAfter
	if after <= 0 {
		after = 30 * time.Second
	}
	return !f.failedAt.IsZero() && time.Since(f.failedAt) >= after
}

// statChanged stats every indexed file, in parallel (the calls are
// syscall-bound), and reports whether any differs from what was indexed.
func (x *Index) statChanged() bool {
	x.mu.RLock()
	files := x.sorted
	x.mu.RUnlock()
	const workers = 4
	var changed atomic.Bool
	var wg sync.WaitGroup
	chunk := (len(files) + workers - 1) / workers
	for w := 0; w < workers && w*chunk < len(files); w++ {
		part := files[w*chunk : min(len(files), (w+1)*chunk)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, f := range part {
				if changed.Load() {
					return
				}
				if !unchangedOnDisk(f.Abs, f) || x.retryDue(f) {
					changed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return changed.Load()
}

// underLinkedDir reports whether abs is reached through a linked
// directory (ws/leave/a.py with leave -> the root): the listing walks each
// real directory once, under one name, so the file is indexed under that
// name already or not at all (a venv, an excluded directory). Indexing it
// again under the alias made a second module of the same file, found by
// find_symbols and counted by get_references, until the next listing.
func underLinkedDir(abs string) bool {
	dir := filepath.Dir(abs)
	real, err := filepath.EvalSymlinks(dir)
	return err != nil || real != dir
}

// RefreshFile is Refresh that also re-reads abs whatever its stat says,
// and indexes it if it is new.
func (x *Index) RefreshFile(ctx context.Context, abs string) error {
	return x.refresh(ctx, false, abs)
}

// EnsureFile makes sure the indexed content of abs is text (the caller
// just read it): a file changed since the last Refresh is re-summarized.
func (x *Index) EnsureFile(ctx context.Context, abs string, text []byte) error {
	rel := x.rel(abs)
	h := sha256.Sum256(text)
	x.mu.RLock()
	f := x.files[rel]
	x.mu.RUnlock()
	if f != nil && f.Hash == h && !x.retryDue(f) {
		return nil
	}
	return x.RefreshFile(ctx, abs)
}
