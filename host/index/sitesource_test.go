package index

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadSiteSourceHostile: installed packages may sit in a venv inside
// the workspace; a FIFO, a link to a device, a sparse giant or a
// directory under a module's name is no source, and reading it must not
// block.
func TestReadSiteSourceHostile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pkg.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "big.py"), 8<<30); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ rel, want string }{
		{"fifo.py", ""}, {"zero.py", ""}, {"pkg.py", ""}, {"big.py", ""}, {"missing.py", ""}, {"ok.py", "x = 1\n"},
	} {
		done := make(chan []byte)
		go func() { done <- readSiteSource(dir, tc.rel) }()
		select {
		case got := <-done:
			if string(got) != tc.want {
				t.Errorf("%s: %q, want %q", tc.rel, strings.TrimSpace(string(got[:min(len(got), 20)])), tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the read blocks", tc.rel)
		}
	}
}
