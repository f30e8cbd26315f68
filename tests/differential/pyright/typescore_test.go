package pyright

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseHover(t *testing.T) {
	tests := []struct {
		name, code string
		want       HoverParts
		typed, sig bool
	}{
		{"plain", "(variable) value: float", HoverParts{Kind: "variable", Name: "value", Type: "float", Bucket: "plain"}, true, false},
		{"no kind", "__name__: str", HoverParts{Name: "__name__", Type: "str", Bucket: "plain"}, true, false},
		{"unknown", "(parameter) x: Unknown", HoverParts{Kind: "parameter", Name: "x", Type: "Unknown", Bucket: "unknown"}, false, false},
		{"partly unknown", "(parameter) c: Unknown | None", HoverParts{Kind: "parameter", Name: "c", Type: "Unknown | None", Bucket: "partial-unknown"}, false, false},
		{"unknown inside", "(variable) d: dict[str, Unknown]", HoverParts{Kind: "variable", Name: "d", Type: "dict[str, Unknown]", Bucket: "partial-unknown"}, false, false},
		{"UnknownError is a name", "(variable) e: UnknownError", HoverParts{Kind: "variable", Name: "e", Type: "UnknownError", Bucket: "plain"}, true, false},
		{"typevar before literal", "(parameter) self: Self@Config", HoverParts{Kind: "parameter", Name: "self", Type: "Self@Config", Bucket: "typevar"}, true, false},
		{"literal", "(constant) MAX: Literal[10]", HoverParts{Kind: "constant", Name: "MAX", Type: "Literal[10]", Bucket: "literal"}, true, false},
		{"callable variable", "(variable) f: (x: int) -> str", HoverParts{Kind: "variable", Name: "f", Type: "(x: int) -> str", Sig: "f: (x: int) -> str", Bucket: "callable"}, false, true},
		{"union", "(variable) x: str | None", HoverParts{Kind: "variable", Name: "x", Type: "str | None", Bucket: "union"}, true, false},
		{"union inside a generic", "(variable) d: dict[str, int | None]", HoverParts{Kind: "variable", Name: "d", Type: "dict[str, int | None]", Bucket: "generic"}, true, false},
		{"type", "(variable) k: type[Foo]", HoverParts{Kind: "variable", Name: "k", Type: "type[Foo]", Bucket: "type"}, true, false},
		{"module object", `(variable) path: Module("..path")`, HoverParts{Kind: "variable", Name: "path", Type: `Module("..path")`, Bucket: "special"}, true, false},
		{"None", "(variable) n: None", HoverParts{Kind: "variable", Name: "n", Type: "None", Bucket: "special"}, true, false},
		{"def over lines", "(method) def join(\n    self,\n    iterable: Iterable[str],\n    /\n) -> str",
			HoverParts{Kind: "method", Name: "join", Sig: "def join(self, iterable: Iterable[str], /) -> str", Bucket: "callable"}, false, true},
		{"async def", "(function) async def run(x: int) -> None", HoverParts{Kind: "function", Name: "run", Sig: "async def run(x: int) -> None", Bucket: "callable"}, false, true},
		{"overloads", "(function) \ndef f(x: int) -> int: ...\n\ndef f(x: str) -> str: ...",
			HoverParts{Kind: "function", Name: "f", Sig: "def f(x: int) -> int: ... def f(x: str) -> str: ...", Bucket: "callable"}, false, true},
		{"class", "class Response(url: str)", HoverParts{Kind: "class", Name: "Response", Bucket: "class"}, false, false},
		{"class reference", "(class) Config", HoverParts{Kind: "class", Name: "Config", Bucket: "class-ref"}, false, false},
		{"module", "(module) os", HoverParts{Kind: "module", Name: "os", Bucket: "module"}, false, false},
		{"alias", "(type) Headers = dict[str, str]", HoverParts{Kind: "type", Name: "Headers", Bucket: "alias"}, false, false},
		{"pyws without a type", "(variable) minor", HoverParts{Kind: "variable", Name: "minor", Bucket: "untyped"}, false, false},
		{"no hover", "", HoverParts{Bucket: "none"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseHover(tt.code)
			if got != tt.want {
				t.Errorf("ParseHover(%q)\n got %+v\nwant %+v", tt.code, got, tt.want)
			}
			if got.TypeCompared() != tt.typed || got.SigCompared() != tt.sig {
				t.Errorf("compared as type %v, signature %v; want %v, %v", got.TypeCompared(), got.SigCompared(), tt.typed, tt.sig)
			}
		})
	}
}

func TestNormalizeSig(t *testing.T) {
	tests := []struct{ in, want string }{
		{"def f(\n    a: int,\n    b: str = \"x\"\n) -> None", `def f(a: int, b: str = "x") -> None`},
		{"def f(a: int)  ->  None", "def f(a: int) -> None"},
		{"def f(a: dict[\n  str, int\n]) -> None", "def f(a: dict[str, int]) -> None"},
		{"def f(a: int,\n) -> None", "def f(a: int) -> None"},
		{"def f(a: int) -> str", "def f(a: int) -> str"},
	}
	for _, tt := range tests {
		if got := NormalizeSig(tt.in); got != tt.want {
			t.Errorf("NormalizeSig(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Whitespace only: a different annotation stays different.
	if NormalizeSig("def f(a: int) -> str") == NormalizeSig("def f(a: str) -> str") {
		t.Error("NormalizeSig erased a difference that is not whitespace")
	}
}

func TestTypeScore(t *testing.T) {
	tc := func(hover string, defs ...string) TypeCase {
		return TypeCase{Sample: Sample{Rel: "m.py", Name: "x"}, Hover: hover, TypeDefs: defs}
	}
	var s TypeScore
	steps := []struct {
		pyright TypeCase
		pyws    string
		defs    []string
	}{
		{tc("(variable) x: int", "external:builtins.int"), "(variable) x: int", []string{"external:builtins.int"}}, // type, type def agree
		{tc("(variable) y: str", "external:builtins.str"), "(variable) y", nil},                                    // both disagree
		{tc("(parameter) z: Unknown", "m.py:3"), "", nil},                                                          // not compared
		{tc("(function) def f(\n    a: int\n) -> None", "m.py:1"), "(function) def f(a: int) -> None", nil},        // signature agrees; a def's type def is not compared
		{tc("(function) def g(a: int) -> None"), "(function) g", nil},                                              // signature disagrees
		{tc("class C()", "m.py:5"), "(class) C", nil},                                                              // not compared
	}
	for _, st := range steps {
		s.AddHover(st.pyright, st.pyws, st.defs)
	}
	diags := []Diag{
		{At: "m.py:10:4", EndLine: 12, Rule: "reportArgumentType"},
		{At: "m.py:20:0", EndLine: 20, Rule: "reportAttributeAccessIssue"},
		{At: "m.py:21:4", EndLine: 21, Rule: "reportAttributeAccessIssue", Message: `Cannot assign to attribute "x" for class "C"`},
		{At: "n.py:30:0", EndLine: 30, Rule: "reportAssignmentType"},
	}
	if got := s.Mismatch.String(); got != "n/a" || s.Mismatch.Value() != 1 {
		t.Errorf("no type-mismatch findings: %q %v, want n/a and 1", got, s.Mismatch.Value())
	}
	for _, f := range []Finding{
		{Rel: "m.py", Line: 11, Code: "type-mismatch"}, // inside the argument error's lines
		{Rel: "m.py", Line: 20, Code: "type-mismatch"}, // an attribute error does not confirm it
		{Rel: "m.py", Line: 21, Code: "type-mismatch", Message: `Cannot assign to attribute "x" for class "C": "str" is not assignable to "int"`}, // an attribute store's does
		{Rel: "m.py", Line: 30, Code: "type-mismatch"}, // the error is in another file
		{Rel: "m.py", Line: 10, Code: "unused-import"}, // not counted
	} {
		s.AddFinding(f, diags)
	}
	s.AddRecall([]Finding{{Rel: "m.py", Line: 11, Code: "type-mismatch"}}, append(diags, Diag{At: "m.py:10:9", EndLine: 10, Rule: "reportArgumentType"}))
	want := map[string]Ratio{"type": {1, 2}, "signature": {1, 2}, "typeDefinition": {1, 2}, "mismatch": {2, 4}, "mismatchRecall": {1, 2}} // one error per line
	if got := s.Figures(); !reflect.DeepEqual(got, want) {
		t.Errorf("figures %v, want %v", got, want)
	}
	if s.Hovers != 6 || s.Buckets["plain"] != 2 || s.Buckets["callable"] != 2 || s.Buckets["unknown"] != 1 || s.Buckets["class"] != 1 {
		t.Errorf("hovers %d buckets %v", s.Hovers, s.Buckets)
	}
	if len(s.Misses) != 6 { // type y, type def y, signature g, two mismatches, one error not found
		t.Errorf("%d misses, want 6: %+v", len(s.Misses), s.Misses)
	}
	var total TypeScore
	total.Merge(&s)
	total.Merge(&s)
	if total.Type != (Ratio{2, 4}) || total.Mismatch != (Ratio{4, 8}) || total.Hovers != 12 || total.Buckets["plain"] != 4 {
		t.Errorf("merged %+v", total)
	}
	var b strings.Builder
	WriteTable(&b, []string{"p"}, map[string]*TypeScore{"p": &s})
	if !strings.Contains(b.String(), " 50.0% (1/2)") || !strings.Contains(b.String(), " 50.0% (2/4)") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestTypeDefAgrees(t *testing.T) {
	tests := []struct {
		py, us []string
		want   bool
	}{
		{[]string{"external:builtins.str", "external:builtins.bytes"}, []string{"external:builtins.bytes", "external:builtins.str"}, true},
		{[]string{"m.py:3"}, []string{"m.py:3", "m.py:3"}, true},
		{[]string{"m.py:3"}, []string{"m.py:4"}, false},
		{[]string{"external:builtins.str"}, []string{"external:builtins.str", "external:builtins.bytes"}, false},
		{[]string{"external:builtins.str"}, nil, false},
	}
	for _, tt := range tests {
		if got := TypeDefAgrees(tt.py, tt.us); got != tt.want {
			t.Errorf("TypeDefAgrees(%v, %v) = %v", tt.py, tt.us, got)
		}
	}
}

func TestHoverCode(t *testing.T) {
	tests := []struct{ md, want string }{
		{"```python\n(variable) x: int\n```\n---\nThe docstring.", "(variable) x: int"},
		{"```python\n(function) def f(\n    a: int\n) -> None\n```", "(function) def f(\n    a: int\n) -> None"},
		{"(module) os\n---\ndoc", "(module) os"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := HoverCode(tt.md); got != tt.want {
			t.Errorf("HoverCode(%q) = %q, want %q", tt.md, got, tt.want)
		}
	}
}

func TestTypeDefString(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "dist", "typeshed-fallback", "stdlib", "os", "__init__.pyi")
	os.MkdirAll(filepath.Dir(stub), 0o755)
	os.WriteFile(stub, []byte("import sys\nclass PathLike(Protocol):\n# a comment\n\n    class Inner:\n        @property\n        def __class__(self): ...\n"), 0o644)
	var l Loc
	l.URI = "file://" + stub
	l.Range.Start.Line, l.Range.Start.Character, l.Range.End.Line, l.Range.End.Character = 1, 6, 1, 14
	if got := TypeDefString("/ws", l); got != "external:os.PathLike" {
		t.Errorf("external: %q", got)
	}
	l.Range.End.Character = 22 // "PathLike(Protocol):"
	if got := TypeDefString("/ws", l); got != "external:os.PathLike" {
		t.Errorf("external, a range past the name: %q", got)
	}
	l.Range.Start.Line, l.Range.Start.Character, l.Range.End.Line, l.Range.End.Character = 6, 12, 6, 21
	if got := TypeDefString("/ws", l); got != "external:os.PathLike.Inner.__class__" {
		t.Errorf("external, a member of nested classes: %q", got)
	}
	l.URI, l.Range.Start.Line = "file:///ws/pkg/m.py", 1
	if got := TypeDefString("/ws", l); got != "pkg/m.py:1" {
		t.Errorf("workspace: %q", got)
	}
}

func TestGoldenRoundTrip(t *testing.T) {
	g := &TypeGolden{Project: "p", Package: "python3-p 1.0", Pyright: "1.1.414", Config: map[string]any{"pythonVersion": "3.11"}, Seed: 1,
		Files: map[string]string{"p/b.py": "bb", "p/a.py": "aa"},
		Cases: []TypeCase{{Sample: Sample{Rel: "p/a.py", Line: 1, Char: 2, Name: "x"}, Hover: "(variable) x: dict[str, int] <&>", TypeDefs: []string{"external:builtins.dict"}}},
		Diags: []Diag{{At: "p/a.py:3:4", EndLine: 3, Rule: "reportArgumentType", Message: "m"}}}
	var b bytes.Buffer
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 17 { // one line per file, case and diagnostic
		t.Errorf("%d lines:\n%s", n, b.String())
	}
	p := filepath.Join(t.TempDir(), "g.json")
	os.WriteFile(p, b.Bytes(), 0o644)
	back, err := ReadTypeGolden(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Cases, g.Cases) || !reflect.DeepEqual(back.Diags, g.Diags) || !reflect.DeepEqual(back.Files, g.Files) {
		t.Errorf("round trip: %+v", back)
	}
	if d := FilesDiffer(g.Files, map[string]string{"p/a.py": "aa", "p/b.py": "bb"}); d != "" {
		t.Errorf("same files differ: %s", d)
	}
	if d := FilesDiffer(g.Files, map[string]string{"p/a.py": "zz", "p/c.py": "cc"}); d != "1 files missing (p/b.py, ...), 1 files changed (p/a.py, ...), 1 files not recorded (p/c.py, ...)" {
		t.Errorf("FilesDiffer: %s", d)
	}
}
