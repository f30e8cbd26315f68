package navigation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/index"
)

// TestCompletions: get_completions' kernel on half-typed files (the
// marker ‸ is the position; files that end at the marker do not parse
// there): members through the type evaluator, names of the scopes
// around, modules after import, nothing in strings and comments.
func TestCompletions(t *testing.T) {
	root := t.TempDir()
	shapes := "import collections\n\n\nclass Shape:\n    sides = 0\n\n    def __init__(self):\n        self.area = 1\n\n    def grow(self):\n        return self\n\n    def _hidden(self):\n        pass\n\n\ndef make() -> Shape:\n    return Shape()\n\n\nLIMIT = 3\n"
	cases := []struct {
		name string
		src  string // with ‸ at the position
		// want: labels that must be offered, in this order, before any
		// other label listed in wantAfter; none: nothing is offered.
		want      []string
		wantAfter []string
		none      bool
		kinds     map[string]string
		imports   map[string]string // label -> the module it is imported from
	}{
		{name: "instance members, own, inherited, dunders last",
			src:  "from shapes import Shape\ns = Shape()\ns.‸\n",
			want: []string{"area", "grow", "sides"}, wantAfter: []string{"_hidden", "__init__", "__class__"},
			kinds: map[string]string{"grow": "method", "area": "field", "sides": "variable"}},
		{name: "a file ending in recv. (does not parse)",
			src:  "from shapes import make\n\n\ndef f():\n    resp = make()\n    resp.‸",
			want: []string{"grow"}},
		{name: "prefix typed",
			src:  "from shapes import make\nmake().gr‸",
			want: []string{"grow"}},
		{name: "self in a method",
			src:  "class Box:\n    def __init__(self):\n        self.width = 2\n\n    def size(self):\n        return self.‸",
			want: []string{"width", "size"}},
		{name: "module attributes",
			src: "import shapes\nshapes.‸",
			// ranked by the workspace's uses of each declaration
			want: []string{"Shape", "make", "LIMIT"}, kinds: map[string]string{"LIMIT": "constant", "Shape": "class", "make": "function"}},
		{name: "a string literal's methods",
			src:  "x = 'abc'.up‸",
			want: []string{"upper"}},
		{name: "locals before globals before builtins",
			src:  "total = 1\n\n\ndef g(alpha, tally):\n    tail = alpha\n    t‸",
			want: []string{"tail", "tally", "total", "tuple"}, kinds: map[string]string{"tally": "parameter", "tuple": "class"}},
		{name: "an imported name is described by what it imports",
			src:  "from shapes import Shape\nx = Sh‸",
			want: []string{"Shape"}, kinds: map[string]string{"Shape": "class"}},
		{name: "a name another module defines, after the names in scope, with its import",
			src:  "mapping = 1\nx = ma‸",
			want: []string{"mapping", "map", "make"}, imports: map[string]string{"make": "shapes", "map": "", "mapping": ""}},
		{name: "a standard-library name the workspace's imports loaded",
			src:  "x = namedtu‸",
			want: []string{"namedtuple"}, imports: map[string]string{"namedtuple": "collections"}},
		{name: "keywords at a statement's start",
			src:  "def g():\n    ret‸",
			want: []string{"return"}, kinds: map[string]string{"return": "keyword"}},
		{name: "after import",
			src:  "import sha‸",
			want: []string{"shapes"}, kinds: map[string]string{"shapes": "module"}},
		{name: "after from m import",
			src:  "from shapes import ‸",
			want: []string{"Shape", "make", "LIMIT"}}, // Shape and make are used in shapes.py
		{name: "inside a string", src: "x = 'ab‸c'\n", none: true},
		{name: "inside a comment", src: "x = 1  # sh‸\n", none: true},
		{name: "after def", src: "def sh‸", none: true},
	}
	files := map[string]string{"shapes.py": shapes}
	offs := map[string]int{}
	for i, c := range cases {
		rel := "case" + itoa(i) + ".py"
		off := strings.Index(c.src, "‸")
		files[rel] = strings.Replace(c.src, "‸", "", 1)
		offs[rel] = off
	}
	write(t, root, files)
	x := newTestIndex(t, root, "")
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // concurrent queries share the link's evaluator and tables
			rel := "case" + itoa(i) + ".py"
			res := x.Completions(filepath.Join(root, rel), []byte(files[rel]), offs[rel], 1000)
			labels := map[string]int{}
			kinds := map[string]string{}
			for k, it := range res.Items {
				labels[it.Label] = k
				kinds[it.Label] = it.Kind
			}
			if c.none {
				if len(res.Items) > 0 {
					t.Fatalf("got %d items (%s ...), want none", len(res.Items), res.Items[0].Label)
				}
				return
			}
			last := -1
			for _, w := range c.want {
				k, ok := labels[w]
				if !ok {
					t.Fatalf("%s not offered; got %v", w, firstLabels(res.Items, 20))
				}
				if k < last {
					t.Errorf("%s at %d, before the previous wanted label (at %d); got %v", w, k, last, firstLabels(res.Items, 20))
				}
				last = k
			}
			for _, w := range c.wantAfter {
				if k, ok := labels[w]; ok && k < last {
					t.Errorf("%s at %d, before the wanted labels; got %v", w, k, firstLabels(res.Items, 20))
				}
			}
			imports := map[string]string{}
			for _, it := range res.Items {
				imports[it.Label] = it.Import
			}
			for label, mod := range c.imports {
				if imports[label] != mod {
					t.Errorf("%s imported from %q, want %q", label, imports[label], mod)
				}
			}
			for label, kind := range c.kinds {
				if kinds[label] != kind {
					t.Errorf("%s is a %q, want %q", label, kinds[label], kind)
				}
			}
		})
	}
}

func firstLabels(items []index.Completion, n int) []string {
	var out []string
	for _, it := range items[:min(n, len(items))] {
		out = append(out, it.Label)
	}
	return out
}

// TestMissingImports: the names the add-import quick fix offers: read,
// bound nowhere, defined by exactly one module.
func TestMissingImports(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"shapes.py": "import collections\n\n\nclass Shape:\n    pass\n\n\ndef make():\n    return Shape()\n",
		"other.py":  "def make_other():\n    pass\n\n\nclass Shape:\n    pass\n",
		"main.py":   "x = make()\ny = Shape\nz = nowhere_defined\nw = namedtuple('P', 'a')\nv = make_other\n",
	})
	x := newTestIndex(t, root, "")
	main := filepath.Join(root, "main.py")
	var got []string
	for _, m := range x.MissingImports(main, 0, 10) {
		got = append(got, m.Name+"@"+m.Module+":"+itoa(int(m.Span.Line)))
	}
	want := "make@shapes:0 namedtuple@collections:3 make_other@other:4" // Shape: two modules define it
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if n := len(x.MissingImports(main, 1, 2)); n != 0 {
		t.Errorf("lines 1-2: %d, want none", n)
	}
}

// FuzzCompletions: any text and offset for an indexed file (the text on
// disk may differ from what was summarized), no panic, and items match
// the prefix.
func FuzzCompletions(f *testing.F) {
	root := f.TempDir()
	src := "import os\n\n\nclass A:\n    def m(self):\n        self.x = os.path.join('a')\n        return self.\n"
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte(src), 0o644); err != nil {
		f.Fatal(err)
	}
	x := newTestIndex(f, root, "")
	abs := filepath.Join(root, "a.py")
	f.Add([]byte(src), len(src)-1)
	f.Add([]byte("x = (\n  os.pa"), 13)
	f.Add([]byte("from . import "), 14)
	f.Fuzz(func(t *testing.T, text []byte, off int) {
		if off < 0 || off > len(text) {
			return
		}
		x.Completions(abs, text, off, 50)
	})
}
