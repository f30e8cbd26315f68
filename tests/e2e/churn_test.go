package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestQueriesDuringChurn replays the drills that killed the process with
// "fatal error: concurrent map writes" in the index: apply_workspace_edit
// on 60 files followed at once by hovers, and a checkout-like rewrite of
// 100 files behind the server's back while definitions are asked. Every
// query must be answered (the server built with -race under `go test
// -race` also reports any data race on the way) and, once the churn
// stops, the answers must match the disk.
func TestQueriesDuringChurn(t *testing.T) {
	ws := realDir(t, t.TempDir())
	files := map[string]string{"a.py": "def f():\n    return 1\n"}
	for i := range 100 {
		files[fmt.Sprintf("m%03d.py", i)] = "from a import f\n\n\ndef g():\n    return f()\n"
	}
	writeTree(t, ws, files)
	s := startRaceServer(t, ws)
	key := s.addKeyReady("enterprise", ws)
	eventually(t, 2*time.Minute, "workspace indexed", func() bool {
		r, err := s.try("GET", "/v1/tools/health_check", key, nil)
		return err == nil && jget(r.Body, "workspace", "loaded") == true
	})

	query := func(name, rel string, line, char int) error {
		r, err := s.try("POST", "/v1/tools/call", key, map[string]any{"name": name,
			"arguments": map[string]any{"uri": rel, "line": line, "character": char}})
		if err != nil {
			return err
		}
		if r.Status != 200 {
			return fmt.Errorf("%s %s: %d %s", name, rel, r.Status, r.Raw)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for round := range 3 {
		// 60 files edited through the service, hovers right after.
		changes := map[string]any{}
		for i := range 60 {
			changes[fileURI(filepath.Join(ws, fmt.Sprintf("m%03d.py", i)))] = []any{edit(5, 0, 5, 0, fmt.Sprintf("# round %d\n", round))}
		}
		mustStatus(t, s.tool(key, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": changes}}), 200, "")
		// 100 files rewritten behind its back, as a checkout does, while
		// definitions and hovers are asked from several connections.
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each file is replaced whole (temp file, rename): a reader
			// sees the old or the new version, both with the same names
			// at the same positions, so every query must answer 200.
			for i := range 100 {
				p := filepath.Join(ws, fmt.Sprintf("m%03d.py", i))
				tmp := p + ".tmp"
				src := fmt.Sprintf("from a import f\n\n\ndef g():\n    return f()\n# checkout %d\n", round)
				if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
					errs <- err
					return
				}
				if err := os.Rename(tmp, p); err != nil {
					errs <- err
					return
				}
			}
		}()
		for c := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 15 {
					rel := fmt.Sprintf("m%03d.py", (c*15+i)%100)
					if err := query("get_hover", rel, 4, 11); err != nil {
						errs <- err
					}
					if err := query("get_definition", rel, 4, 11); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Settled: every module's use of f is a reference of a.f.
	r := s.tool(key, "get_references", map[string]any{"uri": "a.py", "line": 0, "character": 4})
	mustStatus(t, r, 200, "")
	if n, _ := jget(r.Body, "totalCount").(float64); n != 1+2*100 {
		t.Fatalf("references of a.f after the churn: %v, want %d\n%s", n, 1+2*100, r.Raw)
	}
}
