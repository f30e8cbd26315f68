// Package parser runs the tree-sitter-python parser module (package wasm)
// under wazero and returns tree blobs in the layout that plugin-sdk/tree
// decodes. It sits in the bottom layer beside the module and imports
// nothing of pyws but package wasm: the kernel's workers (host/plugins) and
// the SDK's test helper (plugin-sdk/parsertest) both run the module
// through it.
//
// Compile checks the module's SHA-256 and its imports (only the
// wasi_snapshot_preview1 calls in allowedImports) once per runtime; New
// instantiates it with the real monotonic clock and nothing else: no
// filesystem, environment, arguments, stdio or wall clock. A Parser is one
// instance with one tree-sitter parser inside; it is not safe for
// concurrent use (pool them). Parse bounds its work by a time budget
// checked inside the guest every 100 parse operations, so no
// WithCloseOnContextDone is needed to stop a long parse.
//
// Guest memory grows to the largest parse's high-water mark and never
// shrinks; callers recycle a Parser whose MemorySize is too large. After a
// trap the instance is closed and every later call fails with ErrClosed.
package parser

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	pywasm "github.com/pyws/pyws/wasm"
)

// Guest status codes, mirrored from wasm/csrc/pyws_parser.c.
const (
	statusOK       = 0
	statusTimeout  = 1
	statusNoMemory = 2
	statusNotReady = 3
	statusFailed   = 4
	statusTooLarge = 5
)

// MaxSourceBytes bounds Parse's input. Byte offsets in the tree are u32,
// and the guest must hold the source, the tree and the blob in 4 GiB.
const MaxSourceBytes = 256 << 20

var (
	// ErrParseTimeout is returned when the parse ran out of budget. The
	// Parser stays usable.
	ErrParseTimeout = errors.New("parser: parse budget exceeded")
	// ErrTrap is matched (errors.Is) by a *TrapError.
	ErrTrap = errors.New("parser: guest trapped")
	// ErrClosed is returned by a Parser after Close or after a trap.
	ErrClosed = errors.New("parser: instance closed")
	// ErrTooLarge is returned for sources over MaxSourceBytes.
	ErrTooLarge = errors.New("parser: source too large")
)

// TrapError reports that the guest trapped (e.g. out of memory or stack,
// or an assertion inside tree-sitter). The instance is discarded.
type TrapError struct{ cause error }

func (e *TrapError) Error() string { return "parser: guest trapped: " + e.cause.Error() }

// Unwrap returns wazero's error.
func (e *TrapError) Unwrap() error { return e.cause }

// Is makes errors.Is(err, ErrTrap) true.
func (e *TrapError) Is(target error) bool { return target == ErrTrap }

// allowedImports is everything the module may import. wasi-libc's stdio
// (linked in for tree-sitter's debug printing, never called by our
// wrapper) brings the fd calls; New's configuration gives them no files
// and discards stdout/stderr, so only the clock is backed by anything real.
var allowedImports = map[string]bool{
	"clock_time_get": true,
	"fd_close":       true,
	"fd_seek":        true,
	"fd_write":       true,
}

var requiredExports = []string{
	"malloc", "free", "pyws_init", "pyws_parse",
	"pyws_result_ptr", "pyws_result_len", "pyws_result_free",
	"pyws_parse_slot",
}

// Module is the compiled parser module, shared by its Parsers.
type Module struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
}

// Compile verifies and compiles the embedded parser module in rt. rt must
// have wasi_snapshot_preview1 instantiated before New is called.
func Compile(ctx context.Context, rt wazero.Runtime) (*Module, error) {
	sum := sha256.Sum256(pywasm.ParserWasm)
	if got := hex.EncodeToString(sum[:]); got != pywasm.ParserSHA256 {
		return nil, fmt.Errorf("parser: module sha256 %s, recorded %s: rebuild with `make parser`", got, pywasm.ParserSHA256)
	}
	compiled, err := rt.CompileModule(ctx, pywasm.ParserWasm)
	if err != nil {
		return nil, fmt.Errorf("parser: compile: %w", err)
	}
	for _, f := range compiled.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod != "wasi_snapshot_preview1" || !allowedImports[name] {
			compiled.Close(ctx)
			return nil, fmt.Errorf("parser: module imports %s.%s, which is not allowed", mod, name)
		}
	}
	exports := compiled.ExportedFunctions()
	for _, name := range requiredExports {
		if _, ok := exports[name]; !ok {
			compiled.Close(ctx)
			return nil, fmt.Errorf("parser: module does not export %s", name)
		}
	}
	return &Module{rt: rt, compiled: compiled}, nil
}

// Close releases the compiled module. Parsers must be closed first.
func (m *Module) Close(ctx context.Context) error { return m.compiled.Close(ctx) }

// Parser is one instance of the parser module. Not safe for concurrent use.
type Parser struct {
	mod                              api.Module
	mem                              api.Memory
	malloc, free, parse              api.Function
	parseSlotFn                      api.Function
	resultPtr, resultLen, resultFree api.Function
	stack                            [5]uint64 // call scratch, avoids an allocation per call
	closed                           bool
}

// New instantiates the module and initialises its tree-sitter parser.
func (m *Module) New(ctx context.Context) (*Parser, error) {
	cfg := wazero.NewModuleConfig().
		WithName(""). // anonymous: many instances per runtime
		WithStartFunctions("_initialize").
		WithSysNanotime()
	mod, err := m.rt.InstantiateModule(ctx, m.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("parser: instantiate: %w", err)
	}
	p := &Parser{
		mod:         mod,
		mem:         mod.Memory(),
		malloc:      mod.ExportedFunction("malloc"),
		free:        mod.ExportedFunction("free"),
		parse:       mod.ExportedFunction("pyws_parse"),
		parseSlotFn: mod.ExportedFunction("pyws_parse_slot"),
		resultPtr:   mod.ExportedFunction("pyws_result_ptr"),
		resultLen:   mod.ExportedFunction("pyws_result_len"),
		resultFree:  mod.ExportedFunction("pyws_result_free"),
	}
	status, err := p.call(ctx, mod.ExportedFunction("pyws_init"))
	if err != nil {
		return nil, err
	}
	if status != statusOK {
		p.Close(ctx)
		return nil, fmt.Errorf("parser: init: guest status %d", status)
	}
	return p, nil
}

// call invokes f with the arguments already in p.stack[:n] and returns
// its first result. A trap closes the instance.
func (p *Parser) call(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	copy(p.stack[:], args)
	if err := f.CallWithStack(ctx, p.stack[:]); err != nil {
		p.Close(ctx)
		return 0, &TrapError{cause: err}
	}
	return p.stack[0], nil
}

// Parse parses src and returns the tree blob, a fresh slice the caller
// owns. budget > 0 bounds the parse's wall time; otherwise the parse is
// unbounded. A deadline on ctx, if sooner, bounds it too, and the error
// then matches both ErrParseTimeout and context.DeadlineExceeded. Flattening
// the finished tree is not bounded by budget, but is linear and small.
func (p *Parser) Parse(ctx context.Context, src []byte, budget time.Duration) ([]byte, error) {
	return p.run(ctx, src, 0, budget, func(srcPtr, budgetUS uint64) (uint64, error) {
		return p.call(ctx, p.parse, srcPtr, uint64(len(src)), budgetUS)
	})
}

// Slots is how many trees a Parser keeps for incremental parsing.
const Slots = 16

// ParseSlot is Parse that keeps the new tree in slot (0 <= slot < Slots)
// for the next version of the same file. prev is the source the slot's
// tree was parsed from, or nil for a parse from scratch: the slot's tree is
// then edited by the difference between prev and src (InputEdits: one
// range per run of changed lines) and reused, so only the changed regions
// are parsed again. For valid code the blob is the one Parse gives
// (tree-sitter guarantees it); for code with syntax errors, error recovery
// may settle differently from a fresh parse, so a caller that needs Parse's
// blob parses such a tree again without prev (host/plugins does, reading
// the root's error flag with plugin-sdk/tree). Whatever the outcome, the
// slot then holds the tree of src or nothing.
func (p *Parser) ParseSlot(ctx context.Context, slot int, prev, src []byte, budget time.Duration) ([]byte, error) {
	if slot < 0 || slot >= Slots {
		return nil, fmt.Errorf("parser: slot %d out of range [0,%d)", slot, Slots)
	}
	var edits []byte // the guest's edit record: a count, then the edits
	if prev != nil {
		es := inputEdits(prev, src)
		edits = make([]byte, 4*(1+editWords*len(es)))
		binary.LittleEndian.PutUint32(edits, uint32(len(es)))
		for i, e := range es {
			for j, v := range e {
				binary.LittleEndian.PutUint32(edits[4*(1+editWords*i+j):], v)
			}
		}
	}
	return p.run(ctx, src, len(edits), budget, func(srcPtr, budgetUS uint64) (uint64, error) {
		var editPtr uint64
		if edits != nil {
			// The edits go in the same allocation as the source, after it.
			editPtr = srcPtr + uint64(alignUp(len(src), 4))
			if !p.mem.Write(uint32(editPtr), edits) {
				return 0, fmt.Errorf("parser: edit at %#x outside memory", editPtr)
			}
		}
		return p.call(ctx, p.parseSlotFn, uint64(slot), srcPtr, uint64(len(src)), budgetUS, editPtr)
	})
}

// inputEdits is InputEdits; BenchmarkParseScattered swaps in the single
// range to measure what the line diff saves.
var inputEdits = InputEdits

func alignUp(n, a int) int { return (n + a - 1) / a * a }

// editWords is the size of the guest's edit record: start, old end and
// new end bytes, then their rows and byte columns.
const editWords = 9

// InputEdit describes how src differs from prev as tree-sitter's
// TSInputEdit: the range between their common prefix and common suffix.
// Rows count '\n'; columns are bytes since the last '\n', as tree-sitter
// counts them.
func InputEdit(prev, src []byte) [editWords]uint32 {
	start, oldEnd, newEnd := changedRange(prev, src)
	row, col := point(prev[:start])
	oldRow, oldCol := advance(row, col, prev[start:oldEnd])
	newRow, newCol := advance(row, col, src[start:newEnd])
	return [editWords]uint32{uint32(start), uint32(oldEnd), uint32(newEnd), row, col, oldRow, oldCol, newRow, newCol}
}

// changedRange returns where prev and src differ: prev[start:oldEnd]
// became src[start:newEnd], between their common prefix and suffix (which
// do not overlap).
func changedRange(prev, src []byte) (start, oldEnd, newEnd int) {
	for start < len(prev) && start < len(src) && prev[start] == src[start] {
		start++
	}
	oldEnd, newEnd = len(prev), len(src)
	for oldEnd > start && newEnd > start && prev[oldEnd-1] == src[newEnd-1] {
		oldEnd--
		newEnd--
	}
	return start, oldEnd, newEnd
}

func point(b []byte) (row, col uint32) { return advance(0, 0, b) }

// advance moves the point (row, col) over b.
func advance(row, col uint32, b []byte) (uint32, uint32) {
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		return row + uint32(n), uint32(len(b) - bytes.LastIndexByte(b, '\n') - 1)
	}
	return row, col + uint32(len(b))
}

// run is the common part of Parse and ParseSlot: bounds, the source in
// guest memory with extra bytes after it, the guest's parse (call), and
// the blob out.
func (p *Parser) run(ctx context.Context, src []byte, extra int, budget time.Duration, call func(srcPtr, budgetUS uint64) (uint64, error)) ([]byte, error) {
	if p.closed {
		return nil, ErrClosed
	}
	if len(src) > MaxSourceBytes {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(src), MaxSourceBytes)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	byDeadline := false
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		if left <= 0 {
			return nil, context.DeadlineExceeded
		}
		if budget <= 0 || left < budget {
			budget, byDeadline = left, true
		}
	}
	var budgetUS uint64
	if budget > 0 {
		budgetUS = uint64(max(budget.Microseconds(), 1))
	}

	// Room for the source and, for ParseSlot, the edits after it.
	srcPtr, err := p.call(ctx, p.malloc, uint64(alignUp(len(src), 4)+extra))
	if err != nil {
		return nil, err
	}
	if srcPtr == 0 {
		return nil, fmt.Errorf("parser: guest out of memory for a %d-byte source", len(src))
	}
	if !p.mem.Write(uint32(srcPtr), src) {
		return nil, fmt.Errorf("parser: guest malloc returned %#x, outside memory", srcPtr)
	}
	status, err := call(srcPtr, budgetUS)
	if err != nil {
		return nil, err
	}
	// The source is not needed any more whatever the outcome.
	if _, err := p.call(ctx, p.free, srcPtr); err != nil {
		return nil, err
	}
	switch status {
	case statusOK:
	case statusTimeout:
		if byDeadline {
			// The guest's clock may pass the deadline before ctx's timer fires.
			return nil, fmt.Errorf("%w: %w", ErrParseTimeout, context.DeadlineExceeded)
		}
		return nil, ErrParseTimeout
	case statusNoMemory:
		return nil, errors.New("parser: guest out of memory building the tree")
	default:
		return nil, fmt.Errorf("parser: guest status %d", status)
	}

	ptr, err := p.call(ctx, p.resultPtr)
	if err != nil {
		return nil, err
	}
	n, err := p.call(ctx, p.resultLen)
	if err != nil {
		return nil, err
	}
	view, ok := p.mem.Read(uint32(ptr), uint32(n))
	if !ok || n > math.MaxInt32 {
		return nil, fmt.Errorf("parser: guest result [%#x,+%d) outside memory", ptr, n)
	}
	blob := make([]byte, len(view))
	copy(blob, view)
	if _, err := p.call(ctx, p.resultFree); err != nil {
		return nil, err
	}
	return blob, nil
}

// MemorySize returns the instance's linear memory size in bytes, its
// high-water mark; a pool recycles the Parser when it is too large.
func (p *Parser) MemorySize() uint32 {
	if p.closed {
		return 0
	}
	return p.mem.Size()
}

// Close releases the instance. It is safe to call more than once.
func (p *Parser) Close(ctx context.Context) error {
	if p.closed {
		return nil
	}
	p.closed = true
	return p.mod.Close(ctx)
}
