package ratelimit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/common"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// clock is a settable time source shared by a fakeStore and a Limiter.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fakeStore is ulule's memory store semantics (fixed window opened by the
// first increment) on an injected clock: the seam that lets tests cross
// hour and day boundaries. ulule's own stores read time.Now.
type fakeStore struct {
	clock *clock
	mu    sync.Mutex
	m     map[string]*fakeCounter
	calls atomic.Int64
	// beforeIncrement, when set, runs before each Increment (unlocked).
	beforeIncrement func(key string, count int64)
}

type fakeCounter struct {
	n   int64
	exp time.Time
}

func newFakeStore(c *clock) *fakeStore { return &fakeStore{clock: c, m: map[string]*fakeCounter{}} }

func (s *fakeStore) Get(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return s.Increment(ctx, key, 1, rate)
}

func (s *fakeStore) Increment(ctx context.Context, key string, count int64, rate limiter.Rate) (limiter.Context, error) {
	s.calls.Add(1)
	if s.beforeIncrement != nil {
		s.beforeIncrement(key, count)
	}
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.m[key]
	if c == nil || !now.Before(c.exp) {
		c = &fakeCounter{exp: now.Add(rate.Period)}
		s.m[key] = c
	}
	c.n += count
	return common.GetContextFromState(now, rate, c.exp, c.n), nil
}

func (s *fakeStore) Peek(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	s.calls.Add(1)
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.m[key]
	if c == nil || !now.Before(c.exp) {
		return common.GetContextFromState(now, rate, now.Add(rate.Period), 0), nil
	}
	return common.GetContextFromState(now, rate, c.exp, c.n), nil
}

func (s *fakeStore) Reset(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	s.mu.Lock()
	delete(s.m, key)
	s.mu.Unlock()
	return s.Peek(ctx, key, rate)
}

// count returns a counter's raw value (0 when absent or expired).
func (s *fakeStore) count(key string) int64 {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.m[key]; c != nil && now.Before(c.exp) {
		return c.n
	}
	return 0
}

// brokenStore fails every call; with hang set it blocks until ctx ends.
type brokenStore struct{ hang bool }

var errBroken = errors.New("dial tcp 10.0.0.7:6379: connect: connection refused")

func (s brokenStore) wait(ctx context.Context) error {
	if s.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return errBroken
}

func (s brokenStore) Get(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return limiter.Context{}, s.wait(ctx)
}
func (s brokenStore) Peek(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return limiter.Context{}, s.wait(ctx)
}
func (s brokenStore) Reset(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return limiter.Context{}, s.wait(ctx)
}
func (s brokenStore) Increment(ctx context.Context, key string, n int64, rate limiter.Rate) (limiter.Context, error) {
	return limiter.Context{}, s.wait(ctx)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// decisions counts OnDecision calls.
type decisions struct {
	mu sync.Mutex
	m  map[string]int
}

func (d *decisions) record(family, decision string) {
	d.mu.Lock()
	if d.m == nil {
		d.m = map[string]int{}
	}
	d.m[family+"/"+decision]++
	d.mu.Unlock()
}

func (d *decisions) get(family, decision string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[family+"/"+decision]
}

func key(id string, tier tiers.Tier) *tenants.Key {
	return &tenants.Key{ID: id, Tenant: "t-" + id, Tier: tier}
}

// mustAllow charges and fails the test unless the request is allowed.
func mustAllow(t testing.TB, l *Limiter, k *tenants.Key, f tiers.Family) map[string]string {
	t.Helper()
	h, err := l.Charge(context.Background(), k, f)
	if err != nil {
		t.Fatalf("Charge(%s, %s): %v", k.ID, f, err)
	}
	return h
}

// mustRefuse charges and returns the RATE_LIMIT_EXCEEDED fault.
func mustRefuse(t testing.TB, l *Limiter, k *tenants.Key, f tiers.Family) (map[string]string, *fault.Error) {
	t.Helper()
	h, err := l.Charge(context.Background(), k, f)
	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.RateLimitExceeded {
		t.Fatalf("Charge(%s, %s) = %v, want %s", k.ID, f, err, fault.RateLimitExceeded)
	}
	return h, fe
}

func headerInt(t testing.TB, h map[string]string, name string) int64 {
	t.Helper()
	v, ok := h[name]
	if !ok {
		t.Fatalf("header %s missing in %v", name, h)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("header %s = %q: %v", name, v, err)
	}
	return n
}
