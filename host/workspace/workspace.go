package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/pyws/pyws/host/fault"
)

// Limits and defaults from the service spec.
const (
	DefaultScanTimeout = 30 * time.Second
	CacheTTL           = 5 * time.Minute
)

// Workspace is one tenant's workspace directory. It is safe for concurrent
// use. Close it to stop its watcher.
type Workspace struct {
	root  string // absolute, symlinks evaluated
	given string // absolute, clean, as given to Open

	ttl   time.Duration
	now   func() time.Time
	racy  time.Duration // a directory modified this close to its scan is not trusted by the fallback check
	scans atomic.Int64  // scans performed (tests)

	gen     atomic.Uint64 // bumped on every relevant change event
	scanSem chan struct{} // one scan at a time; waiters honour their context
	mu      sync.Mutex    // guards cache, watch state and subscribers
	cache   *scan

	watcher  *fsnotify.Watcher
	closed   bool        // Close ran: a Watch after it (in the background) starts nothing
	watching atomic.Bool // watcher running and complete: events can be trusted
	stop     chan struct{}
	wg       sync.WaitGroup
	subs     map[int]func([]string)
	nextSub  int
	pending  map[string]struct{}
	debounce debounceTimes
}

type debounceTimes struct{ quiet, max time.Duration }

// Open opens the workspace at root, which must be an existing directory.
// The root is made absolute and its symbolic links evaluated. Otherwise it
// returns WORKSPACE_NOT_FOUND with details {workspaceRoot}.
func Open(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, notFoundRoot(root, err.Error())
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, notFoundRoot(abs, "does not exist")
	}
	if !fi.IsDir() {
		return nil, notFoundRoot(abs, "is not a directory")
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, notFoundRoot(abs, err.Error())
	}
	return &Workspace{
		root:     real,
		given:    abs,
		ttl:      CacheTTL,
		now:      time.Now,
		racy:     2 * time.Second,
		scanSem:  make(chan struct{}, 1),
		subs:     map[int]func([]string){},
		pending:  map[string]struct{}{},
		debounce: debounceTimes{quiet: 100 * time.Millisecond, max: time.Second},
	}, nil
}

func notFoundRoot(root, why string) *fault.Error {
	return fault.New(fault.WorkspaceNotFound, fault.Details{"workspaceRoot": root},
		"workspace directory %s %s", quote(root), why)
}

// Root returns the absolute, symlink-evaluated workspace root.
func (w *Workspace) Root() string { return w.root }

// RootExists reports whether the root is still there, so a caller can
// drop a workspace whose directory vanished and open it again later.
func (w *Workspace) RootExists() bool {
	_, err := os.Stat(w.root)
	return err == nil
}

// Close stops the watcher, if any. The workspace stays usable; listings
// then fall back to directory modification-time checks.
func (w *Workspace) Close() error {
	w.mu.Lock()
	wt, stop := w.watcher, w.stop
	w.watcher, w.stop, w.closed = nil, nil, true
	w.watching.Store(false)
	w.mu.Unlock()
	if wt == nil {
		return nil
	}
	close(stop)
	err := wt.Close()
	w.wg.Wait()
	return err
}

// scan is one walk of the workspace: every directory and regular file
// except the default excludes, hidden entries included.
type scan struct {
	root *dirNode
	dirs []*dirNode // every directory, for the fallback freshness check
	gen  uint64
	at   time.Time
	racy bool // a directory changed too close to the scan to trust its mtime
}

type dirNode struct {
	name  string
	rel   string // slash-separated, "" for the root
	abs   string
	mtime time.Time
	isPkg bool
	dirs  []*dirNode
	files []fileNode
}

type fileNode struct {
	name  string
	size  int64
	mtime time.Time
}

// snapshot returns a fresh scan, from the cache when it is still valid.
// The cache is keyed by nothing but the workspace: every filter is applied
// to the one scan afterwards.
func (w *Workspace) snapshot(ctx context.Context, timeout time.Duration) (*scan, error) {
	select {
	case w.scanSem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-w.scanSem }()

	w.mu.Lock()
	s := w.cache
	w.mu.Unlock()
	if s != nil && w.fresh(s) {
		return s, nil
	}
	if timeout <= 0 {
		timeout = DefaultScanTimeout
	}
	gen := w.gen.Load()
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	s, err := w.walk(sctx)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, fault.New(fault.ScanTimeout, fault.Details{
				"timeout":    timeout.Milliseconds(),
				"suggestion": "the workspace has too many files to scan in time; move large generated or vendored trees out of it or into a default-excluded directory (node_modules, a virtualenv, build, dist), then retry",
			}, "workspace scan exceeded %d ms", timeout.Milliseconds())
		}
		return nil, err
	}
	s.gen = gen
	w.mu.Lock()
	w.cache = s
	w.mu.Unlock()
	return s, nil
}

// fresh reports whether s may be served. With a healthy watcher every
// change bumps gen; without one (never started, a watch limit hit, an event
// overflow) each directory's mtime is compared with the scan's, which sees
// entries created, removed or renamed.
func (w *Workspace) fresh(s *scan) bool {
	if s.gen != w.gen.Load() || w.now().Sub(s.at) >= w.ttl {
		return false
	}
	if w.watching.Load() {
		return true
	}
	if s.racy {
		return false
	}
	for _, d := range s.dirs {
		fi, err := os.Stat(d.abs)
		if err != nil || !fi.ModTime().Equal(d.mtime) {
			return false
		}
	}
	return true
}

// invalidate drops the cached scan.
func (w *Workspace) invalidate() { w.gen.Add(1) }

// walk scans the workspace. Symbolic links are followed when their target
// lies inside the workspace; each real directory is walked once (the first
// path in sorted order wins), which also breaks loops. Unreadable or
// vanishing subdirectories are skipped; an unreadable root is
// WORKSPACE_NOT_FOUND.
func (w *Workspace) walk(ctx context.Context) (*scan, error) {
	w.scans.Add(1)
	start := w.now()
	fi, err := os.Stat(w.root)
	if err != nil || !fi.IsDir() {
		return nil, notFoundRoot(w.root, "is no longer a directory")
	}
	s := &scan{at: start}
	wk := walker{ctx: ctx, root: w.root, seen: map[fileID]bool{}}
	rootNode := &dirNode{name: filepath.Base(w.root), abs: w.root, mtime: fi.ModTime()}
	wk.mark(fi)
	if _, err := wk.dir(rootNode, true, func(d *dirNode) {
		s.dirs = append(s.dirs, d)
		if d.mtime.After(start.Add(-w.racy)) {
			s.racy = true
		}
	}); err != nil {
		if errors.Is(err, errRootUnreadable) {
			return nil, notFoundRoot(w.root, "cannot be read")
		}
		return nil, err
	}
	s.root = rootNode
	return s, nil
}

type fileID struct{ dev, ino uint64 }

type walker struct {
	ctx   context.Context
	root  string
	seen  map[fileID]bool
	count int
}

var errRootUnreadable = errors.New("workspace root unreadable")

func (wk *walker) mark(fi fs.FileInfo) bool {
	id, ok := idOf(fi)
	if !ok {
		return true
	}
	if wk.seen[id] {
		return false
	}
	wk.seen[id] = true
	return true
}

// dir fills d from disk. It reports venv=true when d is a virtual
// environment (pyvenv.cfg or conda-meta inside), which the caller drops.
func (wk *walker) dir(d *dirNode, isRoot bool, visit func(*dirNode)) (venv bool, err error) {
	if err := wk.ctx.Err(); err != nil {
		return false, err
	}
	ents, err := os.ReadDir(d.abs)
	if err != nil {
		if isRoot {
			return false, errRootUnreadable
		}
		return false, nil // unreadable or vanished: skipped
	}
	if !isRoot {
		for _, e := range ents {
			if n := e.Name(); n == "pyvenv.cfg" || (n == "conda-meta" && e.IsDir()) {
				return true, nil
			}
		}
	}
	visit(d)
	for _, e := range ents {
		if wk.count++; wk.count%256 == 0 {
			if err := wk.ctx.Err(); err != nil {
				return false, err
			}
		}
		name := e.Name()
		abs := filepath.Join(d.abs, name)
		var fi fs.FileInfo
		if e.Type()&fs.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(abs)
			if err != nil || !within(real, wk.root) {
				continue // dangling, looping or escaping: not part of the workspace
			}
			if fi, err = os.Stat(real); err != nil {
				continue
			}
		} else if fi, err = e.Info(); err != nil {
			continue
		}
		switch {
		case fi.IsDir():
			if excludedDir(name, isRoot) || !wk.mark(fi) {
				continue
			}
			rel := name
			if d.rel != "" {
				rel = d.rel + "/" + name
			}
			sub := &dirNode{name: name, rel: rel, abs: abs, mtime: fi.ModTime()}
			venv, err := wk.dir(sub, false, visit)
			if err != nil {
				return false, err
			}
			if !venv {
				d.dirs = append(d.dirs, sub)
			}
		case fi.Mode().IsRegular():
			if name == "__init__.py" || name == "__init__.pyi" {
				d.isPkg = true
			}
			d.files = append(d.files, fileNode{name: name, size: fi.Size(), mtime: fi.ModTime()})
		}
	}
	return false, nil
}
