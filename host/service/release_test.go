package service

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// bulkyDiagnostics is a diagnostics plugin whose answers are large, so a
// workspace's cached answers weigh something.
type bulkyDiagnostics struct{ pad string }

func (p bulkyDiagnostics) Call(ctx context.Context, tool string, req *abi.Request) (json.RawMessage, error) {
	return json.RawMessage(`{"diagnostics":[],"pad":"` + p.pad + `"}`), nil
}
func (bulkyDiagnostics) Tools() []string      { return []string{"get_diagnostics"} }
func (bulkyDiagnostics) Health() PluginHealth { return PluginHealth{} }

// TestDroppedWorkspacesAreReleased opens many workspaces, fills their
// diagnostics state (configuration, interpreter answer, cached results),
// drops them the way the service does when a workspace vanishes, and
// checks that every workspace's state became unreachable (weak pointers:
// nothing package-level or global keeps it) and that the heap returned to
// about where it was.
func TestDroppedWorkspacesAreReleased(t *testing.T) {
	const workspaces, padBytes = 40, 256 << 10
	svc := New(Config{Plugins: bulkyDiagnostics{pad: strings.Repeat("x", padBytes)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer svc.Close()
	heapBefore := heapInUse()

	var states []weak.Pointer[workspaceState]
	var diags []weak.Pointer[diagState]
	for i := range workspaces {
		root := t.TempDir()
		// An interpreter that cannot run: asked once, at once.
		os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[tool.pyws]\npython = \"no-such-python\"\n"), 0o644)
		os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644)
		st, err := svc.workspaces.Get(root)
		if err != nil {
			t.Fatal(err)
		}
		waitUntil(t, st.loaded.Load)
		sess := &Session{svc: svc, ws: st, Limits: tiers.For(tiers.Pro)}
		if _, err := runDiagnostics(context.Background(), sess, toolspec.Args{"uri": "a.py"}); err != nil {
			t.Fatalf("workspace %d: %v", i, err)
		}
		if answers, _ := st.diag.cache.Len(); answers != 1 {
			t.Fatalf("workspace %d: %d cached answers, want 1", i, answers)
		}
		states = append(states, weak.Make(st))
		diags = append(diags, weak.Make(st.diag))
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		// The next request for a vanished workspace drops it.
		if _, err := svc.workspaces.Get(root); err == nil {
			t.Fatalf("workspace %d reopened after its removal", i)
		}
	}
	if n, _ := svc.Workspaces(); n != 0 {
		t.Fatalf("%d workspaces still served", n)
	}
	waitUntil(t, func() bool {
		runtime.GC()
		for i := range states {
			if states[i].Value() != nil || diags[i].Value() != nil {
				return false
			}
		}
		return true
	})
	// Each workspace held over 256 KiB of cached answers: kept, they
	// would be 10 MiB. Allow half of that for noise.
	grown := int64(heapInUse()) - int64(heapBefore)
	t.Logf("heap in use grew by %d KiB", grown>>10)
	if grown > workspaces*padBytes/2 {
		t.Errorf("heap in use grew by %d KiB after dropping every workspace", grown>>10)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("not reached within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestIdleWorkspacesAreReleased: with IdleRelease set, a workspace no
// request uses is released (its state becomes unreachable) and the next
// request opens it again; one in use, or preloaded, stays.
func TestIdleWorkspacesAreReleased(t *testing.T) {
	const idle = 100 * time.Millisecond
	svc := New(Config{Plugins: bulkyDiagnostics{pad: "x"}, IdleRelease: idle, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer svc.Close()
	newRoot := func() string {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[tool.pyws]\npython = \"no-such-python\"\n"), 0o644)
		os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644)
		return root
	}
	idleRoot, busyRoot, keptRoot := newRoot(), newRoot(), newRoot()
	if err := svc.Preload(keptRoot); err != nil {
		t.Fatal(err)
	}
	request := func(root string) (*workspaceState, func()) {
		t.Helper()
		st, done, err := svc.workspaces.Use(root)
		if err != nil {
			t.Fatal(err)
		}
		waitUntil(t, st.loaded.Load)
		sess := &Session{svc: svc, ws: st, Limits: tiers.For(tiers.Pro)}
		if _, err := runDiagnostics(context.Background(), sess, toolspec.Args{"uri": "a.py"}); err != nil {
			t.Fatal(err)
		}
		return st, done
	}
	idleState, done := request(idleRoot)
	done()
	gone := weak.Make(idleState)
	idleState = nil
	_, busyDone := request(busyRoot) // a request still running: never released under it

	waitUntil(t, func() bool { _, released := svc.Workspaces(); return released == 1 })
	time.Sleep(3 * idle) // more sweeps: the busy and the preloaded one stay
	idleOpen, busyOpen, keptOpen := svc.workspaces.Has(idleRoot), svc.workspaces.Has(busyRoot), svc.workspaces.Has(keptRoot)
	if idleOpen || !busyOpen || !keptOpen {
		t.Fatalf("open after idling: idle %v (want false), busy %v, preloaded %v (want true)", idleOpen, busyOpen, keptOpen)
	}
	waitUntil(t, func() bool { runtime.GC(); return gone.Value() == nil })

	// The next request opens the released workspace again.
	_, againDone := request(idleRoot)
	againDone()
	busyDone()
	waitUntil(t, func() bool { open, _ := svc.Workspaces(); return open == 1 }) // both idle now: only the preloaded one stays
}

// TestFirstLoadRetried: a first load whose listing failed (the root
// renamed away as it began) is tried again on its own, so the workspace
// loads once the root is back, with no file change to wake it.
func TestFirstLoadRetried(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644)
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	st := &workspaceState{root: root, ws: ws}
	defer st.Close()
	away := root + ".away"
	if err := os.Rename(root, away); err != nil {
		t.Fatal(err)
	}
	st.load(slog.New(slog.NewTextHandler(io.Discard, nil)), 0)
	if st.loaded.Load() {
		t.Fatal("loaded without a root")
	}
	if err := os.Rename(away, root); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, st.loaded.Load)
	if n := st.files.Load(); n != 1 {
		t.Errorf("%d files listed, want 1", n)
	}
}
