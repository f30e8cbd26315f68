package index

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnderLinkedDir: a query through a linked directory must not index
// the file a second time under the alias (the chaos test found
// "leave.a" beside "a" after a hover on leave/a.py, leave -> the root).
func TestUnderLinkedDir(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.py", "pkg/b.py"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"leave": root, "alias": "pkg", "pkg/up": "..", "file.py": "a.py"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"a.py", false},
		{"pkg/b.py", false},
		{"new.py", false},  // not listed yet: indexed on demand
		{"file.py", false}, // a linked file is listed under its own name
		{"leave/a.py", true},
		{"alias/b.py", true},
		{"pkg/up/a.py", true},
		{"leave/pkg/b.py", true},
		{"gone/x.py", true}, // its directory does not exist
	} {
		if got := underLinkedDir(filepath.Join(root, tc.rel)); got != tc.want {
			t.Errorf("underLinkedDir(%s) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}
