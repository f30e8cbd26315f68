package workspace

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

// TestReadHostileFiles: what a read answers for files that are not
// regular files, or not readable, under Python names. None may block (a
// FIFO opened for reading waits for a writer) or size a buffer by what
// stat says (a sparse file of 8 GiB).
func TestReadHostileFiles(t *testing.T) {
	w := tree(t, map[string]string{"a.py": "x = 1\n", "pkg/b.py": "y = 2\n"})
	root := w.Root()
	outside := t.TempDir()
	mkfile(t, filepath.Join(outside, "secret.py"), "TOKEN = 1\n")
	must(t, syscall.Mkfifo(filepath.Join(root, "fifo.py"), 0o644))
	l, err := net.Listen("unix", filepath.Join(root, "sock.py"))
	must(t, err)
	defer l.Close()
	f, err := os.Create(filepath.Join(root, "sparse.py"))
	must(t, err)
	must(t, f.Truncate(8<<30))
	f.Close()
	for link, target := range map[string]string{
		"zero.py": "/dev/zero", "loop.py": "loop2.py", "loop2.py": "loop.py", "dangling.py": "missing.py",
		"out": outside, "pkgdir.py": "pkg",
	} {
		must(t, os.Symlink(target, filepath.Join(root, link)))
	}
	for _, tc := range []struct {
		rel          string
		code, reason string
	}{
		{"fifo.py", fault.PermissionDenied, ReasonNotRegular},
		{"sock.py", fault.PermissionDenied, ReasonNotRegular},
		{"zero.py", fault.PermissionDenied, ReasonSymlinkEscape},
		{"loop.py", fault.PermissionDenied, ReasonSymlinkLoop},
		{"dangling.py", fault.FileNotFound, ""},
		{"out/secret.py", fault.PermissionDenied, ReasonSymlinkEscape},
		{"pkgdir.py", fault.FileNotFound, "is a directory"},
		{"sparse.py", fault.FileTooLarge, ""},
		{"a.py", "", ""},
	} {
		_, err := w.ReadBytes(filepath.Join(root, tc.rel), 1<<20)
		var fe *fault.Error
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%s: %v", tc.rel, err)
		case tc.code == "":
		case !errors.As(err, &fe):
			t.Errorf("%s: %v, want %s", tc.rel, err, tc.code)
		case fe.Code != tc.code || tc.reason != "" && fe.Details["reason"] != tc.reason:
			t.Errorf("%s: %s %v, want %s %q", tc.rel, fe.Code, fe.Details["reason"], tc.code, tc.reason)
		}
	}
}

// TestCanonical: a file reached through a linked directory is answered
// for under the path the listing gives it; anything else stays.
func TestCanonical(t *testing.T) {
	w := tree(t, map[string]string{"a.py": "", "pkg/b.py": ""})
	root := w.Root()
	for link, target := range map[string]string{"leave": root, "alias": "pkg", "pkg/up": "..", "file.py": "a.py"} {
		must(t, os.Symlink(target, filepath.Join(root, link)))
	}
	for rel, want := range map[string]string{
		"a.py": "a.py", "pkg/b.py": "pkg/b.py", "new.py": "new.py", "file.py": "file.py",
		"leave/a.py": "a.py", "alias/b.py": "pkg/b.py", "pkg/up/a.py": "a.py", "leave/pkg/b.py": "pkg/b.py",
		"alias/new.py": "pkg/new.py",
	} {
		abs, gotRel := w.Canonical(filepath.Join(root, rel))
		if gotRel != want || abs != filepath.Join(root, want) {
			t.Errorf("Canonical(%s) = %s, %s; want %s", rel, abs, gotRel, want)
		}
		if strings.Contains(gotRel, "..") {
			t.Errorf("Canonical(%s) left the root: %s", rel, gotRel)
		}
	}
}
