package ratelimit

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	libredis "github.com/redis/go-redis/v9"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tiers"
)

const redisServer = "/usr/bin/redis-server"

// redisProc is a private redis-server: free port, temp dir, no persistence.
type redisProc struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{}
}

func (r *redisProc) url() string { return "redis://" + r.addr + "/0" }

// stop kills the server and waits for it to exit; safe to call twice.
func (r *redisProc) stop() {
	select {
	case <-r.done:
		return
	default:
	}
	_ = r.cmd.Process.Kill()
	<-r.done
}

// startRedis starts redis-server for tb and stops it at cleanup. Without
// the binary the test is skipped, except in CI (CI=true), where it fails.
func startRedis(tb testing.TB) *redisProc {
	tb.Helper()
	bin, err := exec.LookPath(redisServer)
	if err != nil {
		if bin, err = exec.LookPath("redis-server"); err != nil {
			if os.Getenv("CI") == "true" {
				tb.Fatalf("redis-server not installed (apt-get install redis-server); required in CI")
			}
			tb.Skip("redis-server not installed (apt-get install redis-server)")
		}
	}
	for attempt := 0; ; attempt++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		dir := tb.TempDir()
		var out bytes.Buffer
		cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--dir", dir, "--daemonize", "no", "--loglevel", "warning")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			tb.Fatal(err)
		}
		r := &redisProc{addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
		go func() { _ = cmd.Wait(); close(r.done) }()
		if r.waitReady(5 * time.Second) {
			tb.Cleanup(r.stop)
			return r
		}
		r.stop()
		if attempt == 2 {
			tb.Fatalf("redis-server did not start on %s: %s", r.addr, out.String())
		}
	}
}

func (r *redisProc) waitReady(limit time.Duration) bool {
	c := libredis.NewClient(&libredis.Options{Addr: r.addr, DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-r.done:
			return false // exited: port taken?
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func newRedisLimiter(tb testing.TB, url string, opts Options) (*Limiter, *RedisStore) {
	tb.Helper()
	s, err := NewRedisStore(url, opts.Timeout)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return New(s, opts), s
}

// TestRedisSharedBudget: two limiters, each with its own connection pool
// (two pyws processes), share one key's budget exactly; then Redis dies
// and each failure policy answers within the timeout.
func TestRedisSharedBudget(t *testing.T) {
	r := startRedis(t)
	var dOpen, dClosed decisions
	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, nil))
	const timeout = 250 * time.Millisecond
	open, _ := newRedisLimiter(t, r.url(), Options{FailOpen: true, Timeout: timeout, OnDecision: dOpen.record, Logger: logger})
	closed, closedStore := newRedisLimiter(t, r.url(), Options{Timeout: timeout, OnDecision: dClosed.record, Logger: logger})
	// The burst checks exact counting, not speed: its limiters wait long
	// enough for 400 concurrent calls on a loaded machine under -race.
	burstOpen, _ := newRedisLimiter(t, r.url(), Options{FailOpen: true, Timeout: 30 * time.Second, OnDecision: dOpen.record, Logger: logger})
	burstClosed, _ := newRedisLimiter(t, r.url(), Options{Timeout: 30 * time.Second, OnDecision: dClosed.record, Logger: logger})

	k := key("key_shared", tiers.Hobby) // rename 100/hour, 1000/day
	const n = 400
	var allowed, refused atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(l *Limiter) {
			defer wg.Done()
			<-start
			h, err := l.Charge(context.Background(), k, tiers.FamilyRename)
			switch fault.CodeOf(err) {
			case "":
				allowed.Add(1)
			case fault.RateLimitExceeded:
				refused.Add(1)
				if h[HeaderRetryAfter] == "" || h[HeaderRemaining] != "0" {
					t.Errorf("refusal headers = %v", h)
				}
			default:
				t.Error(err)
			}
		}([]*Limiter{burstOpen, burstClosed}[i%2])
	}
	close(start)
	wg.Wait()
	if allowed.Load() != 100 || refused.Load() != n-100 {
		t.Fatalf("allowed %d, refused %d across two limiters; want exactly 100 and %d", allowed.Load(), refused.Load(), n-100)
	}
	if a := dOpen.get("rename", Allowed) + dClosed.get("rename", Allowed); a != 100 {
		t.Fatalf("allowed decisions = %d, want 100", a)
	}
	// Refusals consumed nothing: both counters hold exactly the allowed.
	ctx := context.Background()
	for _, w := range []string{"hour", "day"} {
		name := KeyPrefix + ":rename:" + w + ":key_shared"
		v, err := closedStore.client.Get(ctx, name).Int64()
		if err != nil || v != 100 {
			t.Fatalf("%s = %d (%v), want 100", name, v, err)
		}
		ttl, err := closedStore.client.PTTL(ctx, name).Result()
		want := time.Hour
		if w == "day" {
			want = 24 * time.Hour
		}
		if err != nil || ttl <= want-time.Minute || ttl > want {
			t.Fatalf("%s TTL = %s (%v), want about %s", name, ttl, err, want)
		}
	}
	// Another family, another key: untouched.
	mustAllow(t, open, k, tiers.FamilyReferences)
	mustAllow(t, closed, key("key_other", tiers.Hobby), tiers.FamilyRename)

	// Redis hangs (SIGSTOP: connections stay open, nothing answers): each
	// policy answers at the timeout, not later.
	if err := r.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for _, l := range []*Limiter{open, closed} {
		t0 := time.Now()
		_, err := l.Charge(ctx, k, tiers.FamilyAnalysis)
		el := time.Since(t0)
		if el > timeout+time.Second { // go-redis alone would wait its 3 s read timeout
			t.Fatalf("%s: Charge took %s against a frozen Redis (timeout %s)", l, el, timeout)
		}
		if l.opts.FailOpen != (err == nil) {
			t.Fatalf("%s: Charge against a frozen Redis = %v", l, err)
		}
		t.Logf("Redis frozen: %s answered in %s (%v)", l, el, err)
	}
	if err := r.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}

	// Redis goes away.
	r.stop()
	for i := 0; i < 3; i++ { // the first call finds a dead pooled connection, later ones a refused dial
		t0 := time.Now()
		h, err := open.Charge(ctx, k, tiers.FamilyAnalysis)
		el := time.Since(t0)
		if el > 2*timeout+time.Second {
			t.Fatalf("fail-open Charge %d took %s (timeout %s)", i, el, timeout)
		}
		t.Logf("Redis down: fail-open Charge %d answered in %s", i, el)
		if err != nil || h != nil {
			t.Fatalf("fail-open Charge %d = %v, %v; want allowed without headers", i, h, err)
		}
		t0 = time.Now()
		_, err = closed.Charge(ctx, k, tiers.FamilyAnalysis)
		el = time.Since(t0)
		if el > 2*timeout+time.Second {
			t.Fatalf("fail-closed Charge %d took %s (timeout %s)", i, el, timeout)
		}
		t.Logf("Redis down: fail-closed Charge %d answered in %s", i, el)
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.ServerUnavailable || fe.Details["reason"] == nil {
			t.Fatalf("fail-closed Charge %d = %v, want SERVER_UNAVAILABLE with a reason", i, err)
		}
		if strings.Contains(fe.Message+fmt.Sprint(fe.Details), r.addr) {
			t.Fatalf("Redis address leaked to the caller: %v", fe)
		}
	}
	if dOpen.get("analysis", Error) != 4 || dClosed.get("analysis", Error) != 4 {
		t.Fatalf("error decisions = %d and %d, want 4 and 4", dOpen.get("analysis", Error), dClosed.get("analysis", Error))
	}
	logMu.Lock()
	out := logs.String()
	logMu.Unlock()
	if !strings.Contains(out, "fail open") || !strings.Contains(out, "fail closed") {
		t.Fatalf("store failures not logged:\n%s", out)
	}
}

// TestRedisUnreachableAtStart: a wrong URL fails NewRedisStore quickly.
func TestRedisUnreachableAtStart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t0 := time.Now()
	if _, err := NewRedisStore("redis://"+addr, 100*time.Millisecond); err == nil {
		t.Fatal("NewRedisStore succeeded with nothing listening")
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Fatalf("NewRedisStore took %s to fail", el)
	}
	if _, err := NewRedisStore("http://nope", 0); err == nil {
		t.Fatal("NewRedisStore accepted an http URL")
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
