package ratelimit

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ulule/limiter/v3"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tiers"
)

var limitedFamilies = []tiers.Family{
	tiers.FamilyRename, tiers.FamilyReferences, tiers.FamilyEdit, tiers.FamilyAnalysis,
	tiers.FamilyFormat, tiers.FamilyStructure, tiers.FamilyReadFile, tiers.FamilyListFiles,
}

// TestEveryTierAndFamily spends each limited budget of the tiers table on
// ulule's memory store: exactly the tighter window's limit is allowed, with
// headers counting down, and the next request is refused by that window.
func TestEveryTierAndFamily(t *testing.T) {
	for _, tier := range []tiers.Tier{tiers.Free, tiers.Hobby, tiers.Pro} {
		for _, fam := range limitedFamilies {
			b := tiers.For(tier).Budget(fam)
			t.Run(string(tier)+"/"+string(fam), func(t *testing.T) {
				if b.Unlimited() {
					t.Fatalf("tiers table: %s %s unlimited", tier, fam)
				}
				limit, win := int64(b.PerHour), "hour"
				if b.PerHour == 0 {
					limit, win = int64(b.PerDay), "day"
				}
				var d decisions
				l := New(nil, Options{OnDecision: d.record})
				k := key("k1", tier)
				start := time.Now()
				for i := int64(1); i <= limit; i++ {
					h := mustAllow(t, l, k, fam)
					if got := headerInt(t, h, HeaderLimit); got != limit {
						t.Fatalf("request %d: %s = %d, want %d", i, HeaderLimit, got, limit)
					}
					if got := headerInt(t, h, HeaderRemaining); got != limit-i {
						t.Fatalf("request %d: %s = %d, want %d", i, HeaderRemaining, got, limit-i)
					}
				}
				h, fe := mustRefuse(t, l, k, fam)
				if fe.Details["window"] != win || fe.Details["limit"] != limit || fe.Details["remaining"] != 0 ||
					fe.Details["family"] != string(fam) {
					t.Fatalf("details = %v, want window %s limit %d remaining 0 family %s", fe.Details, win, limit, fam)
				}
				period := time.Hour
				if win == "day" {
					period = 24 * time.Hour
				}
				wantReset := start.Add(period)
				reset := time.Unix(headerInt(t, h, HeaderReset), 0)
				if reset.Before(wantReset.Add(-time.Second)) || reset.After(time.Now().Add(period+time.Second)) {
					t.Fatalf("%s = %s, want about %s", HeaderReset, reset, wantReset)
				}
				if got := d.get(string(fam), Allowed); got != int(limit) {
					t.Fatalf("allowed decisions = %d, want %d", got, limit)
				}
				if got := d.get(string(fam), Refused); got != 1 {
					t.Fatalf("refused decisions = %d, want 1", got)
				}
			})
		}
	}
}

// TestFreeRenameSixthRefused checks the refusal in full: the spec's details,
// the message, all four headers.
func TestFreeRenameSixthRefused(t *testing.T) {
	c := newClock()
	s := newFakeStore(c)
	l := New(s, Options{})
	l.now = c.Now
	k := key("key_free", tiers.Free)
	opened := c.Now()
	for i := 1; i <= 5; i++ {
		h := mustAllow(t, l, k, tiers.FamilyRename)
		want := map[string]string{
			HeaderLimit:     "5",
			HeaderRemaining: fmt.Sprint(5 - i),
			HeaderReset:     fmt.Sprint(opened.Add(time.Hour).Unix() + 1),
		}
		if fmt.Sprint(h) != fmt.Sprint(want) {
			t.Fatalf("request %d headers = %v, want %v", i, h, want)
		}
		c.Advance(time.Minute)
	}
	// The window opened at 09:30:00 and closes at 10:30:00 (+1 s rounding).
	h, fe := mustRefuse(t, l, k, tiers.FamilyRename)
	wantDetails := fault.Details{
		"limit": int64(5), "remaining": 0, "resetAt": "2026-03-02T10:30:01Z", "window": "hour", "family": "rename",
	}
	if fmt.Sprint(fe.Details) != fmt.Sprint(wantDetails) {
		t.Fatalf("details = %v, want %v", fe.Details, wantDetails)
	}
	wantHeaders := map[string]string{
		HeaderLimit: "5", HeaderRemaining: "0", HeaderReset: fmt.Sprint(time.Date(2026, 3, 2, 10, 30, 1, 0, time.UTC).Unix()),
		HeaderRetryAfter: fmt.Sprint(55*60 + 1),
	}
	if fmt.Sprint(h) != fmt.Sprint(wantHeaders) {
		t.Fatalf("headers = %v, want %v", h, wantHeaders)
	}
	for _, want := range []string{"free tier", "5 rename requests per hour", "hour window resets at 2026-03-02T10:30:01Z", "in 55m1s"} {
		if !strings.Contains(fe.Message, want) {
			t.Errorf("message %q lacks %q", fe.Message, want)
		}
	}
	// The refusal consumed nothing.
	if n := s.count("rename:hour:key_free"); n != 5 {
		t.Errorf("hour counter = %d, want 5", n)
	}
	if n := s.count("rename:day:key_free"); n != 5 {
		t.Errorf("day counter = %d, want 5", n)
	}
	// An hour after the window opened the budget is back.
	c.Advance(time.Hour - 5*time.Minute)
	mustAllow(t, l, k, tiers.FamilyRename)
}

// TestDayWindowTighter uses ulule's memory store itself: the day counter is
// pre-spent the way earlier hours would have, and the day window then
// binds: headers report it, the refusal names it and leaves the hour
// counter as it was.
func TestDayWindowTighter(t *testing.T) {
	store := NewMemoryStore()
	l := New(store, Options{})
	k := key("key_day", tiers.Free) // rename 5/hour, 25/day
	ctx := context.Background()
	day := limiter.Rate{Period: 24 * time.Hour, Limit: 25}
	hour := limiter.Rate{Period: time.Hour, Limit: 5}
	if _, err := store.Increment(ctx, "rename:day:key_day", 23, day); err != nil {
		t.Fatal(err)
	}
	h := mustAllow(t, l, k, tiers.FamilyRename) // hour 4 left, day 1 left
	if h[HeaderLimit] != "25" || h[HeaderRemaining] != "1" {
		t.Fatalf("headers = %v, want the day window (limit 25, remaining 1)", h)
	}
	h = mustAllow(t, l, k, tiers.FamilyRename) // hour 3 left, day 0 left
	if h[HeaderLimit] != "25" || h[HeaderRemaining] != "0" {
		t.Fatalf("headers = %v, want the day window (limit 25, remaining 0)", h)
	}
	h, fe := mustRefuse(t, l, k, tiers.FamilyRename)
	if fe.Details["window"] != "day" || fe.Details["limit"] != int64(25) {
		t.Fatalf("details = %v, want the day window", fe.Details)
	}
	if ra := headerInt(t, h, HeaderRetryAfter); ra < 24*3600-5 || ra > 24*3600+2 {
		t.Fatalf("Retry-After = %d, want about a day", ra)
	}
	if !strings.Contains(fe.Message, "per day") || !strings.Contains(fe.Message, "day window resets at") {
		t.Fatalf("message %q does not name the day window", fe.Message)
	}
	hc, err := store.Peek(ctx, "rename:hour:key_day", hour)
	if err != nil {
		t.Fatal(err)
	}
	if hc.Remaining != 3 {
		t.Fatalf("hour remaining after a day refusal = %d, want 3 (the refusal consumed the hour window)", hc.Remaining)
	}
}

// TestWindowsOverTime walks a free key through a day on the fake clock:
// 5 per hour, 25 per day, resets at the right moments, and when both
// windows are spent the refusal reports the day's later reset.
func TestWindowsOverTime(t *testing.T) {
	c := newClock()
	s := newFakeStore(c)
	l := New(s, Options{})
	l.now = c.Now
	k := key("key_walk", tiers.Free)
	dayOpened := c.Now()
	for hour := 0; hour < 5; hour++ {
		for i := 0; i < 5; i++ {
			mustAllow(t, l, k, tiers.FamilyRename)
		}
		if hour < 4 {
			_, fe := mustRefuse(t, l, k, tiers.FamilyRename)
			if fe.Details["window"] != "hour" {
				t.Fatalf("hour %d: refused by %v, want hour", hour, fe.Details["window"])
			}
		}
		c.Advance(time.Hour)
	}
	c.Advance(-time.Hour + time.Minute) // back inside the 5th hour: both spent
	h, fe := mustRefuse(t, l, k, tiers.FamilyRename)
	wantReset := dayOpened.Add(24*time.Hour + time.Second)
	if fe.Details["window"] != "day" || fe.Details["resetAt"] != wantReset.Format(time.RFC3339) {
		t.Fatalf("details = %v, want the day window resetting at %s", fe.Details, wantReset.Format(time.RFC3339))
	}
	if h[HeaderLimit] != "25" || h[HeaderReset] != fmt.Sprint(wantReset.Unix()) {
		t.Fatalf("headers = %v, want the day window", h)
	}
	// Next hour: the hour window is fresh but the day is spent.
	c.Advance(time.Hour)
	_, fe = mustRefuse(t, l, k, tiers.FamilyRename)
	if fe.Details["window"] != "day" {
		t.Fatalf("refused by %v, want day", fe.Details["window"])
	}
	if n := s.count("rename:hour:key_walk"); n != 0 {
		t.Fatalf("hour counter after a day refusal = %d, want 0", n)
	}
	// The next day everything is back.
	c.Advance(24 * time.Hour)
	h = mustAllow(t, l, k, tiers.FamilyRename)
	if h[HeaderRemaining] != "4" || h[HeaderLimit] != "5" {
		t.Fatalf("headers = %v, want the hour window with 4 left", h)
	}
}

// TestDayOnlyFamily: structure has no hourly limit on any tier.
func TestDayOnlyFamily(t *testing.T) {
	c := newClock()
	s := newFakeStore(c)
	l := New(s, Options{})
	l.now = c.Now
	k := key("key_struct", tiers.Free)
	for i := 0; i < 50; i++ {
		mustAllow(t, l, k, tiers.FamilyStructure)
	}
	_, fe := mustRefuse(t, l, k, tiers.FamilyStructure)
	if fe.Details["window"] != "day" || fe.Details["limit"] != int64(50) {
		t.Fatalf("details = %v", fe.Details)
	}
	if n := s.count("structure:hour:key_struct"); n != 0 {
		t.Fatalf("an unlimited hour window was counted: %d", n)
	}
}

func TestEnterpriseNeverRefusedNoStoreTrip(t *testing.T) {
	c := newClock()
	s := newFakeStore(c)
	var d decisions
	l := New(s, Options{OnDecision: d.record})
	k := key("key_ent", tiers.Enterprise)
	for _, fam := range limitedFamilies {
		for i := 0; i < 200; i++ {
			if h := mustAllow(t, l, k, fam); h != nil {
				t.Fatalf("enterprise %s: headers %v, want none", fam, h)
			}
		}
		if got := d.get(string(fam), Allowed); got != 200 {
			t.Fatalf("enterprise %s: %d allowed decisions, want 200", fam, got)
		}
	}
	if n := s.calls.Load(); n != 0 {
		t.Fatalf("enterprise made %d store calls, want 0", n)
	}
	// Unlimited never reaches the store, so a broken store cannot refuse.
	l = New(brokenStore{}, Options{})
	mustAllow(t, l, k, tiers.FamilyRename)
}

func TestKeysAndFamiliesIndependent(t *testing.T) {
	l := New(nil, Options{})
	a, b := key("key_a", tiers.Free), key("key_b", tiers.Free)
	for i := 0; i < 5; i++ {
		mustAllow(t, l, a, tiers.FamilyRename)
	}
	mustRefuse(t, l, a, tiers.FamilyRename)
	// Another key of the same tenant and tier has its own budget.
	b.Tenant = a.Tenant
	if h := mustAllow(t, l, b, tiers.FamilyRename); h[HeaderRemaining] != "4" {
		t.Fatalf("key b headers = %v, want 4 remaining", h)
	}
	// Another family of the spent key has its own budget.
	if h := mustAllow(t, l, a, tiers.FamilyReferences); h[HeaderRemaining] != "9" || h[HeaderLimit] != "10" {
		t.Fatalf("references headers = %v, want 10/9", h)
	}
	mustRefuse(t, l, a, tiers.FamilyRename)
}

// TestKeyIDWithSeparators: IDs are free text in the keys file; a colon in
// one must not let two keys share a counter.
func TestKeyIDWithSeparators(t *testing.T) {
	l := New(nil, Options{})
	a, b := key("x:hour:y", tiers.Free), key("y", tiers.Free)
	for i := 0; i < 5; i++ {
		mustAllow(t, l, a, tiers.FamilyRename)
	}
	mustRefuse(t, l, a, tiers.FamilyRename)
	mustAllow(t, l, b, tiers.FamilyRename)
}

func TestUnknownTierGetsFree(t *testing.T) {
	l := New(nil, Options{})
	k := key("key_odd", "platinum")
	for i := 0; i < 5; i++ {
		mustAllow(t, l, k, tiers.FamilyRename)
	}
	mustRefuse(t, l, k, tiers.FamilyRename)
}

func TestNilKey(t *testing.T) {
	if _, err := New(nil, Options{}).Charge(context.Background(), nil, tiers.FamilyRename); err == nil {
		t.Fatal("Charge(nil key) succeeded")
	}
}

func TestStoreFailure(t *testing.T) {
	k := key("key_x", tiers.Pro)
	for _, tc := range []struct {
		name     string
		store    brokenStore
		failOpen bool
	}{
		{"error/fail-open", brokenStore{}, true},
		{"error/fail-closed", brokenStore{}, false},
		{"hang/fail-open", brokenStore{hang: true}, true},
		{"hang/fail-closed", brokenStore{hang: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d decisions
			const timeout = 50 * time.Millisecond
			l := New(tc.store, Options{FailOpen: tc.failOpen, Timeout: timeout, OnDecision: d.record, Logger: quiet})
			start := time.Now()
			h, err := l.Charge(context.Background(), k, tiers.FamilyAnalysis)
			if el := time.Since(start); el > timeout+time.Second { // a hang, not noise
				t.Fatalf("Charge took %s with a %s timeout", el, timeout)
			}
			if h != nil {
				t.Fatalf("headers %v on a store failure", h)
			}
			if tc.failOpen {
				if err != nil {
					t.Fatalf("fail open: %v", err)
				}
			} else {
				fe, ok := fault.As(err)
				if !ok || fe.Code != fault.ServerUnavailable || fe.Details["reason"] == nil {
					t.Fatalf("fail closed: %v, want SERVER_UNAVAILABLE with a reason", err)
				}
				if strings.Contains(fmt.Sprint(fe), "10.0.0.7") || strings.Contains(fmt.Sprint(fe.Details), "10.0.0.7") {
					t.Fatalf("the store's address leaked to the caller: %v %v", fe, fe.Details)
				}
			}
			if d.get("analysis", Error) != 1 || d.get("analysis", Allowed) != 0 || d.get("analysis", Refused) != 0 {
				t.Fatalf("decisions = %v, want one error", d.m)
			}
		})
	}
}

// TestCallerCancelled: a cancelled request context is a store failure,
// reported as such, not a hang or a panic.
func TestCallerCancelled(t *testing.T) {
	l := New(brokenStore{hang: true}, Options{Logger: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := l.Charge(ctx, key("k", tiers.Free), tiers.FamilyRename)
	if fault.CodeOf(err) != fault.ServerUnavailable {
		t.Fatalf("err = %v", err)
	}
}

// TestRollbackAcrossWindowBoundary: when a refusal's rollback lands after
// the window expired, it must not leave a -1 counter (a free request) in
// the new window.
func TestRollbackAcrossWindowBoundary(t *testing.T) {
	c := newClock()
	s := newFakeStore(c)
	l := New(s, Options{})
	l.now = c.Now
	k := key("key_edge", tiers.Free)
	for i := 0; i < 5; i++ {
		mustAllow(t, l, k, tiers.FamilyRename)
	}
	s.beforeIncrement = func(key string, n int64) {
		if n < 0 {
			c.Advance(2 * time.Hour) // the hour window expires mid-refusal
		}
	}
	mustRefuse(t, l, k, tiers.FamilyRename)
	s.beforeIncrement = nil
	if n := s.count("rename:hour:key_edge"); n != 0 {
		t.Fatalf("hour counter after a late rollback = %d, want 0", n)
	}
}

// TestConcurrentMemory: two limiters on one store, many goroutines, exactly
// the limit allowed (run with -race).
func TestConcurrentMemory(t *testing.T) {
	store := NewMemoryStore()
	ls := []*Limiter{New(store, Options{}), New(store, Options{})}
	k := key("key_conc", tiers.Hobby) // rename 100/hour
	var allowed, refused atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 400; i++ {
		wg.Add(1)
		go func(l *Limiter) {
			defer wg.Done()
			_, err := l.Charge(context.Background(), k, tiers.FamilyRename)
			switch fault.CodeOf(err) {
			case "":
				allowed.Add(1)
			case fault.RateLimitExceeded:
				refused.Add(1)
			default:
				t.Error(err)
			}
		}(ls[i%2])
	}
	wg.Wait()
	if allowed.Load() != 100 || refused.Load() != 300 {
		t.Fatalf("allowed %d refused %d, want 100 and 300", allowed.Load(), refused.Load())
	}
	day, _ := store.Peek(context.Background(), "rename:day:key_conc", limiter.Rate{Period: 24 * time.Hour, Limit: 1000})
	if day.Remaining != 900 {
		t.Fatalf("day remaining = %d, want 900: refusals consumed the day window", day.Remaining)
	}
}

func TestWindowsOrder(t *testing.T) {
	ws, n := windows(tiers.Budget{PerHour: 50, PerDay: 10}) // not in the table, but keep the rule
	if n != 2 || ws[0].name != "day" {
		t.Fatalf("windows = %v, want the smaller limit first", ws)
	}
	if _, n := windows(tiers.Budget{}); n != 0 {
		t.Fatal("zero budget has windows")
	}
}

// dayFails is a fakeStore whose day counters are unreachable.
type dayFails struct{ *fakeStore }

func (s dayFails) Increment(ctx context.Context, key string, n int64, rate limiter.Rate) (limiter.Context, error) {
	if strings.Contains(key, ":day:") {
		return limiter.Context{}, errBroken
	}
	return s.fakeStore.Increment(ctx, key, n, rate)
}

// TestFailureAfterFirstWindow: the hour window was charged, then the day
// window failed. The unit charged to the hour is given back (in the
// background), whichever the policy.
func TestFailureAfterFirstWindow(t *testing.T) {
	for _, failOpen := range []bool{true, false} {
		c := newClock()
		s := dayFails{newFakeStore(c)}
		l := New(s, Options{FailOpen: failOpen, Logger: quiet})
		l.now = c.Now
		_, err := l.Charge(context.Background(), key("k", tiers.Free), tiers.FamilyRename)
		if failOpen != (err == nil) {
			t.Fatalf("failOpen %v: err %v", failOpen, err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for s.count("rename:hour:k") != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("failOpen %v: hour counter %d never rolled back", failOpen, s.count("rename:hour:k"))
			}
			time.Sleep(time.Millisecond)
		}
	}
}
