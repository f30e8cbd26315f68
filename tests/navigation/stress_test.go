package navigation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestEditsDuringQueries edits, creates and deletes files while queries
// and refreshes run from several goroutines, as a served workspace sees
// when a watcher rescans during requests. Run under -race: a write to a
// shared map outside its lock aborted the whole process here before
// (fatal error: concurrent map writes in load).
func TestEditsDuringQueries(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"a.py": "def f():\n    pass\n"}
	for i := range 40 {
		files[fmt.Sprintf("m%02d.py", i)] = fmt.Sprintf("from a import f\n\n\ndef g%d():\n    return f()\n", i)
	}
	write(t, root, files)
	x := newTestIndex(t, root, t.TempDir())
	a := filepath.Join(root, "a.py")
	ctx := context.Background()

	deadline := time.Now().Add(2 * time.Second)
	if testing.Short() {
		deadline = time.Now().Add(300 * time.Millisecond)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	// Writers: append to files, touch them, create and delete others.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; time.Now().Before(deadline); n++ {
			p := filepath.Join(root, fmt.Sprintf("m%02d.py", n%40))
			src := fmt.Sprintf("from a import f\n\n\ndef g%d():\n    return f()\n# edit %d\n", n%40, n)
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				errs <- err
				return
			}
			extra := filepath.Join(root, fmt.Sprintf("new%d.py", n%5))
			if n%2 == 0 {
				os.WriteFile(extra, []byte("from a import f\nf()\n"), 0o644)
			} else {
				os.Remove(extra)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	// Refreshers: what the watcher and each query do.
	for _, refresh := range []func(context.Context) error{x.Rescan, x.Refresh, func(ctx context.Context) error { return x.RefreshFile(ctx, a) }} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				if err := refresh(ctx); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	// Readers: every query kind.
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				h := x.At(a, 0, 4)
				if h == nil {
					errs <- fmt.Errorf("f not found at a.py:0:4")
					return
				}
				if _, err := x.References(ctx, h, true); err != nil {
					errs <- err
					return
				}
				if _, err := x.Definition(h); err != nil {
					errs <- err
					return
				}
				x.Hover(context.Background(), h)
				if _, err := x.Rename(ctx, h, "renamed"); err != nil {
					errs <- err
					return
				}
				x.FileCount()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// After the storm the index agrees with the disk: the 40 modules plus
	// a.py and whichever new*.py files exist.
	if err := x.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	want := 41
	for i := range 5 {
		if _, err := os.Stat(filepath.Join(root, fmt.Sprintf("new%d.py", i))); err == nil {
			want++
		}
	}
	if got := x.FileCount(); got != want {
		t.Fatalf("indexed %d files, disk has %d", got, want)
	}
}

// TestForcedRefreshKeepsAnswers: re-reading a file whose content did not
// change (what a query does after an edit it cannot see in the stat)
// must leave the index linked; it used to swap in an unlinked copy of
// the file, so get_definition on it failed until the next relink.
func TestForcedRefreshKeepsAnswers(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.py": "def f():\n    pass\n", "b.py": "from a import f\nf()\n"})
	x := newTestIndex(t, root, "")
	a := filepath.Join(root, "a.py")
	for i := range 3 {
		if err := x.RefreshFile(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		locs, err := x.Definition(x.At(a, 0, 4))
		if err != nil || len(locs) != 1 || locs[0].Rel != "a.py" {
			t.Fatalf("after forced refresh %d: %v %v", i, locs, err)
		}
		if got := refsAt(t, x, a, 0, 4); len(got) != 3 {
			t.Fatalf("after forced refresh %d: refs %v", i, got)
		}
	}
}
