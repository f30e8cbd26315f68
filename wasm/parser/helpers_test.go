package parser

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// newModule returns a compiled module in a fresh runtime, closed with the test.
func newModule(tb testing.TB) *Module {
	tb.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
	tb.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	m, err := Compile(ctx, rt)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func newParser(tb testing.TB) *Parser {
	tb.Helper()
	p, err := newModule(tb).New(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close(context.Background()) })
	return p
}
