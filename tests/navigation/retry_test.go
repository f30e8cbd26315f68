package navigation

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// failingOnce fails the calls that summarize file until it was tried
// alone (a plugin timeout or crash), then summarizes normally.
type failingOnce struct {
	*countingSummarizer
	file   string
	failed atomic.Bool
}

func (s *failingOnce) Summarize(ctx context.Context, t index.Target, files []index.Source) ([][]byte, error) {
	for _, f := range files {
		// A batch holding it fails, and then it alone, once.
		if f.Rel == s.file && !s.failed.Load() {
			if len(files) == 1 {
				s.failed.Store(true)
			}
			return nil, errors.New("plugin call timed out")
		}
	}
	return s.countingSummarizer.Summarize(ctx, t, files)
}

// TestFailedFileIsRetried: a file the summarizer failed on is unindexed
// for a while, not for good: once RetryFailedAfter has passed, the next
// refresh summarizes it again, although its content did not change.
func TestFailedFileIsRetried(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.py": "def f():\n    return 1\n", "b.py": "from a import f\nf()\n"})
	s := &failingOnce{countingSummarizer: native(t), file: "a.py"}
	x := index.New(index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: s,
		CacheDir: t.TempDir(), RetryFailedAfter: time.Second})
	if err := x.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(root, "a.py")
	if h := x.At(a, 0, 4); h != nil {
		t.Fatal("a.py answered although its summarizing failed")
	}
	if err := x.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if x.At(a, 0, 4) != nil {
		t.Fatal("retried before RetryFailedAfter")
	}
	time.Sleep(1100 * time.Millisecond)
	if err := x.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := x.At(a, 0, 4)
	if h == nil {
		t.Fatal("a.py is still unindexed after the retry")
	}
	if got := refsAt(t, x, a, 0, 4); len(got) != 3 {
		t.Fatalf("references of f after the retry: %v", got)
	}
}
