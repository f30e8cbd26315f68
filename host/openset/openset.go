// Package openset keeps a server's resources open by key: a resource is
// opened on its first use, counted while requests use it, opened again
// when it went bad (its Alive says so), and released when no request has
// used it for a while, unless it is pinned. The service keeps its
// workspaces in one: a multi-tenant host must give back what an idle
// tenant holds, and must never pull it from under a running request.
package openset

import (
	"log/slog"
	"sync"
	"time"
)

// Resource is what a Set keeps open.
type Resource interface {
	// Alive is false once the resource went bad (a workspace whose root
	// vanished): the next use closes it and opens it again.
	Alive() bool
	// Settled is false while the resource is still starting (a workspace
	// building its index): it is not released then, however idle.
	Settled() bool
	// Close releases what the resource holds.
	Close()
}

// Set is a set of open resources by key. It is safe for concurrent use.
type Set[R Resource] struct {
	open     func(key string) (R, error)
	idle     time.Duration
	log      *slog.Logger
	mu       sync.Mutex
	entries  map[string]*entry[R]
	pinned   map[string]bool
	released uint64
	stop     chan struct{}
	stopOnce sync.Once
}

type entry[R Resource] struct {
	r        R
	inUse    int
	lastUsed time.Time
}

// New returns a set that opens resources with open. A resource no request
// has used for idle is released (zero or negative: never); the sweep runs
// every quarter of idle, at least every minute, until Close.
func New[R Resource](open func(key string) (R, error), idle time.Duration, log *slog.Logger) *Set[R] {
	if log == nil {
		log = slog.Default()
	}
	s := &Set[R]{open: open, idle: idle, log: log, entries: map[string]*entry[R]{}, pinned: map[string]bool{}, stop: make(chan struct{})}
	if idle > 0 {
		go s.sweep(min(max(idle/4, 10*time.Millisecond), time.Minute))
	}
	return s
}

// Use returns key's resource, opening it if need be, counted in use until
// done is called; it is never released while in use.
func (s *Set[R]) Use(key string) (r R, done func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.getLocked(key)
	if err != nil {
		return r, nil, err
	}
	e.inUse++
	e.lastUsed = time.Now()
	var once sync.Once
	return e.r, func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			e.inUse--
			e.lastUsed = time.Now()
		})
	}, nil
}

// Get returns key's resource, opening it if need be, without counting a
// use.
func (s *Set[R]) Get(key string) (R, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.getLocked(key)
	if err != nil {
		var zero R
		return zero, err
	}
	return e.r, nil
}

// Pin opens key's resource and keeps it open however idle.
func (s *Set[R]) Pin(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pinned[key] = true
	_, err := s.getLocked(key)
	return err
}

func (s *Set[R]) getLocked(key string) (*entry[R], error) {
	if e, ok := s.entries[key]; ok {
		if e.r.Alive() {
			return e, nil
		}
		s.dropLocked(key)
	}
	r, err := s.open(key)
	if err != nil {
		return nil, err
	}
	e := &entry[R]{r: r, lastUsed: time.Now()}
	s.entries[key] = e
	return e, nil
}

// Has reports whether key's resource is open now.
func (s *Set[R]) Has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.entries[key]
	return ok
}

// Stats returns how many resources are open, and how many were released
// after idling so far.
func (s *Set[R]) Stats() (open int, released uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries), s.released
}

func (s *Set[R]) sweep(period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
		}
		s.releaseIdle(time.Now())
	}
}

// releaseIdle releases every resource idle for s.idle at now: not pinned,
// not in use, settled.
func (s *Set[R]) releaseIdle(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, e := range s.entries {
		idle := now.Sub(e.lastUsed)
		if s.pinned[key] || e.inUse > 0 || idle < s.idle || !e.r.Settled() {
			continue
		}
		s.log.Info("released after idling", "key", key, "idle", idle.Round(time.Second))
		s.dropLocked(key)
		s.released++
	}
}

func (s *Set[R]) dropLocked(key string) {
	if e, ok := s.entries[key]; ok {
		e.r.Close()
		delete(s.entries, key)
	}
}

// Close stops the sweep and closes every resource.
func (s *Set[R]) Close() {
	s.stopOnce.Do(func() { close(s.stop) })
	s.mu.Lock()
	defer s.mu.Unlock()
	for key := range s.entries {
		s.dropLocked(key)
	}
}
