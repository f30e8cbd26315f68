package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

func TestReadDir(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"src/pkg", ".hidden", "node_modules", "pkg"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, f := range []string{"mod.py", "fast.cpython-312-x86_64-linux-gnu.so", "src/app.py"} {
		os.WriteFile(filepath.Join(root, f), nil, 0o644)
	}
	os.Symlink(outside, filepath.Join(root, "escape"))
	w, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.ReadDir("")
	if err != nil {
		t.Fatal(err)
	}
	// Everything the directory holds, excluded and hidden entries too; a
	// link is not a directory.
	want := []DirEntry{{".hidden", true}, {"escape", false}, {"fast.cpython-312-x86_64-linux-gnu.so", false},
		{"mod.py", false}, {"node_modules", true}, {"pkg", true}, {"src", true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("root: %v\nwant %v", got, want)
	}
	if got, err := w.ReadDir("src"); err != nil || !reflect.DeepEqual(got, []DirEntry{{"app.py", false}, {"pkg", true}}) {
		t.Fatalf("src: %v %v", got, err)
	}
	for p, code := range map[string]string{
		"../" + filepath.Base(outside): fault.PermissionDenied,
		"escape":                       fault.PermissionDenied,
		"missing":                      fault.FileNotFound,
		"mod.py":                       fault.FileNotFound, // not a directory
	} {
		_, err := w.ReadDir(p)
		if fe, ok := fault.As(err); !ok || fe.Code != code {
			t.Errorf("ReadDir(%q) = %v, want %s", p, err, code)
		}
	}
}
