package plugins

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// TestStuckPluginHoldsOnlyItsShare: six calls to a plugin that never
// returns, on two workers, leave a worker to another plugin (the loop
// plugin holds at most workers-1), and every loop call, queued or running,
// gets TIMEOUT within its timeout counted from its arrival. Before the
// per-plugin bound and the deadline from arrival, echo waited behind the
// loop calls and the last loop calls answered after three timeouts.
func TestStuckPluginHoldsOnlyItsShare(t *testing.T) {
	const loopTimeout = 2 * time.Second
	loop := clonePlugin(t, "loop", func(m *Manifest) { m.TimeoutMs = int(loopTimeout / time.Millisecond) })
	// Every worker loads echo before it says ready, so an echo call's
	// time is the wait for a worker, not the echo guest's first load
	// (2-3 s under -race on a busy machine, more than the bound below).
	r := startRuntimeDirs(t, Config{Dirs: []string{loop, builtPluginDir(t, "echo")}, Workers: 2, Warm: []string{"echo"}})
	ctx := overall(t, 60*time.Second)

	const loops = 6
	type outcome struct {
		err     error
		elapsed time.Duration
	}
	results := make(chan outcome, loops)
	for range loops {
		go func() {
			start := time.Now()
			_, err := r.Call(ctx, "loop", &abi.Request{})
			results <- outcome{err, time.Since(start)}
		}()
	}
	waitFor(t, "the loop calls to queue", func() bool { s := r.Stats(); return s.Queued+s.Busy == loops })

	var slowestEcho time.Duration
	echoes := 0
	for range 20 {
		start := time.Now()
		if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
			t.Fatalf("echo while loop calls are in flight: %v", err)
		}
		slowestEcho = max(slowestEcho, time.Since(start))
		echoes++
	}
	t.Logf("%d echo calls with %d loop calls in flight, slowest %v", echoes, loops, slowestEcho)
	if slowestEcho > loopTimeout*3/4 {
		t.Errorf("an echo call took %v with loop calls in flight: it waited for the loop plugin's workers", slowestEcho)
	}

	queued := 0
	for range loops {
		o := <-results
		fe, ok := fault.As(o.err)
		if !ok || fe.Code != fault.Timeout {
			t.Fatalf("loop call: err = %v, want TIMEOUT", o.err)
		}
		if fe.Details["reason"] == "queued" {
			queued++
		}
		// The timeout counts from arrival: no loop call waits for another's.
		if o.elapsed > 2*loopTimeout+time.Second {
			t.Errorf("a loop call answered after %v; its timeout is %v from arrival", o.elapsed, loopTimeout)
		}
	}
	if queued == 0 {
		t.Error("no loop call timed out while queued")
	}
	if s := r.Stats(); s.Timeouts != loops || s.Cancellations != 0 {
		t.Errorf("stats = %+v, want %d timeouts and no cancellations", s, loops)
	}
}

// TestCancelStopsCallAnywhere: a caller that gives up stops its call at
// once, whether it is running (the worker is killed and replaced) or
// waiting for a worker, and the next call of another tool is served.
func TestCancelStopsCallAnywhere(t *testing.T) {
	r := startRuntime(t, 1, "loop", "echo")
	outer := overall(t, 60*time.Second)

	// Queued behind the running call (the same plugin, one worker):
	// canceled after 200 ms, while the running call still holds the worker.
	// (Canceled after it, it could reach the replacement worker on a fast
	// machine and be stopped running, a second restart.)
	queued, cancelQueued := context.WithCancel(outer)
	time.AfterFunc(200*time.Millisecond, cancelQueued)
	// Running: the only worker spins; canceled after 400 ms.
	running, cancelRunning := context.WithCancel(outer)
	time.AfterFunc(400*time.Millisecond, cancelRunning)

	var wg sync.WaitGroup
	var queuedErr error
	var queuedTook time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // behind the running call
		start := time.Now()
		_, queuedErr = r.Call(queued, "loop", &abi.Request{})
		queuedTook = time.Since(start)
	}()
	start := time.Now()
	_, err := r.Call(running, "loop", &abi.Request{})
	took := time.Since(start)
	wg.Wait()

	for _, c := range []struct {
		what string
		err  error
		took time.Duration
	}{{"running", err, took}, {"queued", queuedErr, queuedTook}} {
		if fe, ok := fault.As(c.err); !ok || fe.Code != fault.Timeout || fe.Details["reason"] != "canceled" {
			t.Errorf("%s call: err = %v, want TIMEOUT (canceled)", c.what, c.err)
		}
		if c.took > 3*time.Second {
			t.Errorf("%s call returned %v after it started, canceled after at most 400 ms", c.what, c.took)
		}
	}
	// The replacement worker serves the next call of another tool.
	start = time.Now()
	if _, err := r.Call(overall(t, 30*time.Second), "echo", &abi.Request{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("running call returned after %v, queued after %v; next echo served in %v", took, queuedTook, time.Since(start))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the next call waited %v for a worker", d)
	}
	if s := r.Stats(); s.Cancellations != 2 || s.Timeouts != 0 || s.Restarts != 1 {
		t.Errorf("stats = %+v, want 2 cancellations, no timeouts, 1 restart", s)
	}
}

// TestWorkerRecycledAboveRSSLimit: a call that leaves its worker's
// resident memory above the limit gets its answer, and the worker is
// replaced; RSSBytes reports the workers' memory.
func TestWorkerRecycledAboveRSSLimit(t *testing.T) {
	if !rssSupported {
		t.Skip("resident memory is read from /proc")
	}
	const limitMiB = 160
	r := startRuntimeDirs(t, Config{Dirs: []string{builtPluginDir(t, "echo")}, Workers: 1, WorkerRSSLimitMiB: limitMiB, IdleGrowthMiB: -1})
	ctx := overall(t, 60*time.Second)
	before := workerPIDs(r)
	fresh, _ := r.WorkerMemory()
	if fresh <= 0 || fresh >= limitMiB<<20 {
		t.Fatalf("a fresh worker's RSS is %d bytes; the test needs it between 0 and %d MiB", fresh, limitMiB)
	}
	t.Logf("fresh worker: %d MiB", fresh>>20)

	// A small call leaves the worker alone.
	if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
		t.Fatal(err)
	}
	if s := r.Stats(); s.Recycles != 0 {
		t.Fatalf("a worker below the limit was recycled: %+v", s)
	}
	// 64 MiB of source: copied into the worker's heap and the guest's memory.
	big := bytes.Repeat([]byte("x = 1\n"), (64<<20)/6)
	res, err := r.Call(ctx, "echo", &abi.Request{Files: []abi.File{{URI: "file:///w/big.py", Path: "big.py", Source: big}}})
	if err != nil || !bytes.Contains(res, []byte(`"sourceLen":`)) {
		t.Fatalf("big echo: %.100s, %v", res, err)
	}
	waitFor(t, "the replacement worker", func() bool {
		after := workerPIDs(r)
		return len(after) == 1 && after[0] != before[0] && r.Stats().Workers == 1
	})
	s := r.Stats()
	if s.Recycles != 1 || s.Restarts != 0 {
		t.Errorf("stats = %+v, want 1 recycle and no restart", s)
	}
	if total, largest := r.WorkerMemory(); total <= 0 || total >= limitMiB<<20 || largest != total {
		t.Errorf("RSS after the recycle: %d MiB (largest worker %d MiB)", total>>20, largest>>20)
	} else {
		t.Logf("after the recycle: %d MiB", total>>20)
	}
	if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
		t.Fatalf("call after the recycle: %v", err)
	}
}

// TestIdleWorkerRecycled: an idle worker whose resident memory grew by
// more than the idle bound since it started is replaced; a fresh one,
// however large, is not.
func TestIdleWorkerRecycled(t *testing.T) {
	if !rssSupported {
		t.Skip("resident memory is read from /proc")
	}
	const idleAfter = 200 * time.Millisecond
	r := startRuntimeDirs(t, Config{Dirs: []string{builtPluginDir(t, "echo")}, Workers: 1,
		WorkerRSSLimitMiB: -1, IdleGrowthMiB: 64, IdleRecycleAfter: idleAfter})
	ctx := overall(t, 60*time.Second)
	before := workerPIDs(r)
	time.Sleep(5 * idleAfter)
	if s := r.Stats(); s.Recycles != 0 {
		t.Fatalf("a fresh idle worker was recycled: %+v", s)
	}
	// 64 MiB of source grows the worker by far more than 64 MiB.
	big := bytes.Repeat([]byte("x = 1\n"), (64<<20)/6)
	if _, err := r.Call(ctx, "echo", &abi.Request{Files: []abi.File{{URI: "file:///w/big.py", Path: "big.py", Source: big}}}); err != nil {
		t.Fatal(err)
	}
	grown, _ := r.WorkerMemory()
	waitFor(t, "an idle recycle", func() bool { return r.Stats().Recycles == 1 })
	waitFor(t, "the replacement worker", func() bool {
		after := workerPIDs(r)
		return len(after) == 1 && after[0] != before[0] && r.Stats().Workers == 1
	})
	now, _ := r.WorkerMemory()
	t.Logf("worker grown to %d MiB; replaced by one of %d MiB", grown>>20, now>>20)
	if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
		t.Fatalf("call after an idle recycle: %v", err)
	}
}

func builtPluginDir(t *testing.T, name string) string {
	return builtPlugins(t) + "/" + name
}

// workerPIDs lists the live workers' process ids.
func workerPIDs(r *Runtime) []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var pids []int
	for w := range r.live {
		pids = append(pids, w.pid)
	}
	return pids
}
