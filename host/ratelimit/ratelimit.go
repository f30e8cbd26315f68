// Package ratelimit charges requests against the per-tier budgets of
// host/tiers (the spec's Limits section). It implements api.Limiter.
//
// Contract of (*Limiter).Charge(ctx, key, family):
//
//   - Counters are keyed by API key ID, operation family and window (hour or
//     day), never by client address. Each family has up to two fixed
//     windows; a window opens at the key's first request in it and lasts an
//     hour (or 24 hours). A zero limit in tiers means no limit in that
//     window.
//   - A request is allowed only if every window allows it. An allowed request
//     consumes one unit of every window; a refused request consumes nothing
//     (any window already charged is rolled back). Across any number of
//     Limiters sharing one store, no more than the limit is ever allowed in a
//     window.
//   - Over the limit: a *fault.Error with code RATE_LIMIT_EXCEEDED, a message
//     naming the window and when it resets, and details {limit, remaining,
//     resetAt (RFC 3339, UTC), window ("hour"/"day"), family}.
//   - Every charged request (allowed or refused) gets X-RateLimit-Limit,
//     X-RateLimit-Remaining and X-RateLimit-Reset (unix seconds) headers
//     describing the tightest window (fewest remaining; on a tie the one
//     resetting last); a refused one also gets Retry-After (seconds).
//   - Unlimited budgets (Enterprise, or a family with both windows zero)
//     return no headers and never touch the store.
//   - Store failure (Redis down or slower than Options.Timeout): with
//     FailOpen the request is allowed without headers and the error is
//     logged; otherwise it is refused with SERVER_UNAVAILABLE, details
//     {reason}. Either way Charge returns within about Options.Timeout.
//   - Every call reports exactly one decision (allowed, refused or error) to
//     Options.OnDecision, meant for metrics.Recorder.LimiterDecision.
//
// Health checks are never charged (the api does not call Charge for them),
// and requests that fail authentication or argument validation are rejected
// by the api before Charge, so they do not count either.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// Decisions reported to Options.OnDecision.
const (
	Allowed = "allowed"
	Refused = "refused"
	Error   = "error"
)

// Response headers.
const (
	HeaderLimit      = "X-RateLimit-Limit"
	HeaderRemaining  = "X-RateLimit-Remaining"
	HeaderReset      = "X-RateLimit-Reset"
	HeaderRetryAfter = "Retry-After"
)

// DefaultTimeout bounds the store calls of one Charge.
const DefaultTimeout = 250 * time.Millisecond

// KeyPrefix starts every counter name in the store
// ("pyws:ratelimit:<family>:<window>:<key id>").
const KeyPrefix = "pyws:ratelimit"

// Store holds the counters: ulule's limiter.Store (memory or Redis).
type Store = limiter.Store

// NewMemoryStore returns a store private to this process.
func NewMemoryStore() Store {
	return memory.NewStoreWithOptions(limiter.StoreOptions{
		Prefix:          KeyPrefix,
		CleanUpInterval: limiter.DefaultCleanUpInterval,
	})
}

// Options configure a Limiter. The zero value is valid: fail closed,
// DefaultTimeout, no decision callback, slog.Default.
type Options struct {
	// FailOpen allows requests when the store fails (logged, decision
	// "error"). When false a store failure refuses the request with
	// SERVER_UNAVAILABLE.
	FailOpen bool
	// Timeout bounds the store calls of one Charge; 0 means DefaultTimeout.
	Timeout time.Duration
	// OnDecision, when set, is called once per Charge with the family and
	// Allowed, Refused or Error.
	OnDecision func(family, decision string)
	// Logger receives store failures (at most one line per 10 s).
	Logger *slog.Logger
}

// logEvery throttles store-failure logging: a Redis outage under load must
// not turn into one log line per request.
const logEvery = 10 * time.Second

// Limiter charges requests to per-key, per-family budgets. It is safe for
// concurrent use.
type Limiter struct {
	store   Store
	opts    Options
	now     func() time.Time // replaced in tests
	lastLog atomic.Int64     // unix nanoseconds of the last failure log
}

// New returns a limiter over store; a nil store means NewMemoryStore().
func New(store Store, opts Options) *Limiter {
	if store == nil {
		store = NewMemoryStore()
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Limiter{store: store, opts: opts, now: time.Now}
}

// window is one of a family's budgets.
type window struct {
	name  string // "hour" or "day"
	limit int64
	rate  limiter.Rate
}

// windows returns the limited windows of b (an array, so the unlimited
// path allocates nothing), the smaller limit first so that a request the
// tighter window refuses never touches the other one.
func windows(b tiers.Budget) (ws [2]window, n int) {
	if b.PerHour > 0 {
		ws[n] = window{"hour", int64(b.PerHour), limiter.Rate{Period: time.Hour, Limit: int64(b.PerHour)}}
		n++
	}
	if b.PerDay > 0 {
		ws[n] = window{"day", int64(b.PerDay), limiter.Rate{Period: 24 * time.Hour, Limit: int64(b.PerDay)}}
		n++
	}
	if n == 2 && ws[1].limit < ws[0].limit {
		ws[0], ws[1] = ws[1], ws[0]
	}
	return ws, n
}

// counterKey names one counter. Family and window never contain ':', so
// everything after the second ':' is the key ID, whatever it contains.
func counterKey(family tiers.Family, w window, keyID string) string {
	return string(family) + ":" + w.name + ":" + keyID
}

// state is one window's answer.
type state struct {
	w     window
	c     limiter.Context
	reset int64 // unix seconds, rounded up
}

func newState(w window, c limiter.Context) state {
	// ulule's Reset is the counter's expiry truncated to the second; the
	// counter lives until up to a second later, so round up: a client that
	// waits until Reset must not be refused again.
	return state{w: w, c: c, reset: c.Reset + 1}
}

// tighter reports whether a binds more than b: fewer remaining, or as few
// and a later reset.
func (a state) tighter(b state) bool {
	if a.c.Remaining != b.c.Remaining {
		return a.c.Remaining < b.c.Remaining
	}
	return a.reset > b.reset
}

// Charge implements api.Limiter; see the package comment for the contract.
func (l *Limiter) Charge(ctx context.Context, key *tenants.Key, family tiers.Family) (map[string]string, error) {
	if key == nil {
		return nil, errors.New("ratelimit: Charge without a key")
	}
	tier := key.Tier
	all, n := windows(tiers.For(tier).Budget(family))
	if n == 0 {
		l.decide(family, Allowed)
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()

	ws := all[:n]
	var charged [2]state
	for i, w := range ws {
		c, err := l.store.Increment(ctx, counterKey(family, w, key.ID), 1, w.rate)
		if err != nil {
			if i > 0 {
				// In the background: the answer must not wait a second
				// Timeout on a store that just failed.
				pending := append([]window(nil), ws[:i]...) // keeps all on the stack
				go l.rollback(ctx, key, family, pending)
			}
			return l.storeFailure(family, key, err)
		}
		st := newState(w, c)
		if c.Reached {
			l.rollback(ctx, key, family, ws[:i+1])
			return l.refuse(ctx, key, family, tier, st, ws[i+1:])
		}
		charged[i] = st
	}
	best := charged[0]
	for _, st := range charged[1:len(ws)] {
		if st.tighter(best) {
			best = st
		}
	}
	l.decide(family, Allowed)
	return l.headers(best), nil
}

// refuse builds the RATE_LIMIT_EXCEEDED answer. The window that refused is
// reported, unless a window not yet charged is exhausted too and resets
// later: then retrying at the first one's reset would be refused again, so
// the later one is the truthful answer (one extra Peek, on refusals only).
func (l *Limiter) refuse(ctx context.Context, key *tenants.Key, family tiers.Family, tier tiers.Tier, st state, rest []window) (map[string]string, error) {
	for _, w := range rest {
		c, err := l.store.Peek(ctx, counterKey(family, w, key.ID), w.rate)
		if err != nil {
			break // the refusal stands; only its precision suffers
		}
		if o := newState(w, c); o.c.Remaining == 0 && o.reset > st.reset {
			st = o
		}
	}
	st.c.Remaining = 0
	l.decide(family, Refused)
	h := l.headers(st)
	now := l.now()
	retry := st.reset - now.Unix()
	if retry < 1 {
		retry = 1
	}
	h[HeaderRetryAfter] = strconv.FormatInt(retry, 10)
	resetAt := time.Unix(st.reset, 0).UTC()
	return h, fault.New(fault.RateLimitExceeded, fault.Details{
		"limit":     st.w.limit,
		"remaining": 0,
		"resetAt":   resetAt.Format(time.RFC3339),
		"window":    st.w.name,
		"family":    string(family),
	}, "rate limit exceeded: the %s tier allows %d %s requests per %s; the %s window resets at %s (in %s)",
		tier, st.w.limit, family, st.w.name, st.w.name, resetAt.Format(time.RFC3339), time.Duration(retry)*time.Second)
}

// rollback gives back the unit charged to each of ws. It must survive the
// caller's cancellation, so it runs on its own deadline. A decrement that
// lands after its window expired would create a counter at -1 (one free
// request in the new window): seen as Remaining > Limit, it is undone.
func (l *Limiter) rollback(ctx context.Context, key *tenants.Key, family tiers.Family, ws []window) {
	if len(ws) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.opts.Timeout)
	defer cancel()
	for _, w := range ws {
		k := counterKey(family, w, key.ID)
		c, err := l.store.Increment(ctx, k, -1, w.rate)
		if err != nil {
			// Over-counted by one until the window resets: the safe side.
			l.logFailure("rate limit rollback failed", key, family, err)
			continue
		}
		if c.Remaining > c.Limit {
			_, _ = l.store.Increment(ctx, k, 1, w.rate)
		}
	}
}

func (l *Limiter) storeFailure(family tiers.Family, key *tenants.Key, err error) (map[string]string, error) {
	l.decide(family, Error)
	reason := "rate limit store unavailable"
	if errors.Is(err, context.DeadlineExceeded) {
		reason = "rate limit store did not answer in time"
	}
	if l.opts.FailOpen {
		l.logFailure("rate limit store failed; allowing the request (fail open)", key, family, err)
		return nil, nil
	}
	l.logFailure("rate limit store failed; refusing the request (fail closed)", key, family, err)
	// The store's own error (addresses, driver text) goes to the log only.
	return nil, fault.New(fault.ServerUnavailable, fault.Details{"reason": reason},
		"%s; retry shortly", reason)
}

func (l *Limiter) logFailure(msg string, key *tenants.Key, family tiers.Family, err error) {
	now := l.now().UnixNano()
	last := l.lastLog.Load()
	if now-last < int64(logEvery) || !l.lastLog.CompareAndSwap(last, now) {
		return
	}
	l.opts.Logger.Warn(msg, "key", key.ID, "family", string(family), "err", err)
}

func (l *Limiter) headers(st state) map[string]string {
	return map[string]string{
		HeaderLimit:     strconv.FormatInt(st.w.limit, 10),
		HeaderRemaining: strconv.FormatInt(st.c.Remaining, 10),
		HeaderReset:     strconv.FormatInt(st.reset, 10),
	}
}

func (l *Limiter) decide(family tiers.Family, decision string) {
	if l.opts.OnDecision != nil {
		l.opts.OnDecision(string(family), decision)
	}
}

// String describes the limiter for logs.
func (l *Limiter) String() string {
	mode := "fail closed"
	if l.opts.FailOpen {
		mode = "fail open"
	}
	return fmt.Sprintf("ratelimit(%T, %s, timeout %s)", l.store, mode, l.opts.Timeout)
}
