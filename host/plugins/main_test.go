package plugins

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	RunWorkerIfRequested() // the test binary doubles as the plugin worker
	os.Exit(m.Run())
}

var testPlugins = []string{"echo", "loop", "oom", "panic"}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// builtPlugins packs tests/plugins/* once per content of their sources and
// the SDK, into a directory under TMPDIR that later runs reuse.
func builtPlugins(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := filepath.Abs("../..")
		if err != nil {
			buildErr = err
			return
		}
		key, err := sourceKey(root, "tests/plugins", "plugin-sdk", "go.mod")
		if err != nil {
			buildErr = err
			return
		}
		dir := filepath.Join(os.TempDir(), "pyws-test-plugins", key)
		if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
			buildDir = dir
			return
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "build-")
		if err != nil && os.MkdirAll(filepath.Dir(dir), 0o755) == nil {
			tmp, err = os.MkdirTemp(filepath.Dir(dir), "build-")
		}
		if err != nil {
			buildErr = err
			return
		}
		for _, name := range testPlugins {
			if _, err := Pack(context.Background(), filepath.Join(root, "tests/plugins", name), tmp); err != nil {
				buildErr = err
				return
			}
		}
		os.WriteFile(filepath.Join(tmp, "done"), nil, 0o644)
		if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
			if _, statErr := os.Stat(filepath.Join(dir, "done")); statErr != nil {
				buildErr = err
				return
			}
		}
		buildDir = dir
	})
	if buildErr != nil {
		t.Fatalf("build test plugins: %v", buildErr)
	}
	return buildDir
}

// sourceKey hashes the Go sources and manifests under paths (relative to
// root) and the Go version.
func sourceKey(root string, paths ...string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	var files []string
	for _, p := range paths {
		err := filepath.WalkDir(filepath.Join(root, p), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && strings.Contains(path, "examples") {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".mod")) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// testCacheDir is wazero's compilation cache for tests, kept across runs:
// a Go plugin compiles in about a second cold and in tens of ms from it.
func testCacheDir() string { return filepath.Join(os.TempDir(), "pyws-test-wazero-cache") }

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// startRuntime starts a Runtime over the named built plugins and closes it
// when the test ends.
func startRuntime(t testing.TB, workers int, plugins ...string) *Runtime {
	t.Helper()
	built := builtPlugins(t)
	var dirs []string
	for _, p := range plugins {
		dirs = append(dirs, filepath.Join(built, p))
	}
	return startRuntimeDirs(t, Config{Dirs: dirs, Workers: workers})
}

func startRuntimeDirs(t testing.TB, cfg Config) *Runtime {
	t.Helper()
	if cfg.CacheDir == "" {
		cfg.CacheDir = testCacheDir()
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	// Generous: on a loaded 2-core machine a -race worker compiling the
	// test plugins took over two minutes to serve.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
