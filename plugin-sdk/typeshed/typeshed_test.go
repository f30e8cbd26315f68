package typeshed

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// fakeTree is testdata/stubs: a small tree in typeshed's layout, written
// for these tests, whose VERSIONS covers each rule of ModuleFile.
func fakeTree(t *testing.T) *Stubs {
	t.Helper()
	s, err := Verify(os.DirFS("testdata/stubs"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func v(s string) Version {
	ver, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return ver
}

func TestModuleFile(t *testing.T) {
	s := fakeTree(t)
	tests := []struct {
		module, python string
		want           string // the stub file; "" when absent
		reason         string // part of the ModuleError when absent
	}{
		{"builtins", "3.11", "stdlib/builtins.pyi", ""},
		{"pkg", "3.11", "stdlib/pkg/__init__.pyi", ""},
		{"pkg.sub", "3.0", "stdlib/pkg/sub.pyi", ""}, // unlisted: the package's range
		{"pkg.nested", "3.11", "stdlib/pkg/nested/__init__.pyi", ""},
		{"pkg.nested.deep", "3.11", "stdlib/pkg/nested/deep.pyi", ""},
		{"both", "3.11", "stdlib/both/__init__.pyi", ""}, // a package wins over both.pyi
		{"flat", "3.11", "stdlib/flat.pyi", ""},
		{"flat.inner", "3.11", "", "no stub file"}, // flat/ has no __init__.pyi
		{"pkg.missing", "3.11", "", "no stub file"},
		{"oldmod", "3.11", "stdlib/oldmod.pyi", ""}, // last version included
		{"oldmod", "3.12", "", "oldmod exists in Python 3.0-3.11"},
		{"newmod", "3.11", "", "newmod exists in Python 3.12-"},
		{"newmod", "3.14", "stdlib/newmod.pyi", ""},
		{"pkg.added", "3.9", "", "pkg.added exists in Python 3.10-"},
		{"pkg.added", "3.10", "stdlib/pkg/added.pyi", ""},
		{"pkg.gone", "3.8", "stdlib/pkg/gone.pyi", ""},
		{"pkg.gone", "3.9", "", "pkg.gone exists in Python 3.0-3.8"},
		{"legacy.sub", "3.4", "", "legacy.sub exists in Python 3.5-"},
		{"legacy.sub", "3.11", "stdlib/legacy/sub.pyi", ""},
		{"legacy.sub", "3.12", "", "legacy exists in Python 3.0-3.11"}, // its parent went
		{"unlisted", "3.11", "", "unlisted is not in stdlib/VERSIONS"},
		{"unlisted.x", "3.11", "", "unlisted is not in stdlib/VERSIONS"},
		{"pkg..sub", "3.11", "", "not a module name"},
		{"", "3.11", "", "not a module name"},
		{"../pkg", "3.11", "", "not a module name"},
	}
	for _, tt := range tests {
		t.Run(tt.module+"@"+tt.python, func(t *testing.T) {
			got, err := s.ModuleFile(tt.module, v(tt.python))
			if tt.want != "" {
				if err != nil || got != tt.want {
					t.Fatalf("ModuleFile = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var me *ModuleError
			if !errors.As(err, &me) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("ModuleFile = %q, %v; want a ModuleError saying %q", got, err, tt.reason)
			}
		})
	}
}

func TestModules(t *testing.T) {
	s := fakeTree(t)
	tests := []struct {
		python string
		want   []string
	}{
		{"3.0", []string{"both", "builtins", "flat", "oldmod", "pkg", "pkg.gone", "pkg.nested", "pkg.nested.deep", "pkg.sub", "legacy"}},
		{"3.10", []string{"both", "builtins", "flat", "legacy", "legacy.sub", "oldmod", "pkg", "pkg.added", "pkg.nested", "pkg.nested.deep", "pkg.sub"}},
		{"3.12", []string{"both", "builtins", "flat", "newmod", "pkg", "pkg.added", "pkg.nested", "pkg.nested.deep", "pkg.sub"}},
	}
	for _, tt := range tests {
		t.Run(tt.python, func(t *testing.T) {
			got, err := s.Modules(v(tt.python))
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Sorted(slices.Values(tt.want))
			if !slices.Equal(got, want) {
				t.Fatalf("Modules(%s) =\n %q\nwant\n %q", tt.python, got, want)
			}
		})
	}
}

func TestRange(t *testing.T) {
	s := fakeTree(t)
	tests := []struct {
		module string
		want   string // "" when unlisted
	}{
		{"oldmod", "3.0-3.11"},
		{"pkg", "3.0-"},
		{"pkg.nested.deep", "3.0-"}, // nearest listed parent
		{"pkg.added", "3.10-"},
		{"unlisted", ""},
	}
	for _, tt := range tests {
		r, ok := s.Range(tt.module)
		if got := map[bool]string{true: r.String(), false: ""}[ok]; got != tt.want {
			t.Errorf("Range(%s) = %q, want %q", tt.module, got, tt.want)
		}
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in   string
		want Version
		ok   bool
	}{
		{"3.11", Version{3, 11}, true},
		{"3.11.7", Version{3, 11}, true},
		{"3.0", Version{3, 0}, true},
		{"3", Version{}, false},
		{"3.11.7.1", Version{}, false},
		{"3.x", Version{}, false},
		{"3.011", Version{}, false},
		{"3.-1", Version{}, false},
		{" 3.11", Version{}, false},
	}
	for _, tt := range tests {
		got, err := ParseVersion(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// validTree is a minimal tree Verify accepts; cases break one thing each.
func validTree() fstest.MapFS {
	return fstest.MapFS{
		"LICENSE":                {Data: []byte("licence\n")},
		"commit.txt":             {Data: []byte(Commit + "\n")},
		"stdlib/VERSIONS":        {Data: []byte("builtins: 3.0-\nos: 3.0-\n")},
		"stdlib/builtins.pyi":    {Data: []byte("class object: ...\n")},
		"stdlib/os/__init__.pyi": {Data: []byte("sep: str\n")},
	}
}

func TestVerify(t *testing.T) {
	tests := []struct {
		name   string
		breaks func(fstest.MapFS)
		file   string // the FileError's file; "" for a valid tree
		says   string
	}{
		{"valid", func(fstest.MapFS) {}, "", ""},
		{"no commit.txt", func(m fstest.MapFS) { delete(m, "commit.txt") }, "commit.txt", "file does not exist"},
		{"other commit", func(m fstest.MapFS) { m["commit.txt"] = &fstest.MapFile{Data: []byte("4f381af\n")} }, "commit.txt", `typeshed commit "4f381af", want ` + Commit},
		{"empty commit.txt", func(m fstest.MapFS) { m["commit.txt"] = &fstest.MapFile{} }, "commit.txt", "typeshed commit"},
		{"no LICENSE", func(m fstest.MapFS) { delete(m, "LICENSE") }, "LICENSE", "file does not exist"},
		{"no VERSIONS", func(m fstest.MapFS) { delete(m, "stdlib/VERSIONS") }, "stdlib/VERSIONS", "file does not exist"},
		{"VERSIONS a directory", func(m fstest.MapFS) {
			delete(m, "stdlib/VERSIONS")
			m["stdlib/VERSIONS/x"] = &fstest.MapFile{}
		}, "stdlib/VERSIONS", ""},
		{"empty VERSIONS", func(m fstest.MapFS) { m["stdlib/VERSIONS"] = &fstest.MapFile{Data: []byte("# nothing\n")} }, "stdlib/VERSIONS", "lists no module"},
		{"no colon", func(m fstest.MapFS) {
			m["stdlib/VERSIONS"] = &fstest.MapFile{Data: []byte("builtins: 3.0-\nos 3.0-\n")}
		}, "stdlib/VERSIONS", "line 2:"},
		{"bad range", func(m fstest.MapFS) { m["stdlib/VERSIONS"] = &fstest.MapFile{Data: []byte("builtins: 3.0\n")} }, "stdlib/VERSIONS", "want X.Y- or X.Y-A.B"},
		{"backwards range", func(m fstest.MapFS) { m["stdlib/VERSIONS"] = &fstest.MapFile{Data: []byte("builtins: 3.9-3.1\n")} }, "stdlib/VERSIONS", "ends before it starts"},
		{"listed twice", func(m fstest.MapFS) {
			m["stdlib/VERSIONS"] = &fstest.MapFile{Data: []byte("builtins: 3.0-\nbuiltins: 3.1-\n")}
		}, "stdlib/VERSIONS", "listed twice"},
		{"truncated tree", func(m fstest.MapFS) { delete(m, "stdlib/os/__init__.pyi") }, "stdlib/VERSIONS", "lists os, but stdlib has neither os.pyi nor os/__init__.pyi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := validTree()
			tt.breaks(tree)
			s, err := Verify(tree)
			if tt.file == "" {
				if err != nil || s == nil {
					t.Fatalf("Verify = %v", err)
				}
				return
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != tt.file || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("Verify = %v; want a FileError on %s saying %q", err, tt.file, tt.says)
			}
		})
	}
}

// TestOpenSkipsProvenance: Open reads any typeshed tree; only Verify pins
// the commit.
func TestOpenSkipsProvenance(t *testing.T) {
	tree := validTree()
	tree["commit.txt"] = &fstest.MapFile{Data: []byte("4f381af\n")}
	s, err := Open(tree)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.ModuleFile("os", Version{3, 11}); err != nil || got != "stdlib/os/__init__.pyi" {
		t.Fatalf("ModuleFile(os) = %q, %v", got, err)
	}
}
