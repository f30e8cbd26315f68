package edits

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// swappingResolver confines as dirResolver does, then, before the engine
// opens anything, replaces the directory it named with a link: the race
// a workspace whose directories change while it is served runs between
// the check and the write.
type swappingResolver struct {
	dirResolver
	swap func()
}

func (r swappingResolver) ResolveURIDir(uri string) (string, string, string, error) {
	abs, rel, dir, err := r.dirResolver.ResolveURIDir(uri)
	r.swap()
	return abs, rel, dir, err
}

// TestLinkSwappedInAfterResolve: a directory replaced by a link after the
// Resolver confined the path is followed only where it stays inside the
// workspace; a link out is refused and nothing outside changes.
func TestLinkSwappedInAfterResolve(t *testing.T) {
	const old = "x = 1\n"
	for _, tc := range []struct {
		name   string
		target func(root, outside string) string
		// wantEdited is the file edited, relative to root ("" when refused).
		wantEdited string
	}{
		{"absolute link out", func(_, outside string) string { return outside }, ""},
		{"relative link out", func(root, outside string) string {
			rel, _ := filepath.Rel(root, outside)
			return rel
		}, ""},
		{"link to a directory inside", func(root, _ string) string { return "other" }, "other/a.py"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, e := newWorkspace(t, map[string]string{"sub/a.py": old, "other/a.py": old})
			outside := t.TempDir()
			writeFile(t, filepath.Join(outside, "a.py"), old, 0o644)
			r := swappingResolver{dirResolver{root}, func() {
				sub := filepath.Join(root, "sub")
				if err := os.RemoveAll(sub); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(tc.target(root, outside), sub); err != nil {
					t.Fatal(err)
				}
			}}
			_, err := e.Apply(context.Background(), r, m(uriOf(root, "sub/a.py"), ins(0, 0, "# edited\n")), Limits{})
			if b, _ := os.ReadFile(filepath.Join(outside, "a.py")); string(b) != old {
				t.Fatalf("the edit reached outside the workspace: %q", b)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("files left outside the workspace: %v", entries)
			}
			if tc.wantEdited == "" {
				if fe, ok := fault.As(err); !ok || fe.Code != fault.PermissionDenied {
					t.Fatalf("err = %v, want PERMISSION_DENIED", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(root, tc.wantEdited)); string(b) != "# edited\n"+old {
				t.Errorf("%s = %q", tc.wantEdited, b)
			}
		})
	}
}

// TestWorkspaceResolver runs the engine with the workspace's own Resolver:
// a file reached through a link out and back in is edited at its real
// place (the link stays a link), and two spellings of one file in one
// edit conflict instead of the second replace dropping the first's edits.
func TestWorkspaceResolver(t *testing.T) {
	root, e := newWorkspace(t, map[string]string{"a.py": "x = 1\n"})
	root, _ = filepath.EvalSymlinks(root)
	outside := t.TempDir()
	if err := os.Symlink(root, filepath.Join(outside, "back")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "back"), filepath.Join(root, "leave")); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()

	_, err = e.Apply(context.Background(), ws, map[string][]abi.TextEdit{
		uriOf(root, "a.py"):       {ins(0, 0, "# one\n")},
		uriOf(root, "leave/a.py"): {ins(1, 0, "# two\n")},
	}, Limits{})
	if fe, ok := fault.As(err); !ok || fe.Code != fault.ConflictingEdits {
		t.Fatalf("two spellings of a.py: err = %v, want CONFLICTING_EDITS", err)
	}
	if _, err := e.Apply(context.Background(), ws, m(uriOf(root, "leave/a.py"), ins(0, 0, "# through\n")), Limits{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.py")); string(b) != "# through\nx = 1\n" {
		t.Errorf("a.py = %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(root, "leave")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("leave is no longer a link: %v %v", fi, err)
	}
}
