package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// confinementFixture lays out
//
//	<parent>/x, <parent>/secret.py       outside every workspace
//	<parent>/ws                          workspace A
//	<parent>/other                       workspace B (another tenant)
//
// with links in A that lead out of it.
type confinementFixture struct {
	parent, a, b string
	secrets      map[string]string // absolute path -> content, all outside A
	insideA      []string          // files of A
}

func newConfinementFixture(t *testing.T) *confinementFixture {
	parent := realDir(t, t.TempDir())
	f := &confinementFixture{
		parent:  parent,
		a:       filepath.Join(parent, "ws"),
		b:       filepath.Join(parent, "other"),
		secrets: map[string]string{},
	}
	nonce := fmt.Sprintf("%d", time.Now().UnixNano())
	for rel, content := range map[string]string{
		"x":                  "SECRET-X-" + nonce + "\n",
		"secret.py":          "SECRET_PY = '" + nonce + "'\n",
		"other/b_secret.py":  "SECRET_B = '" + nonce + "'\n",
		"other/pkg/b_mod.py": "SECRET_B_MOD = '" + nonce + "'\n",
	} {
		writeTree(t, parent, map[string]string{rel: content})
		f.secrets[filepath.Join(parent, rel)] = content
	}
	writeTree(t, f.a, map[string]string{
		"a.py":       "a = 1\n",
		"pkg/mod.py": "m = 1\n",
	})
	f.insideA = []string{filepath.Join(f.a, "a.py"), filepath.Join(f.a, "pkg", "mod.py")}
	links := map[string]string{
		"link_file.py": filepath.Join(parent, "secret.py"),
		"rel_link.py":  "../secret.py",
		"link_dir":     parent,
		"link_b":       f.b,
		"dangling.py":  filepath.Join(parent, "created.py"),
		"loop1":        "loop2",
		"loop2":        "loop1",
		"pkg/up":       "../..",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(f.a, name)); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// noLeak fails when r carries any secret's content.
func (f *confinementFixture) noLeak(t *testing.T, r response) {
	t.Helper()
	for p, c := range f.secrets {
		if strings.Contains(string(r.Raw), strings.TrimSpace(c)) {
			t.Errorf("response leaks %s: %s", p, r.Raw)
		}
	}
	if strings.Contains(string(r.Raw), "root:x:0:0") {
		t.Errorf("response leaks /etc/passwd: %s", r.Raw)
	}
}

func (f *confinementFixture) allFiles() []string {
	out := append([]string{}, f.insideA...)
	for p := range f.secrets {
		out = append(out, p)
	}
	return append(out, filepath.Join(f.parent, "created.py"), "/etc/passwd")
}

func mustDenied(t *testing.T, r response) {
	t.Helper()
	mustStatus(t, r, 403, "PERMISSION_DENIED")
	d := r.ErrDetails()
	if p, _ := d["path"].(string); p == "" {
		t.Errorf("details.path missing: %s", r.Raw)
	}
	if reason, _ := d["reason"].(string); reason == "" {
		t.Errorf("details.reason missing: %s", r.Raw)
	}
}

// readEscapes are {path} values of svc://file/{path} and of
// GET /v1/resources/file/{path} (written as sent, percent-encoding kept)
// that must be refused.
var readEscapes = []struct {
	name        string
	path        string
	genericOnly bool
}{
	{"dotdot", "../x", false},
	{"nested dotdot", "a/../../x", false},
	{"dotdot after real dir", "pkg/../../secret.py", false},
	{"dotdot into the other tenant", "../other/b_secret.py", false},
	{"encoded dots", "%2e%2e/x", false},
	{"encoded dots and slash", "%2e%2e%2fx", false},
	{"encoded slash", "..%2fx", false},
	{"upper-case encoding", "%2E%2E%2Fsecret.py", false},
	{"encoded backslash", "..%5csecret.py", false},
	{"raw backslash", `..\secret.py`, true},
	{"double slash", "//etc/passwd", false},
	{"encoded double slash", "%2f%2fetc/passwd", false},
	{"tilde", "~/x", false},
	{"tilde user", "~root/x", false},
	{"encoded tilde", "%7eroot/x", false},
	{"NUL", "a.py%00", false},
	{"NUL before extension", "a.py%00.txt", false},
	{"raw NUL", "a.py\x00", true},
	{"very long path", strings.Repeat("a/", 2500) + "x", false},
	{"very long component", strings.Repeat("a", 300) + ".py", false},
	{"symlink to a file outside", "link_file.py", false},
	{"relative symlink outside", "rel_link.py", false},
	{"symlinked directory outside", "link_dir/secret.py", false},
	{"symlinked directory outside, dotdot behind", "link_dir/ws/../x", false},
	{"symlink to the other tenant", "link_b/b_secret.py", false},
	{"symlink going up", "pkg/up/x", false},
	{"dangling symlink outside", "dangling.py", false},
	{"symlink loop", "loop1", false},
}

func TestConfinement(t *testing.T) {
	f := newConfinementFixture(t)
	s := startServer(t, f.a)
	keyA := s.addKeyReady("pro", f.a)
	keyB := s.addKeyReady("pro", f.b)
	before := fileBytes(t, f.allFiles()...)
	t.Cleanup(func() { mustBeUnchanged(t, before) })

	// The fixture is reachable the legitimate way, so refusals below are
	// not an accident of the setup.
	mustStatus(t, s.resource(keyA, "svc://file/a.py", nil), 200, "")
	if r := s.resource(keyB, "svc://file/b_secret.py", nil); r.Status != 200 || !strings.Contains(fmt.Sprint(r.Body["content"]), "SECRET_B") {
		t.Fatalf("tenant B cannot read its own file: %s", r.Raw)
	}

	t.Run("reads", func(t *testing.T) {
		for _, tt := range readEscapes {
			t.Run(tt.name, func(t *testing.T) {
				r := s.resource(keyA, "svc://file/"+tt.path, nil)
				mustDenied(t, r)
				f.noLeak(t, r)
				if tt.genericOnly {
					return
				}
				g := s.do("GET", "/v1/resources/file/"+tt.path, keyA, nil)
				mustDenied(t, g)
				f.noLeak(t, g)
				// Also with a lineRange, which takes the streaming path for big files.
				g = s.do("GET", "/v1/resources/file/"+tt.path+`?lineRange={"start":0,"end":0}`, keyA, nil)
				mustDenied(t, g)
				f.noLeak(t, g)
			})
		}
	})

	// A leading "/" is the workspace root for workspace paths (structure
	// paths are written so), so absolute paths cannot leave it: they name
	// nothing, or a file of A.
	t.Run("absolute read paths stay in the workspace", func(t *testing.T) {
		for _, p := range []string{
			"/etc/passwd",
			f.parent + "/x",
			f.b + "/b_secret.py",
			"/../x",
			"/%2e%2e/x",
		} {
			for shape, r := range map[string]response{
				"generic": s.resource(keyA, "svc://file/"+p, nil),
				"GET":     s.do("GET", "/v1/resources/file/"+p, keyA, nil),
			} {
				want := map[string]int{"PERMISSION_DENIED": 403, "FILE_NOT_FOUND": 404}
				if st, ok := want[r.ErrCode()]; !ok || r.Status != st {
					t.Errorf("%s %s: %d %s, want 403 PERMISSION_DENIED or 404 FILE_NOT_FOUND", shape, p, r.Status, r.Raw)
				}
				f.noLeak(t, r)
			}
		}
		// The root spelled absolutely is still the workspace.
		r := s.resource(keyA, "svc://file/"+f.a+"/a.py", nil)
		mustStatus(t, r, 200, "")
		if r.Body["content"] != "a = 1\n" {
			t.Errorf("absolute path inside the root: %s", r.Raw)
		}
	})

	t.Run("special files are not opened", func(t *testing.T) {
		fifo := filepath.Join(f.a, "fifo.py")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(fifo)
		for _, r := range []response{
			s.resource(keyA, "svc://file/fifo.py", nil),
			s.do("GET", "/v1/resources/file/fifo.py", keyA, nil),
			s.tool(keyA, "apply_workspace_edit", map[string]any{"edit": map[string]any{fileURI(fifo): []any{edit(0, 0, 0, 0, "x")}}}),
		} {
			if r.ErrCode() != "PERMISSION_DENIED" && r.ErrCode() != "FILE_NOT_FOUND" {
				t.Errorf("FIFO: %d %s", r.Status, r.Raw)
			}
		}
	})

	t.Run("writes", func(t *testing.T) {
		a := fileURI(f.a)
		tests := []struct {
			name string
			uri  string
			noop bool // a system file: the edit would change nothing even if applied
		}{
			{"dotdot", a + "/../x", false},
			{"nested dotdot", a + "/a/../../x", false},
			{"dotdot after real dir", a + "/pkg/../../secret.py", false},
			{"encoded dots", a + "/%2e%2e/x", false},
			{"encoded dots and slash", a + "/%2e%2e%2fx", false},
			{"encoded slash", a + "/..%2fx", false},
			{"encoded backslash", a + "/..%5csecret.py", false},
			{"double slash", "file:////etc/passwd", true},
			{"tilde path", "~/x", false},
			{"tilde user path", "~root/x", false},
			{"tilde as URI host", "file://~/x", false},
			{"NUL", a + "/a.py%00", false},
			{"raw NUL", a + "/a.py\x00", false},
			{"very long path", a + "/" + strings.Repeat("a/", 2500) + "a.py", false},
			{"very long component", a + "/" + strings.Repeat("a", 300) + ".py", false},
			{"symlink to a file outside", a + "/link_file.py", false},
			{"relative symlink outside", a + "/rel_link.py", false},
			{"symlinked directory outside", a + "/link_dir/secret.py", false},
			{"symlink to the other tenant", a + "/link_b/b_secret.py", false},
			{"symlink going up", a + "/pkg/up/x", false},
			{"dangling symlink outside", a + "/dangling.py", false},
			{"symlink loop", a + "/loop1", false},
			{"absolute file URI outside", fileURI(f.parent) + "/x", false},
			{"absolute file URI into the other tenant", fileURI(f.b) + "/b_secret.py", false},
			{"etc passwd", "file:///etc/passwd", true},
			{"short file URI", "file:" + f.parent + "/x", false},
			{"localhost host", "file://localhost" + f.parent + "/x", false},
			{"remote host", "file://example.com" + f.a + "/a.py", false},
			{"bare dotdot", "../x", false},
			{"bare absolute path outside", f.parent + "/x", false},
			{"bare absolute path into the other tenant", f.b + "/b_secret.py", false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				text := "PWNED = 1\n"
				if tt.noop {
					text = ""
				}
				insert := []map[string]any{{"range": rng(0, 0, 0, 0), "newText": text}}
				// A valid edit of A rides along: the refusal must take it down too.
				changes := map[string]any{
					tt.uri:                       insert,
					fileURI(f.a) + "/pkg/mod.py": []map[string]any{{"range": rng(0, 0, 0, 0), "newText": "# edited\n"}},
				}
				for shape, r := range map[string]response{
					"generic":   s.tool(keyA, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": changes}}),
					"dedicated": s.do("POST", "/v1/tools/apply_workspace_edit", keyA, map[string]any{"edit": changes}),
				} {
					mustDenied(t, r)
					mustRefused(t, r, "PERMISSION_DENIED")
					f.noLeak(t, r)
					_ = shape
				}
				mustBeUnchanged(t, before)
			})
		}
	})

	t.Run("two tenants", func(t *testing.T) {
		// Listing and structure of A never show B or what lies outside.
		for _, r := range []response{
			s.resource(keyA, "svc://workspace/files", nil),
			s.resource(keyA, "svc://workspace/files", map[string]any{"filter": "**"}),
			s.resource(keyA, "svc://workspace/files", map[string]any{"filter": "**/b_secret.py"}),
			s.do("GET", "/v1/resources/files?filter=link_b/**", keyA, nil),
			s.resource(keyA, "svc://workspace/structure", map[string]any{"includeHidden": true, "maxDepth": 20}),
			s.do("GET", "/v1/resources/structure?includeHidden=true&maxDepth=20", keyA, nil),
		} {
			mustStatus(t, r, 200, "")
			for _, leak := range []string{"b_secret", "b_mod", "secret.py", f.b, "created.py"} {
				if strings.Contains(string(r.Raw), leak) {
					t.Errorf("A's listing shows %q: %s", leak, r.Raw)
				}
			}
			if root, ok := r.Body["workspaceRoot"]; ok && root != f.a {
				t.Errorf("workspaceRoot %v, want %s", root, f.a)
			}
		}
		// A filter cannot climb out either.
		for _, filter := range []string{"../other/**", "../**", "/../other/*.py"} {
			r := s.resource(keyA, "svc://workspace/files", map[string]any{"filter": filter})
			if r.Status == 200 {
				if n := num(r.Body["totalCount"]); n != 0 {
					t.Errorf("filter %q lists %v files: %s", filter, n, r.Raw)
				}
			} else {
				mustStatus(t, r, 400, "INVALID_FILTER")
			}
			f.noLeak(t, r)
		}
		// B's own files, by every trick, through A's key.
		for _, p := range []string{
			"../other/b_secret.py", "%2e%2e/other/b_secret.py", "..%2fother%2fb_secret.py",
			"link_b/b_secret.py", "link_b/pkg/b_mod.py", "link_dir/other/pkg/b_mod.py",
			f.b + "/b_secret.py", "/" + strings.TrimPrefix(f.b, "/") + "/pkg/b_mod.py",
		} {
			for _, r := range []response{
				s.resource(keyA, "svc://file/"+p, nil),
				s.do("GET", "/v1/resources/file/"+p, keyA, nil),
			} {
				if r.Status == 200 {
					t.Errorf("A read %s: %s", p, r.Raw)
				}
				f.noLeak(t, r)
			}
		}
		for _, uri := range []string{fileURI(f.b) + "/b_secret.py", f.b + "/pkg/b_mod.py", fileURI(f.a) + "/../other/b_secret.py", "../other/b_secret.py"} {
			r := s.tool(keyA, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": map[string]any{
				uri: []map[string]any{{"range": rng(0, 0, 0, 0), "newText": "# A was here\n"}},
			}}})
			mustDenied(t, r)
			mustRefused(t, r, "PERMISSION_DENIED")
		}
		// And B cannot reach A: the relation is symmetric.
		r := s.resource(keyB, "svc://file/../ws/a.py", nil)
		mustDenied(t, r)
		if strings.Contains(string(r.Raw), "a = 1") {
			t.Errorf("B read A: %s", r.Raw)
		}
		mustBeUnchanged(t, before)
	})
}
