package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

// fixture builds, in a temp dir:
//
//	ws/pkg/a.py            ws/sys -> /etc          ws/out -> ../outside
//	ws/in -> pkg           ws/abs -> <ws>/pkg      ws/dangling -> ../outside/missing.txt
//	ws/loop1 <-> ws/loop2  outside/secret.txt      alias -> ws
//
// and opens the workspace through alias, so the given root differs from
// the real one.
func fixture(tb testing.TB) (w *Workspace, tmp string) {
	tb.Helper()
	tmp, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	ws := filepath.Join(tmp, "ws")
	mkfile(tb, filepath.Join(ws, "pkg", "a.py"), "x = 1\n")
	mkfile(tb, filepath.Join(tmp, "outside", "secret.txt"), "secret\n")
	links := map[string]string{
		"sys":      "/etc",
		"out":      "../outside",
		"in":       "pkg",
		"abs":      filepath.Join(ws, "pkg"),
		"dangling": "../outside/missing.txt",
		"loop1":    "loop2",
		"loop2":    "loop1",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.Symlink("ws", filepath.Join(tmp, "alias")); err != nil {
		tb.Fatal(err)
	}
	w, err = Open(filepath.Join(tmp, "alias"))
	if err != nil {
		tb.Fatal(err)
	}
	if w.Root() != ws {
		tb.Fatalf("Root() = %q, want %q", w.Root(), ws)
	}
	return w, tmp
}

func mkfile(tb testing.TB, p, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	w, tmp := fixture(t)
	ws := w.Root()
	alias := filepath.Join(tmp, "alias")
	tests := []struct {
		name    string
		uri     bool // use ResolveURI
		in      string
		rel     string // wanted rel when accepted
		code    string // wanted fault code, "" when accepted
		reason  string
		realRel string // wanted symlink-free rel, when it differs from rel
	}{
		{name: "plain", in: "pkg/a.py", rel: "pkg/a.py"},
		{name: "root empty", in: "", rel: ""},
		{name: "root dot", in: ".", rel: ""},
		{name: "dots inside", in: "./pkg/../pkg/./a.py", rel: "pkg/a.py"},
		{name: "new file", in: "pkg/new/b.py", rel: "pkg/new/b.py"},
		{name: "leading slash is root-relative", in: "/pkg/a.py", rel: "pkg/a.py"},
		{name: "slash path not in root stays inside", in: "/nothere/passwd", rel: "nothere/passwd"},
		{name: "up and back in by name", in: "../ws/pkg/a.py", rel: "pkg/a.py"},
		{name: "a/../../x", in: "a/../../x", code: fault.PermissionDenied, reason: ReasonOutside},
		{name: "dotdot", in: "..", code: fault.PermissionDenied, reason: ReasonOutside},
		{name: "slash dotdot", in: "/../outside/secret.txt", code: fault.PermissionDenied, reason: ReasonOutside},
		{name: "windows dotdot", in: `..\..\etc\passwd`, code: fault.PermissionDenied, reason: ReasonOutside},
		{name: "windows separators inside", in: `pkg\a.py`, rel: "pkg/a.py"},
		{name: "double slash", in: "//etc/passwd", code: fault.PermissionDenied, reason: ReasonDoubleSlash},
		{name: "unc", in: `\\server\share`, code: fault.PermissionDenied, reason: ReasonDoubleSlash},
		{name: "tilde", in: "~/x", code: fault.PermissionDenied, reason: ReasonTilde},
		{name: "tilde user", in: "~root/.ssh/id_rsa", code: fault.PermissionDenied, reason: ReasonTilde},
		{name: "nul", in: "pkg/a.py\x00.txt", code: fault.PermissionDenied, reason: ReasonNUL},
		{name: "very long", in: strings.Repeat("a/", 2100), code: fault.PermissionDenied, reason: ReasonTooLong},
		{name: "long component", in: strings.Repeat("x", 256) + ".py", code: fault.PermissionDenied, reason: ReasonComponentLong},
		{name: "255 component ok", in: strings.Repeat("x", 255), rel: strings.Repeat("x", 255)},
		{name: "symlink to /etc", in: "sys/passwd", code: fault.PermissionDenied, reason: ReasonSymlinkEscape},
		{name: "symlinked dir outside", in: "out/secret.txt", code: fault.PermissionDenied, reason: ReasonSymlinkEscape},
		{name: "new file through symlinked dir", in: "out/new.txt", code: fault.PermissionDenied, reason: ReasonSymlinkEscape},
		{name: "dangling link outside", in: "dangling", code: fault.PermissionDenied, reason: ReasonSymlinkEscape},
		{name: "symlink loop", in: "loop1/x", code: fault.PermissionDenied, reason: ReasonSymlinkLoop},
		{name: "symlink inside", in: "in/a.py", rel: "in/a.py", realRel: "pkg/a.py"},
		{name: "absolute symlink inside", in: "abs/a.py", rel: "abs/a.py", realRel: "pkg/a.py"},
		{name: "plain percent not decoded", in: "%2e%2e/x", rel: "%2e%2e/x"},
		{name: "absolute inside", in: ws + "/pkg/a.py", rel: "pkg/a.py"},
		{name: "absolute inside given root", in: alias + "/pkg/a.py", rel: "pkg/a.py"},
		{name: "absolute root itself", in: ws, rel: ""},

		{name: "uri inside", uri: true, in: "file://" + ws + "/pkg/a.py", rel: "pkg/a.py"},
		{name: "uri short form", uri: true, in: "file:" + ws + "/pkg/a.py", rel: "pkg/a.py"},
		{name: "uri localhost", uri: true, in: "file://localhost" + ws + "/pkg/a.py", rel: "pkg/a.py"},
		{name: "uri encoded slash", uri: true, in: "file://" + ws + "/pkg%2fa.py", rel: "pkg/a.py"},
		{name: "uri encoded space", uri: true, in: "file://" + ws + "/my%20file.py", rel: "my file.py"},
		{name: "uri %2e%2e", uri: true, in: "file://" + ws + "/%2e%2e/outside/secret.txt", code: fault.PermissionDenied, reason: ReasonOutsideAbsolute},
		{name: "uri %2E%2E%2F", uri: true, in: "file://" + ws + "/pkg/%2E%2E%2F%2E%2E%2Foutside", code: fault.PermissionDenied, reason: ReasonOutsideAbsolute},
		{name: "uri decoded once", uri: true, in: "file://" + ws + "/%252e%252e/x", rel: "%2e%2e/x"},
		{name: "uri absolute outside", uri: true, in: "file:///etc/passwd", code: fault.PermissionDenied, reason: ReasonOutsideAbsolute},
		{name: "uri double slash", uri: true, in: "file:////etc/passwd", code: fault.PermissionDenied, reason: ReasonDoubleSlash},
		{name: "uri remote host", uri: true, in: "file://evil.example/etc/passwd", code: fault.PermissionDenied, reason: ReasonRemoteHost},
		{name: "uri bad escape", uri: true, in: "file://" + ws + "/a%zz", code: fault.PermissionDenied, reason: ReasonBadEscape},
		{name: "uri encoded nul", uri: true, in: "file://" + ws + "/a%00.py", code: fault.PermissionDenied, reason: ReasonNUL},
		{name: "uri symlink escape", uri: true, in: "file://" + ws + "/sys/passwd", code: fault.PermissionDenied, reason: ReasonSymlinkEscape},
		{name: "uri other scheme", uri: true, in: "http://example.com/x.py", code: fault.InvalidParameter},
		{name: "bare absolute outside", uri: true, in: "/etc/passwd", code: fault.PermissionDenied, reason: ReasonOutsideAbsolute},
		{name: "bare absolute inside", uri: true, in: ws + "/pkg/a.py", rel: "pkg/a.py"},
		{name: "bare relative", uri: true, in: "pkg/a.py", rel: "pkg/a.py"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var abs, rel string
			var err error
			var r resolved
			if tc.uri {
				abs, rel, err = w.ResolveURI(tc.in)
			} else {
				abs, rel, err = w.Resolve(tc.in)
				if err == nil {
					r, _ = w.resolve(tc.in, tc.in, false)
				}
			}
			if tc.code != "" {
				fe, isFault := fault.As(err)
				if !isFault || fe.Code != tc.code {
					t.Fatalf("got (%q, %q, %v), want %s", abs, rel, err, tc.code)
				}
				if tc.reason != "" && fe.Details["reason"] != tc.reason {
					t.Errorf("reason = %v, want %q", fe.Details["reason"], tc.reason)
				}
				if fe.Code == fault.PermissionDenied {
					if _, ok := fe.Details["path"].(string); !ok {
						t.Errorf("details.path missing: %v", fe.Details)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if rel != tc.rel {
				t.Errorf("rel = %q, want %q", rel, tc.rel)
			}
			want := ws
			if tc.rel != "" {
				want = ws + "/" + tc.rel
			}
			if abs != want {
				t.Errorf("abs = %q, want %q", abs, want)
			}
			if tc.realRel != "" && r.realRel != tc.realRel {
				t.Errorf("realRel = %q, want %q", r.realRel, tc.realRel)
			}
		})
	}
}

func TestOpen(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "f")
	mkfile(t, file, "x")
	for _, p := range []string{filepath.Join(tmp, "missing"), file} {
		_, err := Open(p)
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.WorkspaceNotFound || fe.Details["workspaceRoot"] != p {
			t.Errorf("Open(%q) = %v, want WORKSPACE_NOT_FOUND with workspaceRoot", p, err)
		}
	}
	w, err := Open(tmp + "/./")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(tmp); w.Root() != want {
		t.Errorf("Root() = %q, want %q", w.Root(), want)
	}
}

// FuzzResolve checks the confinement invariant: whatever Resolve or
// ResolveURI accepts lies inside the root, lexically and after evaluating
// the symbolic links of its existing prefix, and its dangling tail does
// not start with a link out of the root.
func FuzzResolve(f *testing.F) {
	w, _ := fixture(f)
	ws := w.Root()
	for _, s := range []string{
		"pkg/a.py", "a/../../x", "%2e%2e/", "//etc/passwd", "~/x", "a\x00b", `..\..\x`,
		"sys/passwd", "out/new.txt", "dangling", "loop1/x", "in/../../outside", "abs/../../outside/secret.txt",
		"/etc/passwd", "file:///etc/passwd", "file://" + ws + "/%2e%2e/outside", "file://" + ws + "/in/%2e%2e/sys/x",
		ws + "/pkg/../..", strings.Repeat("../", 20),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for i, resolve := range []func(string) (string, string, error){w.Resolve, w.ResolveURI} {
			abs, rel, err := resolve(p)
			if err != nil {
				if _, ok := fault.As(err); !ok {
					t.Fatalf("resolver %d(%q): non-fault error %v", i, p, err)
				}
				continue
			}
			if !within(abs, ws) || filepath.Clean(abs) != abs {
				t.Fatalf("resolver %d(%q) = %q: not clean inside %q", i, p, abs, ws)
			}
			if filepath.Join(ws, rel) != abs {
				t.Fatalf("resolver %d(%q): rel %q does not match abs %q", i, p, rel, abs)
			}
			checkConfined(t, ws, abs)
		}
		abs, rel, dir, err := w.ResolveURIDir(p)
		if err != nil {
			if _, ok := fault.As(err); !ok {
				t.Fatalf("ResolveURIDir(%q): non-fault error %v", p, err)
			}
			return
		}
		if want, wantRel, _ := w.ResolveURI(p); abs != want || rel != wantRel {
			t.Fatalf("ResolveURIDir(%q) = %q %q, ResolveURI %q %q", p, abs, rel, want, wantRel)
		}
		real := filepath.Join(ws, dir)
		if !within(real, ws) {
			t.Fatalf("ResolveURIDir(%q): directory %q outside the root", p, real)
		}
		if ev, err := filepath.EvalSymlinks(real); err == nil && ev != real {
			t.Fatalf("ResolveURIDir(%q): directory %q is %q with its links evaluated", p, real, ev)
		}
	})
}

// TestResolveURIDir: the edit engine's directory has its links evaluated,
// the file's own name does not.
func TestResolveURIDir(t *testing.T) {
	w, _ := fixture(t)
	ws := w.Root()
	for _, tc := range []struct {
		in, rel, dir string
		reason       string // of the refusal
	}{
		{in: "pkg/a.py", rel: "pkg/a.py", dir: "pkg"},
		{in: "in/a.py", rel: "in/a.py", dir: "pkg"},
		{in: "abs/new.py", rel: "abs/new.py", dir: "pkg"},
		{in: "top.py", rel: "top.py", dir: ""},
		{in: "in", rel: "in", dir: ""}, // the link itself: the engine refuses it
		{in: "missing/deeper/x.py", rel: "missing/deeper/x.py", dir: "missing/deeper"},
		{in: "out/secret.txt", reason: ReasonSymlinkEscape},
		{in: "loop1/x.py", reason: ReasonSymlinkLoop},
		{in: ".", rel: ""},
	} {
		abs, rel, dir, err := w.ResolveURIDir(tc.in)
		if tc.reason != "" {
			if fe, ok := fault.As(err); !ok || fe.Details["reason"] != tc.reason {
				t.Errorf("%q: err %v, want reason %q", tc.in, err, tc.reason)
			}
			continue
		}
		if err != nil || rel != tc.rel || dir != tc.dir || abs != filepath.Join(ws, tc.in) {
			t.Errorf("%q = %q %q %q %v, want rel %q dir %q", tc.in, abs, rel, dir, err, tc.rel, tc.dir)
		}
	}
}

// checkConfined is an independent check: filepath.EvalSymlinks on the
// longest prefix it accepts must stay inside root, and an existing link
// just past it (a dangling one) must not point outside.
func checkConfined(t *testing.T, root, abs string) {
	t.Helper()
	prefix, tail := abs, ""
	for {
		real, err := filepath.EvalSymlinks(prefix)
		if err == nil {
			if !within(real, root) {
				t.Fatalf("%q: prefix %q evaluates to %q outside the root", abs, prefix, real)
			}
			break
		}
		if prefix == root {
			t.Fatalf("%q: root does not evaluate: %v", abs, err)
		}
		tail = filepath.Base(prefix) + "/" + tail
		prefix = filepath.Dir(prefix)
	}
	if tail == "" {
		return
	}
	next := filepath.Join(prefix, strings.SplitN(tail, "/", 2)[0])
	fi, err := os.Lstat(next)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			t.Fatalf("%q: lstat %q: %v", abs, next, err)
		}
		return
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(next)
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(next), target)
		}
		if !within(filepath.Clean(target), root) {
			t.Fatalf("%q: dangling link %q points outside to %q", abs, next, target)
		}
	}
}

// TestFileURIRoundTrips: ResolveURI reads back what FileURI writes, also
// for names a URI must escape.
func TestFileURIRoundTrips(t *testing.T) {
	root := t.TempDir()
	ws, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, name := range []string{"a.py", "with space.py", "per%cent#hash?.py", "é.py"} {
		abs := filepath.Join(ws.Root(), name)
		if err := os.WriteFile(abs, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		uri := FileURI(abs)
		got, rel, err := ws.ResolveURI(uri)
		if err != nil || got != abs || rel != name {
			t.Errorf("%s: %s resolves to %q %q %v", name, uri, got, rel, err)
		}
	}
}
