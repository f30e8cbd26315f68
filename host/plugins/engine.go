package plugins

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/wasm/parser"
)

// guestSpec is what a worker needs to run one plugin; the host sends it in
// the worker's init frame after validating the manifest.
type guestSpec struct {
	Name             string `json:"name"`
	Path             string `json:"path"`   // plugin.wasm
	SHA256           string `json:"sha256"` // checked again in the worker: the file may have changed
	MemoryLimitPages uint32 `json:"memoryLimitPages"`
	HighWaterPages   uint32 `json:"highWaterPages"` // recycle the instance above this size
	NeedsTree        bool   `json:"needsTree"`
}

const pageSize = 64 << 10

// guestOutputCap bounds what one instance may write to stdout/stderr per
// call; a Go crash report fits, a flood does not reach the log.
const guestOutputCap = 64 << 10

// engine runs guests in this process. It is the inside of a worker, and
// the unguarded baseline of the benchmarks: nothing here can stop a guest
// that does not return. Not safe for concurrent use.
type engine struct {
	logger *slog.Logger
	guests []*guest
	trees  treeParser // nil unless a guest needs trees
	cache  *treeCache // trees parsed before, by source hash
}

type guest struct {
	spec     guestSpec
	logger   *slog.Logger
	opt      engineOptions
	rt       wazero.Runtime        // nil until load
	compiled wazero.CompiledModule // nil until load
	inst     *instance
	output   *cappedBuffer
	logged   int // pyws_v1.log lines in the current call
}

type instance struct {
	mod    api.Module
	alloc  api.Function
	handle api.Function
	idle   api.Function // nil when the guest does not export pyws_idle
}

type engineOptions struct {
	cache       wazero.CompilationCache
	closeOnDone bool // only for measuring what it costs
}

func newEngine(ctx context.Context, logger *slog.Logger, specs []guestSpec, opt engineOptions) (*engine, error) {
	e := &engine{logger: logger}
	needTrees := false
	for _, s := range specs {
		e.guests = append(e.guests, &guest{spec: s, logger: logger.With("plugin", s.Name), opt: opt,
			output: &cappedBuffer{max: guestOutputCap}})
		needTrees = needTrees || s.NeedsTree
	}
	if needTrees {
		p, err := newTreeParser(ctx, opt.cache)
		if err != nil {
			e.close(ctx)
			return nil, fmt.Errorf("tree parser: %w", err)
		}
		e.trees = p
	}
	return e, nil
}

// load compiles the guest's module (from the disk cache in a worker).
// A worker loads a plugin when it is first called, or at start when the
// kernel says the plugin is in use: a plugin's compiled code is about
// 22 MiB of each worker's memory, and a workspace that only navigates
// never calls the formatter.
func (g *guest) load(ctx context.Context) error {
	if g.compiled != nil {
		return nil
	}
	start := time.Now()
	wasm, err := os.ReadFile(g.spec.Path)
	if err != nil {
		return err
	}
	if got := sha256Hex(wasm); got != g.spec.SHA256 {
		return fmt.Errorf("%s changed since it was loaded (sha256 %s, manifest says %s)", g.spec.Path, got, g.spec.SHA256)
	}
	cfg := wazero.NewRuntimeConfigCompiler().
		WithMemoryLimitPages(g.spec.MemoryLimitPages).
		WithCloseOnContextDone(g.opt.closeOnDone)
	if g.opt.cache != nil {
		cfg = cfg.WithCompilationCache(g.opt.cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return err
	}
	if _, err := rt.NewHostModuleBuilder(abi.ModuleName).
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(g.hostLog), []api.ValueType{i32, i32, i32}, nil).Export(abi.ImportLog).
		Instantiate(ctx); err != nil {
		rt.Close(ctx)
		return err
	}
	compiled, err := compileChecked(ctx, rt, wasm)
	if err != nil {
		rt.Close(ctx)
		return err
	}
	g.rt, g.compiled = rt, compiled
	g.logger.Debug("plugin loaded", "took", time.Since(start))
	return nil
}

// maxLogLines and maxLogBytes bound what one call may send to the log.
const (
	maxLogLines = 100
	maxLogBytes = 4 << 10
)

func (g *guest) hostLog(ctx context.Context, m api.Module, stack []uint64) {
	level, ptr, size := int32(api.DecodeI32(stack[0])), api.DecodeU32(stack[1]), api.DecodeU32(stack[2])
	if g.logged++; g.logged > maxLogLines {
		return
	}
	b, ok := m.Memory().Read(ptr, min(size, maxLogBytes))
	if !ok {
		return
	}
	g.logger.Log(ctx, slog.Level(level), string(b), "source", "guest")
}

func (g *guest) instantiate(ctx context.Context) (*instance, error) {
	if g.inst != nil {
		return g.inst, nil
	}
	if err := g.load(ctx); err != nil {
		return nil, err
	}
	cfg := wazero.NewModuleConfig().
		WithName("").         // anonymous: a recycled instance may overlap its successor
		WithStartFunctions(). // a reactor: _initialize is called below
		WithStdout(g.output).WithStderr(g.output).
		// A real random source: Go seeds its map hashes from random_get, and
		// wazero's default is deterministic, which would let crafted input
		// collide on purpose.
		WithRandSource(rand.Reader)
	mod, err := g.rt.InstantiateModule(withLinearMemory(ctx), g.compiled, cfg)
	if err != nil {
		return nil, err
	}
	if f := mod.ExportedFunction(abi.ExportInitialize); f != nil {
		if _, err := f.Call(ctx); err != nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("%s: %w", abi.ExportInitialize, err)
		}
	}
	g.inst = &instance{mod: mod, alloc: mod.ExportedFunction(abi.ExportAlloc), handle: mod.ExportedFunction(abi.ExportHandle),
		idle: mod.ExportedFunction(abi.ExportIdle)}
	return g.inst, nil
}

func (g *guest) discard(ctx context.Context) {
	if g.inst != nil {
		g.inst.mod.Close(ctx)
		g.inst = nil
	}
}

func (g *guest) close(ctx context.Context) {
	g.discard(ctx)
	if g.rt != nil {
		g.rt.Close(ctx)
	}
}

// callError is a kernel error from running a guest; trapped says the
// instance died (trap, exit, out of memory) and was discarded.
type callError struct {
	fault   *fault.Error
	trapped bool
}

// call runs one request through guest i and returns its response message.
// load instantiates guest i ahead of its first call (Runtime.Load).
func (e *engine) load(ctx context.Context, i int) *callError {
	if i < 0 || i >= len(e.guests) {
		return &callError{fault: unavailable("", "no such plugin index %d", i)}
	}
	if _, err := e.guests[i].instantiate(ctx); err != nil {
		return &callError{fault: unavailable(e.guests[i].spec.Name, "instantiate: %v", err)}
	}
	return nil
}

func (e *engine) call(ctx context.Context, i int, msg []byte, budget time.Duration) ([]byte, *callError) {
	if i < 0 || i >= len(e.guests) {
		return nil, &callError{fault: unavailable("", "no such plugin index %d", i)}
	}
	g := e.guests[i]
	if g.spec.NeedsTree {
		var ce *callError
		if msg, ce = e.addTrees(ctx, g, msg, budget); ce != nil {
			return nil, ce
		}
	}
	g.output.Reset()
	g.logged = 0
	resp, err := g.run(ctx, msg)
	if out := g.output.String(); out != "" {
		level := slog.LevelInfo
		if err != nil {
			level = slog.LevelWarn
		}
		g.logger.Log(ctx, level, "guest output", "output", out)
	}
	if err != nil {
		g.discard(ctx)
		reason := describeGuestFailure(err, g.output.String())
		g.logger.Warn("guest failed; instance discarded", "reason", reason, "error", err)
		return nil, &callError{fault: unavailable(g.spec.Name, "%s", reason), trapped: true}
	}
	// Guest memory never shrinks: start afresh once it has grown past the
	// high-water mark, so one large call does not pin its peak forever.
	if g.inst != nil && g.inst.mod.Memory().Size() > g.spec.HighWaterPages*pageSize {
		g.logger.Debug("instance recycled at high-water mark", "memoryBytes", g.inst.mod.Memory().Size())
		g.discard(ctx)
	}
	return resp, nil
}

func (g *guest) run(ctx context.Context, msg []byte) ([]byte, error) {
	inst, err := g.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	res, err := inst.alloc.Call(ctx, uint64(len(msg)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abi.ExportAlloc, err)
	}
	ptr := api.DecodeU32(res[0])
	mem := inst.mod.Memory()
	if !mem.Write(ptr, msg) {
		return nil, fmt.Errorf("%s returned %#x, outside memory for %d bytes", abi.ExportAlloc, ptr, len(msg))
	}
	res, err = inst.handle.Call(ctx, uint64(ptr), uint64(len(msg)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abi.ExportHandle, err)
	}
	rptr, rlen := uint32(res[0]>>32), uint32(res[0])
	out, ok := mem.Read(rptr, rlen)
	if !ok {
		return nil, fmt.Errorf("%s returned %d bytes at %#x, outside memory", abi.ExportHandle, rlen, rptr)
	}
	return append([]byte(nil), out...), nil // the guest reuses its buffer
}

// describeGuestFailure turns a wazero error and the guest's output into a
// one-line reason for the caller's details.
func describeGuestFailure(err error, output string) string {
	var exit *sys.ExitError
	switch {
	case strings.Contains(output, "out of memory") || strings.Contains(err.Error(), "out of memory"):
		return "plugin ran out of memory"
	case errors.As(err, &exit):
		if line := firstLine(output); line != "" {
			return fmt.Sprintf("plugin exited with code %d: %s", exit.ExitCode(), line)
		}
		return fmt.Sprintf("plugin exited with code %d", exit.ExitCode())
	default:
		if line := firstLine(output); line != "" { // e.g. "panic: ..." from a Go guest
			return fmt.Sprintf("plugin trapped: %s (%s)", firstLine(err.Error()), line)
		}
		return "plugin trapped: " + firstLine(err.Error())
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

var errParseBudget = errors.New("no time left to parse")

// addTrees parses every file that arrived with a source but no tree.
func (e *engine) addTrees(ctx context.Context, g *guest, msg []byte, budget time.Duration) ([]byte, *callError) {
	req, err := abi.DecodeRequest(msg)
	if err != nil {
		return nil, &callError{fault: unavailable(g.spec.Name, "bad request from the kernel: %v", err)}
	}
	start := time.Now()
	changed := false
	toParse := 0
	for _, f := range req.Files {
		if f.Source != nil && f.Tree == nil {
			toParse++
		}
	}
	for i := range req.Files {
		f := &req.Files[i]
		if f.Source == nil || f.Tree != nil {
			continue
		}
		left := budget - time.Since(start)
		if budget > 0 && left <= 0 {
			err = errParseBudget
		}
		if e.cache == nil {
			e.cache = newTreeCache(defaultTreeCacheBytes)
		}
		tree, key, hit := e.cache.get(f.Source)
		if hit {
			err = nil // a cached tree needs no time
		} else if err == nil {
			if tree, err = e.trees.Parse(ctx, f.URI, toParse == 1, f.Source, left); err == nil {
				e.cache.put(key, tree)
			}
		}
		if err != nil {
			if errors.Is(err, parser.ErrTooLarge) {
				return nil, &callError{fault: fault.New(fault.FileTooLarge, fault.Details{"plugin": g.spec.Name, "file": f.URI, "maxBytes": parser.MaxSourceBytes},
					"%s is too large to parse", f.Path)}
			}
			if err == errParseBudget || isParseTimeout(err) {
				// The file cannot be parsed within the call's budget: the
				// spec's PARSE_ERROR ("file cannot be parsed"), not a
				// plugin timeout.
				return nil, &callError{fault: fault.New(fault.ParseError, fault.Details{"plugin": g.spec.Name, "timeoutMs": budget.Milliseconds(), "file": f.URI, "reason": "parse budget exceeded"},
					"%s could not be parsed within the call's %d ms budget", f.Path, budget.Milliseconds())}
			}
			return nil, &callError{fault: unavailable(g.spec.Name, "parse %s: %v", f.Path, err)}
		}
		f.Tree, changed = tree, true
	}
	if !changed {
		return msg, nil
	}
	out, err := abi.EncodeRequest(req)
	if err != nil {
		return nil, &callError{fault: unavailable(g.spec.Name, "encode request: %v", err)}
	}
	return out, nil
}

// idle runs guest i's pyws_idle once the answer to its call has gone out:
// the Go SDK collects there what the call left, which it would otherwise
// do first thing in the next call, on the request's path; the kernel is
// meanwhile reading the answer and deciding on the next call. A guest that
// fails there is discarded, as after a failed call.
func (e *engine) idle(ctx context.Context, i int) {
	if i < 0 || i >= len(e.guests) {
		return
	}
	g := e.guests[i]
	if g.inst == nil || g.inst.idle == nil {
		return
	}
	g.output.Reset()
	g.logged = 0
	if _, err := g.inst.idle.Call(ctx); err != nil {
		reason := describeGuestFailure(err, g.output.String())
		g.logger.Warn("guest failed between calls; instance discarded", "reason", reason, "error", err)
		g.discard(ctx)
	}
}

// shedAboveBytes is the linear memory above which an idle worker replaces
// an instance: a fresh Go guest has 4.5-5 MiB, the formatter's and
// diagnostics' mostly stay under this, the indexer's grows to 20-45 MiB
// in a build. A var for tests.
var shedAboveBytes uint32 = 16 << 20

// shed gives back what an idle worker does not need: each guest's
// instance, whose linear memory never shrinks (the indexer's is 32-45 MiB
// after an index build), is replaced by a fresh one (about 5 MiB), made
// now, in idle time, so the next call does not wait for it; the parser's
// instance is closed when it keeps no tree (the next parse makes one in
// about 0.3 ms); then the Go heap's free pages go back to the system. It
// reports the linear memory let go.
func (e *engine) shed(ctx context.Context) (freed int64) {
	for _, g := range e.guests {
		if g.inst == nil || g.inst.mod.Memory().Size() <= shedAboveBytes {
			continue
		}
		freed += int64(g.inst.mod.Memory().Size())
		g.discard(ctx)
		if inst, err := g.instantiate(ctx); err == nil {
			freed -= int64(inst.mod.Memory().Size())
		} // else the next call instantiates and reports the failure
	}
	if p, ok := e.trees.(*workerParser); ok && p.p != nil {
		size := p.p.MemorySize()
		if p.shed(ctx); p.p == nil {
			freed += int64(size)
		}
	}
	// The collection runs beside the loop: a call arriving meanwhile
	// need not wait for it (it took up to 0.6 s at load 11). Only after
	// letting an instance go: a worker pausing between small calls
	// (formatting, diagnostics) would otherwise pay a full collection at
	// each pause.
	if freed > 0 {
		go debug.FreeOSMemory()
	}
	return freed
}

func (e *engine) close(ctx context.Context) {
	for _, g := range e.guests {
		g.close(ctx)
	}
	if c, ok := e.trees.(interface{ Close(context.Context) error }); ok {
		c.Close(ctx)
	}
}

// cappedBuffer keeps the first max bytes written to it and drops the rest.
type cappedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return string(b.buf) }
func (b *cappedBuffer) Reset()         { b.mu.Lock(); b.buf = b.buf[:0]; b.mu.Unlock() }
