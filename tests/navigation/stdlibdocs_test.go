package navigation

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/interpreter"
)

// realStdlibs asks this machine's interpreters (python3 on PATH and
// the system's /usr/bin/python3, Debian's) for their version and stdlib
// source directory, one answer per directory with sources.
func realStdlibs(t *testing.T) map[string]index.Target {
	t.Helper()
	out := map[string]index.Target{}
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		info, err := interpreter.Ask(p, interpreter.DefaultTimeout)
		if err != nil || info.Stdlib == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(info.Stdlib, "json", "__init__.py")); err != nil {
			continue
		}
		minor, _ := strconv.Atoi(strings.TrimPrefix(info.Version, "3."))
		out[info.Stdlib] = index.Target{Minor: minor, Platform: info.Platform}
	}
	if len(out) == 0 {
		t.Skip("no python3 with standard library sources")
	}
	return out
}

const stdlibDocsSrc = `import os.path
import json

os.path.join("a")
json.dumps(1)
json.JSONDecoder.decode
len("a")
os.makedirs("d")
`

// TestStdlibDocstringsInHovers hovers standard-library names with the
// real interpreter's sources: the docstrings pyright shows (the first
// lines of the functions' docstrings), none for a builtin without
// source, and a second hover summarizes nothing again.
func TestStdlibDocstringsInHovers(t *testing.T) {
	for stdlib, target := range realStdlibs(t) {
		t.Run(stdlib, func(t *testing.T) { testStdlibDocstrings(t, target, stdlib) })
	}
}

func testStdlibDocstrings(t *testing.T, target index.Target, stdlib string) {
	root := t.TempDir()
	write(t, root, map[string]string{"main.py": stdlibDocsSrc})
	abs := filepath.Join(root, "main.py")
	c := newFileCounter(t)
	cacheDir := t.TempDir()
	sets := newStubSets(t, c, cacheDir)
	ctx := context.Background()
	newIndex := func(sets *index.StubSets, s index.Summarizer) *index.Index {
		x := index.New(index.Config{Root: root, Files: func(context.Context) ([]string, error) { return []string{abs}, nil },
			Read: os.ReadFile, Summarizer: s, Target: target, Stdlib: stdlib, Stubs: sets, Parallel: 1})
		if err := x.Build(ctx); err != nil {
			t.Fatal(err)
		}
		return x
	}
	x := newIndex(sets, c)
	set := sets.For(target)
	cases := []struct {
		name       string
		line, char int
		doc        string // in the Markdown; "" no doc at all
	}{
		{"os.path.join", 3, 8, "Join two or more pathname components"},
		{"json.dumps", 4, 5, "to a JSON formatted"},
		{"json.JSONDecoder.decode", 5, 17, "Return the Python representation of"},
		{"json (module)", 1, 7, "JavaScript Object Notation"},
		{"len (builtin, no source)", 6, 0, ""},
	}
	first := true
	hoverAll := func() {
		for _, tc := range cases {
			h := x.At(abs, tc.line, tc.char)
			if h == nil {
				t.Errorf("%s: no symbol", tc.name)
				continue
			}
			md, err := x.Hover(ctx, h)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			if first {
				t.Logf("%s:\n%.300s", tc.name, md)
			}
			_, doc, hasDoc := strings.Cut(md, "\n---\n")
			switch {
			case tc.doc == "" && hasDoc:
				t.Errorf("%s: a doc where there is no source:\n%s", tc.name, md)
			case tc.doc != "" && !strings.Contains(doc, tc.doc):
				t.Errorf("%s: hover lacks %q:\n%s", tc.name, tc.doc, md)
			}
		}
	}
	hoverAll()
	first = false
	n, sum := c.total(), set.SourcesSummarized()
	if sum == 0 {
		t.Fatal("no stdlib source summarized")
	}
	hoverAll()
	if c.total() != n || set.SourcesSummarized() != sum {
		t.Errorf("second hovers summarized again: %d -> %d calls, %d -> %d sources", n, c.total(), sum, set.SourcesSummarized())
	}

	// The figure: the first hover that needs os.py (1,100 lines), then warm.
	h := x.At(abs, 7, 3)
	start := time.Now()
	md, err := x.Hover(ctx, h)
	cold := time.Since(start)
	if err != nil || !strings.Contains(md, "Super-mkdir") {
		t.Errorf("os.makedirs: %v\n%s", err, md)
	}
	start = time.Now()
	x.Hover(ctx, h)
	t.Logf("hover os.makedirs: cold (summarize %s/os.py in process) %v, warm %v", stdlib, cold, time.Since(start))

	// Another process over the same --state: the sources' summaries come
	// from the disk cache.
	sets2 := newStubSets(t, newFileCounter(t), cacheDir)
	x2 := newIndex(sets2, native(t))
	md, err = x2.Hover(ctx, x2.At(abs, 4, 5))
	if err != nil || !strings.Contains(md, "to a JSON formatted") {
		t.Errorf("json.dumps from the disk cache: %v\n%s", err, md)
	}
	if n := sets2.For(target).SourcesSummarized(); n != 0 {
		t.Errorf("%d sources summarized again with their summaries on disk", n)
	}
}
