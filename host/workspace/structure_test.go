package workspace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
)

// tree writes files (path -> content; a path ending in "/" is a directory)
// under a new temp dir and opens it as a workspace.
func tree(tb testing.TB, files map[string]string) *Workspace {
	tb.Helper()
	root := tb.TempDir()
	for p, c := range files {
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		mkfile(tb, filepath.Join(root, p), c)
	}
	w, err := Open(root)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close() })
	return w
}

var project = map[string]string{
	"setup.py":                  "x",
	"README.md":                 "readme",
	".env":                      "SECRET=1",
	".github/workflows/ci.yml":  "on: push",
	"pkg/__init__.py":           "",
	"pkg/core.py":               "1234567890",
	"pkg/sub/__init__.py":       "",
	"pkg/sub/deep/mod.py":       "abc",
	"pkg/sub/deep/deeper/x.pyi": "ab",
	"pkg/__pycache__/core.pyc":  "pyc",
	"src/lib/__init__.py":       "",
	"src/lib/inner/__init__.py": "",
	"src/notpkg/m.py":           "",
	"tests/test_core.py":        "t",
	"node_modules/x/index.py":   "n",
	".git/config":               "g",
	"venv/lib/site.py":          "v",
	"myenv/pyvenv.cfg":          "home = /usr",
	"myenv/lib/python3/site.py": "v",
	"conda/conda-meta/history":  "",
	"conda/lib/site.py":         "",
	"pkg.egg-info/PKG-INFO":     "",
	"build/lib/pkg/core.py":     "dup",
	"dist/pkg.tar.gz":           "",
	"tools/build/__init__.py":   "",
	"empty/":                    "",
	"123bad/__init__.py":        "",
}

func structure(t *testing.T, w *Workspace, o StructureOptions) *Structure {
	t.Helper()
	s, err := w.Structure(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// paths flattens a structure into "path type" lines.
func paths(n *Node) []string {
	out := []string{n.Path}
	for _, c := range n.Children {
		out = append(out, paths(c)...)
	}
	return out
}

func find(n *Node, p string) *Node {
	if n.Path == p {
		return n
	}
	for _, c := range n.Children {
		if f := find(c, p); f != nil {
			return f
		}
	}
	return nil
}

func TestStructureDefaults(t *testing.T) {
	w := tree(t, project)
	s := structure(t, w, StructureOptions{})
	got := paths(s.Root)
	want := []string{
		"/", "/123bad", "/empty", "/pkg", "/pkg/sub", "/pkg/sub/deep", "/pkg/sub/deep/deeper", "/pkg/sub/deep/deeper/x.pyi",
		"/pkg/sub/deep/mod.py", "/pkg/sub/__init__.py", "/pkg/__init__.py", "/pkg/core.py",
		"/src", "/src/lib", "/src/lib/inner", "/src/lib/inner/__init__.py", "/src/lib/__init__.py", "/src/notpkg", "/src/notpkg/m.py",
		"/tests", "/tests/test_core.py", "/tools", "/tools/build", "/tools/build/__init__.py",
		"/123bad/__init__.py", "/README.md", "/setup.py",
	}
	// Directories first, then files, each by name: rebuild want in that order.
	slices.Sort(want)
	gotSorted := slices.Clone(got)
	slices.Sort(gotSorted)
	if !slices.Equal(gotSorted, want) {
		t.Fatalf("paths:\n got %q\nwant %q", gotSorted, want)
	}
	if first := s.Root.Children[0]; first.Type != TypeDirectory {
		t.Errorf("first child %q is not a directory", first.Path)
	}
	m := s.Metadata
	if m.Depth != DefaultMaxDepth {
		t.Errorf("depth = %d", m.Depth)
	}
	// files: setup.py README.md pkg(5) src(3) tests(1) tools(1) 123bad(1) = 13
	if m.TotalFiles != 13 {
		t.Errorf("totalFiles = %d, want 13", m.TotalFiles)
	}
	// dirs: 123bad empty pkg pkg/sub deep deeper src lib inner notpkg tests tools tools/build = 13
	if m.TotalDirectories != 13 {
		t.Errorf("totalDirectories = %d, want 13", m.TotalDirectories)
	}
	if want := []string{"lib", "lib.inner", "pkg", "pkg.sub"}; !slices.Equal(m.Packages, want) {
		t.Errorf("packages = %q, want %q", m.Packages, want)
	}
	wantSize := int64(len("x") + len("readme") + 10 + 3 + 2 + 1)
	if m.TotalSize != wantSize {
		t.Errorf("totalSize = %d, want %d", m.TotalSize, wantSize)
	}
	pkg := find(s.Root, "/pkg")
	if *pkg.FileCount != 5 || !*pkg.IsPackage || *pkg.TotalSize != 15 || pkg.Name != "pkg" {
		t.Errorf("pkg node = %+v", pkg)
	}
	if n := find(s.Root, "/src/notpkg"); *n.IsPackage {
		t.Errorf("notpkg is a package")
	}
	if n := find(s.Root, "/pkg/sub/deep/deeper/x.pyi"); n.Language != "python-stub" || *n.Size != 2 {
		t.Errorf("stub node = %+v", n)
	}
	if n := find(s.Root, "/README.md"); n.Language != "" || n.Size == nil {
		t.Errorf("readme node = %+v", n)
	}
	if n := find(s.Root, "/empty"); n.Children == nil || len(n.Children) != 0 {
		t.Errorf("empty dir children = %#v, want []", n.Children)
	}
}

func TestStructureJSON(t *testing.T) {
	w := tree(t, map[string]string{"pkg/__init__.py": "", "pkg/a.py": "x", "e/": ""})
	s := structure(t, w, StructureOptions{MaxDepth: new(1)})
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Root struct {
			Children []map[string]any `json:"children"`
		} `json:"root"`
		Metadata map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for _, c := range raw.Root.Children {
		// At the depth limit a directory still has every directory field:
		// an empty children array, truncated when it has entries, and
		// counts of what lies below it.
		if kids, ok := c["children"].([]any); !ok || len(kids) != 0 {
			t.Errorf("%v: children %#v at the depth limit, want []", c["path"], c["children"])
		}
		wantTrunc := c["path"] == "/pkg"
		if tr, _ := c["truncated"].(bool); tr != wantTrunc {
			t.Errorf("%v: truncated %v, want %v", c["path"], c["truncated"], wantTrunc)
		}
		if c["path"] == "/pkg" && (c["fileCount"] != 2.0 || c["totalSize"] != 1.0 || c["isPackage"] != true) {
			t.Errorf("/pkg at the depth limit: %v, want fileCount 2, totalSize 1, isPackage", c)
		}
		for _, k := range []string{"fileCount", "totalSize", "isPackage"} {
			if _, ok := c[k]; !ok {
				t.Errorf("%v: %s missing", c["path"], k)
			}
		}
		for _, k := range []string{"language", "size"} {
			if _, ok := c[k]; ok {
				t.Errorf("%v: directory has %s", c["path"], k)
			}
		}
	}
	for _, k := range []string{"totalFiles", "totalDirectories", "packages", "depth", "totalSize"} {
		if _, ok := raw.Metadata[k]; !ok {
			t.Errorf("metadata.%s missing in %s", k, b)
		}
	}
	// A file node carries no directory fields.
	b, _ = json.Marshal(&Node{Name: "a.py", Path: "/a.py", Type: TypeFile, Language: "python", Size: new(int64(1))})
	if strings.Contains(string(b), "children") || strings.Contains(string(b), "fileCount") || strings.Contains(string(b), "isPackage") {
		t.Errorf("file node JSON %s has directory fields", b)
	}
	// Without metadata: no counts, sizes or metadata object.
	s = structure(t, w, StructureOptions{OmitMetadata: true})
	b, _ = json.Marshal(s)
	for _, k := range []string{"metadata", "fileCount", "totalSize", "isPackage", `"size"`} {
		if strings.Contains(string(b), k) {
			t.Errorf("OmitMetadata: %s present in %s", k, b)
		}
	}
}

func TestStructureOptions(t *testing.T) {
	w := tree(t, project)
	tests := []struct {
		name      string
		o         StructureOptions
		has       []string
		hasNot    []string
		depth     int
		capped    bool
		fileCount int // of the root
	}{
		{name: "depth 1", o: StructureOptions{MaxDepth: new(1)}, has: []string{"/pkg", "/setup.py"}, hasNot: []string{"/pkg/core.py"}, depth: 1, fileCount: 12},
		{name: "depth 2", o: StructureOptions{MaxDepth: new(2)}, has: []string{"/pkg/core.py", "/pkg/sub"}, hasNot: []string{"/pkg/sub/__init__.py"}, depth: 2, fileCount: 12},
		{name: "cap lowers", o: StructureOptions{MaxDepth: new(20), DepthCap: 2}, has: []string{"/pkg/sub"}, hasNot: []string{"/pkg/sub/deep"}, depth: 2, capped: true, fileCount: 12},
		{name: "cap above request", o: StructureOptions{MaxDepth: new(3), DepthCap: 5}, has: []string{"/pkg/sub/deep"}, depth: 3, fileCount: 12},
		{name: "hidden", o: StructureOptions{IncludeHidden: true}, has: []string{"/.env", "/.github/workflows/ci.yml"}, hasNot: []string{"/.git", "/.git/config"}, depth: 10, fileCount: 12},
		{name: "exclude dir by name", o: StructureOptions{ExcludePatterns: []string{"sub"}}, has: []string{"/pkg/core.py"}, hasNot: []string{"/pkg/sub", "/pkg/sub/deep/mod.py"}, depth: 10, fileCount: 9},
		{name: "exclude glob path", o: StructureOptions{ExcludePatterns: []string{"src/**", "**/*.md"}}, has: []string{"/pkg"}, hasNot: []string{"/src", "/src/lib", "/README.md"}, depth: 10, fileCount: 9},
		{name: "exclude rooted", o: StructureOptions{ExcludePatterns: []string{"/tests/"}}, hasNot: []string{"/tests"}, depth: 10, fileCount: 11},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := structure(t, w, tc.o)
			got := paths(s.Root)
			for _, p := range tc.has {
				if !slices.Contains(got, p) {
					t.Errorf("%s missing", p)
				}
			}
			for _, p := range tc.hasNot {
				if slices.Contains(got, p) {
					t.Errorf("%s present", p)
				}
			}
			if s.Metadata.Depth != tc.depth || s.DepthCapped != tc.capped {
				t.Errorf("depth = %d capped = %v, want %d %v", s.Metadata.Depth, s.DepthCapped, tc.depth, tc.capped)
			}
			if *s.Root.FileCount != tc.fileCount {
				t.Errorf("root fileCount = %d, want %d", *s.Root.FileCount, tc.fileCount)
			}
		})
	}
}

func TestStructureErrors(t *testing.T) {
	w := tree(t, project)
	tests := []struct {
		name    string
		o       StructureOptions
		code    string
		details fault.Details
	}{
		{name: "depth 0", o: StructureOptions{MaxDepth: new(0)}, code: fault.InvalidParameter, details: fault.Details{"parameter": "maxDepth", "value": 0, "min": 1, "max": 20}},
		{name: "depth 21", o: StructureOptions{MaxDepth: new(21), DepthCap: 5}, code: fault.InvalidParameter, details: fault.Details{"parameter": "maxDepth", "value": 21, "min": 1, "max": 20}},
		{name: "bad glob", o: StructureOptions{ExcludePatterns: []string{"src/[a-"}}, code: fault.InvalidFilter, details: fault.Details{"pattern": "src/[a-", "reason": "unclosed character class: missing ']'"}},
		{name: "bad brace", o: StructureOptions{ExcludePatterns: []string{"{a,b"}}, code: fault.InvalidFilter, details: fault.Details{"pattern": "{a,b", "reason": "unclosed alternative: missing '}'"}},
		{name: "timeout", o: StructureOptions{Timeout: time.Nanosecond}, code: fault.ScanTimeout, details: fault.Details{"timeout": int64(0)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w.invalidate()
			_, err := w.Structure(context.Background(), tc.o)
			fe, ok := fault.As(err)
			if !ok || fe.Code != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			for k, v := range tc.details {
				if fe.Details[k] != v {
					t.Errorf("details[%s] = %#v, want %#v", k, fe.Details[k], v)
				}
			}
			if tc.code == fault.ScanTimeout && fe.Details["suggestion"] == "" {
				t.Errorf("no suggestion")
			}
		})
	}
	// A timed-out scan is not cached: the next call scans and succeeds.
	if _, err := w.Structure(context.Background(), StructureOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestStructureSymlinks(t *testing.T) {
	w := tree(t, map[string]string{"pkg/a.py": "", "other/b.py": ""})
	out := t.TempDir()
	mkfile(t, filepath.Join(out, "evil.py"), "")
	for name, target := range map[string]string{
		"pkg/loop":    "..",       // loop to the root
		"pkg/self":    ".",        // loop to itself
		"escape":      out,        // outside
		"linked":      "other",    // inside, already scanned as /other
		"alink.py":    "pkg/a.py", // file inside
		"outfile.py":  filepath.Join(out, "evil.py"),
		"dangling.py": "nope.py",
	} {
		if err := os.Symlink(target, filepath.Join(w.Root(), name)); err != nil {
			t.Fatal(err)
		}
	}
	s := structure(t, w, StructureOptions{MaxDepth: new(20)})
	got := paths(s.Root)
	for _, p := range []string{"/escape", "/outfile.py", "/dangling.py", "/pkg/loop", "/pkg/self"} {
		if slices.Contains(got, p) {
			t.Errorf("%s listed", p)
		}
	}
	if !slices.Contains(got, "/alink.py") {
		t.Errorf("symlinked file inside not listed: %q", got)
	}
	// /other and /linked are one real directory: listed once, first by name.
	if slices.Contains(got, "/other/b.py") == slices.Contains(got, "/linked/b.py") {
		t.Errorf("a directory reached by two paths should be listed once: %q", got)
	}
}
