package navigation

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
)

func write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, src := range files {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func refsAt(t *testing.T, x *index.Index, abs string, line, char int) []string {
	t.Helper()
	h := x.At(abs, line, char)
	if h == nil {
		t.Fatalf("nothing at %s:%d:%d", abs, line, char)
	}
	locs, err := x.References(context.Background(), h, true)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range locs {
		out = append(out, l.Rel+":"+itoa(int(l.Line))+":"+itoa(int(l.Col)))
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRefreshSeesEdits(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.py": "def f():\n    pass\n", "b.py": "from a import f\nf()\n"})
	x := newTestIndex(t, root, "")
	a := filepath.Join(root, "a.py")
	if got := strings.Join(refsAt(t, x, a, 0, 4), " "); got != "a.py:0:4 b.py:0:14 b.py:1:0" {
		t.Fatalf("before: %s", got)
	}
	steps := []struct {
		name string
		do   func()
		want string
	}{
		{"a use added behind the index's back", func() {
			write(t, root, map[string]string{"b.py": "from a import f\nf()\nf()\n"})
		}, "a.py:0:4 b.py:0:14 b.py:1:0 b.py:2:0"},
		{"a file deleted", func() { os.Remove(filepath.Join(root, "b.py")) }, "a.py:0:4"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do()
			if err := x.Refresh(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(refsAt(t, x, a, 0, 4), " "); got != s.want {
				t.Fatalf("got %s, want %s", got, s.want)
			}
		})
	}
	t.Run("a new file queried at once", func(t *testing.T) {
		c := filepath.Join(root, "c.py")
		src := "import a\na.f()\n"
		write(t, root, map[string]string{"c.py": src})
		if err := x.EnsureFile(context.Background(), c, []byte(src)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(refsAt(t, x, c, 1, 2), " "); got != "a.py:0:4 c.py:1:2" {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("same size and mtime, other content", func(t *testing.T) {
		p := filepath.Join(root, "c.py")
		fi, _ := os.Stat(p)
		src := "import a\na.g()\n"
		os.WriteFile(p, []byte(src), 0o644)
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
		if err := x.EnsureFile(context.Background(), p, []byte(src)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(refsAt(t, x, a, 0, 4), " "); got != "a.py:0:4" {
			t.Fatalf("stale: %s", got)
		}
	})
}

func TestDiskCacheReused(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	write(t, root, map[string]string{"a.py": "x = 1\n", "pkg/__init__.py": "from .m import y\n", "pkg/m.py": "y = 2\n"})
	n := native(t)
	newTestIndex(t, root, cache)
	before := n.batches()
	start := time.Now()
	x := newTestIndex(t, root, cache)
	if n.batches() != before {
		t.Fatalf("a warm build summarized %d batches again", n.batches()-before)
	}
	if x.FileCount() != 3 {
		t.Fatalf("files %d", x.FileCount())
	}
	t.Logf("warm build of 3 files: %v", time.Since(start))
}

func TestRenameChecks(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"m.py": `import os
count = 0


def f(a):
    b = a + count
    return len([b])


class C:
    def m(self):
        return self.n

    def n(self):
        pass
`})
	x := newTestIndex(t, root, "")
	m := filepath.Join(root, "m.py")
	cases := []struct {
		name       string
		line, char int
		newName    string
		code       string
	}{
		{"ok", 4, 6, "z", ""},
		{"bound in the same scope", 5, 4, "a", fault.NameConflict},
		{"would capture a global read in scope", 4, 6, "count", fault.NameConflict},
		{"would shadow a builtin read in scope", 5, 4, "len", fault.NameConflict},
		{"global renamed to a local's name used below", 1, 0, "b", fault.NameConflict},
		{"member already in the class", 10, 8, "n", fault.NameConflict},
		{"keyword", 4, 6, "for", fault.InvalidName},
		{"builtin", 6, 11, "size", fault.CannotRename},
		{"external module", 0, 7, "system", fault.CannotRename},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := x.At(m, c.line, c.char)
			if h == nil {
				t.Fatal("nothing there")
			}
			_, err := x.Rename(context.Background(), h, c.newName)
			if fault.CodeOf(err) != c.code {
				t.Fatalf("got %v, want %q", err, c.code)
			}
		})
	}
}

func TestSearchPastDeadlineIsTimeout(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("def f():\n    pass\n")
	for range 3000 {
		b.WriteString("f()\n")
	}
	write(t, root, map[string]string{"m.py": b.String()})
	x := newTestIndex(t, root, "")
	h := x.At(filepath.Join(root, "m.py"), 0, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, run := range map[string]func() error{
		"references": func() error { _, err := x.References(ctx, h, true); return err },
		"rename":     func() error { _, err := x.Rename(ctx, h, "g"); return err },
	} {
		if err := run(); fault.CodeOf(err) != fault.Timeout {
			t.Errorf("%s: %v, want TIMEOUT", name, err)
		}
	}
	if refs, err := x.References(context.Background(), h, true); err != nil || len(refs) != 3001 {
		t.Fatalf("without a deadline: %d, %v", len(refs), err)
	}
}

// TestRenameConflictScopes: a local renamed to a name that a scope visible
// from it binds is NAME_CONFLICT naming that declaration; scopes that
// cannot see each other never conflict.
func TestRenameConflictScopes(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"m.py": `import json
from os import path as ospath
LIMIT = 3


def helper(x):
    return x


class Config:
    size = 1

    def load(self, data):
        for item in data:
            print(item)
        return [v for v in data]


def main(items):
    total = 0

    def inner():
        step = 1
        return step

    for item in items:
        total += item
    return total


def other():
    result = 2
    return result
`})
	x := newTestIndex(t, root, "")
	m := filepath.Join(root, "m.py")
	cases := []struct {
		name       string
		line, char int
		newName    string
		code       string
		kind       string // details.kind
		declLine   int    // details.line (0-based)
	}{
		{"loop variable to a module-level function", 25, 8, "helper", fault.NameConflict, "function", 5},
		{"loop variable in a method to a module-level class", 13, 12, "Config", fault.NameConflict, "class", 9},
		{"parameter to an import", 12, 19, "json", fault.NameConflict, "import", 0},
		{"parameter to an aliased import", 12, 19, "ospath", fault.NameConflict, "import", 1},
		{"local to a module variable", 19, 4, "LIMIT", fault.NameConflict, "variable", 2},
		{"nested function's local to the enclosing function's local", 22, 8, "total", fault.NameConflict, "variable", 19},
		{"nested function's local to the enclosing function's parameter", 22, 8, "items", fault.NameConflict, "parameter", 18},
		{"comprehension variable to the method's parameter", 15, 22, "data", fault.NameConflict, "parameter", 12},
		{"already bound in the same scope", 19, 4, "inner", fault.NameConflict, "function", 21},
		{"local to a sibling function's local", 19, 4, "result", "", "", 0},
		{"nested function's local to a sibling's local", 22, 8, "result", "", "", 0},
		{"method local to a class attribute (class bodies are not visible)", 13, 12, "size", "", "", 0},
		{"method local to another method's name", 13, 12, "main_loop", "", "", 0},
		{"module function to a local of a function that does not use it", 5, 4, "total", "", "", 0},
		{"module function to an unrelated local in another function", 30, 4, "step", "", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := x.At(m, c.line, c.char)
			if h == nil {
				t.Fatal("nothing there")
			}
			_, err := x.Rename(context.Background(), h, c.newName)
			if fault.CodeOf(err) != c.code {
				t.Fatalf("%s: got %v, want %q", x.Describe(h), err, c.code)
			}
			if c.code == "" {
				return
			}
			fe, _ := fault.As(err)
			d := fe.Details
			if d["kind"] != c.kind || d["line"] != int32(c.declLine) || d["path"] != m || d["relativePath"] != "m.py" || d["newName"] != c.newName {
				t.Fatalf("details %v, want kind %s at line %d of %s", d, c.kind, c.declLine, m)
			}
		})
	}
}
