package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch starts watching the workspace for changes (inotify through
// fsnotify, one watch per scanned directory). Every event invalidates the
// listing cache at once; subscribers are told in debounced batches.
// Calling Watch again is a no-op; Close may run while it does. Until it
// returns, listings check directory modification times. If some directory cannot be watched
// (inotify's watch limit, say) Watch keeps what it has and the cache falls
// back to checking directory modification times; the error says so.
func (w *Workspace) Watch() error {
	w.mu.Lock()
	if w.watcher != nil || w.closed {
		w.mu.Unlock()
		return nil
	}
	wt, err := fsnotify.NewWatcher()
	if err != nil {
		w.mu.Unlock()
		return fmt.Errorf("workspace watch: %w", err)
	}
	w.watcher, w.stop = wt, make(chan struct{})
	stop := w.stop
	// Counted before the walk: a Close while it runs (Watch may run in the
	// background) waits for it and the loop.
	w.wg.Add(1)
	w.mu.Unlock()

	// Watches first, then a second pass for directories created while the
	// first pass ran; anything changed in between is covered because the
	// cache is invalidated after both.
	watched := map[string]bool{}
	var addErr error
	for range 2 {
		if err := w.addTree(wt, w.root, true, watched, nil); err != nil && addErr == nil {
			addErr = err
		}
	}
	w.mu.Lock()
	if w.stop == stop { // not closed meanwhile
		w.watching.Store(addErr == nil)
	}
	w.mu.Unlock()
	w.invalidate()
	go w.loop(wt, stop, watched)
	if addErr != nil {
		return fmt.Errorf("workspace watch incomplete, falling back to modification-time checks: %w", addErr)
	}
	return nil
}

// addTree adds watches for dir and every directory below it that a scan
// would visit. Files found are reported to found (may be nil), for a
// directory that appeared with contents already in it.
func (w *Workspace) addTree(wt *fsnotify.Watcher, dir string, isRoot bool, watched map[string]bool, found func(string)) error {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultScanTimeout)
	defer cancel()
	wk := walker{ctx: ctx, root: w.root, seen: map[fileID]bool{}}
	rel := relTo(w.root, dir)
	node := &dirNode{name: filepath.Base(dir), rel: rel, abs: dir}
	var firstErr error
	var added []string
	visit := func(d *dirNode) {
		if watched[d.abs] {
			return
		}
		if err := wt.Add(d.abs); err != nil {
			if firstErr == nil && !errors.Is(err, fs.ErrNotExist) {
				firstErr = err
			}
			return
		}
		watched[d.abs] = true
		added = append(added, d.abs)
	}
	if _, err := wk.dir(node, isRoot, visit); err != nil && firstErr == nil {
		firstErr = err
	}
	// The walk lists a directory before it watches it: a subdirectory
	// made in between (mkdir -p of 200 levels does it every time) sent
	// no event and would never be watched. Listed again now that the
	// watch is on, whatever appears later sends one.
	for _, d := range added {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			sub := filepath.Join(d, e.Name())
			if !e.IsDir() || watched[sub] || excludedDir(e.Name(), d == w.root) {
				continue
			}
			if err := w.addTree(wt, sub, false, watched, found); err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	if found != nil {
		var emit func(d *dirNode)
		emit = func(d *dirNode) {
			for _, f := range d.files {
				found(filepath.Join(d.abs, f.name))
			}
			for _, s := range d.dirs {
				emit(s)
			}
		}
		emit(node)
	}
	return firstErr
}

// rewatchEvery is how often a lost root is looked for again.
const rewatchEvery = 250 * time.Millisecond

func (w *Workspace) loop(wt *fsnotify.Watcher, stop chan struct{}, watched map[string]bool) {
	defer w.wg.Done()
	var (
		timer   = time.NewTimer(time.Hour)
		timerC  <-chan time.Time
		firstAt time.Time
	)
	timer.Stop()
	arm := func() {
		now := time.Now()
		if timerC == nil {
			firstAt = now
		}
		d := min(w.debounce.quiet, firstAt.Add(w.debounce.max).Sub(now))
		timer.Reset(max(d, 0))
		timerC = timer.C
	}
	note := func(p string) {
		w.mu.Lock()
		w.pending[p] = struct{}{}
		w.mu.Unlock()
	}
	// rewatch ticks while the root's own watch is lost (the root removed,
	// or renamed away, and perhaps back): no event says when it returns.
	var rewatch *time.Ticker
	var rewatchC <-chan time.Time
	defer func() {
		if rewatch != nil {
			rewatch.Stop()
		}
	}()
	// retree watches what a scan of the whole tree finds that is not
	// watched yet; anything below may have changed meanwhile.
	retree := func() {
		if err := w.addTree(wt, w.root, true, watched, nil); err != nil {
			w.watching.Store(false)
		}
		w.invalidate()
		note(w.root)
		arm()
	}
	for {
		select {
		case <-stop:
			timer.Stop()
			return
		case <-rewatchC:
			if fi, err := os.Stat(w.root); err != nil || !fi.IsDir() {
				continue
			}
			w.watching.Store(true)
			retree()
			if watched[w.root] {
				rewatch.Stop()
				rewatch, rewatchC = nil, nil
			}
		case ev, ok := <-wt.Events:
			if !ok {
				return
			}
			if w.ignored(ev.Name) {
				continue
			}
			w.invalidate()
			note(ev.Name)
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					if real, err := filepath.EvalSymlinks(ev.Name); err == nil && within(real, w.root) {
						if err := w.addTree(wt, ev.Name, false, watched, note); err != nil {
							w.watching.Store(false)
						}
					}
				}
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				prefix := ev.Name + string(filepath.Separator)
				for d := range watched {
					if d == ev.Name || strings.HasPrefix(d, prefix) {
						delete(watched, d) // the kernel dropped the watch
					}
				}
				if ev.Name == w.root && rewatch == nil {
					// Until the root is back and watched, listings check
					// directory modification times.
					w.watching.Store(false)
					rewatch = time.NewTicker(rewatchEvery)
					rewatchC = rewatch.C
				}
			}
			arm()
		case err, ok := <-wt.Errors:
			if !ok {
				return
			}
			// An overflow lost events: everything may have changed, and
			// the directories made meanwhile are not watched yet.
			w.invalidate()
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				retree()
			}
		case <-timerC:
			timerC = nil
			w.flush()
		}
	}
}

// ignored reports events inside default-excluded directories (a
// __pycache__ or .git appearing in a watched directory).
func (w *Workspace) ignored(p string) bool {
	rel := relTo(w.root, p)
	if !within(p, w.root) {
		return true
	}
	for i, c := range strings.Split(rel, "/") {
		if excludedDir(c, i == 0) {
			return true
		}
	}
	return false
}

func (w *Workspace) flush() {
	w.mu.Lock()
	if len(w.pending) == 0 {
		w.mu.Unlock()
		return
	}
	changed := make([]string, 0, len(w.pending))
	for p := range w.pending {
		changed = append(changed, p)
	}
	clear(w.pending)
	subs := make([]func([]string), 0, len(w.subs))
	ids := make([]int, 0, len(w.subs))
	for id := range w.subs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		subs = append(subs, w.subs[id])
	}
	w.mu.Unlock()
	slices.Sort(changed)
	for _, fn := range subs {
		fn(slices.Clone(changed))
	}
}

// Subscribe registers fn to receive batches of changed absolute paths
// (files or directories; a directory, or the root after lost events, means
// anything below it may have changed). Batches are debounced: sent after
// 100 ms without events, or 1 s after the first event of a burst. fn runs
// on the watcher's goroutine, one batch at a time, and should return
// quickly. Nothing is sent until Watch is called. The returned function
// unsubscribes.
func (w *Workspace) Subscribe(fn func(changed []string)) (unsubscribe func()) {
	w.mu.Lock()
	id := w.nextSub
	w.nextSub++
	w.subs[id] = fn
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.subs, id)
		w.mu.Unlock()
	}
}
