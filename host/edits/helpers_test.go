package edits

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestMain(m *testing.M) {
	if os.Getenv(crashEnvPoint) != "" {
		crashChild() // never returns
	}
	os.Exit(m.Run())
}

// dirResolver confines file:// URIs to root, as the workspace package
// does; it does not resolve symbolic links (the directory it returns is
// the lexical one), so the engine's own checks can be seen.
type dirResolver struct{ root string }

func (r dirResolver) Root() string { return r.root }

func (r dirResolver) ResolveURIDir(uri string) (string, string, string, error) {
	p, ok := strings.CutPrefix(uri, "file://")
	if !ok {
		return "", "", "", fault.New(fault.FileNotFound, fault.Details{"path": uri}, "%s is not a file URI", uri)
	}
	abs := filepath.Clean(p)
	rel, err := filepath.Rel(r.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", "", "", fault.New(fault.PermissionDenied, fault.Details{"path": uri, "reason": "outside the workspace"},
			"%s is outside the workspace", uri)
	}
	if rel == "." {
		return abs, "", "", nil
	}
	dir := filepath.Dir(rel)
	if dir == "." {
		dir = ""
	}
	return abs, rel, dir, nil
}

func uriOf(root, rel string) string { return "file://" + filepath.Join(root, rel) }

func ed(sl, sc, el, ec int, text string) abi.TextEdit {
	return abi.TextEdit{Range: abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}}, NewText: text}
}

func ins(l, c int, text string) abi.TextEdit { return ed(l, c, l, c, text) }

// newWorkspace makes a workspace with files (rel path -> content, mode
// 0644) and an engine whose state dir is outside it.
func newWorkspace(t *testing.T, files map[string]string) (root string, e *Engine) {
	t.Helper()
	root = t.TempDir()
	for rel, content := range files {
		writeFile(t, filepath.Join(root, rel), content, 0o644)
	}
	e, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return root, e
}

func writeFile(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entry is what "nothing was written" compares: every name under a tree
// with its bytes, mode and mtime.
type entry struct {
	content string
	mode    fs.FileMode
	mtime   time.Time
}

func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		en := entry{mode: fi.Mode(), mtime: fi.ModTime()}
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			en.content = string(b)
		}
		out[p] = en
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, before, after map[string]entry) {
	t.Helper()
	for p, b := range before {
		a, ok := after[p]
		if !ok {
			t.Errorf("%s disappeared", p)
			continue
		}
		if a != b {
			t.Errorf("%s changed: before %+v, after %+v", p, b, a)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
}

// journalNames lists what is left in the engine's journal dir.
func journalNames(t *testing.T, stateDir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(stateDir, "journal"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}
