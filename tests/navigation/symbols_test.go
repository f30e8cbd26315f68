package navigation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/markertest"
)

// groupLocs are the marked locations of a group in the fixture
// directory root (all, and the d: ones).
func groupLocs(t *testing.T, root string) (all, defs map[string][]string) {
	t.Helper()
	all, defs = map[string][]string{}, map[string][]string{}
	c, err := markertest.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Files {
		ms, err := markertest.Marks(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Group == "" || m.NewName != "" {
				continue
			}
			all[m.Group] = append(all[m.Group], m.Loc())
			if m.Tag == "d" {
				defs[m.Group] = append(defs[m.Group], m.Loc())
			}
		}
	}
	for _, m := range []map[string][]string{all, defs} {
		for _, v := range m {
			slices.Sort(v)
		}
	}
	return all, defs
}

// TestSymbolLookup: a dotted name addresses what the marked group's
// definition is, and every navigation query takes it as if asked there:
// definitions are the group's d: marks, references all its marks.
func TestSymbolLookup(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "imports"))
	x := newTestIndex(t, root, "")
	all, defs := groupLocs(t, root)
	tests := []struct {
		symbol, from, group string
		refs                string // the references' group, when not group
	}{
		{"pkg.core.Engine", "", "Engine", ""},
		{"pkg.core.Engine.run", "", "run", ""},
		{"pkg.core.start", "", "start", ""},
		{"pkg.helpers.shout", "", "shout", ""},
		{"pkg.Engine", "", "Engine", ""},         // re-exported by the package
		{"pkg.sub.deep.deep", "", "deep", ""},    // module pkg.sub.deep, function deep
		{"Engine.run", "", "run", ""},            // unique in the workspace
		{"start", "", "start", ""},               // defined once; __init__ only imports it
		{"Engine.run", "pkg/core.py", "run", ""}, // relative to uri's module
		{"loud", "pkg/core.py", "shout", "loud"}, // an alias: defined where it is imported from, referenced as itself
	}
	ctx := context.Background()
	for _, tt := range tests {
		from := ""
		if tt.from != "" {
			from = filepath.Join(root, tt.from)
		}
		h, err := x.Lookup(tt.symbol, from)
		if err != nil {
			t.Errorf("%s: %v", tt.symbol, err)
			continue
		}
		got, err := x.Definition(h)
		if g := locs(got); err != nil || !slices.Equal(g, defs[tt.group]) {
			t.Errorf("%s: definition %v %v, want %v", tt.symbol, g, err, defs[tt.group])
		}
		group := tt.group
		if tt.refs != "" {
			group = tt.refs
		}
		refs, err := x.References(ctx, h, true)
		if g := locs(refs); err != nil || !slices.Equal(g, all[group]) {
			t.Errorf("%s: references %v %v, want %v", tt.symbol, g, err, all[group])
		}
	}
}

// TestSymbolLookupModule: a module's dotted name stands where the
// workspace first names it, so its references are every import and use
// of the module (the fixture's helpers group) and its definition is the
// module's file; a module nothing names is still NO_SYMBOL_FOUND.
func TestSymbolLookupModule(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "imports"))
	x := newTestIndex(t, root, "")
	all, _ := groupLocs(t, root)
	h, err := x.Lookup("pkg.helpers", "")
	if err != nil {
		t.Fatal(err)
	}
	refs, err := x.References(context.Background(), h, true)
	if g := locs(refs); err != nil || !slices.Equal(g, all["helpers"]) {
		t.Errorf("references %v %v, want %v", g, err, all["helpers"])
	}
	defs, err := x.Definition(h)
	if err != nil || len(defs) != 1 || filepath.Base(defs[0].Abs) != "helpers.py" {
		t.Errorf("definition %v %v, want pkg/helpers.py", locs(defs), err)
	}
	if _, err := x.Lookup("app.main", ""); err == nil {
		t.Errorf("app.main, which nothing imports: a hit, want NO_SYMBOL_FOUND")
	} else if f, ok := fault.As(err); !ok || f.Code != fault.NoSymbolFound {
		t.Errorf("app.main: %v, want NO_SYMBOL_FOUND", err)
	}
}

// TestDefinedRefusesWhatNoStatementDefines: edit_symbol's target must be
// a workspace def, class or assignment; a name bound to a module or to
// an external name is NO_SYMBOL_FOUND. Asking for the stub
// source of a target without a file (a module's) dereferenced nil before.
func TestDefinedRefusesWhatNoStatementDefines(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"pkg/__init__.py": "",
		"pkg/m.py":        "def f():\n    pass\n",
		"a.py":            "import os\nimport pkg.m\nfrom pkg import m\nfrom json import dumps as to_json\nshow = print\n",
	})
	x := newTestIndex(t, root, "")
	for _, tt := range []struct{ symbol, reason string }{
		{"a.os", "not defined in the workspace"},
		{"a.m", "a module"},
		{"pkg.m", "a module"},
		{"a.to_json", "not defined in the workspace"},
	} {
		h, err := x.Lookup(tt.symbol, "")
		if err != nil {
			t.Errorf("%s: %v", tt.symbol, err)
			continue
		}
		_, err = x.Defined(h)
		if f, ok := fault.As(err); !ok || f.Code != fault.NoSymbolFound || f.Details["reason"] != tt.reason {
			t.Errorf("%s: %v, want NO_SYMBOL_FOUND (%s)", tt.symbol, err, tt.reason)
		}
	}
}

// TestSymbolLookupFails: an unknown name is NO_SYMBOL_FOUND offering the
// closest names; one that names a symbol of two modules offers both.
func TestSymbolLookupFails(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"a.py": "def helper():\n    pass\n\nclass Engine:\n    pass\n",
		"b.py": "def helper():\n    pass\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := newTestIndex(t, root, "")
	tests := []struct {
		symbol, reason string
		candidates     []string
	}{
		{"helper", "ambiguous", []string{"a.helper", "b.helper"}},
		{"a.Engin", "unknown", []string{"a.Engine"}},
		{"c.helper", "unknown", []string{"a.helper", "b.helper"}},
		{"not a name", "unknown", []string{}},
	}
	for _, tt := range tests {
		_, err := x.Lookup(tt.symbol, "")
		f, ok := fault.As(err)
		if !ok || f.Code != fault.NoSymbolFound || f.Details["reason"] != tt.reason {
			t.Errorf("%s: %v, want NO_SYMBOL_FOUND (%s)", tt.symbol, err, tt.reason)
			continue
		}
		if got, _ := f.Details["candidates"].([]string); !slices.Equal(got, tt.candidates) {
			t.Errorf("%s: candidates %v, want %v", tt.symbol, got, tt.candidates)
		}
	}
	if h, err := x.Lookup("helper", filepath.Join(root, "b.py")); err != nil || h == nil {
		t.Errorf("helper relative to b.py: %v", err)
	}
}

// TestOutline: a file's outline nests methods and attributes under their
// class, in declaration order, with the kinds, the statements' extents
// (a def's from its decorator, a trailing comment included) and one-line
// signatures.
func TestOutline(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "classes"))
	x := newTestIndex(t, root, "")
	var got []string
	var walk func(prefix string, os []*index.OutlineSymbol)
	walk = func(prefix string, os []*index.OutlineSymbol) {
		for _, o := range os {
			e := o.Extent
			got = append(got, fmt.Sprintf("%s%s %s %d:%d [%d:%d-%d:%d body %d:%d] | %s", prefix, o.Kind, o.Name, o.Line, o.Col,
				e.Line, e.Col, e.EndLine, e.EndCol, e.BodyLine, e.BodyCol, o.Signature))
			walk(prefix+"  ", o.Children)
		}
	}
	walk("", x.Outline(filepath.Join(root, "shapes.py")))
	want := []string{
		"class Shape 4:6 [4:0-24:92 body 5:4] | class Shape",
		"  attribute sides 5:4 [5:4-5:13 body 0:0] | sides: int",
		"  method __init__ 7:8 [7:4-9:51 body 8:8] | def __init__(self, name: str)",
		"  attribute name 8:13 [0:0-0:0 body 0:0] | name",
		"  attribute _area 9:13 [0:0-0:0 body 0:0] | _area: float",
		"  property area 12:8 [11:4-13:52 body 13:8] | area: float",
		"  method make 20:8 [19:4-21:37 body 21:8] | def make(cls)",
		"  method describe 23:8 [23:4-24:92 body 24:8] | def describe(self)",
		"class Square 27:6 [27:0-31:66 body 28:4] | class Square(Shape)",
		"  attribute sides 28:4 [28:4-28:13 body 0:0] | sides: int",
		"  method describe 30:8 [30:4-31:66 body 31:8] | def describe(self)",
		"class Point 35:6 [34:0-37:37 body 36:4] | class Point",
		"  attribute x 36:4 [36:4-36:10 body 0:0] | x: int",
		"  attribute y 37:4 [37:4-37:14 body 0:0] | y: int",
		"function measure 40:4 [40:0-44:68 body 41:4] | def measure(s: Shape, p: Optional[Point] = None) -> Square",
		"variable sq 47:0 [47:0-47:16 body 0:0] | sq: Square",
	}
	if !slices.Equal(got, want) {
		t.Errorf("outline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFindSymbols: exact names first, then prefixes, humps and
// substrings; kind filters; limit cuts and Total still counts.
func TestFindSymbols(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "classes"))
	x := newTestIndex(t, root, "")
	tests := []struct {
		query, kind string
		limit       int
		want        []string
		total       int
	}{
		{"describe", "", 10, []string{"shapes.Shape.describe", "shapes.Square.describe"}, 2},
		{"sq", "", 10, []string{"shapes.sq", "shapes.Square"}, 2},    // exact before prefix
		{"sides", "attribute", 1, []string{"shapes.Shape.sides"}, 2}, // shallow, then file order
		{"ini", "method", 10, []string{"shapes.Shape.__init__"}, 1},  // substring
		{"ms", "", 10, []string{}, 0},                                // no hump nor substring spells it
		{"area", "property", 10, []string{"shapes.Shape.area"}, 1},
		{"zzz", "", 10, []string{}, 0},
	}
	for _, tt := range tests {
		got := x.FindSymbols(tt.query, tt.kind, tt.limit)
		names := []string{}
		for _, s := range got.Symbols {
			names = append(names, s.Qualified())
		}
		if !slices.Equal(names, tt.want) || got.Total != tt.total {
			t.Errorf("%q (%s): %v total %d, want %v total %d", tt.query, tt.kind, names, got.Total, tt.want, tt.total)
		}
	}
}

// TestCallHierarchy: callers with the function each call is in (the
// module for top-level code), callees through aliases, depth levels
// deep; sites are the called names.
func TestCallHierarchy(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "imports"))
	x := newTestIndex(t, root, "")
	render := func(c *index.Calls) string {
		var b strings.Builder
		var walk func(prefix string, ns []*index.CallNode)
		walk = func(prefix string, ns []*index.CallNode) {
			for _, n := range ns {
				fmt.Fprintf(&b, "%s%s %s", prefix, n.Kind, n.Qualified())
				for _, s := range n.Sites {
					fmt.Fprintf(&b, " %s:%d:%d", s.Rel, s.Line+1, s.Col)
				}
				b.WriteString("\n")
				walk(prefix+"  ", n.Calls)
			}
		}
		walk("", c.Calls)
		return b.String()
	}
	tests := []struct {
		symbol   string
		incoming bool
		depth    int
		limit    int
		want     string
		total    int
	}{
		{"pkg.core.Engine.run", true, 1, 50,
			"module app.main app/main.py:9:2 app/main.py:10:18 app/main.py:11:13\n" +
				"function pkg.core.start pkg/core.py:13:11\n", 2},
		{"pkg.helpers.shout", true, 2, 50,
			"module app.main app/main.py:13:2\n" +
				"method pkg.core.Engine.run pkg/core.py:9:15\n" +
				"  module app.main app/main.py:9:2 app/main.py:10:18 app/main.py:11:13\n" +
				"  function pkg.core.start pkg/core.py:13:11\n", 4},
		{"pkg.helpers.shout", true, 2, 2,
			"module app.main app/main.py:13:2\n" +
				"method pkg.core.Engine.run pkg/core.py:9:15\n", 4},
		{"pkg.core.start", false, 2, 50,
			"method pkg.core.Engine.run pkg/core.py:13:11\n" +
				"  function pkg.helpers.shout pkg/core.py:9:15\n", 2},
	}
	for _, tt := range tests {
		h, err := x.Lookup(tt.symbol, "")
		if err != nil {
			t.Fatal(err)
		}
		c, err := x.CallHierarchy(context.Background(), h, tt.incoming, tt.depth, tt.limit)
		if err != nil {
			t.Errorf("%s: %v", tt.symbol, err)
			continue
		}
		if got := render(c); got != tt.want || c.Total != tt.total {
			t.Errorf("%s incoming=%v depth %d:\n%s(total %d)\nwant:\n%s(total %d)", tt.symbol, tt.incoming, tt.depth, got, c.Total, tt.want, tt.total)
		}
	}
	h, _ := x.Lookup("pkg.core.Engine", "")
	if _, err := x.CallHierarchy(context.Background(), h, false, 1, 50); err != nil {
		t.Errorf("a class's callees: %v", err)
	}
}
