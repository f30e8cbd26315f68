package plugins

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/pyws/pyws/host/fault"
)

// WorkerCommand is the hidden subcommand that turns the pyws binary into a
// plugin worker: cmd/pyws calls WorkerMain when os.Args[1] == WorkerCommand.
const WorkerCommand = "__plugin-worker"

// workerEnv is also set on every worker, so a test binary, whose
// arguments belong to the testing package, can recognize itself.
const workerEnv = "PYWS_PLUGIN_WORKER"

// workerInit is the payload of the init frame.
type workerInit struct {
	CacheDir string      `json:"cacheDir"`
	Guests   []guestSpec `json:"guests"`
	Warm     []int       `json:"warm,omitempty"` // guests to load before ready: those called already; the rest load at their first call
}

// faultJSON carries a *fault.Error across the pipe.
type faultJSON struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// WorkerMain runs a plugin worker on stdin/stdout and exits the process.
// It never returns.
func WorkerMain() {
	boundWorkerHeap()
	out := os.Stdout
	os.Stdout = os.Stderr // a stray print must not corrupt the frames
	os.Exit(serveWorker(os.Stdin, out, os.Stderr))
}

// boundWorkerHeap sets a soft limit on a worker's Go heap unless
// GOMEMLIMIT says otherwise: the tree cache (blobs, no pointers to scan)
// and the messages of one call, garbage once answered, so a full cache
// and a large batch together stay near the cache plus 64 MiB instead of
// twice the live heap. Below that limit the worker collects at half its
// live heap unless GOGC says otherwise: what is live (the cache, the
// decoded plugin modules) is mostly pointer-free and cheap to mark, and
// Go's default let the heap reach twice it (see RATIONALE.md, "Where
// does the memory go?").
func boundWorkerHeap() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultTreeCacheBytes + 64<<20)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}

// RunWorkerIfRequested runs WorkerMain when this process was started as a
// plugin worker, and returns otherwise. Call it first thing in TestMain of
// any test that starts a Runtime.
func RunWorkerIfRequested() {
	if os.Getenv(workerEnv) != "" {
		WorkerMain()
	}
}

// serveWorker answers call frames until stdin closes. Logs go to errw as
// JSON lines, which the kernel re-logs.
func serveWorker(in io.Reader, out, errw io.Writer) int {
	ctx := context.Background()
	logger := slog.New(slog.NewJSONHandler(errw, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	eng, err := startEngine(ctx, logger, r)
	if err != nil {
		logger.Error("worker init failed", "error", err)
		writeFrame(w, frameReady, []byte(err.Error()))
		return 1
	}
	defer eng.close(ctx)
	if err := writeFrame(w, frameReady); err != nil {
		return 1
	}
	// Frames are read on their own goroutine so that the loop can wait
	// for the next one and for the shedding timer at once.
	frames, done := make(chan frameRead), make(chan struct{})
	defer close(done)
	go func() {
		for {
			var f frameRead
			f.kind, f.payload, f.err = readFrame(r)
			select {
			case frames <- f:
			case <-done:
				return
			}
			if f.err != nil {
				return
			}
		}
	}()
	shed := time.NewTimer(time.Hour)
	shed.Stop()
	for {
		var f frameRead
		select {
		case f = <-frames:
		case <-shed.C:
			start := time.Now()
			freed := eng.shed(ctx)

			logger.Debug("idle worker shed its instances", "linearMemoryBytes", freed, "took", time.Since(start))
			continue
		}
		shed.Stop()
		kind, payload, err := f.kind, f.payload, f.err
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0 // the kernel closed our stdin: shut down
			}
			logger.Error("worker read", "error", err)
			return 1
		}
		if kind == frameLoad && len(payload) == 4 {
			ce := eng.load(ctx, int(binary.LittleEndian.Uint32(payload)))
			if err := writeResult(w, nil, ce); err != nil {
				return 1
			}
			continue
		}
		if kind != frameCall || len(payload) < 8 {
			logger.Error("worker got a bad frame", "kind", kind, "len", len(payload))
			return 1
		}
		idx := int(binary.LittleEndian.Uint32(payload))
		budget := time.Duration(binary.LittleEndian.Uint32(payload[4:])) * time.Millisecond
		resp, ce := eng.call(ctx, idx, payload[8:], budget)
		if err := writeResult(w, resp, ce); err != nil {
			return 1
		}
		eng.idle(ctx, idx)
		shed.Reset(shedAfter)
	}
}

// frameRead is one frame read from the kernel, or the error that ended
// reading.
type frameRead struct {
	kind    byte
	payload []byte
	err     error
}

// shedAfter is how long a worker waits with no call after one before it
// gives back what an idle worker does not need (engine.shed). Calls come
// back to back within an index build or a batch of requests; an index
// build's last batch is followed by the server's link (about 0.2 s on the
// stdlib) and its largest heap, which the workers should meet shed. The
// next call finds a fresh instance made in idle time (see RATIONALE.md,
// "Where does the memory go?", round seven, for what it costs).
const shedAfter = 100 * time.Millisecond

// writeResult answers a frame: the response, or the kernel error.
func writeResult(w *bufio.Writer, resp []byte, ce *callError) error {
	if ce == nil {
		return writeFrame(w, frameResult, []byte{resultOK}, resp)
	}
	status := resultFault
	if ce.trapped {
		status = resultTrapped
	}
	b, _ := json.Marshal(faultJSON{Code: ce.fault.Code, Message: ce.fault.Message, Details: ce.fault.Details})
	return writeFrame(w, frameResult, []byte{status}, b)
}

func startEngine(ctx context.Context, logger *slog.Logger, r *bufio.Reader) (*engine, error) {
	kind, payload, err := readFrame(r)
	if err != nil {
		return nil, fmt.Errorf("read init: %w", err)
	}
	if kind != frameInit {
		return nil, fmt.Errorf("first frame is %q, want init", kind)
	}
	var init workerInit
	if err := json.Unmarshal(payload, &init); err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	cache, err := wazero.NewCompilationCacheWithDir(init.CacheDir)
	if err != nil {
		return nil, err
	}
	eng, err := newEngine(ctx, logger, init.Guests, engineOptions{cache: cache})
	if err != nil {
		return nil, err
	}
	// Instantiate the plugins in use now, so a worker that says ready
	// serves them at full speed.
	for _, i := range init.Warm {
		if i < 0 || i >= len(eng.guests) {
			eng.close(ctx)
			return nil, fmt.Errorf("init: no guest %d to warm", i)
		}
		g := eng.guests[i]
		if _, err := g.instantiate(ctx); err != nil {
			eng.close(ctx)
			return nil, fmt.Errorf("plugin %s: instantiate: %w", g.spec.Name, err)
		}
	}
	return eng, nil
}

func toFault(f faultJSON) *fault.Error {
	return &fault.Error{Code: f.Code, Message: f.Message, Details: fault.Details(f.Details)}
}
