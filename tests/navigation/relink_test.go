package navigation

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// relinkWorkspace has what makes one file's link read another's:
// re-exports, star imports, `from . import sub` cycles, bases and return
// values across modules, aliases, and a module shadowing a stdlib name.
var relinkWorkspace = map[string]string{
	"pkg/__init__.py":     "from .a import A\nfrom .b import *\nfrom . import c\n",
	"pkg/a.py":            "from pkg import b\n\n\nclass A(b.B):\n    def m(self):\n        return self.x\n",
	"pkg/b.py":            "from .c import helper\n\n\nclass B:\n    x = 1\n\n    def run(self):\n        return helper()\n\n\n__all__ = ['B', 'helper']\n",
	"pkg/c.py":            "import pkg\n\n\ndef helper():\n    return pkg.A()\n",
	"pkg/sub/__init__.py": "from .deep import *\nfrom . import deep\n",
	"pkg/sub/deep.py":     "from ..b import B as Base\n\n\nclass Deep(Base):\n    pass\n\n\ndef make():\n    return Deep()\n",
	"app.py":              "from pkg import A, B\nimport pkg.c as pc\nfrom pkg.sub import make\n\na = A()\na.m()\na.run()\npc.helper().m()\nmake().run()\n",
	"tools.py":            "import app\nfrom app import a\nimport json\n\nvalue = a.x\nprint(app.pc.helper, json.dumps)\n",
	"json.py":             "def dumps(obj):\n    return str(obj)\n",
	"other.py":            "import os\n\n\ndef join(*parts):\n    return os.path.join(*parts)\n",
}

// relinkEdits are lines appended to a file, each changing what others
// read of it (or nothing, for the comment).
var relinkEdits = []string{
	"# a comment\n",
	"def helper():\n    return 1\n",
	"from pkg.sub.deep import *\n",
	"from pkg import A as B\n",
	"class A(B):\n    y = 2\n",
	"import tools\nx = tools.value\n",
	"from app import *\n",
	"def make():\n    return A()\n",
	"__all__ = ['A']\n",
	"run = None\n",
}

// TestRelinkChangedAnswersAsFullLink edits files one at a time (seeded)
// and compares, after each edit, the index relinked from the previous
// link (only the changed file and its readers, when that is safe) with
// one built from nothing over the same files: every occurrence's target
// and key, every key's occurrences in order and the attributes left to
// the evaluator must be the same.
func TestRelinkChangedAnswersAsFullLink(t *testing.T) {
	ctx := context.Background()
	s, err := nativeindex.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nativeindex.StubSets(s); err != nil {
		t.Skipf("stubs: %v", err)
	}
	root, cache := t.TempDir(), t.TempDir()
	write(t, root, relinkWorkspace)
	// Readers enough that an edit of pkg relinks more than 64 files
	// (where the relink rebuilds every key's list, not only its own).
	users := map[string]string{}
	for i := range 70 {
		users[fmt.Sprintf("users/u%02d.py", i)] = "from pkg import A, B\nfrom pkg.sub import make\n\nA().m()\nmake().run()\nB.x\n"
	}
	write(t, root, users)
	x, err := nativeindex.Build(ctx, s, root, cache)
	if err != nil {
		t.Fatal(err)
	}
	rels := make([]string, 0, len(relinkWorkspace))
	for rel := range relinkWorkspace {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	seed := int64(1)
	if v := os.Getenv("RELINK_SEED"); v != "" {
		fmt.Sscan(v, &seed)
	}
	r := rand.New(rand.NewSource(seed))
	for step := range 60 {
		rel := rels[r.Intn(len(rels))]
		abs := filepath.Join(root, rel)
		src, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		if r.Intn(3) == 0 && strings.Count(text, "\n") > 2 {
			// Take the last line back out (often an earlier edit).
			text = text[:strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n")+1]
		} else {
			text += relinkEdits[r.Intn(len(relinkEdits))]
		}
		write(t, root, map[string]string{rel: text})
		if err := x.RefreshFile(ctx, abs); err != nil {
			t.Fatal(err)
		}
		fresh, err := nativeindex.Build(ctx, s, root, cache)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := x.LinkDigest(), fresh.LinkDigest(); got != want {
			t.Fatalf("step %d, %s edited: the relinked index differs from a full link:\n%s", step, rel, firstDiff(got, want))
		}
	}
	full, changed, redone := x.Relinks()
	t.Logf("links: %d full (%d of them after an unsafe incremental one), %d of the changed files and their readers", full, redone, changed)
	if changed == 0 {
		t.Errorf("no edit was relinked incrementally (%d full links)", full)
	}
}

func firstDiff(got, want string) string {
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	line := func(ls []string) string {
		l := strings.Join(ls[min(i, len(ls)):min(i+1, len(ls))], "")
		return l[:min(len(l), 300)]
	}
	return fmt.Sprintf("line %d:\n relinked: %s full:     %s", i+1, line(g), line(w))
}

// TestRelinkFallsBackWhenUnsafe: an edit makes a.py (linked first) read
// a name of an import cycle that the last link met, and cut, at a later
// file's step. Linking a.py alone would enter that cycle elsewhere than a
// full link does, so the relink finds it unsafe and links every file;
// the answers are a full link's.
func TestRelinkFallsBackWhenUnsafe(t *testing.T) {
	ctx := context.Background()
	s, err := nativeindex.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	root, cache := t.TempDir(), t.TempDir()
	write(t, root, map[string]string{
		"a.py":  "x = 1\n",
		"k1.py": "from k2 import b\n",
		"k2.py": "from k1 import b\n",
	})
	x, err := nativeindex.Build(ctx, s, root, cache)
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, map[string]string{"a.py": "from k1 import b\nx = b\n"})
	if err := x.RefreshFile(ctx, filepath.Join(root, "a.py")); err != nil {
		t.Fatal(err)
	}
	fresh, err := nativeindex.Build(ctx, s, root, cache)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.LinkDigest(), fresh.LinkDigest(); got != want {
		t.Fatalf("the relinked index differs from a full link:\n%s", firstDiff(got, want))
	}
	if full, changed, redone := x.Relinks(); redone != 1 || full != 2 || changed != 0 {
		t.Errorf("links: %d full, %d redone after an unsafe relink, %d incremental; want 2, 1, 0", full, redone, changed)
	}
}

// TestRelinkKeysStayBounded edits one file back and forth for as long as
// an agent might in a day: each version drops keys the other has (a
// renamed function, locals that come and go), so each edit leaves ids no
// occurrence holds. An incremental relink never renumbers, so without a
// bound those ids grew with every edit for the life of the process; the
// index must link in full once they outnumber the live ones, and answer
// as a fresh link of the same files.
func TestRelinkKeysStayBounded(t *testing.T) {
	ctx := context.Background()
	s, err := nativeindex.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	root, cache := t.TempDir(), t.TempDir()
	version := func(i int) map[string]string {
		var b strings.Builder
		fmt.Fprintf(&b, "def f%d(a):\n", i%2)
		for j := range 10 + 30*(i%2) {
			fmt.Fprintf(&b, "    v%d_%d = a\n", i%2, j)
		}
		b.WriteString("    return a\n")
		return map[string]string{"a.py": b.String()}
	}
	files := maps.Clone(relinkWorkspace)
	maps.Copy(files, version(0))
	write(t, root, files)
	x, err := nativeindex.Build(ctx, s, root, cache)
	if err != nil {
		t.Fatal(err)
	}
	const edits = 400
	most := 0
	for i := 1; i <= edits; i++ {
		write(t, root, version(i))
		if err := x.RefreshFile(ctx, filepath.Join(root, "a.py")); err != nil {
			t.Fatal(err)
		}
		live, interned := x.Keys()
		most = max(most, interned-live)
	}
	fresh, err := nativeindex.Build(ctx, s, root, cache)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.LinkDigest(), fresh.LinkDigest(); got != want {
		t.Fatalf("the relinked index differs from a full link:\n%s", firstDiff(got, want))
	}
	live, _ := fresh.Keys()
	if bound := max(live, 1024) + 64; most > bound {
		t.Errorf("%d edits left up to %d ids without an occurrence (live keys %d): want at most %d", edits, most, live, bound)
	}
	if full, changed, _ := x.Relinks(); changed < edits/2 {
		t.Errorf("links: %d full, %d incremental over %d edits; most should stay incremental", full, changed, edits)
	}
}
