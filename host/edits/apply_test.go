package edits

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func sumOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestApplyRefused checks every refusal and that nothing is written: the
// workspace (bytes, modes, mtimes, names) and the journal dir are as before.
func TestApplyRefused(t *testing.T) {
	const py = "import os\nx = 1\ny = 2\n"
	tests := []struct {
		name    string
		files   map[string]string
		setup   func(t *testing.T, root string, e *Engine)
		changes func(root string) map[string][]abi.TextEdit
		limits  Limits
		code    string
		want    []string // substrings of the message
	}{
		{
			name:    "missing file",
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "nope.py"), ins(0, 0, "x")) },
			code:    fault.FileNotFound,
			want:    []string{"nope.py", "does not exist"},
		},
		{
			name:    "outside the workspace",
			changes: func(root string) map[string][]abi.TextEdit { return m("file:///etc/passwd", ins(0, 0, "x")) },
			code:    fault.PermissionDenied,
		},
		{
			name: "directory",
			setup: func(t *testing.T, root string, _ *Engine) {
				os.Mkdir(filepath.Join(root, "pkg"), 0o755)
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "pkg"), ins(0, 0, "x")) },
			code:    fault.FileNotFound,
			want:    []string{"not a regular file"},
		},
		{
			name: "symbolic link",
			setup: func(t *testing.T, root string, _ *Engine) {
				os.Symlink("a.py", filepath.Join(root, "link.py"))
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "link.py"), ins(0, 0, "x")) },
			code:    fault.PermissionDenied,
			want:    []string{"symbolic link"},
		},
		{
			name: "read-only file (also as root)",
			setup: func(t *testing.T, root string, _ *Engine) {
				os.Chmod(filepath.Join(root, "a.py"), 0o444)
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.ReadonlyFile,
		},
		{
			name: "group-writable but not owner-writable",
			setup: func(t *testing.T, root string, _ *Engine) {
				os.Chmod(filepath.Join(root, "a.py"), 0o464)
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.ReadonlyFile,
		},
		{
			name: "hard link",
			setup: func(t *testing.T, root string, _ *Engine) {
				os.Link(filepath.Join(root, "a.py"), filepath.Join(root, "a2.py"))
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.PermissionDenied,
			want:    []string{"hard links"},
		},
		{
			name: "line past the end",
			changes: func(root string) map[string][]abi.TextEdit {
				return m(uriOf(root, "a.py"), ins(0, 0, "a"), ins(4, 0, "x"))
			},
			code: fault.InvalidRange,
			want: []string{"a.py", "edit 1", "start line 4", "4 lines"},
		},
		{
			name:    "character past the end of the line",
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ed(1, 0, 1, 6, "")) },
			code:    fault.InvalidRange,
			want:    []string{"edit 0", "end character 6", "line 1", "(5 UTF-16 code units)"},
		},
		{
			name:    "character inside CRLF",
			files:   map[string]string{"a.py": "ab\r\ncd\r\n"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 3, "x")) },
			code:    fault.InvalidRange,
			want:    []string{"past the end of line 0"},
		},
		{
			name:    "character inside a surrogate pair",
			files:   map[string]string{"a.py": "s = '😀'\n"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 6, "x")) },
			code:    fault.InvalidRange,
			want:    []string{"surrogate pair"},
		},
		{
			name:    "negative position",
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, -1, "x")) },
			code:    fault.InvalidRange,
			want:    []string{"negative"},
		},
		{
			name:    "start after end",
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ed(1, 3, 1, 1, "")) },
			code:    fault.InvalidRange,
			want:    []string{"edit 0", "start (1:3) is after end (1:1)"},
		},
		{
			name: "overlapping replacements",
			changes: func(root string) map[string][]abi.TextEdit {
				return m(uriOf(root, "a.py"), ed(2, 0, 2, 1, "z"), ed(1, 0, 1, 3, "a"), ed(1, 2, 2, 0, "b"))
			},
			code: fault.ConflictingEdits,
			want: []string{"edits 1 and 2 overlap"},
		},
		{
			name: "same range replaced twice",
			changes: func(root string) map[string][]abi.TextEdit {
				return m(uriOf(root, "a.py"), ed(1, 0, 1, 1, "a"), ed(1, 0, 1, 1, "b"))
			},
			code: fault.ConflictingEdits,
		},
		{
			name: "insertion strictly inside a replacement",
			changes: func(root string) map[string][]abi.TextEdit {
				return m(uriOf(root, "a.py"), ed(0, 0, 0, 6, "from"), ins(0, 3, "x"))
			},
			code: fault.ConflictingEdits,
			want: []string{"edits 0 and 1"},
		},
		{
			name: "two URIs for one file",
			changes: func(root string) map[string][]abi.TextEdit {
				return map[string][]abi.TextEdit{
					uriOf(root, "a.py"):                 {ins(0, 0, "a")},
					"file://" + root + "/./sub/../a.py": {ins(1, 0, "b")},
				}
			},
			code: fault.ConflictingEdits,
			want: []string{"name the same file"},
		},
		{
			name: "too many files",
			changes: func(root string) map[string][]abi.TextEdit {
				return map[string][]abi.TextEdit{uriOf(root, "a.py"): {ins(0, 0, "a")}, uriOf(root, "b.py"): {ins(0, 0, "b")}}
			},
			limits: Limits{MaxFiles: 1},
			code:   fault.InvalidParameter,
			want:   []string{"2 files", "limit is 1"},
		},
		{
			name: "too many edits in a file",
			changes: func(root string) map[string][]abi.TextEdit {
				return m(uriOf(root, "a.py"), ins(0, 0, "a"), ins(1, 0, "b"), ins(2, 0, "c"))
			},
			limits: Limits{MaxEditsPerFile: 2},
			code:   fault.InvalidParameter,
			want:   []string{"3 edits", "limit is 2"},
		},
		{
			name:    "newText not UTF-8",
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "\xff")) },
			code:    fault.InvalidParameter,
		},
		{
			name:    "file not UTF-8",
			files:   map[string]string{"a.py": "s = '\xe9'\n"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.EncodingError,
		},
		{
			name:    "UTF-16 file",
			files:   map[string]string{"a.py": "\xff\xfex\x00\n\x00"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.EncodingError,
			want:    []string{"UTF-16"},
		},
		{
			name:    "latin-1 cookie, non-ASCII content",
			files:   map[string]string{"a.py": "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(1, 0, "x")) },
			code:    fault.EncodingError,
		},
		{
			name:    "latin-1 cookie, valid UTF-8 non-ASCII content",
			files:   map[string]string{"a.py": "# coding=latin-1\ns = 'café'\n"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(1, 0, "x")) },
			code:    fault.EncodingError,
			want:    []string{"not pure ASCII"},
		},
		{
			name:    "latin-1 cookie, non-ASCII newText",
			files:   map[string]string{"a.py": "#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-1 :\nx = 1\n"},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(2, 0, "é = 2\n")) },
			code:    fault.EncodingError,
			want:    []string{"edit 0", "iso-8859-1"},
		},
		{
			name: "file modified since the edits were generated",
			setup: func(t *testing.T, root string, e *Engine) {
				e.Remember(filepath.Join(root, "a.py"), []abi.TextEdit{ed(1, 0, 1, 1, "z")}, sumOf("import os\nx = 0\ny = 2\n"))
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ed(1, 0, 1, 1, "z")) },
			code:    fault.FileModified,
		},
		{
			name: "second file invalid, first untouched",
			changes: func(root string) map[string][]abi.TextEdit {
				return map[string][]abi.TextEdit{
					uriOf(root, "a.py"):     {ins(0, 0, "# ok\n")},
					uriOf(root, "sub/b.py"): {ins(9, 0, "x")},
				}
			},
			code: fault.InvalidRange,
			want: []string{"sub/b.py"},
		},
		{
			name: "open for writing refused (EACCES)",
			setup: func(t *testing.T, root string, _ *Engine) {
				failOpen(t, syscall.EACCES)
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.PermissionDenied,
			want:    []string{"permission denied"},
		},
		{
			name: "read-only file system (EROFS)",
			setup: func(t *testing.T, root string, _ *Engine) {
				failOpen(t, syscall.EROFS)
			},
			changes: func(root string) map[string][]abi.TextEdit { return m(uriOf(root, "a.py"), ins(0, 0, "x")) },
			code:    fault.PermissionDenied,
			want:    []string{"read-only file system"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := tt.files
			if files == nil {
				files = map[string]string{"a.py": py, "b.py": py, "sub/b.py": py}
			}
			root, e := newWorkspace(t, files)
			if tt.setup != nil {
				tt.setup(t, root, e)
			}
			before := snapshot(t, root)
			time.Sleep(2 * time.Millisecond) // so a rewrite would show in mtimes

			res, err := e.Apply(context.Background(), dirResolver{root}, tt.changes(root), tt.limits)

			fe, ok := fault.As(err)
			if !ok {
				t.Fatalf("err = %v, want a %s fault", err, tt.code)
			}
			if fe.Code != tt.code {
				t.Fatalf("code = %s (%s), want %s", fe.Code, fe.Message, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(fe.Message, w) {
					t.Errorf("message %q lacks %q", fe.Message, w)
				}
			}
			if res.Applied || res.FailureReason != fe.Code+": "+fe.Message || res.FilesModified != 0 || res.TotalEdits != 0 {
				t.Errorf("result = %+v", res)
			}
			sameSnapshot(t, before, snapshot(t, root))
			if names := journalNames(t, e.stateDir); len(names) != 0 {
				t.Errorf("journal dir holds %v", names)
			}
		})
	}
}

func m(uri string, edits ...abi.TextEdit) map[string][]abi.TextEdit {
	return map[string][]abi.TextEdit{uri: edits}
}

// failOpen makes validation's open fail with errno for this test.
func failOpen(t *testing.T, errno syscall.Errno) {
	was := openAt
	openAt = func(p *place, name string, flag int, perm uint32) (*os.File, error) {
		return nil, &fs.PathError{Op: "openat", Path: name, Err: errno}
	}
	t.Cleanup(func() { openAt = was })
}

func TestApplied(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		edits    []abi.TextEdit
		want     string
		modified int
	}{
		{
			name:    "bottom to top, any array order",
			content: "def foo():\n    return foo\n\nfoo()\n",
			edits:   []abi.TextEdit{ed(1, 11, 1, 14, "bar"), ed(3, 0, 3, 3, "bar"), ed(0, 4, 0, 7, "bar")},
			want:    "def bar():\n    return bar\n\nbar()\n",
		},
		{
			name:    "replacement spanning lines and growing",
			content: "a\nb\nc\nd\n",
			edits:   []abi.TextEdit{ed(3, 0, 3, 1, "D1\nD2"), ed(0, 1, 2, 0, " ")},
			want:    "a c\nD1\nD2\n",
		},
		{
			name:    "inserts at one point keep array order",
			content: "x\n",
			edits:   []abi.TextEdit{ins(0, 0, "a"), ins(0, 0, "b"), ins(0, 0, "c")},
			want:    "abcx\n",
		},
		{
			name:    "insert at the start of a replacement comes first",
			content: "old\n",
			edits:   []abi.TextEdit{ed(0, 0, 0, 3, "new"), ins(0, 0, ">"), ins(0, 3, "<")},
			want:    ">new<\n",
		},
		{
			name:    "touching replacements",
			content: "abcdef\n",
			edits:   []abi.TextEdit{ed(0, 2, 0, 4, "X"), ed(0, 0, 0, 2, "Y"), ed(0, 4, 0, 6, "Z")},
			want:    "YXZ\n",
		},
		{
			name:    "emoji before the edit column (UTF-16 units)",
			content: "s = '😀'; y = 1\n",
			edits:   []abi.TextEdit{ed(0, 10, 0, 11, "why")},
			want:    "s = '😀'; why = 1\n",
		},
		{
			name:    "edit right after a surrogate pair and after a BMP char",
			content: "é😀é\n",
			edits:   []abi.TextEdit{ins(0, 3, "|"), ed(0, 1, 0, 3, "")},
			want:    "é|é\n",
		},
		{
			name:    "CRLF kept, newText verbatim",
			content: "a = 1\r\nb = 2\r\n",
			edits:   []abi.TextEdit{ins(1, 0, "c = 3\n"), ed(0, 4, 0, 5, "10")},
			want:    "a = 10\r\nc = 3\nb = 2\r\n",
		},
		{
			name:    "end of document",
			content: "x = 1\n",
			edits:   []abi.TextEdit{ins(1, 0, "y = 2\n")},
			want:    "x = 1\ny = 2\n",
		},
		{
			name:    "whole document replaced",
			content: "x\ny",
			edits:   []abi.TextEdit{ed(0, 0, 1, 1, "")},
			want:    "",
		},
		{
			name:    "UTF-8 BOM kept and not addressable",
			content: "\ufeffx = 1\n",
			edits:   []abi.TextEdit{ed(0, 0, 0, 1, "y")},
			want:    "\ufeffy = 1\n",
		},
		{
			name:    "latin-1 cookie with ASCII only",
			content: "# -*- coding: latin-1 -*-\nx = 1\n",
			edits:   []abi.TextEdit{ed(1, 0, 1, 1, "y")},
			want:    "# -*- coding: latin-1 -*-\ny = 1\n",
		},
		{
			name:    "no-op edit leaves the file alone",
			content: "x = 1\n",
			edits:   []abi.TextEdit{ed(0, 0, 0, 1, "x")},
			want:    "x = 1\n",
		},
		{
			name:    "no edits",
			content: "x = 1\n",
			want:    "x = 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, e := newWorkspace(t, map[string]string{"a.py": tt.content})
			path := filepath.Join(root, "a.py")
			before, _ := os.Stat(path)
			time.Sleep(2 * time.Millisecond)
			res, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), tt.edits...), Limits{MaxFiles: 1, MaxEditsPerFile: 3})
			if err != nil {
				t.Fatalf("Apply: %v (%+v)", err, res)
			}
			if got := readFile(t, path); got != tt.want {
				t.Errorf("content = %q, want %q", got, tt.want)
			}
			wantModified := 0
			if tt.want != tt.content {
				wantModified = 1
			}
			if res != (Result{Applied: true, FilesModified: wantModified, TotalEdits: len(tt.edits)}) {
				t.Errorf("result = %+v", res)
			}
			after, _ := os.Stat(path)
			if wantModified == 0 && !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("unchanged file was rewritten")
			}
			if names := journalNames(t, e.stateDir); len(names) != 0 {
				t.Errorf("journal dir holds %v", names)
			}
			leftovers, _ := filepath.Glob(filepath.Join(root, ".*.tmp"))
			if len(leftovers) != 0 {
				t.Errorf("temporary files left: %v", leftovers)
			}
		})
	}
}

func TestApplyEmptyChanges(t *testing.T) {
	root, e := newWorkspace(t, nil)
	res, err := e.Apply(context.Background(), dirResolver{root}, nil, Limits{})
	if err != nil || res != (Result{Applied: true}) {
		t.Fatalf("Apply(empty) = %+v, %v", res, err)
	}
}

func TestApplyMultiFile(t *testing.T) {
	root, e := newWorkspace(t, map[string]string{
		"pkg/a.py": "def f(): pass\n", "pkg/b.py": "from pkg.a import f\nf()\n", "c.py": "import pkg\n",
	})
	res, err := e.Apply(context.Background(), dirResolver{root}, map[string][]abi.TextEdit{
		uriOf(root, "pkg/a.py"): {ed(0, 4, 0, 5, "g")},
		uriOf(root, "pkg/b.py"): {ed(0, 18, 0, 19, "g"), ed(1, 0, 1, 1, "g")},
		uriOf(root, "c.py"):     {},
	}, Limits{MaxFiles: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Applied: true, FilesModified: 2, TotalEdits: 3}) {
		t.Errorf("result = %+v", res)
	}
	if got := readFile(t, filepath.Join(root, "pkg/b.py")); got != "from pkg.a import g\ng()\n" {
		t.Errorf("b.py = %q", got)
	}
	if got := readFile(t, filepath.Join(root, "pkg/a.py")); got != "def g(): pass\n" {
		t.Errorf("a.py = %q", got)
	}
}

func TestApplyKeepsModeAndOwner(t *testing.T) {
	root, e := newWorkspace(t, nil)
	path := filepath.Join(root, "tool.py")
	writeFile(t, path, "print(1)\n", 0o750)
	if os.Geteuid() == 0 {
		if err := os.Chown(path, 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.Stat(path)
	if _, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "tool.py"), ed(0, 6, 0, 7, "2")), Limits{}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if after.Mode() != before.Mode() {
		t.Errorf("mode %v, want %v", after.Mode(), before.Mode())
	}
	b, a := before.Sys().(*syscall.Stat_t), after.Sys().(*syscall.Stat_t)
	if a.Uid != b.Uid || a.Gid != b.Gid {
		t.Errorf("owner %d:%d, want %d:%d", a.Uid, a.Gid, b.Uid, b.Gid)
	}
	if got := readFile(t, path); got != "print(2)\n" {
		t.Errorf("content %q", got)
	}
}

func TestReadonlyRefusedAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Log("not root: the mode-bit check is exercised, root's bypass is not")
	}
	root, e := newWorkspace(t, nil)
	path := filepath.Join(root, "ro.py")
	writeFile(t, path, "x = 1\n", 0o444)
	// Root can open it for writing: the refusal must come from the mode.
	if os.Geteuid() == 0 {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatalf("root cannot open a 0444 file: %v", err)
		}
		f.Close()
	}
	_, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "ro.py"), ins(0, 0, "y")), Limits{})
	if fault.CodeOf(err) != fault.ReadonlyFile {
		t.Fatalf("err = %v, want READONLY_FILE", err)
	}
	if got := readFile(t, path); got != "x = 1\n" {
		t.Errorf("content %q", got)
	}
}

func TestCancelledBeforeWriting(t *testing.T) {
	root, e := newWorkspace(t, map[string]string{"a.py": "x\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := e.Apply(ctx, dirResolver{root}, m(uriOf(root, "a.py"), ins(0, 0, "y")), Limits{})
	if !errors.Is(err, context.Canceled) || res.Applied || res.FailureReason == "" {
		t.Fatalf("Apply = %+v, %v", res, err)
	}
	if _, ok := fault.As(err); ok {
		t.Error("cancellation reported as a fault")
	}
	if got := readFile(t, filepath.Join(root, "a.py")); got != "x\n" {
		t.Errorf("content %q", got)
	}
}

// TestStaleness covers Remember: generated edits apply against the content
// they were computed on, in any order, and never twice.
func TestStaleness(t *testing.T) {
	const src = "a = 1\nb = a\n"
	root, e := newWorkspace(t, map[string]string{"a.py": src})
	path := filepath.Join(root, "a.py")
	generated := []abi.TextEdit{ed(0, 0, 0, 1, "z"), ed(1, 4, 1, 5, "z")}
	e.Remember(path, generated, strings.ToUpper(sumOf(src)))

	reordered := []abi.TextEdit{generated[1], generated[0]}
	if _, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), reordered...), Limits{}); err != nil {
		t.Fatalf("fresh generated edits: %v", err)
	}
	if got := readFile(t, path); got != "z = 1\nb = z\n" {
		t.Fatalf("content %q", got)
	}
	// Replaying the same edit set is stale now.
	_, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), generated...), Limits{})
	if fe, _ := fault.As(err); fe == nil || fe.Code != fault.FileModified || fe.Details["expectedHash"] != sumOf(src) {
		t.Fatalf("replay: err = %v", err)
	}
	// Edits the service did not generate apply to the current content.
	if _, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), ed(0, 0, 0, 1, "q")), Limits{}); err != nil {
		t.Fatalf("client edit: %v", err)
	}
}

func TestMemoryBounds(t *testing.T) {
	now := time.Unix(0, 0)
	mem := newMemory(2, time.Minute, func() time.Time { return now })
	k := func(s string) [32]byte { return fingerprint("/w/"+s, nil) }
	mem.remember(k("a"), "1")
	mem.remember(k("b"), "2")
	mem.remember(k("a"), "3") // a is most recent, remembered against 3 and 1
	mem.remember(k("c"), "4") // evicts b
	if _, ok := mem.lookup(k("b")); ok {
		t.Error("b survived eviction")
	}
	if sums, ok := mem.lookup(k("a")); !ok || strings.Join(sums, ",") != "3,1" {
		t.Errorf("a = %v, %v", sums, ok)
	}
	now = now.Add(time.Minute)
	if _, ok := mem.lookup(k("c")); ok {
		t.Error("c survived its TTL")
	}
	if fingerprint("/w/x", []abi.TextEdit{ins(0, 0, "a"), ins(0, 0, "b")}) == fingerprint("/w/y", []abi.TextEdit{ins(0, 0, "a"), ins(0, 0, "b")}) {
		t.Error("fingerprint ignores the path")
	}
	if fingerprint("/w/x", []abi.TextEdit{ins(0, 0, "ab")}) == fingerprint("/w/x", []abi.TextEdit{ins(0, 0, "a"), ins(0, 0, "b")}) {
		t.Error("fingerprint is ambiguous")
	}
}

func TestResolverFaultPassesThrough(t *testing.T) {
	root, e := newWorkspace(t, nil)
	_, err := e.Apply(context.Background(), dirResolver{root}, m("http://x/a.py", ins(0, 0, "x")), Limits{})
	if fault.CodeOf(err) != fault.FileNotFound {
		t.Fatalf("err = %v", err)
	}
}

// TestApplyRefusesHugeFile: a file over MaxFileBytes is refused before it
// is read; an 8 GiB sparse one was read whole (the chaos test's edit of it
// ran past its deadline). Not a row of TestApplyRefused: its snapshot
// reads every file.
func TestApplyRefusesHugeFile(t *testing.T) {
	root, e := newWorkspace(t, map[string]string{"a.py": "x = 1\n"})
	p := filepath.Join(root, "a.py")
	if err := os.Truncate(p, 8<<30); err != nil {
		t.Fatal(err)
	}
	_, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), ins(0, 0, "x")), Limits{})
	if fe, ok := fault.As(err); !ok || fe.Code != fault.FileTooLarge || fe.Details["size"] != int64(8<<30) {
		t.Fatalf("err = %v, want FILE_TOO_LARGE with the size", err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() != 8<<30 {
		t.Fatalf("a.py changed: %v %v", fi, err)
	}
}
