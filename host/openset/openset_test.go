package openset

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

type fakeResource struct {
	key            string
	alive, settled atomic.Bool
	closed         atomic.Bool
}

func (f *fakeResource) Alive() bool   { return f.alive.Load() }
func (f *fakeResource) Settled() bool { return f.settled.Load() }
func (f *fakeResource) Close()        { f.closed.Store(true) }

func newSet(t *testing.T, idle time.Duration) (*Set[*fakeResource], *int) {
	opened := 0
	s := New(func(key string) (*fakeResource, error) {
		if key == "broken" {
			return nil, errors.New("cannot open")
		}
		opened++
		r := &fakeResource{key: key}
		r.alive.Store(true)
		r.settled.Store(true)
		return r, nil
	}, idle, nil)
	t.Cleanup(s.Close)
	return s, &opened
}

func TestUseOpensOnceAndReopensWhatWentBad(t *testing.T) {
	s, opened := newSet(t, 0)
	a, done, err := s.Use("a")
	if err != nil {
		t.Fatal(err)
	}
	done()
	done() // a second call is harmless
	if again, _ := s.Get("a"); again != a || *opened != 1 {
		t.Fatalf("second use opened again (%d opens)", *opened)
	}
	a.alive.Store(false)
	b, err := s.Get("a")
	if err != nil || b == a || !a.closed.Load() || *opened != 2 {
		t.Fatalf("a resource gone bad: got the same one %v, old closed %v, %d opens", b == a, a.closed.Load(), *opened)
	}
	if _, _, err := s.Use("broken"); err == nil || s.Has("broken") {
		t.Fatalf("an open error: err %v, kept %v", err, s.Has("broken"))
	}
}

func TestReleaseIdle(t *testing.T) {
	const idle = time.Hour // the sweep itself never fires during the test
	cases := []struct {
		name                   string
		inUse, pinned, unready bool
		idleFor                time.Duration
		released               bool
	}{
		{name: "idle", idleFor: 2 * idle, released: true},
		{name: "used recently", idleFor: idle / 2},
		{name: "in use", inUse: true, idleFor: 2 * idle},
		{name: "pinned", pinned: true, idleFor: 2 * idle},
		{name: "still starting", unready: true, idleFor: 2 * idle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSet(t, idle)
			if c.pinned {
				if err := s.Pin("k"); err != nil {
					t.Fatal(err)
				}
			}
			r, done, err := s.Use("k")
			if err != nil {
				t.Fatal(err)
			}
			if !c.inUse {
				done()
			}
			r.settled.Store(!c.unready)
			s.releaseIdle(time.Now().Add(c.idleFor))
			if open, released := s.Stats(); (open == 0) != c.released || (released == 1) != c.released || r.closed.Load() != c.released {
				t.Errorf("open %d, released %d, closed %v; want released %v", open, released, r.closed.Load(), c.released)
			}
		})
	}
}

func TestCloseClosesAll(t *testing.T) {
	s, _ := newSet(t, 0)
	a, _ := s.Get("a")
	b, _ := s.Get("b")
	s.Close()
	s.Close() // twice is harmless
	if !a.closed.Load() || !b.closed.Load() || s.Has("a") {
		t.Fatalf("after Close: a closed %v, b closed %v, a open %v", a.closed.Load(), b.closed.Load(), s.Has("a"))
	}
}
