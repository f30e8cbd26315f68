package plugins

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

const wasiModule = "wasi_snapshot_preview1"

// allowedWASI is every WASI call a guest may import. Go's wasip1 runtime
// and wasi-libc need them to start and to write a crash report; none of
// them reaches the host: a guest has no preopened directory (fd_prestat_*
// answer EBADF), no args, no environment, an empty stdin, stdout/stderr
// that go to the kernel's log (capped), a fake clock that advances 1 ms
// per reading, and sleeps that return at once. path_open, sockets and the
// rest of WASI are refused at load time.
var allowedWASI = []string{
	"args_get", "args_sizes_get", "environ_get", "environ_sizes_get",
	"clock_res_get", "clock_time_get",
	"fd_close", "fd_fdstat_get", "fd_fdstat_set_flags", "fd_prestat_get", "fd_prestat_dir_name",
	"fd_read", "fd_write",
	"poll_oneoff", "proc_exit", "random_get", "sched_yield",
}

type signature struct{ params, results []api.ValueType }

var (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// hostFunctions are the pyws_v1 imports, with their signatures.
var hostFunctions = map[string]signature{
	abi.ImportLog: {[]api.ValueType{i32, i32, i32}, nil},
}

// guestExports are the functions a guest must (or, for _initialize and
// pyws_idle, may) export.
var guestExports = []struct {
	name     string
	sig      signature
	optional bool
}{
	{abi.ExportAlloc, signature{[]api.ValueType{i32}, []api.ValueType{i32}}, false},
	{abi.ExportHandle, signature{[]api.ValueType{i32, i32}, []api.ValueType{i64}}, false},
	{abi.ExportInitialize, signature{nil, nil}, true},
	{abi.ExportIdle, signature{nil, nil}, true},
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// checkModule verifies that a compiled module imports only what ABI v1
// provides and exports what it requires. It runs before any guest code.
func checkModule(cm wazero.CompiledModule) error {
	for _, f := range cm.ImportedFunctions() {
		mod, name, _ := f.Import()
		switch mod {
		case abi.ModuleName:
			sig, ok := hostFunctions[name]
			if !ok {
				return fmt.Errorf("module imports %s.%s, which ABI v1 does not provide (it provides %s)", mod, name, strings.Join(sortedKeys(hostFunctions), ", "))
			}
			if !sameSignature(f, sig) {
				return fmt.Errorf("module imports %s.%s with signature %s, want %s", mod, name, describe(f.ParamTypes(), f.ResultTypes()), describe(sig.params, sig.results))
			}
		case wasiModule:
			if !slices.Contains(allowedWASI, name) {
				return fmt.Errorf("module imports %s.%s, which plugins may not use (allowed WASI calls: %s)", mod, name, strings.Join(allowedWASI, ", "))
			}
		default:
			return fmt.Errorf("module imports %s.%s: plugins may import only from %q and the allowed %s calls", mod, name, abi.ModuleName, wasiModule)
		}
	}
	if ms := cm.ImportedMemories(); len(ms) > 0 {
		mod, name, _ := ms[0].Import()
		return fmt.Errorf("module imports memory %s.%s: a plugin must define and export its own memory", mod, name)
	}
	if _, ok := cm.ExportedMemories()[abi.ExportMemory]; !ok {
		return fmt.Errorf("module does not export its memory as %q", abi.ExportMemory)
	}
	fns := cm.ExportedFunctions()
	for _, e := range guestExports {
		f, ok := fns[e.name]
		if !ok {
			if e.optional {
				continue
			}
			return fmt.Errorf("module does not export %s%s", e.name, describe(e.sig.params, e.sig.results))
		}
		if !sameSignature(f, e.sig) {
			return fmt.Errorf("module exports %s with signature %s, want %s", e.name, describe(f.ParamTypes(), f.ResultTypes()), describe(e.sig.params, e.sig.results))
		}
	}
	return nil
}

func sameSignature(f api.FunctionDefinition, s signature) bool {
	return slices.Equal(f.ParamTypes(), s.params) && slices.Equal(f.ResultTypes(), s.results)
}

func describe(params, results []api.ValueType) string {
	name := func(ts []api.ValueType) string {
		s := make([]string, len(ts))
		for i, t := range ts {
			s[i] = api.ValueTypeName(t)
		}
		return "(" + strings.Join(s, ", ") + ")"
	}
	return name(params) + " -> " + name(results)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// compileChecked compiles wasm in rt (through rt's compilation cache) and
// checks its imports and exports.
func compileChecked(ctx context.Context, rt wazero.Runtime, wasm []byte) (wazero.CompiledModule, error) {
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	if err := checkModule(cm); err != nil {
		cm.Close(ctx)
		return nil, err
	}
	return cm, nil
}
