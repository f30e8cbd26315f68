package plugins

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// The defaults of Config, also the defaults of `pyws serve`'s flags and
// the ones docs/plugin-abi.md states.
const (
	// DefaultTimeout bounds a call whose manifest sets no timeoutMs.
	DefaultTimeout = 30 * time.Second
	// DefaultMemoryLimitMiB caps a guest's linear memory when its
	// manifest sets no memoryLimitMiB.
	DefaultMemoryLimitMiB = 512
	// DefaultWorkerRSSLimitMiB: a worker whose resident memory is above
	// this after a call is replaced.
	DefaultWorkerRSSLimitMiB = 512
	// DefaultIdleGrowthMiB and DefaultIdleRecycleAfter: a worker idle for
	// DefaultIdleRecycleAfter whose resident memory grew by more than
	// DefaultIdleGrowthMiB since it became ready is replaced.
	DefaultIdleGrowthMiB    = 64
	DefaultIdleRecycleAfter = time.Minute
	// DefaultSpareAfter: a call running this long while other calls that
	// could run wait for a worker gets a spare worker to stand in for it.
	DefaultSpareAfter = time.Second
)

// Config configures a Runtime. Zero fields take the documented defaults.
type Config struct {
	// Dirs are searched in order; a plugin in a later directory overrides
	// earlier ones for the tools it serves. Each entry is a plugin
	// directory (holding manifest.json and plugin.wasm) or a parent of
	// plugin directories.
	Dirs []string
	// CacheDir holds wazero's compiled code, shared by the kernel and its
	// workers. Default: <user cache dir>/pyws/wazero.
	CacheDir string
	// Workers is the number of worker processes, each running one call at
	// a time. Default: GOMAXPROCS.
	Workers int
	// MaxWorkersPerPlugin bounds the workers one plugin's calls hold at
	// once, so a plugin that loops or crawls leaves workers to the others.
	// While no call under its bound waits, an idle worker is lent past it
	// to a plugin whose calls answer before SpareAfter (none lent when
	// spares are off). Default: Workers-1 (at least 1).
	MaxWorkersPerPlugin int
	// DefaultTimeout bounds a call whose manifest sets no timeoutMs,
	// counted from the call's arrival. Default: DefaultTimeout.
	DefaultTimeout time.Duration
	// MemoryLimitMiB caps a guest's memory when its manifest sets no
	// memoryLimitMiB. Default: DefaultMemoryLimitMiB.
	MemoryLimitMiB int
	// WorkerRSSLimitMiB: a worker whose resident set is larger after a
	// call is replaced in the background. Default:
	// DefaultWorkerRSSLimitMiB; negative: never. Linux only.
	WorkerRSSLimitMiB int
	// IdleGrowthMiB and IdleRecycleAfter: a worker idle for
	// IdleRecycleAfter whose resident set grew by more than IdleGrowthMiB
	// since it became ready is replaced. Growth, not size: a fresh
	// worker's size depends on the plugins it holds, and replacing a
	// worker with one just as large gains nothing. Defaults:
	// DefaultIdleGrowthMiB and DefaultIdleRecycleAfter; negative: never.
	// Linux only.
	IdleGrowthMiB    int
	IdleRecycleAfter time.Duration
	// SpareAfter: a call that has run this long while calls of other
	// plugins (or of its own, under its bound) wait for a worker gets a
	// spare: a new worker starts at once and joins the pool, and the
	// overrunning call's worker is retired when the call ends, so a slow
	// or stuck plugin costs the others no capacity for longer than
	// SpareAfter. At most Workers spares stand in at once. Default:
	// DefaultSpareAfter; negative: never.
	SpareAfter time.Duration
	// AnswerMargin is how much earlier than the kill a worker's own soft
	// budget ends, so that a parse that runs out can still answer
	// PARSE_ERROR instead of dying as a TIMEOUT. Default: a fifth of the
	// call's budget, at least half a second (at most half the budget). A
	// heavily loaded host may need more; it is clamped below the budget.
	AnswerMargin time.Duration
	// Warm names tools whose plugins every worker loads before it says
	// ready, as if called already: those the caller calls at once (the
	// index build's). Their first calls then do not each load the plugin
	// in turn (0.1-0.4 s each, busy), one worker after the other.
	Warm []string
	// Logger receives the kernel's and the workers' logs (guest logs
	// included). Default: slog.Default().
	Logger *slog.Logger
	// WorkerCommand starts a worker. Default: this executable with the
	// argument WorkerCommand; the binary must call WorkerMain for it (or
	// RunWorkerIfRequested from TestMain).
	WorkerCommand []string
}

func (c *Config) setDefaults() error {
	if c.CacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		c.CacheDir = filepath.Join(base, "pyws", "wazero")
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.MaxWorkersPerPlugin <= 0 {
		c.MaxWorkersPerPlugin = max(1, c.Workers-1)
	}
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = DefaultTimeout
	}
	if c.MemoryLimitMiB <= 0 {
		c.MemoryLimitMiB = DefaultMemoryLimitMiB
	}
	if c.MemoryLimitMiB > maxMemoryLimitMiB {
		return fmt.Errorf("plugins: MemoryLimitMiB %d exceeds %d", c.MemoryLimitMiB, maxMemoryLimitMiB)
	}
	if c.WorkerRSSLimitMiB == 0 {
		c.WorkerRSSLimitMiB = DefaultWorkerRSSLimitMiB
	}
	if c.IdleGrowthMiB == 0 {
		c.IdleGrowthMiB = DefaultIdleGrowthMiB
	}
	if c.IdleRecycleAfter == 0 {
		c.IdleRecycleAfter = DefaultIdleRecycleAfter
	}
	if c.SpareAfter == 0 {
		c.SpareAfter = DefaultSpareAfter
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if len(c.WorkerCommand) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("plugins: find own executable for workers: %w", err)
		}
		c.WorkerCommand = []string{exe, WorkerCommand}
	}
	return nil
}

// Stats is a snapshot of the runtime for health checks and metrics.
type Stats struct {
	Workers       int    // workers ready or busy
	Busy          int    // workers running a call
	Queued        int    // calls waiting for a worker
	Restarts      uint64 // workers replaced after a timeout, cancellation or crash
	Recycles      uint64 // workers replaced because their resident memory was too large
	Spares        uint64 // spare workers started to stand in for an overrunning call
	Calls         uint64
	Timeouts      uint64 // calls stopped at their deadline, queued or running
	Cancellations uint64 // calls whose caller gave up, queued or running
	Traps         uint64 // guest traps, exits and out-of-memory (worker survived)
	Crashes       uint64 // workers that died on their own
}

// Runtime runs plugin calls in a bounded pool of worker processes. It is
// safe for concurrent use.
type Runtime struct {
	cfg     Config
	log     *slog.Logger
	plugins []*plugin
	tools   map[string]*plugin

	pool   workerPool
	ctx    context.Context // canceled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu   sync.Mutex
	live map[*worker]struct{} // started and not yet reaped

	ready, busy, spares                                                        atomic.Int64 // spares: standing in now
	restarts, recycles, spared, calls, timeouts, cancellations, traps, crashes atomic.Uint64
}

// Start loads and verifies the plugins of cfg.Dirs, compiles them into
// the disk cache, and starts cfg.Workers workers. It returns once every
// worker serves, or with the first error.
func Start(ctx context.Context, cfg Config) (*Runtime, error) {
	if os.Getenv(workerEnv) != "" {
		// A binary that does not divert to WorkerMain would run its own
		// main (or tests) as a worker and start workers of its own.
		return nil, errors.New("plugins: Start called inside a plugin worker: the binary must call plugins.WorkerMain for " + WorkerCommand + " (tests: plugins.RunWorkerIfRequested in TestMain)")
	}
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	plugins, tools, err := load(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	for _, t := range cfg.Warm {
		if p := tools[t]; p != nil {
			p.called.Store(true)
		}
	}
	r := &Runtime{cfg: cfg, log: cfg.Logger, plugins: plugins, tools: tools,
		live: map[*worker]struct{}{}}
	r.pool.maxPerPlugin = cfg.MaxWorkersPerPlugin
	r.pool.lend = cfg.SpareAfter > 0 // a lent call that overruns is covered by a spare
	r.ctx, r.cancel = context.WithCancel(context.Background())

	errs := make(chan error, cfg.Workers)
	for range cfg.Workers {
		go func() {
			w, err := r.startWorker(ctx)
			if err == nil {
				r.ready.Add(1)
				r.pool.put(w)
			}
			errs <- err
		}()
	}
	for range cfg.Workers {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	if cfg.IdleGrowthMiB > 0 && cfg.IdleRecycleAfter > 0 && rssSupported {
		r.wg.Add(1)
		go r.recycleIdle()
	}
	r.log.Info("plugin runtime started", "workers", cfg.Workers, "plugins", len(plugins), "tools", len(tools),
		"maxWorkersPerPlugin", cfg.MaxWorkersPerPlugin)
	return r, nil
}

// Tools returns the tools served, sorted.
func (r *Runtime) Tools() []string {
	return sortedKeys(r.tools)
}

// Stats returns current counters.
func (r *Runtime) Stats() Stats {
	return Stats{
		Workers: int(r.ready.Load()), Busy: int(r.busy.Load()), Queued: r.pool.queued(),
		Restarts: r.restarts.Load(), Recycles: r.recycles.Load(), Spares: r.spared.Load(), Calls: r.calls.Load(),
		Timeouts: r.timeouts.Load(), Cancellations: r.cancellations.Load(),
		Traps: r.traps.Load(), Crashes: r.crashes.Load(),
	}
}

// WorkerMemory returns the resident memory of all live workers and of
// the largest one, read from /proc now (zeros off Linux).
func (r *Runtime) WorkerMemory() (total, largest int64) {
	r.mu.Lock()
	pids := make([]int, 0, len(r.live))
	for w := range r.live {
		pids = append(pids, w.pid)
	}
	r.mu.Unlock()
	for _, pid := range pids {
		if rss, ok := residentBytes(pid); ok {
			total += rss
			largest = max(largest, rss)
		}
	}
	return total, largest
}

// Close stops every worker, waiting for none of their calls; calls in
// flight fail with SERVER_UNAVAILABLE.
func (r *Runtime) Close() error {
	r.mu.Lock()
	r.cancel() // under mu: nothing adds to wg once it sees r.ctx done
	for w := range r.live {
		w.kill()
	}
	r.mu.Unlock()
	r.wg.Wait()
	for _, w := range r.pool.drain() { // busy ones are retired by their calls
		w.retire()
	}
	return nil
}

// Call runs tool on req in a worker and returns the tool's result. Every
// error is a *fault.Error:
//
//   - the tool's own error, verbatim, when its code is in the spec's
//     catalogue;
//   - TIMEOUT (details: plugin, timeoutMs) when the call is not answered
//     within the plugin's timeout or ctx's deadline, whichever comes first,
//     both counted from Call's entry, time queued for a worker included
//     (details.reason "queued" when it never got one); a running worker is
//     killed and replaced in the background;
//   - TIMEOUT (details: plugin, reason "canceled") when ctx is canceled,
//     queued or running; a running worker is killed and replaced;
//   - SERVER_UNAVAILABLE (details: plugin, reason) when the plugin failed:
//     a trap, a panic, running out of memory, a worker crash, an error code
//     outside the catalogue, or a closed runtime.
//
// Waiting calls are served per tenant (WithTenant) in turn, and one
// plugin's calls hold at most Config.MaxWorkersPerPlugin workers.
func (r *Runtime) Call(ctx context.Context, tool string, req *abi.Request) (json.RawMessage, error) {
	arrival := time.Now()
	p, ok := r.tools[tool]
	if !ok {
		return nil, fault.New(fault.ServerUnavailable, fault.Details{"tool": tool, "reason": "no plugin serves this tool"}, "no plugin serves tool %q", tool)
	}
	r.calls.Add(1)
	first := !p.called.Swap(true)
	deadline := arrival.Add(p.timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	inForce := deadline.Sub(arrival) // the budget TIMEOUT details report
	// callCtx ends at the deadline or when the caller gives up: either
	// stops the call wherever it is, in the queue or in a worker.
	callCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()

	rq := *req
	rq.Tool = tool
	msg, err := abi.EncodeRequest(&rq)
	if err != nil {
		return nil, unavailable(p.manifest.Name, "%v", err)
	}
	// The worker that last parsed the call's file may still hold its tree
	// and parse the new version incrementally.
	var file string
	if len(req.Files) > 0 && req.Files[0].Source != nil && p.spec.NeedsTree {
		file = req.Files[0].URI
	}
	var (
		w              *worker
		status         byte
		payload        []byte
		killed, spared bool
	)
	for attempt := 0; ; attempt++ {
		var ferr *fault.Error
		if w, ferr = r.acquire(ctx, callCtx, p, file, inForce); ferr != nil {
			return nil, ferr
		}
		if first {
			first = false
			w.loaded[p.index].Store(true)
			r.loadElsewhere(p)
		}
		budget := time.Until(deadline)
		if budget <= 0 || callCtx.Err() != nil {
			r.release(p, w)
			r.busy.Add(-1)
			return nil, r.stopped(ctx, p, inForce, "queued")
		}
		// wazero cannot interrupt compiled guest code (see RATIONALE.md), so
		// the process is the unit we stop.
		stopKill := context.AfterFunc(callCtx, w.kill)
		// The worker's own (soft) budget ends earlier than the kill, so a
		// parse that runs out reports itself as PARSE_ERROR instead of dying
		// as a TIMEOUT: a fifth of the budget earlier, and at least half a
		// second (at most half the budget) for a busy machine to stop the
		// parse and answer.
		margin := max(budget/5, min(budget/2, 500*time.Millisecond))
		if r.cfg.AnswerMargin > 0 {
			margin = min(r.cfg.AnswerMargin, budget*9/10)
		}
		overrun := r.watchOverrun(p, w)
		status, payload, err = w.roundTrip(p.index, budget-margin, msg)
		if err == nil {
			w.loaded[p.index].Store(true)
		}
		killed = !stopKill()
		spared = overrun.end()
		if attempt == 0 && err != nil && !killed && !spared && r.ctx.Err() == nil && callCtx.Err() == nil {
			// The worker died under the call without answering, and not
			// by the runtime's hand: killed from outside (the kernel's
			// OOM killer, an operator), or dead while idle before its
			// exit was seen (the call then never reached it). A plugin
			// call is a function of its request, so it runs again on
			// another worker, once and within its deadline; a call that
			// kills its worker each time fails the second time.
			r.crashes.Add(1)
			r.log.Error("plugin worker died under a call; the call goes to another worker", "plugin", p.manifest.Name, "tool", tool, "pid", w.pid, "reason", w.exitReason())
			r.replace(p, w)
			r.busy.Add(-1)
			continue
		}
		break
	}
	defer r.busy.Add(-1)

	if killed || err != nil {
		if spared {
			r.retireStoodIn(p, w, true)
		} else {
			r.replace(p, w)
		}
		if err == nil { // the answer beat the kill: keep it
			return r.decodeResult(p, status, payload)
		}
		switch {
		case r.ctx.Err() != nil:
			return nil, unavailable(p.manifest.Name, "plugin runtime closed")
		case killed:
			return nil, r.stopped(ctx, p, inForce, "")
		default:
			r.crashes.Add(1)
			reason := w.exitReason()
			r.log.Error("plugin worker died during a call", "plugin", p.manifest.Name, "tool", tool, "pid", w.pid, "reason", reason)
			return nil, unavailable(p.manifest.Name, "plugin worker died: %s", reason)
		}
	}
	if spared {
		r.retireStoodIn(p, w, false)
		return r.decodeResult(p, status, payload)
	}
	if p.spec.NeedsTree {
		// Every file this call parsed now has its tree in w's caches
		// (an index batch, a diagnostics call's context modules).
		for i := range req.Files {
			if req.Files[i].Source != nil {
				r.pool.remember(req.Files[i].URI, w)
			}
		}
	}
	r.finish(p, w)
	return r.decodeResult(p, status, payload)
}

// stopped counts and describes a call stopped before it was answered:
// canceled by its caller, or out of time (reason "queued" when it never
// reached a worker).
func (r *Runtime) stopped(ctx context.Context, p *plugin, inForce time.Duration, reason string) *fault.Error {
	if errors.Is(ctx.Err(), context.Canceled) {
		r.cancellations.Add(1)
		return fault.New(fault.Timeout, fault.Details{"plugin": p.manifest.Name, "reason": "canceled"}, "plugin call canceled: %v", context.Cause(ctx))
	}
	r.timeouts.Add(1)
	f := timeoutFault(p, inForce)
	if reason != "" {
		f.Details["reason"] = reason
	}
	return f
}

// acquire waits for a worker until callCtx ends. A worker that died while
// idle is replaced, not handed out.
func (r *Runtime) acquire(ctx, callCtx context.Context, p *plugin, file string, inForce time.Duration) (*worker, *fault.Error) {
	tenant := TenantOf(ctx)
	for {
		w, wt := r.pool.take(p.manifest.Name, file, tenant)
		if w == nil {
			select {
			case w = <-wt.got:
			case <-r.ctx.Done():
				r.pool.leave(wt)
				return nil, unavailable(p.manifest.Name, "plugin runtime closed")
			case <-callCtx.Done():
				r.pool.leave(wt)
				return nil, r.stopped(ctx, p, inForce, "queued")
			}
		}
		r.busy.Add(1)
		select {
		case <-w.exited:
			r.crashes.Add(1)
			r.log.Error("plugin worker died while idle", "pid", w.pid, "reason", w.exitReason())
			r.busy.Add(-1)
			r.replace(p, w)
			continue
		default:
			return w, nil
		}
	}
}

// release gives w and p's slot back to the pool.
func (r *Runtime) release(p *plugin, w *worker) {
	r.pool.done(p.manifest.Name, w)
}

// finish ends a call that w answered: w goes back to the pool, unless its
// resident memory grew past the limit, then it is replaced.
func (r *Runtime) finish(p *plugin, w *worker) {
	if limit := int64(r.cfg.WorkerRSSLimitMiB) << 20; limit > 0 {
		if rss, ok := residentBytes(w.pid); ok && rss > limit {
			r.log.Info("plugin worker recycled: resident memory above the limit", "pid", w.pid,
				"rssMiB", rss>>20, "limitMiB", r.cfg.WorkerRSSLimitMiB, "plugin", p.manifest.Name)
			r.recycles.Add(1)
			r.respawn(w, p.manifest.Name)
			return
		}
	}
	r.release(p, w)
}

// recycleIdle replaces workers that stayed idle for IdleRecycleAfter
// with IdleGrowthMiB more resident memory than when they started: memory
// a guest instance, the parser or the Go heap grew to once is never
// returned otherwise.
func (r *Runtime) recycleIdle() {
	defer r.wg.Done()
	after := r.cfg.IdleRecycleAfter
	tick := time.NewTicker(min(max(after/4, 10*time.Millisecond), 15*time.Second))
	defer tick.Stop()
	growth := int64(r.cfg.IdleGrowthMiB) << 20
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-tick.C:
		}
		for _, w := range r.pool.idleLongerThan(after) {
			rss, ok := residentBytes(w.pid)
			if !ok || rss-w.readyRSS <= growth || !r.pool.takeIdle(w, after) {
				continue
			}
			r.log.Info("idle plugin worker recycled: resident memory grew since it started", "pid", w.pid,
				"rssMiB", rss>>20, "readyMiB", w.readyRSS>>20, "growthLimitMiB", r.cfg.IdleGrowthMiB)
			r.recycles.Add(1)
			r.respawn(w, "")
		}
	}
}

// replace retires w after a failure and starts its successor in the
// background. p's slot stays taken until the successor is ready: while a
// worker of p is being replaced, p's queued calls must not take a worker
// the other plugins are using.
func (r *Runtime) replace(p *plugin, w *worker) {
	if r.ctx.Err() == nil {
		r.restarts.Add(1)
	}
	r.respawn(w, p.manifest.Name)
}

// respawn retires w and starts its successor in the background. No call
// holds w; slotOf names the plugin whose slot w's successor frees when it
// joins the pool ("" for none).
func (r *Runtime) respawn(w *worker, slotOf string) {
	r.pool.forget(w)
	w.retire()
	r.ready.Add(-1)
	join := func(nw *worker) {
		switch {
		case slotOf != "":
			r.pool.done(slotOf, nw)
		case nw != nil:
			r.pool.put(nw)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		join(nil)
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		join(r.startWithRetry())
	}()
}

// startWithRetry starts a worker, retrying with backoff until one serves
// or the runtime closes (then nil). Called with r.wg held for it.
func (r *Runtime) startWithRetry() *worker {
	backoff := 50 * time.Millisecond
	for r.ctx.Err() == nil {
		start := time.Now()
		nw, err := r.startWorker(r.ctx)
		if err == nil {
			r.log.Debug("plugin worker started", "pid", nw.pid, "took", time.Since(start))
			r.ready.Add(1)
			return nw
		}
		if r.ctx.Err() != nil {
			break
		}
		r.log.Error("plugin worker failed to start; retrying", "error", err, "in", backoff)
		select {
		case <-time.After(backoff):
		case <-r.ctx.Done():
		}
		backoff = min(2*backoff, 5*time.Second)
	}
	return nil
}

func (r *Runtime) decodeResult(p *plugin, status byte, payload []byte) (json.RawMessage, error) {
	name := p.manifest.Name
	switch status {
	case resultOK:
		resp, err := abi.DecodeResponse(payload)
		if err != nil {
			r.log.Warn("plugin sent a malformed response", "plugin", name, "error", err)
			return nil, unavailable(name, "plugin sent a malformed response")
		}
		if e := resp.Error; e != nil {
			if knownCodes[e.Code] {
				return nil, &fault.Error{Code: e.Code, Message: e.Message, Details: orEmpty(e.Details)}
			}
			r.log.Warn("plugin failed", "plugin", name, "code", e.Code, "message", e.Message, "details", e.Details)
			return nil, unavailable(name, "plugin error %s: %s", e.Code, firstLine(e.Message))
		}
		return resp.Result, nil
	case resultFault, resultTrapped:
		if status == resultTrapped {
			r.traps.Add(1)
		}
		var f faultJSON
		if err := json.Unmarshal(payload, &f); err != nil {
			return nil, unavailable(name, "worker sent a malformed error")
		}
		if f.Code == fault.ParseError && f.Details["reason"] == "parse budget exceeded" {
			r.timeouts.Add(1)
		}
		return nil, toFault(f)
	}
	return nil, unavailable(name, "worker sent result status %d", status)
}

func orEmpty(d map[string]any) fault.Details {
	if d == nil {
		return fault.Details{}
	}
	return d
}

func timeoutFault(p *plugin, budget time.Duration) *fault.Error {
	ms := max(budget.Milliseconds(), 0)
	return fault.New(fault.Timeout, fault.Details{"plugin": p.manifest.Name, "timeoutMs": ms},
		"plugin %s did not answer within %d ms", p.manifest.Name, ms)
}

// unavailable is the kernel's error for a plugin that failed.
func unavailable(plugin, format string, args ...any) *fault.Error {
	reason := fmt.Sprintf(format, args...)
	return fault.New(fault.ServerUnavailable, fault.Details{"plugin": plugin, "reason": reason}, "plugin %s failed: %s", plugin, reason)
}

// knownCodes is the spec's error catalogue: codes a guest may return to
// the caller verbatim.
var knownCodes = map[string]bool{}

func init() {
	for _, c := range []string{
		fault.InvalidName, fault.NameConflict, fault.NoSymbolFound, fault.CannotRename, fault.WorkspaceNotIndexed,
		fault.WorkspaceNotLoaded, fault.FileNotFound, fault.InvalidPosition, fault.Timeout, fault.NoDefinitionFound,
		fault.ExternalDefinition, fault.NoHoverInfo, fault.InvalidPython, fault.ParseError, fault.InvalidOptions,
		fault.FileTooLarge, fault.PermissionDenied, fault.InvalidRange, fault.ConflictingEdits, fault.FileModified,
		fault.ReadonlyFile, fault.ServerUnavailable, fault.AuthenticationFailed, fault.MaintenanceMode,
		fault.WorkspaceNotFound, fault.InvalidParameter, fault.ScanTimeout, fault.EncodingError, fault.InvalidFilter,
		fault.RateLimitExceeded,
	} {
		knownCodes[c] = true
	}
}

// worker is one worker process. Its pipes are os.Pipe pairs rather than
// exec's StdoutPipe, so reaping the process never closes a pipe we are
// still reading.
type worker struct {
	pid       int
	cmd       *exec.Cmd
	in        *os.File
	inBuf     *bufio.Writer
	out       *os.File
	outBuf    *bufio.Reader
	exited    chan struct{}
	waitErr   error
	idleSince time.Time     // when it last went idle; guarded by the pool's mu
	readyRSS  int64         // resident bytes when it reported ready
	loaded    []atomic.Bool // by plugin index: the worker has loaded it (at start, by a call, or by loadElsewhere)
	killOnce  sync.Once
	closeOnce sync.Once
}

func (r *Runtime) startWorker(ctx context.Context) (*worker, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := exec.Command(r.cfg.WorkerCommand[0], r.cfg.WorkerCommand[1:]...)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	setWorkerAttrs(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start plugin worker: %w", err)
	}
	w := &worker{pid: cmd.Process.Pid, cmd: cmd, in: inW, inBuf: bufio.NewWriterSize(inW, 64<<10),
		out: outR, outBuf: bufio.NewReaderSize(outR, 64<<10), exited: make(chan struct{})}
	r.mu.Lock()
	if r.ctx.Err() != nil { // Close ran meanwhile
		r.mu.Unlock()
		cmd.Process.Kill()
		cmd.Wait()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, errors.New("plugin runtime closed")
	}
	r.live[w] = struct{}{}
	r.wg.Add(2)
	r.mu.Unlock()
	go func() {
		defer r.wg.Done()
		r.relayLogs(errR, w.pid)
	}()
	go func() {
		defer r.wg.Done()
		w.waitErr = cmd.Wait()
		close(w.exited)
		r.mu.Lock()
		delete(r.live, w)
		r.mu.Unlock()
	}()

	// Startup compiles from the disk cache and instantiates every plugin:
	// tens of milliseconds per Go plugin. The bound is generous for a
	// loaded machine.
	stop := context.AfterFunc(ctx, w.kill)
	defer stop()
	timer := time.AfterFunc(2*time.Minute, w.kill)
	defer timer.Stop()
	init, warm := r.initFrame()
	w.loaded = make([]atomic.Bool, len(r.plugins))
	for _, i := range warm {
		w.loaded[i].Store(true)
	}
	if err := writeFrame(w.inBuf, frameInit, init); err != nil {
		w.retire()
		return nil, fmt.Errorf("plugin worker %d: send init: %w", w.pid, err)
	}
	kind, payload, err := readFrame(w.outBuf)
	const hint = "does the binary call plugins.WorkerMain for " + WorkerCommand + " (tests: plugins.RunWorkerIfRequested in TestMain)?"
	switch {
	case err != nil:
		w.retire()
		return nil, fmt.Errorf("plugin worker %d did not start (%s): %v; %s", w.pid, w.exitReason(), err, hint)
	case kind != frameReady:
		w.retire()
		return nil, fmt.Errorf("plugin worker %d does not speak the worker protocol: %s", w.pid, hint)
	case len(payload) > 0:
		w.retire()
		return nil, fmt.Errorf("plugin worker: %s", payload)
	}
	w.readyRSS, _ = residentBytes(w.pid)
	return w, nil
}

// initFrame is a new worker's init payload: every plugin, those called
// already loaded before the worker says ready (a replacement serves them
// at full speed), the others at their first call.
func (r *Runtime) initFrame() ([]byte, []int) {
	init := workerInit{CacheDir: r.cfg.CacheDir}
	for _, p := range r.plugins {
		init.Guests = append(init.Guests, p.spec)
		if p.called.Load() {
			init.Warm = append(init.Warm, p.index)
		}
	}
	b, _ := json.Marshal(init)
	return b, init.Warm
}

// loadElsewhere has the idle workers that have not loaded p load it, in
// the background, when p is first called. The first call loads p in its
// own worker (about 80 ms for a Go plugin, decoding, validating and
// instantiating its module); without this every other worker would load
// it inside a later call too, in turn, as the first get_diagnostics after
// an index build did on each worker. Loading waits for that first call
// rather than the end of the build: a loaded Go plugin is about 40 MiB of
// a worker's resident memory, too much to spend on every workspace for a
// tool it may never call. A worker busy now loads p at its first call of
// p, as before.
func (r *Runtime) loadElsewhere(p *plugin) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for r.ctx.Err() == nil {
			w := r.pool.takeIdleWhere(func(w *worker) bool { return !w.loaded[p.index].Load() })
			if w == nil {
				return
			}
			r.loadIn(p, w)
		}
	}()
}

// loadIn has idle worker w, taken from the pool, load p, and gives it
// back (or replaces it, when it died meanwhile). A call that arrives
// meanwhile waits for it no longer than it would load p itself.
func (r *Runtime) loadIn(p *plugin, w *worker) {
	var idx [4]byte
	binary.LittleEndian.PutUint32(idx[:], uint32(p.index))
	stopKill := context.AfterFunc(r.ctx, w.kill)
	timer := time.AfterFunc(p.timeout, w.kill)
	status, payload, err := w.exchange(frameLoad, idx[:])
	timer.Stop()
	stopKill()
	w.loaded[p.index].Store(true) // once, loaded or not: a failure shows at the plugin's calls
	if err != nil {
		r.restarts.Add(1)
		r.log.Error("plugin worker died loading a plugin", "plugin", p.manifest.Name, "pid", w.pid, "reason", w.exitReason())
		r.respawn(w, "")
		return
	}
	if status != resultOK {
		r.log.Warn("plugin failed to load ahead of its calls", "plugin", p.manifest.Name, "pid", w.pid, "error", string(payload))
	}
	r.pool.put(w)
}

func (w *worker) kill() {
	w.killOnce.Do(func() { w.cmd.Process.Kill() })
}

// retire kills w and closes the kernel's ends of its pipes. Only call it
// when no call is using w: the reaper never closes a pipe a call may still
// be reading.
func (w *worker) retire() {
	w.kill()
	w.closeOnce.Do(func() {
		w.in.Close()
		w.out.Close()
	})
}

// roundTrip sends one call and reads its result. It fails when the worker
// is killed or dies meanwhile.
func (w *worker) roundTrip(idx int, budget time.Duration, msg []byte) (byte, []byte, error) {
	var hdr [8]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(idx))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(min(budget.Milliseconds(), 1<<32-1)))
	return w.exchange(frameCall, hdr[:], msg)
}

// exchange sends a frame of kind and reads the result frame.
func (w *worker) exchange(kind byte, parts ...[]byte) (byte, []byte, error) {
	if err := writeFrame(w.inBuf, kind, parts...); err != nil {
		return 0, nil, err
	}
	kind, payload, err := readFrame(w.outBuf)
	if err != nil {
		return 0, nil, err
	}
	if kind != frameResult || len(payload) == 0 {
		return 0, nil, fmt.Errorf("unexpected frame %q", kind)
	}
	return payload[0], payload[1:], nil
}

// exitReason waits briefly for the process to be reaped and describes how
// it ended.
func (w *worker) exitReason() string {
	select {
	case <-w.exited:
		if w.waitErr == nil {
			return "exited"
		}
		return w.waitErr.Error()
	case <-time.After(2 * time.Second):
		w.kill()
		return "stopped answering"
	}
}

// relayLogs re-logs a worker's stderr: JSON lines from its slog handler
// keep their level and attributes; anything else (a Go crash report) is
// logged as a warning line by line. Lines are capped at 64 KiB.
func (r *Runtime) relayLogs(f *os.File, pid int) {
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			r.logWorkerLine(line, pid)
		}
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull { // drop the rest of an overlong line
				_, err = br.ReadSlice('\n')
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
	}
}

func (r *Runtime) logWorkerLine(line []byte, pid int) {
	var rec map[string]any
	if json.Unmarshal(line, &rec) != nil {
		r.log.Warn("plugin worker stderr", "pid", pid, "line", string(trimNewline(line)))
		return
	}
	var level slog.Level
	if s, ok := rec["level"].(string); ok {
		level.UnmarshalText([]byte(s))
	}
	msg, _ := rec["msg"].(string)
	attrs := []any{"worker", pid}
	for _, k := range sortedKeys(rec) {
		if k != "level" && k != "msg" && k != "time" {
			attrs = append(attrs, k, rec[k])
		}
	}
	r.log.Log(context.Background(), level, msg, attrs...)
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// PluginSHA256 returns the SHA-256 of the module serving tool ("" when
// none does), so callers can key caches of a plugin's output by it.
func (r *Runtime) PluginSHA256(tool string) string {
	if p, ok := r.tools[tool]; ok {
		return p.manifest.SHA256
	}
	return ""
}
