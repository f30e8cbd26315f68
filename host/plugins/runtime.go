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
	// DefaultTimeout bounds a call whose manifest sets no timeoutMs.
	// Default: 10s.
	DefaultTimeout time.Duration
	// MemoryLimitMiB caps a guest's memory when its manifest sets no
	// memoryLimitMiB. Default: 256.
	MemoryLimitMiB int
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
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = 10 * time.Second
	}
	if c.MemoryLimitMiB <= 0 {
		c.MemoryLimitMiB = 256
	}
	if c.MemoryLimitMiB > maxMemoryLimitMiB {
		return fmt.Errorf("plugins: MemoryLimitMiB %d exceeds %d", c.MemoryLimitMiB, maxMemoryLimitMiB)
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
	Workers  int    // workers ready or busy
	Busy     int    // workers running a call
	Queued   int    // calls waiting for a worker
	Restarts uint64 // workers replaced after a timeout, cancellation or crash
	Calls    uint64
	Timeouts uint64 // calls stopped at their deadline
	Traps    uint64 // guest traps, exits and out-of-memory (worker survived)
	Crashes  uint64 // workers that died on their own
}

// Runtime runs plugin calls in a bounded pool of worker processes. It is
// safe for concurrent use.
type Runtime struct {
	cfg     Config
	log     *slog.Logger
	plugins []*plugin
	tools   map[string]*plugin
	init    []byte // init frame payload, the same for every worker

	idle   workerPool
	ctx    context.Context // canceled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu   sync.Mutex
	live map[*worker]struct{} // started and not yet reaped

	ready, busy, queued                               atomic.Int64
	restarts, calls, timeouts, traps, crashes, nextID atomic.Uint64
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
	init := workerInit{CacheDir: cfg.CacheDir}
	for _, p := range plugins {
		init.Guests = append(init.Guests, p.spec)
	}
	initJSON, _ := json.Marshal(init)
	r := &Runtime{cfg: cfg, log: cfg.Logger, plugins: plugins, tools: tools, init: initJSON,
		live: map[*worker]struct{}{}}
	r.ctx, r.cancel = context.WithCancel(context.Background())

	errs := make(chan error, cfg.Workers)
	for range cfg.Workers {
		go func() {
			w, err := r.startWorker(ctx)
			if err == nil {
				r.ready.Add(1)
				r.idle.put(w)
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
	r.log.Info("plugin runtime started", "workers", cfg.Workers, "plugins", len(plugins), "tools", len(tools))
	return r, nil
}

// Tools returns the tools served, sorted.
func (r *Runtime) Tools() []string {
	return sortedKeys(r.tools)
}

// Stats returns current counters.
func (r *Runtime) Stats() Stats {
	return Stats{
		Workers: int(r.ready.Load()), Busy: int(r.busy.Load()), Queued: int(r.queued.Load()),
		Restarts: r.restarts.Load(), Calls: r.calls.Load(), Timeouts: r.timeouts.Load(),
		Traps: r.traps.Load(), Crashes: r.crashes.Load(),
	}
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
	for _, w := range r.idle.drain() { // busy ones are retired by their calls
		w.retire()
	}
	return nil
}

// Call runs tool on req in a worker and returns the tool's result. Every
// error is a *fault.Error:
//
//   - the tool's own error, verbatim, when its code is in the spec's
//     catalogue;
//   - TIMEOUT (details: plugin, timeoutMs) when the call outlives ctx's
//     deadline or the plugin's timeout, whichever comes first; the worker
//     is killed and replaced in the background;
//   - SERVER_UNAVAILABLE (details: plugin, reason) when the plugin failed:
//     a trap, a panic, running out of memory, a worker crash, an error code
//     outside the catalogue, or a closed runtime.
//
// The plugin's timeout starts when a worker takes the call; time spent
// queued counts only against ctx.
func (r *Runtime) Call(ctx context.Context, tool string, req *abi.Request) (json.RawMessage, error) {
	p, ok := r.tools[tool]
	if !ok {
		return nil, fault.New(fault.ServerUnavailable, fault.Details{"tool": tool, "reason": "no plugin serves this tool"}, "no plugin serves tool %q", tool)
	}
	r.calls.Add(1)
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
	w, ferr := r.acquire(ctx, p, file)
	if ferr != nil {
		return nil, ferr
	}
	defer r.busy.Add(-1)

	budget := p.timeout
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl))
	}
	if budget <= 0 {
		r.release(w)
		r.timeouts.Add(1)
		return nil, timeoutFault(p, budget)
	}
	// Either stopper kills the worker: wazero cannot interrupt compiled
	// guest code (see RATIONALE.md), so the process is the unit we stop.
	var overran atomic.Bool
	timer := time.AfterFunc(budget, func() { overran.Store(true); w.kill() })
	stopCtx := context.AfterFunc(ctx, w.kill)
	// The worker's own (soft) budget ends earlier than the kill, so a
	// parse that runs out reports itself as PARSE_ERROR instead of dying
	// as a TIMEOUT: a fifth of the budget earlier, and at least half a
	// second (at most half the budget) for a busy machine to stop the
	// parse and answer.
	margin := max(budget/5, min(budget/2, 500*time.Millisecond))
	status, payload, err := w.roundTrip(p.index, budget-margin, msg)
	stoppedTimer, stoppedCtx := timer.Stop(), stopCtx()

	if !stoppedTimer || !stoppedCtx || err != nil {
		r.replace(w)
		if err == nil { // the answer beat the kill: keep it
			return r.decodeResult(p, status, payload)
		}
		switch {
		case r.ctx.Err() != nil:
			return nil, unavailable(p.manifest.Name, "plugin runtime closed")
		case overran.Load() || errors.Is(ctx.Err(), context.DeadlineExceeded):
			r.timeouts.Add(1)
			return nil, timeoutFault(p, budget)
		case ctx.Err() != nil:
			return nil, fault.New(fault.Timeout, fault.Details{"plugin": p.manifest.Name, "reason": "canceled"}, "plugin call canceled: %v", ctx.Err())
		default:
			r.crashes.Add(1)
			reason := w.exitReason()
			r.log.Error("plugin worker died during a call", "plugin", p.manifest.Name, "tool", tool, "pid", w.pid, "reason", reason)
			return nil, unavailable(p.manifest.Name, "plugin worker died: %s", reason)
		}
	}
	if p.spec.NeedsTree {
		// Every file this call parsed now has its tree in w's caches
		// (an index batch, a diagnostics call's context modules).
		for i := range req.Files {
			if req.Files[i].Source != nil {
				r.idle.remember(req.Files[i].URI, w)
			}
		}
	}
	r.release(w)
	return r.decodeResult(p, status, payload)
}

// acquire takes an idle worker, preferring the one that last served file,
// waiting in line for one if needed. A worker that died while idle is
// replaced, not handed out.
func (r *Runtime) acquire(ctx context.Context, p *plugin, file string) (*worker, *fault.Error) {
	for {
		w, ferr := r.take(ctx, p, file)
		if ferr != nil {
			return nil, ferr
		}
		select {
		case <-w.exited:
			r.crashes.Add(1)
			r.log.Error("plugin worker died while idle", "pid", w.pid, "reason", w.exitReason())
			r.busy.Add(-1)
			r.replace(w)
			continue
		default:
			return w, nil
		}
	}
}

func (r *Runtime) take(ctx context.Context, p *plugin, file string) (*worker, *fault.Error) {
	w, wait := r.idle.take(file)
	if w != nil {
		r.busy.Add(1)
		return w, nil
	}
	r.queued.Add(1)
	defer r.queued.Add(-1)
	select {
	case w := <-wait:
		r.busy.Add(1)
		return w, nil
	case <-r.ctx.Done():
		r.idle.leave(wait)
		return nil, unavailable(p.manifest.Name, "plugin runtime closed")
	case <-ctx.Done():
		r.idle.leave(wait)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.timeouts.Add(1)
			return nil, fault.New(fault.Timeout, fault.Details{"plugin": p.manifest.Name, "reason": "queued"},
				"no plugin worker became free before the deadline")
		}
		return nil, fault.New(fault.Timeout, fault.Details{"plugin": p.manifest.Name, "reason": "canceled"}, "plugin call canceled while queued")
	}
}

func (r *Runtime) release(w *worker) { r.idle.put(w) }

// replace retires w and starts its successor in the background.
func (r *Runtime) replace(w *worker) {
	r.idle.forget(w)
	w.retire()
	r.ready.Add(-1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		return
	}
	r.restarts.Add(1)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		backoff := 50 * time.Millisecond
		for r.ctx.Err() == nil {
			start := time.Now()
			nw, err := r.startWorker(r.ctx)
			if err == nil {
				r.log.Debug("plugin worker replaced", "pid", nw.pid, "took", time.Since(start))
				r.ready.Add(1)
				r.idle.put(nw)
				return
			}
			if r.ctx.Err() != nil {
				return
			}
			r.log.Error("plugin worker failed to start; retrying", "error", err, "in", backoff)
			select {
			case <-time.After(backoff):
			case <-r.ctx.Done():
			}
			backoff = min(2*backoff, 5*time.Second)
		}
	}()
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
	if err := writeFrame(w.inBuf, frameInit, r.init); err != nil {
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
	return w, nil
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
	if err := writeFrame(w.inBuf, frameCall, hdr[:], msg); err != nil {
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
