package navigation

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// TestSweepRealProject asks every position-taking query at every
// identifier, and after every `.`, `(` and `,`, of a real project: no
// query may panic or hang, whatever the code. The type evaluator and the
// text-driven tools meet code here no fixture was written for. Requests
// by default (Debian's python3-requests; skipped when absent);
// PYWS_SWEEP=flask,django names others (Django takes two minutes), an
// absolute path any directory (PYWS_SWEEP=/usr/lib/python3.11).
func TestSweepRealProject(t *testing.T) {
	projects, stride := []string{"requests"}, 4 // every fourth position: `make test` runs it under -race
	if v := os.Getenv("PYWS_SWEEP"); v != "" {
		projects, stride = strings.Split(v, ","), 1
	}
	for _, name := range projects {
		t.Run(filepath.Base(name), func(t *testing.T) {
			root := name
			if !filepath.IsAbs(root) {
				root = filepath.Join("/usr/lib/python3/dist-packages", name)
			}
			if _, err := os.Stat(root); err != nil {
				t.Skipf("%s is not installed (Debian's python3-%s)", root, name)
			}
			x := newTestIndex(t, root, t.TempDir())
			files, err := nativeindex.PythonFiles(root)(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var asked int
			for _, abs := range files {
				src, err := os.ReadFile(abs)
				if err != nil {
					t.Fatal(err)
				}
				asked += sweepFile(t, x, abs, src, stride)
			}
			t.Logf("%s: %d files, %d positions asked", name, len(files), asked)
		})
	}
}

// sweepFile asks every query at every stride-th of the file's interesting
// positions and returns how many it asked at. Columns are bytes; on a line
// with non-ASCII text some land mid-character, which the queries must
// survive as well.
func sweepFile(t *testing.T, x *index.Index, abs string, src []byte, stride int) int {
	t.Helper()
	// What get_diagnostics, get_document_symbols and the missing-import
	// quick fix ask of a whole file.
	withWatchdog(t, abs, func() {
		ctx := context.Background()
		x.TypeFindings(abs)
		x.Outline(abs)
		x.MissingImports(abs, 0, bytes.Count(src, []byte("\n"))+1)
		_, _ = x.Imports(ctx, abs, src)
	})
	asked, seen := 0, 0
	lineStart := 0
	for line, text := range bytes.Split(src, []byte("\n")) {
		for col := 0; col < len(text); col++ {
			c := text[col]
			startsName := isNameByte(c) && (col == 0 || !isNameByte(text[col-1]))
			afterPunct := col > 0 && (text[col-1] == '.' || text[col-1] == '(' || text[col-1] == ',')
			if !startsName && !afterPunct {
				continue
			}
			if seen++; seen%stride != 0 {
				continue
			}
			asked++
			withWatchdog(t, fmt.Sprintf("%s:%d:%d", abs, line, col), func() {
				askAll(x, abs, src, line, col, lineStart+col, asked%25 == 0)
				// As if the rest of the line were not typed yet.
				cut := append(append([]byte(nil), src[:lineStart+col]...), src[lineStart+len(text):]...)
				x.Completions(abs, cut, lineStart+col, 50)
			})
		}
		lineStart += len(text) + 1
	}
	return asked
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// askAll runs the queries one position takes; references and rename (the
// costly ones) only when deep is set.
func askAll(x *index.Index, abs string, src []byte, line, col, off int, deep bool) {
	ctx := context.Background()
	x.SignatureHelp(ctx, abs, line, col)
	x.Completions(abs, src, off, 50)
	h := x.At(abs, line, col)
	if h == nil {
		return
	}
	_, _ = x.Hover(ctx, h)
	_, _ = x.Definition(h)
	_, _, _ = x.TypeDefinition(h)
	_, _ = x.Defined(h)
	if deep {
		_, _ = x.CallHierarchy(ctx, h, true, 2, 50)
		_, _ = x.CallHierarchy(ctx, h, false, 2, 50)
		_, _ = x.References(ctx, h, true)
		_, _ = x.Rename(ctx, h, "renamed_by_sweep")
	}
}

// withWatchdog runs fn, failing the test with fn's position and every
// goroutine's stack when it panics or runs past a minute (a hang: no
// single query comes near that, even under -race on a loaded machine).
func withWatchdog(t *testing.T, where string, fn func()) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Sprintf("%v\n%s", p, debug.Stack())
				return
			}
			done <- ""
		}()
		fn()
	}()
	select {
	case p := <-done:
		if p != "" {
			t.Fatalf("query at %s panicked: %s", where, p)
		}
	case <-time.After(time.Minute):
		buf := make([]byte, 1<<20)
		t.Fatalf("query at %s still running after a minute:\n%s", where, buf[:runtime.Stack(buf, true)])
	}
}

// TestSweepAdversarial sweeps code written to make an evaluator loop or
// recurse without end: cycles through bases, aliases, imports, calls and
// decorators, self-referential generics, chains thousands long, loops
// whose assignments feed each other. Every query must come back.
func TestSweepAdversarial(t *testing.T) {
	chain := func(head, link string, n int) string { return head + strings.Repeat(link, n) }
	nestedDefs := ""
	for i := range 120 {
		nestedDefs += strings.Repeat("    ", i) + fmt.Sprintf("def f%d(x%d):\n", i, i)
	}
	nestedDefs += strings.Repeat("    ", 120) + "return x0.y\n"
	files := map[string]string{
		"bases.py":      "class A(B):\n    pass\n\n\nclass B(A):\n    pass\n\n\nclass C(C):\n    pass\n\n\nA().x.y\nB.mro()\nC().z\n",
		"aliases.py":    "A = B\nB = A\nC = C\nA.x\nB().y\nD = list[D]\nd: D = []\nd[0][0].append(d)\n",
		"cycle_a.py":    "from cycle_b import x, y\nfrom cycle_b import *\n\nz = x.attr\n",
		"cycle_b.py":    "from cycle_a import x, z\nfrom cycle_a import *\n\ny = z.attr\n",
		"calls.py":      "def f(x):\n    return g(x) + 1\n\n\ndef g(x):\n    return f([x])\n\n\ndef h(n):\n    return h(h(n))\n\n\nf(1).real\nh(0).bit_length()\nk = lambda: k()\nk().x\n",
		"decorators.py": "def d(fn):\n    return d(fn)\n\n\n@d\n@d\ndef g(a: int) -> int:\n    return a\n\n\ng(1)\n\n\ndef wrap(fn):\n    def inner(*args, **kwargs):\n        return wrap(fn)(*args, **kwargs)\n    return inner\n\n\n@wrap\ndef w(x):\n    return w(x)\n\n\nw(2).q\n",
		"generics.py": "from typing import Generic, TypeVar\n\nT = TypeVar('T')\nJ = int | list['J'] | dict[str, 'J']\n\n\nclass Node(Generic[T]):\n    def next(self) -> 'Node[Node[T]]':\n        return Node()\n\n    def get(self) -> T:\n        ...\n\n\nn: Node[int] = Node()\n" +
			chain("n", ".next()", 60) + ".get()\nj: J = 1\nj[0]\n",
		"getattr.py": "class A:\n    def __getattr__(self, name):\n        return self\n\n    def __getitem__(self, k):\n        return self[k]\n\n    def __call__(self):\n        return self()\n\n\na = A()\n" +
			chain("a", ".b", 600) + "\n" + chain("a", "()", 300) + "\n" + chain("a", "[0]", 300) + "\n",
		"loops.py": "x = 0\ny = ''\nfor i in range(10):\n    x = [x, y]\n    y = (y, x)\n    x += x\n    while x:\n        if isinstance(x, list):\n            x = x[0]\n        elif x is None:\n            x = y\n        else:\n            y = x.attr if x else y\n\nx.real\ny.upper()\n",
		"nesting.py": nestedDefs + "(" + strings.Repeat("[", 800) + "1" + strings.Repeat("]", 800) + ")\n" +
			"v = " + strings.Repeat("1 if v else (", 300) + "2" + strings.Repeat(")", 300) + "\nv.real\n",
		"meta.py":   "class M(type, metaclass=M):\n    pass\n\n\nclass K(metaclass=K):\n    pass\n\n\nclass P:\n    @property\n    def p(self):\n        return self.p.p\n\n\nP().p.q\nM.x\nK().y\n",
		"broken.py": "def f(a, b=:\n    return a.\n\nclass (\nx = [1, 2\nf(1, \nimport\nfrom . import\nlambda: (yield)\n",
	}
	root := t.TempDir()
	write(t, root, files)
	x := newTestIndex(t, root, t.TempDir())
	for rel := range files {
		abs := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			if n := sweepFile(t, x, abs, []byte(files[rel]), 1); n == 0 {
				t.Fatal("no position asked")
			}
		})
	}
}
