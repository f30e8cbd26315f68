package markertest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// recorder is a Reporter that keeps what a check reported.
type recorder struct {
	failed bool
	msgs   []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// TestCheckWantsFails makes sure the harness itself can fail: a missing
// and an unexpected diagnostic are both errors.
func TestCheckWantsFails(t *testing.T) {
	findings := []Finding{{Line: 2, Code: "unused-import", Message: "'os' imported but unused"}}
	for _, tc := range []struct {
		name  string
		wants []Want
		ok    bool
	}{
		{"match", []Want{{2, "unused-import", ""}}, true},
		{"match with message", []Want{{2, "unused-import", "'os'"}}, true},
		{"missing", []Want{{2, "unused-import", ""}, {3, "unused-variable", ""}}, false},
		{"unexpected", nil, false},
		{"wrong line", []Want{{1, "unused-import", ""}}, false},
		{"wrong code", []Want{{2, "unused-variable", ""}}, false},
		{"wrong message", []Want{{2, "unused-import", "nope"}}, false},
		{"one finding answers one want", []Want{{2, "unused-import", ""}, {2, "unused-import", ""}}, false},
	} {
		r := &recorder{}
		CheckWants(r, findings, tc.wants)
		if r.failed == tc.ok {
			t.Errorf("%s: failed=%v, want ok=%v (%s)", tc.name, r.failed, tc.ok, strings.Join(r.msgs, "; "))
		}
	}
}

func TestWants(t *testing.T) {
	src := []byte(`import os  # want "unused-import:'os'"
x = 1
y = z + w  # want "undefined-variable:'z'" "undefined-variable"
# want "not-at-end" is prose
`)
	got := Wants(src)
	want := []Want{{0, "unused-import", "'os'"}, {2, "undefined-variable", "'z'"}, {2, "undefined-variable", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestDirective(t *testing.T) {
	src := []byte("# config: {\"disable\": [\"deprecated\"]}\r\n# env: {}\nx = 1\n")
	if v, ok := Directive(src, "config"); !ok || v != `{"disable": ["deprecated"]}` {
		t.Errorf("config: %q %v", v, ok)
	}
	if _, ok := Directive(src, "path"); ok {
		t.Error("found a directive the file does not have")
	}
}

func TestMarks(t *testing.T) {
	src := "café = 1  #@ café:d:C\nprint(café, café)  #@ café@2:r:C print:builtin\ndef f(a,a2): pass  #@ a->b:ok a2->a:conflict\n"
	got, err := Marks(File{Path: "m.py", Src: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	line2 := len("café = 1  #@ café:d:C\n")
	line3 := line2 + len("print(café, café)  #@ café@2:r:C print:builtin\n")
	want := []Mark{
		{File: "m.py", Line: 0, Col: 0, Offset: 0, Name: "café", Tag: "d", Group: "C"},
		// UTF-16 column (é is one unit, two bytes) and the byte offset.
		{File: "m.py", Line: 1, Col: 12, Offset: line2 + len("print(café, "), Name: "café", Tag: "r", Group: "C"},
		{File: "m.py", Line: 1, Col: 0, Offset: line2, Name: "print", Tag: "builtin"},
		{File: "m.py", Line: 2, Col: 6, Offset: line3 + 6, Name: "a", Tag: "ok", NewName: "b"},
		{File: "m.py", Line: 2, Col: 8, Offset: line3 + 8, Name: "a2", Tag: "conflict", NewName: "a"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if _, err := Marks(File{Path: "m.py", Src: []byte("x = 1  #@ x@2:r:X\n")}); err == nil {
		t.Error("a mark of an occurrence the line lacks was accepted")
	}
}

func TestOccurrence(t *testing.T) {
	for _, tc := range []struct {
		s, name string
		k, want int
	}{
		{"a a", "a", 2, 2},
		{"f(a,a)", "a", 2, 4},
		{"ab a", "a", 1, 3},
		{"a_b = a", "a", 1, 6},
		{"éa a", "a", 1, 4},
		{"x = 1", "y", 1, -1},
		{"a", "a", 2, -1},
	} {
		if got := Occurrence(tc.s, tc.name, tc.k); got != tc.want {
			t.Errorf("Occurrence(%q, %q, %d) = %d, want %d", tc.s, tc.name, tc.k, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	for rel, src := range map[string]string{
		"pkg/__init__.py": "", "pkg/m.pyi": "x: int\n", "main.py": "import pkg\n",
		"notes.txt": "not Python", ".venv/lib.py": "hidden", "pkg/__pycache__/m.py": "cache",
	} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range c.Files {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, " "); got != "main.py pkg/__init__.py pkg/m.pyi" {
		t.Errorf("directory case files: %s", got)
	}
	one, err := Load(filepath.Join(dir, "main.py"))
	if err != nil || len(one.Files) != 1 || one.Files[0].Path != "main.py" || string(one.Files[0].Src) != "import pkg\n" {
		t.Errorf("file case: %+v %v", one, err)
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case.golden")
	r := &recorder{}
	if Golden(r, path, []byte("a\n"), false); !r.failed {
		t.Error("a missing golden file passed")
	}
	r = &recorder{}
	Golden(r, path, []byte("a\nb\n"), true)
	Golden(r, path, []byte("a\nb\n"), false)
	if r.failed {
		t.Fatalf("the recorded answer fails: %q", r.msgs)
	}
	Golden(r, path, []byte("a\nc\n"), false)
	if !r.failed || !strings.Contains(r.msgs[0], "line 2:\n got: c\nwant: b") {
		t.Errorf("a changed line: %q", r.msgs)
	}
}
