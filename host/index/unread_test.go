package index

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// emptySummarizer summarizes every file as an empty module.
type emptySummarizer struct{}

func (emptySummarizer) Version() string { return "empty" }

func (emptySummarizer) Summarize(_ context.Context, _ Target, files []Source) ([][]byte, error) {
	out := make([][]byte, len(files))
	for i := range files {
		out[i] = navindex.Encode(&navindex.Summary{})
	}
	return out, nil
}

// TestUnreadFileReadAgain: a file that could not be read (chmod 000)
// stands indexed empty; made readable again, with its size and mtime
// unchanged (chmod changes neither), the next listing reads it. Before,
// it stayed empty until its content changed.
func TestUnreadFileReadAgain(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(root, "a.py"), filepath.Join(root, "b.py")}
	for _, p := range paths {
		if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	reads, unreadable := map[string]int{}, true
	read := func(abs string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		reads[filepath.Base(abs)]++
		if unreadable && filepath.Base(abs) == "b.py" {
			return nil, os.ErrPermission
		}
		return os.ReadFile(abs)
	}
	x := New(Config{Root: root, Read: read, Summarizer: emptySummarizer{}, CacheDir: t.TempDir(),
		Files: func(context.Context) ([]string, error) { return paths, nil }})
	ctx := context.Background()
	if err := x.Build(ctx); err != nil {
		t.Fatal(err)
	}
	if f := x.files["b.py"]; f == nil || !f.unread {
		t.Fatalf("b.py after a failed read: %+v", f)
	}
	if err := x.Refresh(ctx); err != nil { // stat alone: unchanged
		t.Fatal(err)
	}
	mu.Lock()
	unreadable = false
	mu.Unlock()
	if err := x.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if reads["b.py"] < 2 || reads["a.py"] != 1 {
		t.Fatalf("reads %v: want b.py read again by the listing, a.py once", reads)
	}
	if f := x.files["b.py"]; f == nil || f.unread {
		t.Fatalf("b.py after it became readable: %+v", f)
	}
}
