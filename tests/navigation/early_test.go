package navigation

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// heldBuild is the native summarizer with the build's calls held until
// released, and a record of which files each kind of call summarized.
type heldBuild struct {
	*countingSummarizer
	release chan struct{}
	mu      sync.Mutex
	early   []string
	build   []string
}

func (h *heldBuild) Summarize(ctx context.Context, t index.Target, files []index.Source) ([][]byte, error) {
	var rels []string
	for _, f := range files {
		rels = append(rels, f.Rel)
	}
	if !index.IsEarly(ctx) {
		select {
		case <-h.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h.mu.Lock()
	if index.IsEarly(ctx) {
		h.early = append(h.early, rels...)
	} else {
		h.build = append(h.build, rels...)
	}
	h.mu.Unlock()
	return h.countingSummarizer.Summarize(ctx, t, files)
}

var earlyFixture = map[string]string{
	"app.py":                "from shop import Item\nimport shop.util\n\nItem().label()\nshop.util.money(1)\nimport tools\ntools.fmt(1)\n",
	"shop/__init__.py":      "from .models import Item\nfrom .heavy import Heavy\n",
	"shop/heavy.py":         "class Heavy:\n    pass\n",
	"shop/models.py":        "from .base import Base\n\n\nclass Item(Base):\n    def label(self):\n        return 'x'\n",
	"shop/base.py":          "class Base:\n    pass\n",
	"shop/util.py":          "def money(n):\n    return n\n",
	"tools/__init__.py":     "import logkit\nfrom .fmt import fmt\n", // logkit: its own dependency, not its API
	"tools/fmt.py":          "def fmt(x):\n    return x\n",
	"logkit.py":             "def log():\n    pass\n",
	"unrelated/__init__.py": "",
	"unrelated/big.py":      "def other():\n    pass\n",
}

// heldEarlyBuild starts the first build of earlyFixture with its
// summarizing held (heldBuild): one file per summarizer call, one call at
// a time, so the build's first batch may already be in flight (held) when
// a query comes, and every later one starts after it.
func heldEarlyBuild(t *testing.T) (root string, s *heldBuild, x *index.Index, built chan error) {
	root = t.TempDir()
	write(t, root, earlyFixture)
	s = &heldBuild{countingSummarizer: native(t), release: make(chan struct{})}
	x = index.New(index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: s, CacheDir: t.TempDir(),
		Parallel: 1, BatchBytes: 1})
	built = make(chan error, 1)
	go func() { built <- x.Build(context.Background()) }()
	return root, s, x, built
}

// TestEarlyAnswersDuringBuild holds the first build's summarizing back:
// a definition asked meanwhile is answered from the queried file, what
// it imports and what its packages re-export of the names it imports,
// summarized ahead of the build; files it does not import (and a
// package's re-exports of other names) are left to the build.
func TestEarlyAnswersDuringBuild(t *testing.T) {
	root, s, x, built := heldEarlyBuild(t)
	app := filepath.Join(root, "app.py")
	e, err := x.Early(context.Background(), app)
	if err != nil || e == nil {
		t.Fatalf("Early: %v, %v", e, err)
	}
	for _, c := range []struct {
		line, char int
		want       string
	}{
		{3, 0, "shop/models.py:3:6"}, // Item, re-exported by shop/__init__.py
		{3, 7, "shop/models.py:4:8"}, // label, through Item's instance
		{4, 10, "shop/util.py:0:4"},  // money
		{6, 6, "tools/fmt.py:0:4"},   // fmt, re-exported by tools/__init__.py, which app.py imports whole
	} {
		if got := definitionAt(t, e, app, c.line, c.char); got != c.want {
			t.Errorf("definition at %d:%d = %s, want %s", c.line, c.char, got, c.want)
		}
	}
	s.mu.Lock()
	early := append([]string(nil), s.early...)
	s.mu.Unlock()
	for _, rel := range early {
		if strings.HasPrefix(rel, "unrelated/") || rel == "shop/heavy.py" || rel == "logkit.py" {
			t.Errorf("the early index summarized %s, which app.py does not import", rel)
		}
	}
	if x.Built() {
		t.Fatal("the build finished while its calls were held")
	}
	close(s.release)
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	if e, err := x.Early(context.Background(), app); e != nil || err != nil {
		t.Fatalf("Early after the build: %v, %v", e, err)
	}
	// The build found the early summaries in the disk cache: only the
	// batch it had in flight when the query came may have been
	// summarized twice.
	s.mu.Lock()
	defer s.mu.Unlock()
	var again []string
	for _, rel := range s.build {
		if !strings.HasPrefix(rel, "unrelated/") && rel != "shop/base.py" && rel != "shop/heavy.py" && rel != "logkit.py" {
			again = append(again, rel)
		}
	}
	if len(again) > 1 {
		t.Errorf("the build summarized %v again; at most its batch in flight may be", again)
	}
	if len(s.build) == 0 {
		t.Error("the build summarized nothing")
	}
}

// TestEarlyAtImportedName: a definition asked at a name an import binds
// summarizes that import's modules only; a later query elsewhere in the
// file (an attribute, which may be typed through any import) adds the
// rest.
func TestEarlyAtImportedName(t *testing.T) {
	root, s, x, built := heldEarlyBuild(t)
	defer func() {
		close(s.release)
		if err := <-built; err != nil {
			t.Fatal(err)
		}
	}()
	app := filepath.Join(root, "app.py")
	summarized := func() map[string]bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		out := map[string]bool{}
		for _, rel := range s.early {
			out[rel] = true
		}
		return out
	}
	for _, c := range []struct {
		line, char int
		want       string
		with       []string // summarized early by now
		without    []string // not
	}{
		{0, 17, "shop/models.py:3:6", []string{"shop/__init__.py", "shop/models.py"}, []string{"shop/util.py", "tools/fmt.py", "tools/__init__.py"}},
		{6, 6, "tools/fmt.py:0:4", []string{"shop/util.py", "tools/fmt.py"}, []string{"logkit.py", "unrelated/big.py"}},
	} {
		e, err := x.EarlyAt(context.Background(), app, c.line, c.char)
		if err != nil || e == nil {
			t.Fatalf("EarlyAt(%d:%d): %v, %v", c.line, c.char, e, err)
		}
		if got := definitionAt(t, e, app, c.line, c.char); got != c.want {
			t.Errorf("definition at %d:%d = %s, want %s", c.line, c.char, got, c.want)
		}
		done := summarized()
		for _, rel := range c.with {
			if !done[rel] {
				t.Errorf("after the query at %d:%d, %s was not summarized early", c.line, c.char, rel)
			}
		}
		for _, rel := range c.without {
			if done[rel] {
				t.Errorf("the query at %d:%d summarized %s early", c.line, c.char, rel)
			}
		}
	}
}

// definitionAt is the first definition e gives at line, char of abs, as
// rel:line:col.
func definitionAt(t *testing.T, e *index.Index, abs string, line, char int) string {
	t.Helper()
	h := e.At(abs, line, char)
	if h == nil {
		t.Fatalf("nothing at %d:%d", line, char)
	}
	locs, err := e.Definition(h)
	if err != nil || len(locs) == 0 {
		t.Fatalf("definition at %d:%d: %v %v", line, char, locs, err)
	}
	return locs[0].Rel + ":" + strconv.Itoa(int(locs[0].Line)) + ":" + strconv.Itoa(int(locs[0].Col))
}

// earlyRefsFixture: names reached through aliases (`import a.b as c`,
// `from m import x as y`), re-exports, a star import, attributes typed
// through a call's return, `__all__` entries, a stub beside its source.
var earlyRefsFixture = map[string]string{
	"kit/__init__.py":       "from .impl import Widget, make as build\nfrom .parts import *\n\n__all__ = [\"Widget\", \"build\", \"Gear\"]\n",
	"kit/impl.py":           "class Widget:\n    size = 1\n\n    def spin(self, turns):\n        return self.size * turns\n\n\ndef make() -> Widget:\n    return Widget()\n",
	"kit/parts.py":          "__all__ = [\"Gear\"]\n\n\nclass Gear:\n    def spin(self):\n        pass\n",
	"kit/typed.py":          "def teeth(n):\n    return n\n",
	"kit/typed.pyi":         "def teeth(n: int) -> int: ...\n",
	"alias.py":              "import kit.impl as im\nfrom kit import Widget as W, build\n\nw = im.make()\nw.spin(turns=2)\nW().spin(1)\nbuild().size\n",
	"star.py":               "from kit.impl import *\nfrom kit.typed import teeth\n\nWidget().spin(3)\nteeth(Widget.size)\n",
	"gears.py":              "import kit\n\nkit.Gear().spin()\nkit.Widget.spin\n",
	"unrelated/a.py":        "def other():\n    return 1\n",
	"unrelated/b.py":        "from unrelated.a import other\nother()\n",
	"unrelated/__init__.py": "",
}

// TestEarlyReferencesEqualComplete asks references and rename at every
// identifier of earlyRefsFixture of a fresh index whose build has not
// started (index.EarlyComplete answers alone) and of the complete
// index: the answers must be the same, in order.
func TestEarlyReferencesEqualComplete(t *testing.T) {
	root := t.TempDir()
	write(t, root, earlyRefsFixture)
	cache := t.TempDir()
	cfg := index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: native(t), CacheDir: cache, Parallel: 1}
	ctx := context.Background()
	full := index.New(cfg)
	if err := full.Build(ctx); err != nil {
		t.Fatal(err)
	}
	answer := func(x *index.Index, h *index.Hit) string {
		if h == nil {
			return "none"
		}
		var b strings.Builder
		refs, err := x.References(ctx, h, true)
		fmt.Fprintf(&b, "refs %v:", err)
		for _, r := range refs {
			fmt.Fprintf(&b, " %s:%d:%d", r.Rel, r.Line, r.Col)
		}
		edits, err := x.Rename(ctx, h, "renamed")
		fmt.Fprintf(&b, " rename %v:", err)
		for _, e := range edits {
			fmt.Fprintf(&b, " %s:%d:%d", e.Rel, e.Line, e.Col)
		}
		return b.String()
	}
	ident := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	asked := 0
	for _, rel := range slices.Sorted(maps.Keys(earlyRefsFixture)) {
		abs := filepath.Join(root, rel)
		for line, text := range strings.Split(earlyRefsFixture[rel], "\n") {
			for _, m := range ident.FindAllStringIndex(text, -1) {
				want := answer(full, full.At(abs, line, m[0]))
				var got string
				ok, err := index.New(cfg).EarlyComplete(ctx, abs, line, m[0], func(e *index.Index, h *index.Hit) error {
					got = answer(e, h)
					return nil
				})
				if err != nil || !ok {
					t.Fatalf("%s:%d:%d: EarlyComplete %v, %v", rel, line, m[0], ok, err)
				}
				asked++
				if got != want {
					t.Errorf("%s:%d:%d (%s):\nearly:    %s\ncomplete: %s", rel, line, m[0], text[m[0]:m[1]], got, want)
				}
			}
		}
	}
	t.Logf("%d positions", asked)
}
