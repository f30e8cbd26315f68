package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestSeedCompileCache(t *testing.T) {
	logger := slog.New(slog.DiscardHandler)
	prepared, state := t.TempDir(), t.TempDir()
	write := func(dir, rel, text string) {
		p := filepath.Join(compileCacheDir(dir), rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(compileCacheDir(state), rel))
		return string(b)
	}

	seedCompileCache(filepath.Join(prepared, "absent"), state, logger) // nothing prepared: nothing done
	seedCompileCache("", state, logger)
	if _, err := os.Stat(compileCacheDir(state)); !os.IsNotExist(err) {
		t.Fatalf("without a prepared state the cache was touched: %v", err)
	}

	write(prepared, "wazero-v1/aa", "compiled a")
	write(prepared, "wazero-v1/bb", "compiled b")
	write(state, "wazero-v1/bb", "own b")
	seedCompileCache(prepared, state, logger)
	if got := read("wazero-v1/aa"); got != "compiled a" {
		t.Errorf("missing entry copied as %q", got)
	}
	if got := read("wazero-v1/bb"); got != "own b" {
		t.Errorf("an entry the state has was replaced: %q", got)
	}
	seedCompileCache(state, state, logger) // the state itself: nothing to copy
	if left, _ := filepath.Glob(filepath.Join(compileCacheDir(state), "wazero-v1", ".prepared-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestPrepareTargets(t *testing.T) {
	got, err := prepareTargets("3.11, 3.12,3.11")
	if err != nil {
		t.Fatal(err)
	}
	want := []index.Target{{Minor: 11, Platform: "linux"}, {Minor: 12, Platform: "linux"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"2.7", "3", "3.x", "311"} {
		if _, err := prepareTargets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if def, err := prepareTargets(""); err != nil || len(def) == 0 || def[0].Minor != index.DefaultTarget.Minor {
		t.Errorf("default targets %v, %v: want the default target first", def, err)
	}
}

// While the plugin runtime starts, the service is served from the
// manifests: health says starting (degraded, not unhealthy), a call waits
// for the start and fails with its error.
func TestPluginRuntimeWhileStarting(t *testing.T) {
	p := &pluginRuntime{tools: []string{"index_files"}, sha: map[string]string{"index_files": "abc"}, wanted: 2, ready: make(chan struct{})}
	if h := p.Health(); !h.Starting || h.Problem != "" {
		t.Errorf("health while starting = %+v", h)
	}
	if p.PluginSHA256("index_files") != "abc" || len(p.Tools()) != 1 {
		t.Errorf("identity before the start: %q %v", p.PluginSHA256("index_files"), p.Tools())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.Call(ctx, "index_files", &abi.Request{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a call while starting returned %v; it waits for the start or its deadline", err)
	}
	if st := p.stats(); st.Workers != 0 {
		t.Errorf("stats before the start: %+v", st)
	}

	p.err = errors.New("plugin indexer: bad module")
	close(p.ready)
	if _, err := p.Call(context.Background(), "index_files", &abi.Request{}); err == nil || !strings.Contains(err.Error(), "bad module") {
		t.Errorf("a call after a failed start returned %v", err)
	}
	if h := p.Health(); h.Starting || !strings.Contains(h.Problem, "bad module") {
		t.Errorf("health after a failed start = %+v", h)
	}
	kn := &kernel{plugins: p}
	select {
	case err := <-kn.pluginFailure():
		if !strings.Contains(err.Error(), "bad module") {
			t.Errorf("failure %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("a failed start was not reported")
	}
	p.Close() // nothing started: returns
}
