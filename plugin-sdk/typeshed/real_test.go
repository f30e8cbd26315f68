package typeshed

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// realStubsDir is where `make stubs` puts the fetched tree; `make build`
// and so `make test` run it first.
var realStubsDir = filepath.Join("..", "..", "bin", "typeshed")

func realStubs(t *testing.T) *Stubs {
	t.Helper()
	if _, err := os.Stat(realStubsDir); err != nil {
		t.Skipf("no fetched stubs at %s (%v): run `make stubs` (make build and make test do) to test against them", realStubsDir, err)
	}
	s, err := Verify(os.DirFS(realStubsDir))
	if err != nil {
		t.Fatalf("fetched stubs at %s: %v (run `make stubs` to fetch them again)", realStubsDir, err)
	}
	return s
}

// TestRealStubs checks the loader against facts of the pinned typeshed
// (commit 289e5d35) that the model will lean on.
func TestRealStubs(t *testing.T) {
	s := realStubs(t)
	tests := []struct {
		module, python string
		want           string // "" when absent
	}{
		{"builtins", "3.11", "stdlib/builtins.pyi"},
		{"typing", "3.11", "stdlib/typing.pyi"},
		{"_typeshed", "3.11", "stdlib/_typeshed/__init__.pyi"},
		{"os", "3.11", "stdlib/os/__init__.pyi"},
		{"os.path", "3.11", "stdlib/os/path.pyi"},
		{"collections.abc", "3.11", "stdlib/collections/abc.pyi"},
		{"xml.etree.ElementTree", "3.11", "stdlib/xml/etree/ElementTree.pyi"},
		{"tomllib", "3.10", ""},
		{"tomllib", "3.11", "stdlib/tomllib.pyi"},
		{"asyncio.taskgroups", "3.10", ""},
		{"asyncio.taskgroups", "3.11", "stdlib/asyncio/taskgroups.pyi"},
		{"distutils", "3.11", "stdlib/distutils/__init__.pyi"},
		{"distutils", "3.12", ""},
		{"distutils.command.bdist_msi", "3.10", "stdlib/distutils/command/bdist_msi.pyi"},
		{"distutils.command.bdist_msi", "3.11", ""},
		{"requests", "3.11", ""},
	}
	for _, tt := range tests {
		got, err := s.ModuleFile(tt.module, v(tt.python))
		if tt.want == "" && err == nil || tt.want != "" && got != tt.want {
			t.Errorf("ModuleFile(%s, %s) = %q, %v; want %q", tt.module, tt.python, got, err, tt.want)
		}
	}
	builtins, err := s.ReadFile("stdlib/builtins.pyi")
	if err != nil || !regexp.MustCompile(`(?m)^class str\(Sequence\[str\]\):`).Match(builtins) {
		t.Errorf("builtins.pyi: %v; want it to declare class str", err)
	}
}

// TestRealModules: the listing for a version follows VERSIONS, and every
// module it lists resolves.
func TestRealModules(t *testing.T) {
	s := realStubs(t)
	py311, err := s.Modules(Version{3, 11})
	if err != nil {
		t.Fatal(err)
	}
	py312, err := s.Modules(Version{3, 12})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"builtins", "os.path", "tomllib", "distutils", "distutils.command.build"} {
		if !slices.Contains(py311, m) {
			t.Errorf("Modules(3.11) lacks %s", m)
		}
	}
	for _, m := range []string{"distutils", "distutils.command.build", "asynchat", "imp"} {
		if slices.Contains(py312, m) {
			t.Errorf("Modules(3.12) lists %s, removed in 3.12", m)
		}
	}
	// 752 stubs in all; each version sees most of them.
	if len(py311) < 600 || len(py312) < 600 {
		t.Errorf("Modules lists %d for 3.11 and %d for 3.12; want most of the 752 stubs", len(py311), len(py312))
	}
	for _, m := range py311 {
		if _, err := s.ModuleFile(m, Version{3, 11}); err != nil {
			t.Errorf("Modules(3.11) lists %s, but %v", m, err)
		}
	}
}

// TestPinnedCommitMatchesBuildStep: the commit Verify demands is the one
// `make stubs` checks, so a bump of one without the other fails here and
// not at a user's start-up.
func TestPinnedCommitMatchesBuildStep(t *testing.T) {
	mk, err := os.ReadFile("stubs.mk")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^STUBS_COMMIT\s*:=\s*(\S+)$`).FindSubmatch(mk)
	if m == nil || !bytes.Equal(m[1], []byte(Commit)) {
		t.Fatalf("stubs.mk pins STUBS_COMMIT %q, typeshed.Commit is %s", m, Commit)
	}
}
