package edits

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"
)

// lockStripes is the number of flock files in stateDir/locks. Two paths
// that share a stripe serialize needlessly; nothing else goes wrong.
const lockStripes = 64

// fileLocks are the in-process per-file locks. A lock is a channel of
// capacity one so waiting can honour a context.
type fileLocks struct {
	mu sync.Mutex
	m  map[string]*fileLock
}

type fileLock struct {
	ch   chan struct{}
	refs int
}

// lock takes the in-process locks, then the stripe flocks, for paths (in
// sorted order, duplicates ignored). release undoes both.
func (e *Engine) lock(ctx context.Context, paths []string) (release func(), err error) {
	paths = append([]string(nil), paths...)
	sort.Strings(paths)
	paths = uniq(paths)
	unlockFiles, err := e.files.acquire(ctx, paths)
	if err != nil {
		return nil, err
	}
	unlockStripes, err := e.flockStripes(ctx, paths)
	if err != nil {
		unlockFiles()
		return nil, err
	}
	return func() { unlockStripes(); unlockFiles() }, nil
}

func (l *fileLocks) acquire(ctx context.Context, paths []string) (func(), error) {
	held := make([]string, 0, len(paths))
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			l.put(held[i], true)
		}
	}
	for _, p := range paths {
		fl := l.get(p)
		select {
		case fl.ch <- struct{}{}:
			held = append(held, p)
		case <-ctx.Done():
			l.put(p, false)
			release()
			return nil, ctx.Err()
		}
	}
	return release, nil
}

func (l *fileLocks) get(p string) *fileLock {
	l.mu.Lock()
	defer l.mu.Unlock()
	fl := l.m[p]
	if fl == nil {
		fl = &fileLock{ch: make(chan struct{}, 1)}
		l.m[p] = fl
	}
	fl.refs++
	return fl
}

func (l *fileLocks) put(p string, held bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fl := l.m[p]
	if held {
		<-fl.ch
	}
	if fl.refs--; fl.refs == 0 {
		delete(l.m, p)
	}
}

// flockStripes takes the advisory flocks that exclude other pyws processes
// sharing the state dir. Each acquisition opens its own descriptor, so the
// flocks also exclude goroutines of this process whose paths share a stripe.
func (e *Engine) flockStripes(ctx context.Context, paths []string) (func(), error) {
	stripes := make([]int, 0, len(paths))
	for _, p := range paths {
		h := fnv.New32a()
		h.Write([]byte(p))
		stripes = append(stripes, int(h.Sum32()%lockStripes))
	}
	sort.Ints(stripes)
	stripes = uniq(stripes)
	held := make([]*os.File, 0, len(stripes))
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Close() // closing the descriptor drops its flock
		}
	}
	for _, s := range stripes {
		name := filepath.Join(e.lockDir, fmt.Sprintf("%02d.lock", s))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_CLOEXEC, 0o600)
		if err != nil {
			release()
			return nil, fmt.Errorf("edits: lock file: %w", err)
		}
		if err := flockWait(ctx, f); err != nil {
			f.Close()
			release()
			return nil, err
		}
		held = append(held, f)
	}
	return release, nil
}

// flockWait takes an exclusive flock on f, polling so that a waiting
// goroutine parks instead of blocking an OS thread, and honours ctx.
func flockWait(ctx context.Context, f *os.File) error {
	delay := time.Millisecond
	for {
		ok, err := tryFlock(f)
		if err != nil || ok {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		if delay < 50*time.Millisecond {
			delay *= 2
		}
	}
}

// tryFlock takes an exclusive flock on f without waiting.
func tryFlock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, fmt.Errorf("edits: flock %s: %w", f.Name(), err)
	}
}

func uniq[T comparable](s []T) []T {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
