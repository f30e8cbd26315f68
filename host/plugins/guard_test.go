package plugins

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// overall bounds a test that exercises a guest which never returns, so a
// broken deadline fails the test instead of hanging it.
func overall(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLoopStoppedAtDeadline(t *testing.T) {
	r := startRuntime(t, 2, "echo", "loop")
	ctx := overall(t, 60*time.Second)
	const budget = 1500 * time.Millisecond

	// While the loop spins, the other worker keeps serving and the host's
	// GC completes: the guest runs in another process.
	stopEcho := make(chan struct{})
	var echoes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stopEcho:
				return
			default:
			}
			if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
				t.Errorf("echo during loop: %v", err)
				return
			}
			echoes.Add(1)
		}
	}()
	gcDone := make(chan time.Duration, 1)
	go func() {
		time.Sleep(300 * time.Millisecond) // let the loop start
		start := time.Now()
		runtime.GC()
		gcDone <- time.Since(start)
	}()

	callCtx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	start := time.Now()
	_, err := r.Call(callCtx, "loop", &abi.Request{})
	elapsed := time.Since(start)
	close(stopEcho)
	wg.Wait()

	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.Timeout {
		t.Fatalf("loop: err = %v, want TIMEOUT", err)
	}
	if fe.Details["plugin"] != "loop" || fe.Details["timeoutMs"] == nil {
		t.Errorf("TIMEOUT details = %v, want plugin and timeoutMs", fe.Details)
	}
	if elapsed < budget || elapsed > budget+2*time.Second {
		t.Errorf("loop stopped after %v, want about %v", elapsed, budget)
	}
	select {
	case d := <-gcDone:
		if d > 2*time.Second { // without workers it would never finish
			t.Errorf("host GC during the loop took %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("host GC did not complete during the guest loop")
	}
	if echoes.Load() == 0 {
		t.Error("no echo call was served while the loop ran")
	}
	t.Logf("echo calls served during the loop: %d", echoes.Load())

	// The killed worker is replaced and the pool is whole again.
	waitFor(t, "the replacement worker", func() bool { return r.Stats().Workers == 2 })
	if s := r.Stats(); s.Timeouts != 1 || s.Restarts != 1 {
		t.Errorf("stats = %+v, want 1 timeout and 1 restart", s)
	}
	res, err := r.Call(ctx, "spin", &abi.Request{Arguments: json.RawMessage(`{"n":1000}`)})
	if err != nil || !strings.Contains(string(res), `"v"`) {
		t.Fatalf("spin after the restart: %s, %v", res, err)
	}
}

func TestManifestTimeout(t *testing.T) {
	// The manifest's timeoutMs bounds a call whose ctx has a later deadline.
	dir := clonePlugin(t, "loop", func(m *Manifest) { m.TimeoutMs = 300 })
	r := startRuntimeDirs(t, Config{Dirs: []string{dir}, Workers: 1})
	start := time.Now()
	_, err := r.Call(overall(t, 60*time.Second), "loop", &abi.Request{})
	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.Timeout || fe.Details["timeoutMs"] != int64(300) {
		t.Fatalf("err = %#v, want TIMEOUT with timeoutMs 300", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("stopped after %v, want about 300ms", d)
	}
}

func TestGuestFailuresLeaveWorkerServing(t *testing.T) {
	// One worker, so every call lands on the worker that saw the failure.
	r := startRuntime(t, 1, "oom", "panic")
	tests := []struct {
		tool   string
		reason string // in details.reason
		trap   bool
	}{
		{"oom", "out of memory", true},
		{"ok", "", false},
		{"oom", "out of memory", true}, // a fresh instance fails the same clean way
		{"panic", "boom", false},
		{"ok", "", false},
		{"nil_deref", "nil pointer dereference", false},
		{"ok", "", false},
	}
	for i, tt := range tests {
		res, err := r.Call(overall(t, 60*time.Second), tt.tool, &abi.Request{})
		if tt.reason == "" {
			if err != nil || string(res) != `"ok"` {
				t.Fatalf("call %d %s: %s, %v", i, tt.tool, res, err)
			}
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.ServerUnavailable {
			t.Fatalf("call %d %s: err = %v, want SERVER_UNAVAILABLE", i, tt.tool, err)
		}
		if reason, _ := fe.Details["reason"].(string); !strings.Contains(reason, tt.reason) || fe.Details["plugin"] == nil {
			t.Errorf("call %d %s: details = %v, want reason containing %q", i, tt.tool, fe.Details, tt.reason)
		}
	}
	if s := r.Stats(); s.Traps != 2 || s.Restarts != 0 || s.Crashes != 0 {
		t.Errorf("stats = %+v, want 2 traps, no restarts or crashes", s)
	}
}

func TestWorkerCrash(t *testing.T) {
	r := startRuntime(t, 1, "loop")
	pid := func() int {
		r.mu.Lock()
		defer r.mu.Unlock()
		for w := range r.live {
			return w.pid
		}
		return 0
	}
	// Killed from outside during a call: the call runs again on a fresh
	// worker; killed there too, it fails and says why.
	ctx := overall(t, 60*time.Second)
	var victim int
	go func() {
		killed := map[int]bool{}
		for len(killed) < 2 && ctx.Err() == nil {
			if p := pid(); p != 0 && !killed[p] && r.Stats().Busy == 1 {
				time.Sleep(200 * time.Millisecond)
				syscall.Kill(p, syscall.SIGKILL)
				killed[p] = true
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	_, err := r.Call(ctx, "loop", &abi.Request{})
	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.ServerUnavailable || !strings.Contains(fe.Details["reason"].(string), "killed") {
		t.Fatalf("err = %v, want SERVER_UNAVAILABLE naming the kill", err)
	}
	// Killed while idle: the next call, at once or a moment later, gets
	// a fresh worker and succeeds. At once, the runtime has usually not
	// seen the exit yet and writes the call to the dead worker's pipe:
	// the call never ran, so it goes to another worker.
	for i, pause := range []time.Duration{0, 0, 0, 100 * time.Millisecond} {
		waitFor(t, "the replacement worker", func() bool { return r.Stats().Workers == 1 && pid() != victim && pid() != 0 })
		victim = pid()
		syscall.Kill(victim, syscall.SIGKILL)
		time.Sleep(pause)
		if _, err := r.Call(ctx, "spin", &abi.Request{}); err != nil {
			t.Fatalf("call %d after an idle worker died: %v", i, err)
		}
	}
	if s := r.Stats(); s.Crashes != 6 || s.Restarts != 6 {
		t.Errorf("stats = %+v, want 6 crashes and 6 restarts", s)
	}
}

func TestQueueRespectsContext(t *testing.T) {
	r := startRuntime(t, 1, "loop")
	ctx := overall(t, 60*time.Second)
	busy, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	go r.Call(busy, "loop", &abi.Request{})
	waitFor(t, "the loop to occupy the worker", func() bool { return r.Stats().Busy == 1 })
	queued, cancel2 := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel2()
	_, err := r.Call(queued, "spin", &abi.Request{})
	if fe, ok := fault.As(err); !ok || fe.Code != fault.Timeout || fe.Details["reason"] != "queued" {
		t.Fatalf("err = %v, want TIMEOUT while queued", err)
	}
}

func TestCloseFailsCalls(t *testing.T) {
	r := startRuntime(t, 1, "loop")
	ctx := overall(t, 60*time.Second)
	errc := make(chan error, 1)
	go func() {
		_, err := r.Call(ctx, "loop", &abi.Request{})
		errc <- err
	}()
	waitFor(t, "the loop to start", func() bool { return r.Stats().Busy == 1 })
	r.Close()
	for _, err := range []error{<-errc, func() error { _, err := r.Call(ctx, "spin", &abi.Request{}); return err }()} {
		if fe, ok := fault.As(err); !ok || fe.Code != fault.ServerUnavailable || !strings.Contains(fe.Message, "closed") {
			t.Errorf("err = %v, want SERVER_UNAVAILABLE (closed)", err)
		}
	}
}

func TestWorkerCommandMustDivert(t *testing.T) {
	// /bin/cat echoes the init frame back: not a ready frame.
	_, err := Start(context.Background(), Config{Dirs: []string{filepath.Join(builtPlugins(t), "echo")}, CacheDir: testCacheDir(),
		Workers: 1, Logger: testLogger(t), WorkerCommand: []string{"/bin/cat"}})
	if err == nil || !strings.Contains(err.Error(), "WorkerMain") {
		t.Fatalf("err = %v, want a hint about WorkerMain", err)
	}
	t.Setenv(workerEnv, "1")
	if _, err := Start(context.Background(), Config{}); err == nil || !strings.Contains(err.Error(), "inside a plugin worker") {
		t.Fatalf("err = %v, want a refusal inside a worker", err)
	}
}

// TestSpareStandsInForOverrun: with two workers, a stuck plugin holding
// one and a slow call of another plugin holding the other, a third
// plugin's call is still served: the stuck call overran, so a spare
// worker stands in for it. When the stuck call ends its worker is retired
// and the pool is back to its size.
func TestSpareStandsInForOverrun(t *testing.T) {
	stuck := clonePlugin(t, "loop", func(m *Manifest) { m.Name, m.Tools = "stuck", []string{"loop"} })
	busy := clonePlugin(t, "loop", func(m *Manifest) { m.Name, m.Tools = "busy", []string{"spin"} })
	r := startRuntimeDirs(t, Config{Dirs: []string{stuck, busy, filepath.Join(builtPlugins(t), "echo")},
		Workers: 2, MaxWorkersPerPlugin: 1, SpareAfter: 200 * time.Millisecond})
	ctx := overall(t, 2*time.Minute)

	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var loopErr, spinErr error
	var spinDone atomic.Bool
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, loopErr = r.Call(stop, "loop", &abi.Request{})
	}()
	waitFor(t, "the stuck call to hold a worker", func() bool { return r.Stats().Busy == 1 })
	go func() {
		defer wg.Done()
		_, spinErr = r.Call(stop, "spin", &abi.Request{Arguments: json.RawMessage(`{"n":100000000000}`)})
		spinDone.Store(true)
	}()
	waitFor(t, "the slow call to hold the other worker", func() bool { return r.Stats().Busy == 2 })

	echoCtx, echoCancel := context.WithTimeout(ctx, 30*time.Second)
	defer echoCancel()
	if _, err := r.Call(echoCtx, "echo", &abi.Request{}); err != nil {
		t.Fatalf("echo with both workers held: %v (no spare stood in)", err)
	}
	if spinDone.Load() {
		t.Fatalf("the slow call ended (%v) before echo was served: the test proves nothing", spinErr)
	}
	if s := r.Stats(); s.Spares != 1 {
		t.Errorf("stats = %+v, want exactly one spare (one call waited)", s)
	}
	cancel()
	wg.Wait()
	for _, err := range []error{loopErr, spinErr} {
		if fe, ok := fault.As(err); !ok || fe.Code != fault.Timeout {
			t.Errorf("canceled call: err = %v, want TIMEOUT", err)
		}
	}
	// Both held workers were killed: the spare succeeded the stuck call's,
	// the slow call's is replaced; then two workers serve, not three.
	waitFor(t, "the pool back to its size", func() bool { s := r.Stats(); return s.Workers == 2 && s.Busy == 0 })
	time.Sleep(300 * time.Millisecond)
	if s := r.Stats(); s.Workers != 2 {
		t.Errorf("workers = %d after the calls ended, want 2", s.Workers)
	}
	if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
		t.Fatalf("echo after: %v", err)
	}
}

// TestLentWorkersLeaveRoomForOthers: a plugin whose calls answered
// promptly is lent the second worker past its bound of one, so two of its
// calls run at once; when both then loop, another plugin's call arriving
// is still served within its deadline (a spare stands in for a lent call
// that overran), and the looping plugin is lent nothing more: the next
// calls of the other plugin find the worker idle without another spare.
func TestLentWorkersLeaveRoomForOthers(t *testing.T) {
	r := startRuntimeDirs(t, Config{Dirs: []string{builtPluginDir(t, "loop"), builtPluginDir(t, "echo")},
		Workers: 2, MaxWorkersPerPlugin: 1, SpareAfter: 300 * time.Millisecond})
	ctx := overall(t, 2*time.Minute)
	trusted := func() bool {
		r.pool.mu.Lock()
		defer r.pool.mu.Unlock()
		return r.pool.trusted("loop")
	}
	// A worker's first call loads the plugin, which may overrun on a busy
	// machine: call until one answers in time.
	for i := 0; !trusted(); i++ {
		if i == 20 {
			t.Fatal("20 short spin calls and none answered before SpareAfter")
		}
		if _, err := r.Call(ctx, "spin", &abi.Request{Arguments: json.RawMessage(`{"n":1000}`)}); err != nil {
			t.Fatalf("spin: %v", err)
		}
	}

	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	loopErrs := make([]error, 2)
	for i := range loopErrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, loopErrs[i] = r.Call(stop, "loop", &abi.Request{})
		}()
	}
	waitFor(t, "both workers lent to the loop plugin", func() bool { return r.Stats().Busy == 2 })

	for i := range 5 {
		echoCtx, echoCancel := context.WithTimeout(ctx, 20*time.Second)
		_, err := r.Call(echoCtx, "echo", &abi.Request{})
		echoCancel()
		if err != nil {
			t.Fatalf("echo %d with both workers held by the loop plugin: %v", i, err)
		}
	}
	if s := r.Stats(); s.Spares != 1 {
		t.Errorf("stats = %+v, want exactly one spare: the looping plugin must not be lent the spare", s)
	}
	cancel()
	wg.Wait()
	for _, err := range loopErrs {
		if fe, ok := fault.As(err); !ok || fe.Code != fault.Timeout {
			t.Errorf("canceled loop call: err = %v, want TIMEOUT", err)
		}
	}
}
