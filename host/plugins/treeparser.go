package plugins

import (
	"context"
	"errors"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/wasm/parser"
)

// treeParser turns Python source into the flat tree blob plugins receive.
// An interface so the engine can be tested without the parser.
type treeParser interface {
	// Parse parses src as the current version of the file named key
	// (its URI). The parser may keep the tree of a file's last version and
	// parse the next one incrementally; the blob is the same either way.
	// alone says the call parses this file alone (a formatting phase, an
	// edited file indexed again), not among others (see keptTrees).
	Parse(ctx context.Context, key string, alone bool, src []byte, budget time.Duration) ([]byte, error)
}

// The worker's parser instance: its own runtime (the parser keeps its own
// memory cap), recreated after a trap and recycled above a high-water
// mark, like a guest instance.
const (
	parserMemoryLimitPages = (1 << 30) / pageSize // sources are capped far below by the tiers
	parserHighWaterPages   = (128 << 20) / pageSize
)

type workerParser struct {
	rt   wazero.Runtime
	mod  *parser.Module
	p    *parser.Parser
	kept keptTrees
}

// newTreeParser builds a worker's parser.
var newTreeParser = func(ctx context.Context, cache wazero.CompilationCache) (treeParser, error) {
	cfg := wazero.NewRuntimeConfigCompiler().WithMemoryLimitPages(parserMemoryLimitPages)
	if cache != nil {
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	mod, err := parser.Compile(ctx, rt)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return &workerParser{rt: rt, mod: mod}, nil
}

func (w *workerParser) Parse(ctx context.Context, key string, alone bool, src []byte, budget time.Duration) ([]byte, error) {
	if w.p == nil {
		p, err := w.mod.New(withLinearMemory(ctx))
		if err != nil {
			return nil, err
		}
		w.p = p
		w.kept.reset()
	}
	var blob []byte
	var err error
	if slot, prev, ok := w.kept.claim(key, alone, src); ok {
		// A slot taken over from another file has that file's tree in it:
		// ParseSlot without prev replaces it.
		if blob, err = parseKept(ctx, w.p, slot, prev, src, budget); err != nil {
			w.kept.forget(key) // the slot is empty after a failure
		}
	} else {
		blob, err = w.p.Parse(ctx, src, budget)
	}
	if errors.Is(err, parser.ErrTrap) || errors.Is(err, parser.ErrClosed) || w.p.MemorySize() > parserHighWaterPages*pageSize {
		w.p.Close(ctx)
		w.p = nil
	}
	return blob, err
}

// parseKept parses src into slot, incrementally from prev when prev is not
// nil, and always returns the blob a fresh Parse gives: an incremental tree
// with syntax errors, where error recovery may settle differently from a
// fresh parse, is parsed again from scratch within what is left of budget,
// so a file's diagnostics never depend on its history.
func parseKept(ctx context.Context, p *parser.Parser, slot int, prev, src []byte, budget time.Duration) ([]byte, error) {
	start := time.Now()
	blob, err := p.ParseSlot(ctx, slot, prev, src, budget)
	if err == nil && prev != nil && blobHasError(blob) {
		if budget > 0 {
			if budget -= time.Since(start); budget <= 0 {
				return nil, parser.ErrParseTimeout
			}
		}
		return p.ParseSlot(ctx, slot, nil, src, budget)
	}
	return blob, err
}

// blobHasError reports whether a blob's root has syntax errors; an
// unreadable blob counts as broken, and the fresh parse decides.
func blobHasError(blob []byte) bool {
	bad, err := tree.RootHasError(blob)
	return bad || err != nil
}

// shed closes the parser's instance when it keeps no tree for an
// incremental parse: what its linear memory holds then is the last
// parse's garbage (12-15 MiB after an index build), and the next parse
// instantiates again from the compiled module.
func (w *workerParser) shed(ctx context.Context) {
	if w.p != nil && len(w.kept.files) == 0 {
		w.p.Close(ctx)
		w.p = nil
	}
}

func (w *workerParser) Close(ctx context.Context) error {
	if w.p != nil {
		w.p.Close(ctx)
	}
	return w.rt.Close(ctx)
}

func isParseTimeout(err error) bool { return errors.Is(err, parser.ErrParseTimeout) }

// Which files keep their tree in the parser for an incremental parse of
// their next version: files of at least keepMinBytes (smaller ones parse
// from scratch in a few ms) parsed before in another version, at most
// parser.Slots of them and keepMaxBytes of source in all, least recently
// parsed out first. A file parsed among others (an index build's batch,
// a diagnostics call's context modules) keeps no tree for its first
// version: an index build parses each file once, and keeping the last 16
// of its large files (whose next versions rarely come) held about 10 MiB
// of each worker's peak on Django's build (see RATIONALE.md, "Where does
// the memory go?"). It keeps one from its second version on, and a file
// parsed alone (a formatting phase, whose next phase parses the next
// version) from its first. keepSeenMax bounds the keys remembered.
const (
	keepMinBytes = 8 << 10
	keepMaxBytes = 4 << 20
	keepSeenMax  = 1 << 14
)

// keptTrees maps file keys to the parser's slots and remembers the source
// each slot's tree was parsed from. Not safe for concurrent use.
type keptTrees struct {
	files map[string]*keptTree
	seen  map[string]struct{} // keys parsed once without a slot
	tick  uint64
	bytes int
}

type keptTree struct {
	slot int
	src  []byte // a copy: request buffers do not outlive the call
	used uint64
}

func (k *keptTrees) reset() { *k = keptTrees{} }

// claim picks the slot for key's new version src: the file's own slot
// with prev, the source of the tree in it, or else a free or the least
// recently used slot with prev nil. ok is false when src is not worth
// keeping, or is the first version of key seen and not parsed alone.
func (k *keptTrees) claim(key string, alone bool, src []byte) (slot int, prev []byte, ok bool) {
	if key == "" || len(src) < keepMinBytes || len(src) > keepMaxBytes {
		if key != "" {
			k.forget(key) // its slot's tree is of an older version
		}
		return 0, nil, false
	}
	if k.files == nil {
		k.files = map[string]*keptTree{}
	}
	if _, kept := k.files[key]; !kept {
		if _, again := k.seen[key]; !again && !alone {
			if k.seen == nil || len(k.seen) >= keepSeenMax {
				k.seen = map[string]struct{}{}
			}
			k.seen[key] = struct{}{}
			return 0, nil, false
		}
	}
	k.tick++
	if f, ok := k.files[key]; ok {
		prev = f.src
		k.bytes += len(src) - len(f.src)
		f.src, f.used = append([]byte(nil), src...), k.tick
		k.trim(key)
		return f.slot, prev, true
	}
	used := make([]bool, parser.Slots)
	for _, f := range k.files {
		used[f.slot] = true
	}
	slot = -1
	for i, u := range used {
		if !u {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = k.evictOldest()
	}
	k.files[key] = &keptTree{slot: slot, src: append([]byte(nil), src...), used: k.tick}
	k.bytes += len(src)
	k.trim(key)
	return slot, nil, true
}

// trim forgets least recently used files other than keep until the kept
// sources fit keepMaxBytes. Their trees stay in the slots until reused.
func (k *keptTrees) trim(keep string) {
	for k.bytes > keepMaxBytes && len(k.files) > 1 {
		k.forget(k.oldest(keep))
	}
}

// evictOldest forgets the least recently used file and returns its slot.
func (k *keptTrees) evictOldest() int {
	oldest := k.oldest("")
	slot := k.files[oldest].slot
	k.forget(oldest)
	return slot
}

// oldest returns the least recently used file other than except.
func (k *keptTrees) oldest(except string) string {
	var oldest string
	for key, f := range k.files {
		if key != except && (oldest == "" || f.used < k.files[oldest].used) {
			oldest = key
		}
	}
	return oldest
}

func (k *keptTrees) forget(key string) {
	if f, ok := k.files[key]; ok {
		k.bytes -= len(f.src)
		delete(k.files, key)
	}
}
