package plugins

import (
	"context"
	"errors"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/parser"
)

// treeParser turns Python source into the flat tree blob plugins receive.
// An interface so the engine can be tested without the parser.
type treeParser interface {
	Parse(ctx context.Context, src []byte, budget time.Duration) ([]byte, error)
}

// The worker's parser instance: its own runtime (the parser keeps its own
// memory cap), recreated after a trap and recycled above a high-water
// mark, like a guest instance.
const (
	parserMemoryLimitPages = (1 << 30) / pageSize // sources are capped far below by the tiers
	parserHighWaterPages   = (128 << 20) / pageSize
)

type workerParser struct {
	rt  wazero.Runtime
	mod *parser.Module
	p   *parser.Parser
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

func (w *workerParser) Parse(ctx context.Context, src []byte, budget time.Duration) ([]byte, error) {
	if w.p == nil {
		p, err := w.mod.New(withLinearMemory(ctx))
		if err != nil {
			return nil, err
		}
		w.p = p
	}
	blob, err := w.p.Parse(ctx, src, budget)
	if errors.Is(err, parser.ErrTrap) || errors.Is(err, parser.ErrClosed) || w.p.MemorySize() > parserHighWaterPages*pageSize {
		w.p.Close(ctx)
		w.p = nil
	}
	return blob, err
}

func (w *workerParser) Close(ctx context.Context) error {
	if w.p != nil {
		w.p.Close(ctx)
	}
	return w.rt.Close(ctx)
}

func isParseTimeout(err error) bool { return errors.Is(err, parser.ErrParseTimeout) }
