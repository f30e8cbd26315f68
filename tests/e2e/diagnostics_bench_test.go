package e2e

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// BenchmarkDiagnostics5000Lines is issue 5's speed bar over real HTTP
// against the real binary: get_diagnostics on a generated 5,000-line
// module (122 KB). "edited" changes the file before every call (a trailing
// comment, as a save does), so the result cache cannot answer and the
// worker parses the new version from the tree it kept; the pause after the
// write lets the watcher's re-indexing of the file finish first.
// "unchanged" asks about the same bytes again. "firstAfterIndex" is the
// first call about a file the workspace index has just parsed, on a
// server whose workers have already run the plugin once (instantiating a
// Go plugin is a one-time cost per worker, not the file's).
func BenchmarkDiagnostics5000Lines(b *testing.B) {
	body := bigModule(5000)
	b.Run("edited", func(b *testing.B) {
		s, key, ws := benchServer(b, map[string]string{"big.py": body})
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			writeTree(b, ws, map[string]string{"big.py": body + fmt.Sprintf("# edit %d\n", i)})
			time.Sleep(300 * time.Millisecond)
			b.StartTimer()
			mustStatus(b, s.tool(key, "get_diagnostics", map[string]any{"uri": "big.py"}), 200, "")
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		s, key, _ := benchServer(b, map[string]string{"big.py": body})
		mustStatus(b, s.tool(key, "get_diagnostics", map[string]any{"uri": "big.py"}), 200, "")
		for b.Loop() {
			mustStatus(b, s.tool(key, "get_diagnostics", map[string]any{"uri": "big.py"}), 200, "")
		}
	})
	b.Run("firstAfterIndex", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			files := map[string]string{}
			for j := range 4 { // several large files, spread over the workers by indexing
				files[fmt.Sprintf("big%d.py", j)] = body + fmt.Sprintf("# copy %d %d\n", i, j)
			}
			s, key, _ := benchServer(b, files)
			var wg sync.WaitGroup
			for range 4 { // keeps both workers busy: each instantiates the plugin
				wg.Add(1)
				go func() {
					defer wg.Done()
					s.tool(key, "get_diagnostics", map[string]any{"uri": "small.py"})
				}()
			}
			wg.Wait()
			b.StartTimer()
			mustStatus(b, s.tool(key, "get_diagnostics", map[string]any{"uri": "big2.py"}), 200, "")
			b.StopTimer()
			s.stop()
			b.StartTimer()
		}
	})
}

// benchServer serves a workspace of files (plus small.py) and waits until
// it is indexed.
func benchServer(b *testing.B, files map[string]string) (*server, string, string) {
	b.Helper()
	ws := b.TempDir()
	files["small.py"] = "x = 1\n"
	writeTree(b, ws, files)
	s := startServer(b, ws)
	key := s.addKey("enterprise", "")
	eventually(b, 60*time.Second, "workspace indexed", func() bool {
		r := s.tool(key, "get_references", map[string]any{"uri": "small.py", "line": 0, "character": 0})
		return r.Status != 503
	})
	return s, key, ws
}
