package navigation

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

// TestTypeDefinition: get_type_definition goes from a value to its
// class; outside the workspace it is EXTERNAL_DEFINITION naming the
// class, and a value of unknown type is NO_DEFINITION_FOUND.
func TestTypeDefinition(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"shapes.py": "class Shape:\n    def grow(self):\n        return self\n\n\ndef make():\n    return Shape()\nclass Box:\n    @property\n    def size(self) -> int:\n        return 1\n",
		"main.py": strings.Join([]string{
			"from shapes import Shape, make",
			"s = Shape()",
			"s.grow()",
			"t: Shape = make()",
			"name = 'abc'",
			"u = undefined_thing()",
			"print(s, t, name, u, Shape)",
			"from typing import Any",
			"def h(a: Any, b: str | None = None):",
			"    return a, b",
			"h(1, b='x')",
			"def k(p: Shape | None):",
			"    return p",
		}, "\n") + "\n",
	})
	x := newTestIndex(t, root, "")
	main := filepath.Join(root, "main.py")
	cases := []struct {
		name       string
		file       string // main.py when empty
		line, char int
		want       string // "file:line" of the class, or the fault code
	}{
		{"a variable holding an instance", "", 6, 6, "shapes.py:0"},
		{"at its assignment", "", 1, 0, "shapes.py:0"},
		{"an annotated variable", "", 6, 9, "shapes.py:0"},
		{"a class is its own type", "", 6, 21, "shapes.py:0"},
		{"a builtin's instance", "", 6, 12, fault.ExternalDefinition},
		{"unknown: the name's declaration, as pyright answers", "", 6, 18, "main.py:5"},
		{"self is declared by the parameter, as pyright answers", "shapes.py", 2, 15, "shapes.py:1"},
		{"Any is declared by the name itself, as pyright answers", "", 9, 11, "main.py:8"},
		{"a union with None names NoneType too", "", 9, 14, fault.ExternalDefinition},
		{"a keyword argument is its parameter's type", "", 10, 5, fault.ExternalDefinition},
		{"a property at its def is its declarations, as pyright answers", "shapes.py", 9, 8, "shapes.py:9"},
		{"a union of a workspace class and None: its location, NoneType named", "", 12, 11, "shapes.py:0 external:types.NoneType"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := main
			if c.file != "" {
				file = filepath.Join(root, c.file)
			}
			h := x.At(file, c.line, c.char)
			if h == nil {
				t.Fatalf("nothing at %d:%d", c.line, c.char)
			}
			locs, external, err := x.TypeDefinition(h)
			var got string
			if err != nil {
				f, ok := fault.As(err)
				if !ok {
					t.Fatal(err)
				}
				got = f.Code
				if f.Code == fault.ExternalDefinition && f.Details["symbol"] != "builtins.str" {
					t.Errorf("details %v, want symbol builtins.str", f.Details)
				}
				if syms, _ := f.Details["symbols"].([]string); f.Code == fault.ExternalDefinition && c.line >= 9 && strings.Join(syms, " ") != "builtins.str types.NoneType" {
					t.Errorf("details %v, want symbols builtins.str types.NoneType", f.Details)
				}
			} else {
				var parts []string
				for _, l := range locs {
					parts = append(parts, l.Rel+":"+itoa(int(l.Line)))
				}
				for _, q := range external {
					parts = append(parts, "external:"+q)
				}
				got = strings.Join(parts, " ")
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
