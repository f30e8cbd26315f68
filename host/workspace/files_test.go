package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
)

func rels(l *FileList) []string {
	out := []string{}
	for _, f := range l.Files {
		out = append(out, f.RelativePath)
	}
	return out
}

func TestListFiles(t *testing.T) {
	w := tree(t, map[string]string{
		"setup.py":                "x",
		"README.md":               "",
		"pkg/__init__.py":         "",
		"pkg/core.py":             "12345",
		"pkg/core_test.py":        "",
		"pkg/types.pyi":           "",
		"pkg/migrations/0001.py":  "",
		"tests/test_core.py":      "",
		"tests/helpers.py":        "",
		"tests/unit/test_a.py":    "",
		".hidden/h.py":            "",
		".x.py":                   "",
		"venv/lib/site.py":        "",
		"pkg/__pycache__/core.py": "",
	})
	all := []string{"pkg/__init__.py", "pkg/core.py", "pkg/core_test.py", "pkg/migrations/0001.py", "pkg/types.pyi",
		"setup.py", "tests/helpers.py", "tests/test_core.py", "tests/unit/test_a.py"}
	tests := []struct {
		name string
		o    ListOptions
		want []string
	}{
		{name: "all", o: ListOptions{}, want: all},
		{name: "no tests", o: ListOptions{ExcludeTests: true}, want: []string{"pkg/__init__.py", "pkg/core.py", "pkg/migrations/0001.py", "pkg/types.pyi", "setup.py", "tests/helpers.py"}},
		{name: "recursive filter", o: ListOptions{Filter: "pkg/**/*.py"}, want: []string{"pkg/__init__.py", "pkg/core.py", "pkg/core_test.py", "pkg/migrations/0001.py"}},
		{name: "dir-scoped filter", o: ListOptions{Filter: "tests/*.py"}, want: []string{"tests/helpers.py", "tests/test_core.py"}},
		{name: "base-name filter", o: ListOptions{Filter: "test_*.py"}, want: []string{"tests/test_core.py", "tests/unit/test_a.py"}},
		{name: "directory filter", o: ListOptions{Filter: "tests"}, want: []string{"tests/helpers.py", "tests/test_core.py", "tests/unit/test_a.py"}},
		{name: "negated filter", o: ListOptions{Filter: "!tests/**"}, want: []string{"pkg/__init__.py", "pkg/core.py", "pkg/core_test.py", "pkg/migrations/0001.py", "pkg/types.pyi", "setup.py"}},
		{name: "stubs", o: ListOptions{Filter: "**/*.pyi"}, want: []string{"pkg/types.pyi"}},
		{name: "exclude patterns", o: ListOptions{ExcludePatterns: []string{"migrations", "*.pyi", "tests/unit/"}}, want: []string{"pkg/__init__.py", "pkg/core.py", "pkg/core_test.py", "setup.py", "tests/helpers.py", "tests/test_core.py"}},
		{name: "alternatives", o: ListOptions{Filter: "{setup,pkg/core}.py"}, want: []string{"pkg/core.py", "setup.py"}},
		{name: "no match", o: ListOptions{Filter: "nothing/**"}, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := w.ListFiles(context.Background(), tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if got := rels(l); !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if l.TotalCount != len(l.Files) || l.WorkspaceRoot != w.Root() {
				t.Errorf("totalCount %d, workspaceRoot %q", l.TotalCount, l.WorkspaceRoot)
			}
		})
	}

	l, _ := w.ListFiles(context.Background(), ListOptions{Filter: "pkg/core*"})
	core, test := l.Files[0], l.Files[1]
	if core.Path != filepath.Join(w.Root(), "pkg", "core.py") || core.Size != 5 || core.IsTest || core.Language != "python" {
		t.Errorf("core entry = %+v", core)
	}
	if !test.IsTest {
		t.Errorf("core_test.py not a test")
	}
	if _, err := time.Parse(time.RFC3339, core.LastModified); err != nil || len(core.LastModified) != len("2006-01-02T15:04:05.000Z") {
		t.Errorf("lastModified %q: %v", core.LastModified, err)
	}
	py, err := w.PythonFiles(context.Background())
	if err != nil || len(py) != len(all) || py[0] != filepath.Join(w.Root(), all[0]) {
		t.Errorf("PythonFiles = %q, %v", py, err)
	}
}

func TestListFilesErrors(t *testing.T) {
	w := tree(t, map[string]string{"a.py": ""})
	for _, tc := range []struct {
		o       ListOptions
		pattern string
	}{
		{ListOptions{Filter: "[abc"}, "[abc"},
		{ListOptions{Filter: "!{a"}, "{a"},
		{ListOptions{Filter: "a}"}, "a}"},
		{ListOptions{Filter: `x\`}, `x\`},
		{ListOptions{Filter: "[]"}, "[]"},
		{ListOptions{Filter: "!"}, ""},
		{ListOptions{ExcludePatterns: []string{"ok", "!neg"}}, "!neg"},
	} {
		_, err := w.ListFiles(context.Background(), tc.o)
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.InvalidFilter || fe.Details["pattern"] != tc.pattern || fe.Details["reason"] == "" {
			t.Errorf("%+v: err = %v (%v)", tc.o, err, fe)
		}
	}
	os.RemoveAll(w.Root())
	_, err := w.ListFiles(context.Background(), ListOptions{})
	if fault.CodeOf(err) != fault.WorkspaceNotFound {
		t.Errorf("removed root: err = %v", err)
	}
}

func TestIsTest(t *testing.T) {
	for name, want := range map[string]bool{
		"test_x.py": true, "x_test.py": true, "x_test.pyi": true, "conftest.py": false,
		"testing.py": false, "tests.py": false, "contest_x.py": true, "x.py": false,
	} {
		if IsTest(name) != want {
			t.Errorf("IsTest(%q) = %v", name, !want)
		}
	}
}

// TestListCacheFallback: without a watcher, a cached scan is reused while
// no directory changed, and a new file is seen at once after one did.
func TestListCacheFallback(t *testing.T) {
	w := tree(t, map[string]string{"pkg/a.py": ""})
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{w.Root(), filepath.Join(w.Root(), "pkg")} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	list := func() []string {
		t.Helper()
		l, err := w.ListFiles(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return rels(l)
	}
	list()
	n := w.scans.Load()
	list()
	w.Structure(context.Background(), StructureOptions{})
	if w.scans.Load() != n {
		t.Fatalf("unchanged workspace rescanned")
	}
	mkfile(t, filepath.Join(w.Root(), "pkg", "b.py"), "")
	if got := list(); !slices.Equal(got, []string{"pkg/a.py", "pkg/b.py"}) {
		t.Fatalf("after create: %q", got)
	}
	// The cache lifetime bounds staleness even when nothing is detected.
	w.now = func() time.Time { return time.Now().Add(CacheTTL) }
	n = w.scans.Load()
	list()
	if w.scans.Load() == n {
		t.Errorf("expired cache served")
	}
}

// TestWatchInvalidates: with the watcher on, a created file (also inside a
// freshly created directory tree) invalidates the cache and reaches
// subscribers; the test waits on those notifications, not on sleeps.
func TestWatchInvalidates(t *testing.T) {
	w := tree(t, map[string]string{"pkg/a.py": "", "node_modules/x.py": ""})
	if err := w.Watch(); err != nil {
		t.Fatal(err)
	}
	if err := w.Watch(); err != nil { // idempotent
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	batch := make(chan struct{}, 100)
	unsub := w.Subscribe(func(changed []string) {
		mu.Lock()
		for _, p := range changed {
			seen[p] = true
		}
		mu.Unlock()
		batch <- struct{}{}
	})
	defer unsub()
	waitFor := func(p string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			mu.Lock()
			ok := seen[p]
			mu.Unlock()
			if ok {
				return
			}
			select {
			case <-batch:
			case <-deadline:
				t.Fatalf("no change notification for %s", p)
			}
		}
	}
	l, _ := w.ListFiles(context.Background(), ListOptions{})
	if got := rels(l); !slices.Equal(got, []string{"pkg/a.py"}) {
		t.Fatalf("initial: %q", got)
	}
	gen := w.gen.Load()
	b := filepath.Join(w.Root(), "pkg", "b.py")
	mkfile(t, b, "")
	waitFor(b)
	if w.gen.Load() == gen {
		t.Fatal("cache not invalidated")
	}
	l, _ = w.ListFiles(context.Background(), ListOptions{})
	if got := rels(l); !slices.Equal(got, []string{"pkg/a.py", "pkg/b.py"}) {
		t.Fatalf("after create: %q", got)
	}
	// mkdir -p and a file in it at once: the new tree gets watched and its
	// file reported even if it was written before the watch was added.
	deep := filepath.Join(w.Root(), "new", "sub", "c.py")
	mkfile(t, deep, "")
	waitFor(deep)
	later := filepath.Join(w.Root(), "new", "sub", "d.py")
	mkfile(t, later, "")
	waitFor(later)
	l, _ = w.ListFiles(context.Background(), ListOptions{})
	if got := rels(l); !slices.Contains(got, "new/sub/c.py") || !slices.Contains(got, "new/sub/d.py") {
		t.Fatalf("after mkdir -p: %q", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCloseWhileWatchStarts: the service starts Watch in the background,
// so Close may come while it walks the tree, or before it begins; either
// way nothing is left watching and listings stay correct.
func TestCloseWhileWatchStarts(t *testing.T) {
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("p%d/q/a.py", i)] = ""
	}
	for _, closeFirst := range []bool{false, true} {
		w := tree(t, files)
		done := make(chan error, 1)
		if closeFirst {
			w.Close()
		}
		go func() { done <- w.Watch() }()
		w.Close()
		if err := <-done; err != nil && !closeFirst {
			t.Logf("Watch during Close: %v", err) // a watch added after Close fails; no harm
		}
		w.mu.Lock()
		left := w.watcher != nil
		w.mu.Unlock()
		if left || w.watching.Load() {
			t.Fatalf("closeFirst=%v: a watcher is left after Close (running %v, trusted %v)", closeFirst, left, w.watching.Load())
		}
		mkfile(t, filepath.Join(w.Root(), "late.py"), "")
		l, err := w.ListFiles(context.Background(), ListOptions{})
		if err != nil || !slices.Contains(rels(l), "late.py") {
			t.Fatalf("closeFirst=%v: listing after Close = %q, %v; want late.py in it", closeFirst, rels(l), err)
		}
	}
}

func TestWatchIgnoresExcluded(t *testing.T) {
	w := tree(t, map[string]string{"pkg/a.py": ""})
	if err := w.Watch(); err != nil {
		t.Fatal(err)
	}
	got := make(chan []string, 10)
	w.Subscribe(func(c []string) { got <- c })
	mkfile(t, filepath.Join(w.Root(), "pkg", "__pycache__", "a.cpython-311.pyc"), "")
	marker := filepath.Join(w.Root(), "pkg", "marker.py")
	mkfile(t, marker, "")
	select {
	case c := <-got:
		if !slices.Equal(c, []string{marker}) {
			t.Errorf("batch = %q, want only %s", c, marker)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notification")
	}
}

func TestIsPythonSource(t *testing.T) {
	for _, c := range []struct {
		path, text string
		want       bool
	}{
		{"a.py", "x = 1\n", true},
		{"a.PYI", "", true},
		{"a.pyw", "", true},
		{"script", "#!/usr/bin/env python3\nprint()\n", true},
		{"script", "#!/bin/sh\necho\n", false},
		{"notes.txt", "x = 1\n", false},
		{"a.py", "x = 1\x00\n", false},
	} {
		if got := IsPythonSource(c.path, []byte(c.text)); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.path, c.text, got, c.want)
		}
	}
}
