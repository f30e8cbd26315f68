package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pyws/pyws/host/index"
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
