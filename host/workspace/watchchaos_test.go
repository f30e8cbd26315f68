package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWatchSurvivesHostileChanges: changes a watch can lose track of. A
// listing must show each final tree, and a later change in it must still
// be reported, within seconds. Before the fix, a root renamed away and
// back (or removed and recreated) was never watched again and the listing
// cached while it was away stayed served for the cache's 5 minutes; and a
// directory made between the walk's listing of its parent and the
// parent's watch was never watched.
func TestWatchSurvivesHostileChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, root string, w *Workspace)
		want   []string // listed after the change, and after.py added at the root
	}{
		{"root renamed away and back", func(t *testing.T, root string, w *Workspace) {
			must(t, os.Rename(root, root+".away"))
			must(t, os.Mkdir(root, 0o755))
			waitListing(t, w, []string{}) // cached while the root is empty
			must(t, os.Remove(root))
			must(t, os.Rename(root+".away", root))
		}, []string{"a.py", "after.py", "pkg/b.py"}},
		{"root renamed away, another in its place", func(t *testing.T, root string, w *Workspace) {
			must(t, os.Rename(root, root+".away"))
			must(t, os.Mkdir(root, 0o755))
			mkfile(t, filepath.Join(root, "stand.py"), "")
			waitListing(t, w, []string{"stand.py"})
			mkfile(t, filepath.Join(root, "in.py"), "")
			must(t, os.MkdirAll(filepath.Join(root, "pkg"), 0o755))
			mkfile(t, filepath.Join(root, "pkg", "c.py"), "")
		}, []string{"after.py", "in.py", "pkg/c.py", "stand.py"}},
		{"root removed and recreated", func(t *testing.T, root string, w *Workspace) {
			must(t, os.RemoveAll(root))
			time.Sleep(50 * time.Millisecond)
			mkfile(t, filepath.Join(root, "c.py"), "")
		}, []string{"after.py", "c.py"}},
		{"200 levels made at once", func(t *testing.T, root string, w *Workspace) {
			deep := filepath.Join(root, strings.Repeat("d/", 200))
			must(t, os.MkdirAll(deep, 0o755))
			mkfile(t, filepath.Join(deep, "bottom.py"), "")
			// Written in the deepest directory once the burst is seen:
			// only a watch on it tells.
			waitListing(t, w, []string{"a.py", strings.Repeat("d/", 200) + "bottom.py", "pkg/b.py"})
			mkfile(t, filepath.Join(deep, "later.py"), "")
		}, []string{"a.py", "after.py", strings.Repeat("d/", 200) + "bottom.py", strings.Repeat("d/", 200) + "later.py", "pkg/b.py"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tree(t, map[string]string{"a.py": "", "pkg/b.py": ""})
			if err := w.Watch(); err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			root := w.Root()
			waitListing(t, w, []string{"a.py", "pkg/b.py"})
			tc.change(t, root, w)
			time.Sleep(100 * time.Millisecond)
			mkfile(t, filepath.Join(root, "after.py"), "")
			waitListing(t, w, tc.want)
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// waitListing waits until the listing is want (sorted relative paths).
func waitListing(t *testing.T, w *Workspace, want []string) {
	t.Helper()
	var got []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		got = []string{}
		if l, err := w.ListFiles(context.Background(), ListOptions{}); err == nil {
			got = rels(l)
		}
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
	}
	t.Fatalf("listing %q, want %q", got, want)
}
