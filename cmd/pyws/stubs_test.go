package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/typeshed"
)

// writeStubsTree writes a minimal tree Verify accepts and returns its root.
func writeStubsTree(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "typeshed")
	for name, data := range map[string]string{
		"LICENSE":             "licence\n",
		"commit.txt":          typeshed.Commit + "\n",
		"stdlib/VERSIONS":     "builtins: 3.0-\n",
		"stdlib/builtins.pyi": "class object: ...\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestServeRefusesBrokenStubs: serve stops before anything starts when
// the stubs are missing or wrong, naming the file and `make stubs`.
func TestServeRefusesBrokenStubs(t *testing.T) {
	tests := []struct {
		name   string
		breaks func(t *testing.T, dir string)
		file   string // the file the error names, relative to the tree
		says   string
	}{
		{"no stubs directory", func(t *testing.T, dir string) { os.RemoveAll(dir) }, "commit.txt", "no such file or directory"},
		{"no VERSIONS", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "stdlib", "VERSIONS")) }, "stdlib/VERSIONS", "no such file or directory"},
		{"unreadable VERSIONS", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "stdlib", "VERSIONS")
			os.Remove(p)
			os.Mkdir(p, 0o755) // reading a directory fails even as root
		}, "stdlib/VERSIONS", "is a directory"},
		{"other typeshed commit", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "commit.txt"), []byte("4f381af\n"), 0o644)
		}, "commit.txt", "want " + typeshed.Commit},
		{"truncated", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "stdlib", "builtins.pyi")) }, "stdlib/VERSIONS", "lists builtins"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeStubsTree(t)
			tt.breaks(t, dir)
			// A plugins directory that does not exist: were the stubs not
			// checked first, serve would fail on it instead.
			err := serve([]string{"--workspace", t.TempDir(), "--dev-key", "--state", t.TempDir(),
				"--plugins", filepath.Join(t.TempDir(), "none"), "--stubs", dir})
			if err == nil {
				t.Fatal("serve started with broken stubs")
			}
			msg := err.Error()
			for _, want := range []string{filepath.Join(dir, tt.file) + ":", tt.says, "make stubs", "--stubs DIR"} {
				if !strings.Contains(msg, want) {
					t.Fatalf("serve: %v\nwant it to say %q", err, want)
				}
			}
		})
	}
}

func TestOpenStubsAcceptsVerifiedTree(t *testing.T) {
	s, err := openStubs(writeStubsTree(t))
	if err != nil {
		t.Fatal(err)
	}
	if f, err := s.ModuleFile("builtins", typeshed.Version{Major: 3, Minor: 12}); err != nil || f != "stdlib/builtins.pyi" {
		t.Fatalf("ModuleFile(builtins) = %q, %v", f, err)
	}
}
