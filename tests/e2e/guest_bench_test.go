package e2e

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// BenchmarkGuest5000Lines is the plugins' own share of a call on the
// generated 5,000-line module: the packed diagnostics and indexer plugins
// under wazero in this process, the tree parsed once up front, so only the
// guest's decoding, analysis and answer are timed (the figures RATIONALE.md
// quotes for the guests), with the guest's memory after the calls.
func BenchmarkGuest5000Lines(b *testing.B) {
	build(b)
	src := []byte(bigModule(5000))
	blob, err := parsertest.Blob(src)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ plugin, tool, args string }{
		{"diagnostics", "get_diagnostics", `{"pyws":{"module":"big","pythonVersion":"3.11"}}`},
		{"indexer", "index_files", `{}`},
	} {
		b.Run(c.plugin, func(b *testing.B) {
			msg, err := abi.EncodeRequest(&abi.Request{Tool: c.tool, Arguments: []byte(c.args),
				Files: []abi.File{{URI: "file:///w/big.py", Path: "big.py", Source: src, Tree: blob}}})
			if err != nil {
				b.Fatal(err)
			}
			mod, call := loadGuest(b, filepath.Join(pluginsDir, c.plugin, "plugin.wasm"))
			call(msg) // instantiation and first-call costs are not the guest's steady state
			for b.Loop() {
				call(msg)
			}
			b.ReportMetric(float64(mod.Memory().Size())/(1<<20), "MiB")
		})
	}
}

// loadGuest instantiates a plugin module with the imports a worker gives
// it and returns a function making one pyws_alloc + pyws_handle call and
// returning the response message (valid until the next call).
func loadGuest(b *testing.B, path string) (api.Module, func([]byte) []byte) {
	wasm, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithMemoryLimitPages(8192).WithMemoryCapacityFromMax(true))
	b.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	if _, err := rt.NewHostModuleBuilder(abi.ModuleName).NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {}), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, nil).
		Export(abi.ImportLog).Instantiate(ctx); err != nil {
		b.Fatal(err)
	}
	mod, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithStartFunctions().WithRandSource(rand.Reader))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := mod.ExportedFunction(abi.ExportInitialize).Call(ctx); err != nil {
		b.Fatal(err)
	}
	alloc, handle := mod.ExportedFunction(abi.ExportAlloc), mod.ExportedFunction(abi.ExportHandle)
	return mod, func(msg []byte) []byte {
		res, err := alloc.Call(ctx, uint64(len(msg)))
		if err != nil {
			b.Fatal(err)
		}
		mod.Memory().Write(uint32(res[0]), msg)
		res, err = handle.Call(ctx, res[0], uint64(len(msg)))
		if err != nil {
			b.Fatal(err)
		}
		out, _ := mod.Memory().Read(uint32(res[0]>>32), uint32(res[0]))
		if len(out) < 10 || string(out[:9]) != `{"result"` {
			b.Fatalf("plugin answered %.200s", out)
		}
		return out
	}
}
