package navigation

import (
	"context"
	"sync"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// countingSummarizer is the in-process summarizer (package nativeindex:
// the indexer plugin's code without worker processes), counting its
// batches for TestDiskCacheReused.
type countingSummarizer struct {
	*nativeindex.Summarizer
	mu    sync.Mutex
	calls int
}

func (c *countingSummarizer) Summarize(ctx context.Context, t index.Target, files []index.Source) ([][]byte, error) {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	return c.Summarizer.Summarize(ctx, t, files)
}

func (c *countingSummarizer) batches() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

var (
	nativeOnce sync.Once
	nativeInst *countingSummarizer
	nativeErr  error
)

// native returns the summarizer the tests share (one parser instance).
func native(tb testing.TB) *countingSummarizer {
	tb.Helper()
	nativeOnce.Do(func() {
		var s *nativeindex.Summarizer
		s, nativeErr = nativeindex.New(context.Background())
		nativeInst = &countingSummarizer{Summarizer: s}
	})
	if nativeErr != nil {
		tb.Fatal(nativeErr)
	}
	return nativeInst
}

// newTestIndex builds an index over root with the native summarizer.
func newTestIndex(tb testing.TB, root, cacheDir string) *index.Index {
	tb.Helper()
	x, err := nativeindex.Build(context.Background(), native(tb), root, cacheDir)
	if err != nil {
		tb.Fatal(err)
	}
	return x
}
