package plugins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// clonePlugin copies a built test plugin into a temp dir, edits its
// manifest and reseals it.
func clonePlugin(t *testing.T, name string, edit func(*Manifest)) string {
	t.Helper()
	src := filepath.Join(builtPlugins(t), name)
	dst := filepath.Join(t.TempDir(), name)
	copyPluginFiles(t, src, dst)
	m, err := ReadManifest(dst)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	writeManifest(t, dst, m)
	if _, err := Seal(dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func copyPluginFiles(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ManifestFile, ModuleFile} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writeManifest(t *testing.T, dir string, m *Manifest) {
	t.Helper()
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// wasmImporting is a minimal module importing one function module.name.
func wasmImporting(module, name string) []byte {
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	b = append(b, 1, 4, 1, 0x60, 0, 0) // type section: func () -> ()
	imp := []byte{1, byte(len(module))}
	imp = append(imp, module...)
	imp = append(imp, byte(len(name)))
	imp = append(imp, name...)
	imp = append(imp, 0, 0) // kind func, type 0
	b = append(b, 2, byte(len(imp)))
	return append(b, imp...)
}

// rawPlugin writes a plugin dir holding wasm and a sealed manifest.
func rawPlugin(t *testing.T, parent, name string, wasm []byte, tools ...string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, ModuleFile), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	writeManifest(t, dir, &Manifest{Name: name, Version: "1", ABI: abi.ModuleName, Protocol: 1, Tools: tools})
	if _, err := Seal(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) []string // plugin dirs
		want  []string                    // substrings of the error
	}{
		{"import outside the ABI", func(t *testing.T) []string {
			return []string{rawPlugin(t, t.TempDir(), "bad", wasmImporting("env", "foo"), "x")}
		}, []string{"env.foo", "pyws_v1"}},
		{"forbidden WASI call", func(t *testing.T) []string {
			return []string{rawPlugin(t, t.TempDir(), "bad", wasmImporting("wasi_snapshot_preview1", "path_open"), "x")}
		}, []string{"wasi_snapshot_preview1.path_open", "may not use"}},
		{"unknown host function", func(t *testing.T) []string {
			return []string{rawPlugin(t, t.TempDir(), "bad", wasmImporting("pyws_v1", "read_disk"), "x")}
		}, []string{"pyws_v1.read_disk", "does not provide"}},
		{"host function with the wrong signature", func(t *testing.T) []string {
			return []string{rawPlugin(t, t.TempDir(), "bad", wasmImporting("pyws_v1", "log"), "x")}
		}, []string{"pyws_v1.log with signature () -> ()", "want (i32, i32, i32) -> ()"}},
		{"missing exports", func(t *testing.T) []string {
			return []string{rawPlugin(t, t.TempDir(), "bad", []byte{0, 'a', 's', 'm', 1, 0, 0, 0}, "x")}
		}, []string{"does not export its memory"}},
		{"sha mismatch", func(t *testing.T) []string {
			dir := clonePlugin(t, "echo", func(*Manifest) {})
			wasm, _ := os.ReadFile(filepath.Join(dir, ModuleFile))
			os.WriteFile(filepath.Join(dir, ModuleFile), append(wasm, 0), 0o644) // a trailing byte: still the same code
			return []string{dir}
		}, []string{"sha256", "not the one the manifest was written for"}},
		{"newer protocol", func(t *testing.T) []string {
			dir := clonePlugin(t, "echo", func(*Manifest) {})
			m, _ := ReadManifest(dir)
			m.Protocol = abi.Protocol + 1
			writeManifest(t, dir, m)
			return []string{dir}
		}, []string{"protocol 2", "upgrade pyws, or rebuild the plugin against a plugin SDK for protocol 1"}},
		{"other ABI", func(t *testing.T) []string {
			dir := clonePlugin(t, "echo", func(*Manifest) {})
			m, _ := ReadManifest(dir)
			m.ABI = "pyws_v2"
			writeManifest(t, dir, m)
			return []string{dir}
		}, []string{`abi "pyws_v2" unsupported`, "rebuild"}},
		{"unsealed manifest", func(t *testing.T) []string {
			dir := clonePlugin(t, "echo", func(*Manifest) {})
			m, _ := ReadManifest(dir)
			m.SHA256 = ""
			writeManifest(t, dir, m)
			return []string{dir}
		}, []string{"no sha256", "pack"}},
		{"unknown manifest field", func(t *testing.T) []string {
			dir := clonePlugin(t, "echo", func(*Manifest) {})
			b, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
			os.WriteFile(filepath.Join(dir, ManifestFile), []byte(strings.Replace(string(b), `"name"`, `"memoryLimitMb": 5, "name"`, 1)), 0o644)
			return []string{dir}
		}, []string{"memoryLimitMb"}},
		{"unknown need", func(t *testing.T) []string {
			dir := clonePlugin(t, "echo", func(*Manifest) {})
			m, _ := ReadManifest(dir)
			m.Needs = []string{"index"}
			writeManifest(t, dir, m)
			return []string{dir}
		}, []string{`needs "index" unknown`}},
		{"two plugins claim a tool in one directory", func(t *testing.T) []string {
			parent := t.TempDir()
			for _, n := range []string{"a", "b"} {
				copyPluginFiles(t, filepath.Join(builtPlugins(t), "echo"), filepath.Join(parent, n))
			}
			return []string{parent}
		}, []string{"both serve tool \"echo\"", "later plugin directory"}},
		{"missing directory", func(t *testing.T) []string {
			return []string{filepath.Join(t.TempDir(), "nope")}
		}, []string{"plugin directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := Start(ctx, Config{Dirs: tt.setup(t), CacheDir: testCacheDir(), Workers: 1, Logger: testLogger(t)})
			if err == nil {
				r.Close()
				t.Fatal("Start accepted the plugin")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLaterDirectoryOverridesTool(t *testing.T) {
	built := builtPlugins(t)
	// The replacement is the panic plugin claiming "echo": it answers "ok".
	override := t.TempDir()
	copyPluginFiles(t, filepath.Join(built, "panic"), filepath.Join(override, "my-echo"))
	m, _ := ReadManifest(filepath.Join(override, "my-echo"))
	m.Name, m.Tools = "my-echo", []string{"echo", "ok"}
	writeManifest(t, filepath.Join(override, "my-echo"), m)

	r := startRuntimeDirs(t, Config{Dirs: []string{filepath.Join(built, "echo"), filepath.Join(built, "loop"), override}, Workers: 1})
	res, err := r.Call(overall(t, 30*time.Second), "echo", &abi.Request{})
	if err != nil || string(res) != `"ok"` {
		t.Fatalf("echo = %s, %v; want the override's answer", res, err)
	}
	if got := strings.Join(r.Tools(), ","); got != "echo,loop,ok,spin" {
		t.Errorf("Tools() = %s", got)
	}
	// The overridden plugin is not loaded at all.
	if len(r.plugins) != 2 {
		t.Errorf("loaded %d plugins, want 2", len(r.plugins))
	}
	// Resolve, from the manifests alone, agrees with the started runtime.
	owners, err := Resolve([]string{filepath.Join(built, "echo"), filepath.Join(built, "loop"), override}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range r.Tools() {
		if m := owners[tool]; m == nil || m.SHA256 != r.PluginSHA256(tool) {
			t.Errorf("Resolve: %s served by %+v, the runtime's plugin has sha256 %s", tool, m, r.PluginSHA256(tool))
		}
	}
	if len(owners) != len(r.Tools()) || owners["echo"].Name != "my-echo" {
		t.Errorf("Resolve: %d tools, echo by %q; want %d, my-echo", len(owners), owners["echo"].Name, len(r.Tools()))
	}
}

// TestCheckedModuleMarked: a module that compiled and passed the check is
// marked in the cache directory, and a start that finds the mark does not
// load it back to check it again; the worker still checks it at its
// first call, so a marked module the check refuses never runs.
func TestCheckedModuleMarked(t *testing.T) {
	if wazeroVersion() == "" { // a test binary's build info lists no modules
		defer func(v func() string) { wazeroVersion = v }(wazeroVersion)
		wazeroVersion = func() string { return "test" }
	}
	cache := testCacheDir() // compiled already: a fresh one takes 40 s under -race
	dir := builtPluginDir(t, "echo")
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(compiledMarker(cache, m.SHA256))
	r := startRuntimeDirs(t, Config{Dirs: []string{dir}, CacheDir: cache, Workers: 1})
	r.Close()
	if !marked(compiledMarker(cache, m.SHA256)) {
		t.Fatal("the checked module is not marked")
	}

	bad := rawPlugin(t, t.TempDir(), "bad", wasmImporting("env", "foo"), "x")
	bm, err := ReadManifest(bad)
	if err != nil {
		t.Fatal(err)
	}
	markCompiled(compiledMarker(cache, bm.SHA256), testLogger(t))
	r = startRuntimeDirs(t, Config{Dirs: []string{bad}, CacheDir: cache, Workers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := r.Call(ctx, "x", &abi.Request{}); err == nil || !strings.Contains(err.Error(), "env.foo") {
		t.Fatalf("a marked module the check refuses was called: err = %v", err)
	}
}
