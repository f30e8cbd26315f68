// Package parsertest gives tests real syntax trees from the kernel's wasm
// parser: one instance per test binary, shared under a lock (a Parser is
// not safe for concurrent use), restarted if a trap closes it. Analyzer
// tests use it so their fixtures are parsed exactly as in production.
package parsertest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/parser"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

var (
	mu     sync.Mutex
	module *parser.Module
	inst   *parser.Parser
)

// Blob parses src and returns the tree blob. The parse is unbounded.
func Blob(src []byte) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	ctx := context.Background()
	if module == nil {
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		m, err := parser.Compile(ctx, rt)
		if err != nil {
			return nil, err
		}
		module = m
	}
	if inst == nil {
		p, err := module.New(ctx)
		if err != nil {
			return nil, err
		}
		inst = p
	}
	blob, err := inst.Parse(ctx, src, 0)
	if errors.Is(err, parser.ErrTrap) || errors.Is(err, parser.ErrClosed) {
		inst = nil // a trap closed the instance: the next call starts a new one
	}
	return blob, err
}

// Tree parses src into a decoded tree, failing tb on any error.
func Tree(tb testing.TB, src []byte) *tree.Tree {
	tb.Helper()
	blob, err := Blob(src)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := tree.Decode(blob, src)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}
