package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// TestResources covers the three workspace resources and health_check over
// one server; each group uses keys bound to its own workspace.
func TestResources(t *testing.T) {
	def := t.TempDir()
	writeTree(t, def, map[string]string{"main.py": "x = 1\n"})
	s := startServer(t, def)
	t.Run("structure", func(t *testing.T) { testStructure(t, s) })
	t.Run("list files", func(t *testing.T) { testListFiles(t, s) })
	t.Run("list cache invalidation", func(t *testing.T) { testListCacheInvalidation(t, s) })
	t.Run("read file", func(t *testing.T) { testReadFile(t, s) })
	t.Run("health", func(t *testing.T) { testHealth(t, s) })
	t.Run("workspace not found", func(t *testing.T) { testWorkspaceNotFound(t, s) })
}

// ---- structure ----

var structureTree = map[string]string{
	"pkg/__init__.py":     "",
	"pkg/core.py":         "def f():\n    return 1\n",
	"pkg/data.json":       "{}\n",
	"pkg/sub/__init__.py": "# sub\n",
	"pkg/sub/deep.py":     "x = 1\n",
	"nspkg/mod.py":        "y = 2\n",
	"src/lib/__init__.py": "",
	"src/lib/x.py":        "z = 3\n",
	"tests/test_a.py":     "def test_a():\n    pass\n",
	"stubs/m.pyi":         "def f() -> int: ...\n",
	"README.md":           "# readme\n",
	".hidden/h.py":        "h = 1\n",
	".secret.py":          "s = 1\n",
	".git/config":         "[core]\n",
	"__pycache__/c.py":    "c = 1\n",
	"d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/leaf.py": "leaf = 1\n",
}

const deepChain = "/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12"

// nodes indexes a structure tree by path and checks the invariants every
// node must satisfy: paths begin with "/" and extend the parent's path,
// files have no children, directories come before files, each by name.
func nodes(t *testing.T, root any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	var walk func(n map[string]any, parent string)
	walk = func(n map[string]any, parent string) {
		p, _ := n["path"].(string)
		name, _ := n["name"].(string)
		if !strings.HasPrefix(p, "/") {
			t.Errorf("path %q does not begin with /", p)
		}
		if parent != "" {
			want := strings.TrimSuffix(parent, "/") + "/" + name
			if p != want {
				t.Errorf("path %q, want %q (parent %q, name %q)", p, want, parent, name)
			}
		}
		if _, dup := out[p]; dup {
			t.Errorf("path %q twice", p)
		}
		out[p] = n
		switch n["type"] {
		case "file":
			for _, k := range []string{"children", "fileCount", "totalSize", "isPackage"} {
				if _, ok := n[k]; ok {
					t.Errorf("file node %s has directory field %s", p, k)
				}
			}
		case "directory":
			if _, ok := n["language"]; ok {
				t.Errorf("directory %s has language", p)
			}
			kids, _ := n["children"].([]any)
			var order []string
			seenFile := false
			for _, c := range kids {
				cm := c.(map[string]any)
				if cm["type"] == "file" {
					seenFile = true
				} else if seenFile {
					t.Errorf("in %s directory %v after a file", p, cm["name"])
				}
				order = append(order, fmt.Sprint(cm["type"] == "file")+"/"+cm["name"].(string))
				walk(cm, p)
			}
			if !slices.IsSorted(order) {
				t.Errorf("children of %s not sorted: %v", p, order)
			}
		default:
			t.Errorf("node %s has type %v", p, n["type"])
		}
	}
	m, ok := root.(map[string]any)
	if !ok {
		t.Fatalf("root is %T", root)
	}
	walk(m, "")
	return out
}

func num(v any) float64 {
	f, ok := v.(float64)
	if !ok {
		return math.NaN()
	}
	return f
}

func testStructure(t *testing.T, s *server) {
	ws := t.TempDir()
	writeTree(t, ws, structureTree)
	real := realDir(t, ws)
	pro := s.addKeyReady("pro", ws)
	free := s.addKeyReady("free", ws)

	size := func(prefix string) (total float64) {
		for rel, c := range structureTree {
			if strings.HasPrefix(rel, prefix) {
				total += float64(len(c))
			}
		}
		return total
	}
	// Visible (not hidden, not default-excluded) files and their counts.
	var visibleFiles, pyFiles int
	var visibleSize float64
	for rel, c := range structureTree {
		if strings.HasPrefix(rel, ".") || strings.HasPrefix(rel, "__pycache__") {
			continue
		}
		visibleFiles++
		visibleSize += float64(len(c))
		if strings.HasSuffix(rel, ".py") || strings.HasSuffix(rel, ".pyi") {
			pyFiles++
		}
	}
	// d1..d12, nspkg, pkg, pkg/sub, src, src/lib, stubs, tests
	const visibleDirs = 12 + 7

	t.Run("defaults", func(t *testing.T) {
		r := s.resource(pro, "svc://workspace/structure", nil)
		mustStatus(t, r, 200, "")
		md := r.Body["metadata"].(map[string]any)
		if num(md["depth"]) != 10 {
			t.Errorf("metadata.depth %v, want 10 (default maxDepth)", md["depth"])
		}
		if num(md["totalFiles"]) != float64(visibleFiles) || num(md["totalDirectories"]) != visibleDirs || num(md["totalSize"]) != visibleSize {
			t.Errorf("metadata %v, want totalFiles %d totalDirectories %d totalSize %v", md, visibleFiles, visibleDirs, visibleSize)
		}
		pk := fmt.Sprint(md["packages"])
		for _, want := range []string{"pkg", "pkg.sub", "lib"} {
			if !slices.Contains(md["packages"].([]any), any(want)) {
				t.Errorf("packages %s lack %s", pk, want)
			}
		}
		for _, not := range []string{"nspkg", "src", "src.lib", "d1", "tests", "stubs"} {
			if slices.Contains(md["packages"].([]any), any(not)) {
				t.Errorf("packages %s contain %s", pk, not)
			}
		}
		n := nodes(t, r.Body["root"])
		root := n["/"]
		if root == nil || root["type"] != "directory" || root["name"] != filepath.Base(real) {
			t.Fatalf("root node %v", root)
		}
		if num(root["fileCount"]) != float64(pyFiles) || num(root["totalSize"]) != visibleSize {
			t.Errorf("root fileCount %v totalSize %v, want %d %v", root["fileCount"], root["totalSize"], pyFiles, visibleSize)
		}
		var top []string
		for _, c := range root["children"].([]any) {
			top = append(top, c.(map[string]any)["name"].(string))
		}
		if want := []string{"d1", "nspkg", "pkg", "src", "stubs", "tests", "README.md"}; !reflect.DeepEqual(top, want) {
			t.Errorf("root children %v, want %v (directories first, hidden and excluded omitted)", top, want)
		}
		for _, p := range []string{"/.hidden", "/.secret.py", "/.git", "/__pycache__"} {
			if n[p] != nil {
				t.Errorf("%s listed by default", p)
			}
		}
		pkg := n["/pkg"]
		if pkg["isPackage"] != true || num(pkg["fileCount"]) != 4 || num(pkg["totalSize"]) != size("pkg/") {
			t.Errorf("/pkg %v, want isPackage, fileCount 4, totalSize %v", pkg, size("pkg/"))
		}
		if n["/pkg/sub"]["isPackage"] != true || n["/nspkg"]["isPackage"] != false || n["/src"]["isPackage"] != false {
			t.Errorf("isPackage: sub %v nspkg %v src %v", n["/pkg/sub"]["isPackage"], n["/nspkg"]["isPackage"], n["/src"]["isPackage"])
		}
		files := []struct {
			path, lang string
			size       int
		}{
			{"/pkg/core.py", "python", len(structureTree["pkg/core.py"])},
			{"/pkg/__init__.py", "python", 0},
			{"/stubs/m.pyi", "python-stub", len(structureTree["stubs/m.pyi"])},
			{"/README.md", "", len(structureTree["README.md"])},
			{"/pkg/data.json", "", len(structureTree["pkg/data.json"])},
		}
		for _, f := range files {
			fn := n[f.path]
			if fn == nil {
				t.Errorf("%s missing", f.path)
				continue
			}
			lang, hasLang := fn["language"]
			if fn["type"] != "file" || num(fn["size"]) != float64(f.size) || (f.lang == "") == hasLang || (f.lang != "" && lang != f.lang) {
				t.Errorf("%s: %v, want file of size %d language %q", f.path, fn, f.size, f.lang)
			}
		}
		// The depth limit shapes the tree, not the counts.
		d10 := n["/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10"]
		if d10 == nil {
			t.Fatalf("depth-10 directory missing")
		}
		// Where the depth limit stops the walk a directory keeps every
		// directory field: empty children, truncated, counts of what is below.
		if kids, ok := d10["children"].([]any); !ok || len(kids) != 0 || d10["truncated"] != true {
			t.Errorf("directory at depth 10 with maxDepth 10: %v, want children [] and truncated true", d10)
		}
		if _, ok := d10["isPackage"]; !ok {
			t.Errorf("directory at depth 10 lacks isPackage: %v", d10)
		}
		for p, node := range n {
			if node["type"] != "directory" {
				continue
			}
			for _, k := range []string{"children", "fileCount", "totalSize", "isPackage"} {
				if _, ok := node[k]; !ok {
					t.Errorf("directory %s lacks %s: %v", p, k, node)
				}
			}
			if _, ok := node["truncated"]; ok && p != "/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10" {
				t.Errorf("directory %s above the depth limit is truncated: %v", p, node)
			}
		}
		if num(d10["fileCount"]) != 1 || num(d10["totalSize"]) != float64(len("leaf = 1\n")) {
			t.Errorf("depth-limited directory counts %v", d10)
		}
		if n["/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11"] != nil {
			t.Errorf("node below maxDepth returned")
		}
	})

	t.Run("GET equals generic", func(t *testing.T) {
		g := s.do("GET", "/v1/resources/structure", pro, nil)
		mustStatus(t, g, 200, "")
		p := s.resource(pro, "svc://workspace/structure", map[string]any{"maxDepth": 10, "includeHidden": false, "includeMetadata": true})
		mustStatus(t, p, 200, "")
		if !reflect.DeepEqual(g.Body, p.Body) {
			t.Fatalf("GET and generic differ:\n%s\n%s", g.Raw, p.Raw)
		}
	})

	t.Run("maxDepth", func(t *testing.T) {
		tests := []struct {
			name          string
			get           string
			params        map[string]any
			depth         float64
			present, gone string
		}{
			{"20 shows the whole tree", "", map[string]any{"maxDepth": 20}, 20, deepChain + "/leaf.py", ""},
			{"20 by query", "?maxDepth=20", nil, 20, deepChain + "/leaf.py", ""},
			{"1", "", map[string]any{"maxDepth": 1}, 1, "/pkg", "/pkg/core.py"},
			{"1 by query", "?maxDepth=1", nil, 1, "/pkg", "/pkg/core.py"},
			{"13 is the leaf's depth", "", map[string]any{"maxDepth": 13}, 13, deepChain + "/leaf.py", ""},
			{"12 stops above the leaf", "", map[string]any{"maxDepth": 12}, 12, deepChain, deepChain + "/leaf.py"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var r response
				if tt.get != "" {
					r = s.do("GET", "/v1/resources/structure"+tt.get, pro, nil)
				} else {
					r = s.resource(pro, "svc://workspace/structure", tt.params)
				}
				mustStatus(t, r, 200, "")
				if d := num(jget(r.Body, "metadata", "depth")); d != tt.depth {
					t.Errorf("metadata.depth %v, want %v", d, tt.depth)
				}
				n := nodes(t, r.Body["root"])
				if n[tt.present] == nil {
					t.Errorf("%s missing", tt.present)
				}
				if tt.gone != "" && n[tt.gone] != nil {
					t.Errorf("%s present beyond the depth", tt.gone)
				}
				if tt.depth == 1 {
					if kids, ok := n["/pkg"]["children"].([]any); !ok || len(kids) != 0 || n["/pkg"]["truncated"] != true {
						t.Errorf("/pkg at depth 1: %v, want children [] and truncated true", n["/pkg"])
					}
				}
			})
		}
	})

	t.Run("maxDepth out of bounds", func(t *testing.T) {
		tests := []struct {
			name  string
			get   string
			value any
			want  any // details.value
		}{
			{"0", "", 0, 0.0},
			{"21", "", 21, 21.0},
			{"-1", "", -1, -1.0},
			{"string", "", "x", "x"},
			{"fraction", "", 2.5, nil},
			{"boolean", "", true, true},
			{"0 by query", "?maxDepth=0", nil, 0.0},
			{"21 by query", "?maxDepth=21", nil, 21.0},
			{"x by query", "?maxDepth=x", nil, "x"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var r response
				if tt.get != "" {
					r = s.do("GET", "/v1/resources/structure"+tt.get, pro, nil)
				} else {
					r = s.resource(pro, "svc://workspace/structure", map[string]any{"maxDepth": tt.value})
				}
				mustStatus(t, r, 400, "INVALID_PARAMETER")
				d := r.ErrDetails()
				if d["parameter"] != "maxDepth" {
					t.Errorf("details.parameter %v", d["parameter"])
				}
				if _, ok := d["value"]; !ok || (tt.want != nil && d["value"] != tt.want) {
					t.Errorf("details.value %v, want %v", d["value"], tt.want)
				}
				if d["min"] != 1.0 || d["max"] != 20.0 {
					t.Errorf("details min %v max %v, want 1 and 20 (%s)", d["min"], d["max"], r.Raw)
				}
			})
		}
		// Free keys get the same bounds.
		mustStatus(t, s.resource(free, "svc://workspace/structure", map[string]any{"maxDepth": 21}), 400, "INVALID_PARAMETER")
	})

	t.Run("free tier depth cap", func(t *testing.T) {
		tests := []struct {
			name   string
			params map[string]any
			depth  float64
		}{
			{"default 10 capped", nil, 5},
			{"20 capped", map[string]any{"maxDepth": 20}, 5},
			{"5 kept", map[string]any{"maxDepth": 5}, 5},
			{"3 below the cap", map[string]any{"maxDepth": 3}, 3},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := s.resource(free, "svc://workspace/structure", tt.params)
				mustStatus(t, r, 200, "")
				if d := num(jget(r.Body, "metadata", "depth")); d != tt.depth {
					t.Fatalf("metadata.depth %v, want %v", d, tt.depth)
				}
				n := nodes(t, r.Body["root"])
				chain := strings.Split(deepChain, "/")[1:]
				last := "/" + strings.Join(chain[:int(tt.depth)], "/")
				below := "/" + strings.Join(chain[:int(tt.depth)+1], "/")
				if n[last] == nil || n[below] != nil {
					t.Fatalf("depth %v: %s present %v, %s present %v", tt.depth, last, n[last] != nil, below, n[below] != nil)
				}
				if kids, ok := n[last]["children"].([]any); !ok || len(kids) != 0 || n[last]["truncated"] != true {
					t.Fatalf("%s at the effective depth: %v, want children [] and truncated true", last, n[last])
				}
			})
		}
		g := s.do("GET", "/v1/resources/structure?maxDepth=20", free, nil)
		mustStatus(t, g, 200, "")
		if d := num(jget(g.Body, "metadata", "depth")); d != 5 {
			t.Fatalf("GET free metadata.depth %v", d)
		}
	})

	t.Run("includeHidden", func(t *testing.T) {
		for _, r := range []response{
			s.resource(pro, "svc://workspace/structure", map[string]any{"includeHidden": true}),
			s.do("GET", "/v1/resources/structure?includeHidden=true", pro, nil),
		} {
			mustStatus(t, r, 200, "")
			n := nodes(t, r.Body["root"])
			for _, p := range []string{"/.hidden", "/.hidden/h.py", "/.secret.py"} {
				if n[p] == nil {
					t.Errorf("%s missing with includeHidden", p)
				}
			}
			for _, p := range []string{"/.git", "/__pycache__"} {
				if n[p] != nil {
					t.Errorf("default-excluded %s listed with includeHidden", p)
				}
			}
			if got := num(jget(r.Body, "metadata", "totalFiles")); got != float64(visibleFiles+2) {
				t.Errorf("totalFiles %v, want %d", got, visibleFiles+2)
			}
		}
	})

	t.Run("excludePatterns", func(t *testing.T) {
		tests := []struct {
			name      string
			get       string
			params    map[string]any
			gone      []string
			kept      []string
			fileCount float64
		}{
			{"directory name", "", map[string]any{"excludePatterns": []string{"tests"}},
				[]string{"/tests", "/tests/test_a.py"}, []string{"/pkg", "/stubs"}, float64(pyFiles - 1)},
			{"recursive glob", "", map[string]any{"excludePatterns": []string{"**/deep.py"}},
				[]string{"/pkg/sub/deep.py"}, []string{"/pkg/sub", "/pkg/sub/__init__.py"}, float64(pyFiles - 1)},
			{"subtree by path", "", map[string]any{"excludePatterns": []string{"d1/d2"}},
				[]string{"/d1/d2"}, []string{"/d1"}, float64(pyFiles - 1)},
			{"repeated query keys", "?excludePatterns=tests&excludePatterns=stubs", nil,
				[]string{"/tests", "/stubs"}, []string{"/pkg"}, float64(pyFiles - 2)},
			{"JSON array in query", "?excludePatterns=" + url.QueryEscape(`["pkg","*.md"]`), nil,
				[]string{"/pkg", "/README.md"}, []string{"/tests"}, float64(pyFiles - 4)},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var r response
				if tt.get != "" {
					r = s.do("GET", "/v1/resources/structure"+tt.get, pro, nil)
				} else {
					r = s.resource(pro, "svc://workspace/structure", tt.params)
				}
				mustStatus(t, r, 200, "")
				n := nodes(t, r.Body["root"])
				for _, p := range tt.gone {
					if n[p] != nil {
						t.Errorf("%s not excluded", p)
					}
				}
				for _, p := range tt.kept {
					if n[p] == nil {
						t.Errorf("%s excluded", p)
					}
				}
				if got := num(n["/"]["fileCount"]); got != tt.fileCount {
					t.Errorf("root fileCount %v, want %v", got, tt.fileCount)
				}
			})
		}
		r := s.resource(pro, "svc://workspace/structure", map[string]any{"excludePatterns": []string{"pkg"}})
		mustStatus(t, r, 200, "")
		if pk := jget(r.Body, "metadata", "packages").([]any); slices.Contains(pk, any("pkg")) || slices.Contains(pk, any("pkg.sub")) {
			t.Errorf("excluded package still in packages: %v", pk)
		}
	})

	t.Run("invalid glob", func(t *testing.T) {
		tests := []struct {
			name    string
			get     string
			pattern string
		}{
			{"unclosed class", "", "[abc"},
			{"unclosed class by query", "?excludePatterns=" + url.QueryEscape("src/[x"), "src/[x"},
			{"negation", "", "!tests"},
			{"empty", "", ""},
			{"unclosed brace", "", "{a,b"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var r response
				if tt.get != "" {
					r = s.do("GET", "/v1/resources/structure"+tt.get, pro, nil)
				} else {
					r = s.resource(pro, "svc://workspace/structure", map[string]any{"excludePatterns": []string{"tests", tt.pattern}})
				}
				mustStatus(t, r, 400, "INVALID_FILTER")
				d := r.ErrDetails()
				if d["pattern"] != tt.pattern {
					t.Errorf("details.pattern %v, want %q", d["pattern"], tt.pattern)
				}
				if reason, _ := d["reason"].(string); reason == "" {
					t.Errorf("details.reason missing: %s", r.Raw)
				}
			})
		}
		mustStatus(t, s.resource(pro, "svc://workspace/structure", map[string]any{"excludePatterns": "tests"}), 400, "INVALID_PARAMETER")
	})

	t.Run("includeMetadata false", func(t *testing.T) {
		for _, r := range []response{
			s.resource(pro, "svc://workspace/structure", map[string]any{"includeMetadata": false}),
			s.do("GET", "/v1/resources/structure?includeMetadata=false", pro, nil),
		} {
			mustStatus(t, r, 200, "")
			if _, ok := r.Body["metadata"]; ok {
				t.Errorf("metadata present: %s", r.Raw)
			}
			n := nodes(t, r.Body["root"])
			for p, node := range n {
				for _, k := range []string{"fileCount", "totalSize", "isPackage", "size"} {
					if _, ok := node[k]; ok {
						t.Errorf("%s has %s without metadata", p, k)
					}
				}
			}
			if n["/pkg/core.py"] == nil || n["/pkg/core.py"]["language"] != "python" || n["/pkg"]["children"] == nil {
				t.Errorf("tree shape lost without metadata: %v", n["/pkg"])
			}
		}
	})
}

// ---- list files ----

var listTree = map[string]string{
	"app/__init__.py":     "",
	"app/main.py":         "import app.util\n",
	"app/util.py":         "def u():\n    return 1\n",
	"app/test_util.py":    "def test_u():\n    pass\n",
	"app/models_test.py":  "def test_m():\n    pass\n",
	"app/types.pyi":       "def u() -> int: ...\n",
	"tests/conftest.py":   "import pytest\n",
	"tests/helpers.py":    "def h():\n    pass\n",
	"tests/test_api.py":   "def test_api():\n    pass\n",
	"contest_x.py":        "c = 1\n",
	"setup.py":            "from setuptools import setup\n",
	"docs/guide.md":       "# guide\n",
	".hidden/h.py":        "h = 1\n",
	".dot.py":             "d = 1\n",
	"node_modules/n.py":   "n = 1\n",
	"build/gen.py":        "g = 1\n",
	"venv2/pyvenv.cfg":    "home = /usr\n",
	"venv2/lib/site.py":   "s = 1\n",
	"lib/build/nested.py": "b = 1\n",
}

var allListed = []string{
	"app/__init__.py", "app/main.py", "app/models_test.py", "app/test_util.py", "app/types.pyi", "app/util.py",
	"contest_x.py", "lib/build/nested.py", "setup.py", "tests/conftest.py", "tests/helpers.py", "tests/test_api.py",
}

func without(list []string, drop ...string) []string {
	var out []string
	for _, x := range list {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

func relPaths(t *testing.T, r response) []string {
	t.Helper()
	files, ok := r.Body["files"].([]any)
	if !ok {
		t.Fatalf("no files array: %s", r.Raw)
	}
	out := []string{}
	for _, f := range files {
		out = append(out, f.(map[string]any)["relativePath"].(string))
	}
	return out
}

func testListFiles(t *testing.T, s *server) {
	ws := t.TempDir()
	writeTree(t, ws, listTree)
	real := realDir(t, ws)
	key := s.addKeyReady("pro", ws)

	t.Run("entries", func(t *testing.T) {
		r := s.resource(key, "svc://workspace/files", nil)
		mustStatus(t, r, 200, "")
		if got := relPaths(t, r); !reflect.DeepEqual(got, allListed) {
			t.Fatalf("files %v, want %v", got, allListed)
		}
		if num(r.Body["totalCount"]) != float64(len(allListed)) || r.Body["workspaceRoot"] != real {
			t.Fatalf("totalCount %v workspaceRoot %v, want %d %s", r.Body["totalCount"], r.Body["workspaceRoot"], len(allListed), real)
		}
		isTest := map[string]bool{
			"app/test_util.py": true, "app/models_test.py": true, "tests/test_api.py": true, "contest_x.py": true,
		}
		for _, f := range r.Body["files"].([]any) {
			e := f.(map[string]any)
			rel := e["relativePath"].(string)
			abs := filepath.Join(real, filepath.FromSlash(rel))
			if e["path"] != abs {
				t.Errorf("%s: path %v, want %s", rel, e["path"], abs)
			}
			if num(e["size"]) != float64(len(listTree[rel])) {
				t.Errorf("%s: size %v, want %d", rel, e["size"], len(listTree[rel]))
			}
			if e["isTest"] != isTest[rel] {
				t.Errorf("%s: isTest %v, want %v", rel, e["isTest"], isTest[rel])
			}
			lang := "python"
			if strings.HasSuffix(rel, ".pyi") {
				lang = "python-stub"
			}
			if e["language"] != lang {
				t.Errorf("%s: language %v, want %s", rel, e["language"], lang)
			}
			lm, _ := e["lastModified"].(string)
			ts, err := time.Parse(time.RFC3339, lm)
			if err != nil {
				t.Errorf("%s: lastModified %q is not RFC 3339: %v", rel, lm, err)
				continue
			}
			fi, err := os.Stat(abs)
			if err != nil {
				t.Fatal(err)
			}
			if d := fi.ModTime().Sub(ts); d < 0 || d >= time.Millisecond {
				t.Errorf("%s: lastModified %s, file mtime %s", rel, lm, fi.ModTime().UTC().Format(time.RFC3339Nano))
			}
		}
		g := s.do("GET", "/v1/resources/files", key, nil)
		mustStatus(t, g, 200, "")
		if !reflect.DeepEqual(g.Body, r.Body) {
			t.Fatalf("GET and generic differ:\n%s\n%s", g.Raw, r.Raw)
		}
	})

	tests := []struct {
		name    string
		filter  string
		noTests bool
		exclude []string
		want    []string
	}{
		{"recursive **", "**/*.py", false, nil, without(allListed, "app/types.pyi")},
		{"stubs by extension", "*.pyi", false, nil, []string{"app/types.pyi"}},
		{"directory-scoped", "app/*.py", false, nil, []string{"app/__init__.py", "app/main.py", "app/models_test.py", "app/test_util.py", "app/util.py"}},
		{"directory-scoped recursive", "tests/**", false, nil, []string{"tests/conftest.py", "tests/helpers.py", "tests/test_api.py"}},
		{"directory name", "tests", false, nil, []string{"tests/conftest.py", "tests/helpers.py", "tests/test_api.py"}},
		{"leading ! excludes a directory", "!tests/**", false, nil, without(allListed, "tests/conftest.py", "tests/helpers.py", "tests/test_api.py")},
		{"leading ! excludes a name pattern", "!**/test_*.py", false, nil, without(allListed, "app/test_util.py", "tests/test_api.py")},
		{"includeTests false", "", true, nil, without(allListed, "app/models_test.py", "app/test_util.py", "contest_x.py", "tests/test_api.py")},
		{"includeTests false with filter", "tests/**", true, nil, []string{"tests/conftest.py", "tests/helpers.py"}},
		{"excludePatterns", "", false, []string{"app", "setup.py"}, []string{"contest_x.py", "lib/build/nested.py", "tests/conftest.py", "tests/helpers.py", "tests/test_api.py"}},
		{"excludePatterns with filter", "**/*.py", false, []string{"tests/test_*.py", "lib"}, without(allListed, "app/types.pyi", "tests/test_api.py", "lib/build/nested.py")},
		{"filter matching nothing", "nothing/**", false, nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := map[string]any{}
			q := url.Values{}
			if tt.filter != "" {
				params["filter"] = tt.filter
				q.Set("filter", tt.filter)
			}
			if tt.noTests {
				params["includeTests"] = false
				q.Set("includeTests", "false")
			}
			if tt.exclude != nil {
				params["excludePatterns"] = tt.exclude
				for _, e := range tt.exclude {
					q.Add("excludePatterns", e)
				}
			}
			for shape, r := range map[string]response{
				"generic": s.resource(key, "svc://workspace/files", params),
				"GET":     s.do("GET", "/v1/resources/files?"+q.Encode(), key, nil),
			} {
				mustStatus(t, r, 200, "")
				if got := relPaths(t, r); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%s: files %v, want %v", shape, got, tt.want)
				}
				if num(r.Body["totalCount"]) != float64(len(tt.want)) {
					t.Errorf("%s: totalCount %v, want %d", shape, r.Body["totalCount"], len(tt.want))
				}
			}
		})
	}

	t.Run("invalid filter", func(t *testing.T) {
		tests := []struct {
			name    string
			params  map[string]any
			query   string
			pattern string
		}{
			{"unclosed class", map[string]any{"filter": "[x"}, "filter=" + url.QueryEscape("[x"), "[x"},
			{"unclosed brace", map[string]any{"filter": "app/{a,b"}, "filter=" + url.QueryEscape("app/{a,b"), "app/{a,b"},
			{"bad exclude pattern", map[string]any{"excludePatterns": []string{"ok", "a["}}, "excludePatterns=ok&excludePatterns=" + url.QueryEscape("a["), "a["},
			{"negated exclude pattern", map[string]any{"excludePatterns": []string{"!app"}}, "excludePatterns=" + url.QueryEscape("!app"), "!app"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for shape, r := range map[string]response{
					"generic": s.resource(key, "svc://workspace/files", tt.params),
					"GET":     s.do("GET", "/v1/resources/files?"+tt.query, key, nil),
				} {
					mustStatus(t, r, 400, "INVALID_FILTER")
					d := r.ErrDetails()
					if d["pattern"] != tt.pattern {
						t.Errorf("%s: details.pattern %v, want %q", shape, d["pattern"], tt.pattern)
					}
					if reason, _ := d["reason"].(string); reason == "" {
						t.Errorf("%s: details.reason missing: %s", shape, r.Raw)
					}
				}
			})
		}
		mustStatus(t, s.resource(key, "svc://workspace/files", map[string]any{"includeTests": "no"}), 400, "INVALID_PARAMETER")
		mustStatus(t, s.do("GET", "/v1/resources/files?includeTests=maybe", key, nil), 400, "INVALID_PARAMETER")
	})
}

func testListCacheInvalidation(t *testing.T, s *server) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"a.py": "a = 1\n", "pkg/b.py": "b = 1\n"})
	key := s.addKeyReady("pro", ws)
	list := func() []string {
		r := s.resource(key, "svc://workspace/files", nil)
		mustStatus(t, r, 200, "")
		return relPaths(t, r)
	}
	if got := list(); !reflect.DeepEqual(got, []string{"a.py", "pkg/b.py"}) {
		t.Fatalf("initial listing %v", got)
	}
	// Listed twice so the second answer comes from the cache.
	list()
	steps := []struct {
		name   string
		change func()
		want   []string
	}{
		{"new file", func() { writeTree(t, ws, map[string]string{"new_mod.py": "n = 1\n"}) },
			[]string{"a.py", "new_mod.py", "pkg/b.py"}},
		{"new directory", func() { writeTree(t, ws, map[string]string{"fresh/inner.py": "i = 1\n"}) },
			[]string{"a.py", "fresh/inner.py", "new_mod.py", "pkg/b.py"}},
		{"file in new directory", func() { writeTree(t, ws, map[string]string{"fresh/second.py": "s = 1\n"}) },
			[]string{"a.py", "fresh/inner.py", "fresh/second.py", "new_mod.py", "pkg/b.py"}},
		{"removed file", func() {
			if err := os.Remove(filepath.Join(ws, "a.py")); err != nil {
				t.Fatal(err)
			}
		}, []string{"fresh/inner.py", "fresh/second.py", "new_mod.py", "pkg/b.py"}},
		{"renamed file", func() {
			if err := os.Rename(filepath.Join(ws, "new_mod.py"), filepath.Join(ws, "pkg", "moved.py")); err != nil {
				t.Fatal(err)
			}
		}, []string{"fresh/inner.py", "fresh/second.py", "pkg/b.py", "pkg/moved.py"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.change()
			var got []string
			eventually(t, 5*time.Second, "listing reflects the change", func() bool {
				got = list()
				return reflect.DeepEqual(got, st.want)
			})
		})
	}
	// A size change of an existing file shows up too.
	t.Run("grown file", func(t *testing.T) {
		writeTree(t, ws, map[string]string{"pkg/b.py": "b = 1\nc = 2\n"})
		eventually(t, 5*time.Second, "size updated", func() bool {
			r := s.resource(key, "svc://workspace/files", map[string]any{"filter": "pkg/b.py"})
			mustStatus(t, r, 200, "")
			return num(jget(r.Body, "files", 0, "size")) == float64(len("b = 1\nc = 2\n"))
		})
	})
	// The structure resource shares the scan and sees the changes too.
	r := s.resource(key, "svc://workspace/structure", nil)
	mustStatus(t, r, 200, "")
	if n := nodes(t, r.Body["root"]); n["/pkg/moved.py"] == nil || n["/a.py"] != nil {
		t.Fatalf("structure is stale: %s", r.Raw)
	}
}

// ---- read file ----

func utf16Bytes(s string, bigEndian bool) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func testReadFile(t *testing.T, s *server) {
	ws := t.TempDir()
	var long strings.Builder
	for i := range 150 {
		fmt.Fprintf(&long, "line_%03d = %d\n", i, i)
	}
	const mib = 1 << 20
	bigLine := strings.Repeat("#", 63) + "\n" // 64 bytes
	exact := strings.Repeat(bigLine, mib/64)
	files := map[string][]byte{
		"pkg/mod.py":          []byte(long.String()),
		"bom8.py":             append([]byte{0xEF, 0xBB, 0xBF}, "x = 'é'\n"...),
		"u16le.py":            append([]byte{0xFF, 0xFE}, utf16Bytes("x = 'é😀'\n", false)...),
		"u16be.py":            append([]byte{0xFE, 0xFF}, utf16Bytes("x = 'é😀'\n", true)...),
		"u16nobom.py":         utf16Bytes("x = 'é'\n", false),
		"latin.py":            []byte("# -*- coding: latin-1 -*-\nx = '\xe9'\n"),
		"cp.py":               []byte("# coding: cp1252\nx = '\x93hi\x94 \x80'\n"),
		"nocookie_cp.py":      []byte("x = '\x93hi\x94'\n"),
		"nocookie_lat.py":     []byte("x = '\xe9'\n"),
		"ascii_cookie.py":     []byte("# coding: ascii\nx = '\xe9'\n"),
		"utf8.py":             []byte("s = 'é😀'\n"),
		"stub.pyi":            []byte("def f() -> int: ...\n"),
		"notes.txt":           []byte("plain notes\n"),
		"empty.py":            {},
		"noeol.py":            []byte("a = 1\nb = 2"),
		"crlf.py":             []byte("a = 1\r\nb = 2\r\n"),
		"exact.py":            []byte(exact),
		"big.py":              []byte(exact + "\n"),
		"dir with space/f.py": []byte("f = 1\n"),
	}
	for rel, b := range files {
		p := filepath.Join(ws, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	real := realDir(t, ws)
	pro := s.addKeyReady("pro", ws)
	free := s.addKeyReady("free", ws)

	// read fetches rel through the given shape with params.
	read := func(key, shape, rel string, params map[string]any) response {
		t.Helper()
		if shape == "generic" {
			return s.resource(key, "svc://file/"+rel, params)
		}
		q := url.Values{}
		for k, v := range params {
			switch v := v.(type) {
			case string:
				q.Set(k, v)
			default:
				j, _ := json.Marshal(v)
				q.Set(k, string(j))
			}
		}
		path := "/v1/resources/file/" + rel
		if len(q) > 0 {
			path += "?" + q.Encode()
		}
		return s.do("GET", path, key, nil)
	}
	shapes := []string{"generic", "GET"}
	// readIn reads rel asking for encoding (none when "").
	readIn := func(key, shape, rel, encoding string) response {
		t.Helper()
		params := map[string]any{}
		if encoding != "" {
			params["encoding"] = encoding
		}
		return read(key, shape, rel, params)
	}

	t.Run("content and metadata", func(t *testing.T) {
		raw := files["pkg/mod.py"]
		sum := sha256.Sum256(raw)
		fi, err := os.Stat(filepath.Join(ws, "pkg/mod.py"))
		if err != nil {
			t.Fatal(err)
		}
		for _, shape := range shapes {
			for _, rel := range []string{"pkg/mod.py", "/pkg/mod.py", "./pkg/../pkg/mod.py"} {
				r := read(pro, shape, rel, nil)
				mustStatus(t, r, 200, "")
				if r.Body["content"] != string(raw) {
					t.Errorf("%s %s: content differs", shape, rel)
				}
				if r.Body["path"] != filepath.Join(real, "pkg", "mod.py") || r.Body["relativePath"] != "pkg/mod.py" {
					t.Errorf("%s %s: path %v relativePath %v", shape, rel, r.Body["path"], r.Body["relativePath"])
				}
				md, _ := r.Body["metadata"].(map[string]any)
				if num(md["size"]) != float64(len(raw)) || num(md["lines"]) != 150 || md["encoding"] != "utf-8" ||
					md["language"] != "python" || md["hash"] != hex.EncodeToString(sum[:]) {
					t.Errorf("%s %s: metadata %v", shape, rel, md)
				}
				lm, _ := md["lastModified"].(string)
				ts, err := time.Parse(time.RFC3339, lm)
				if err != nil || fi.ModTime().Sub(ts) < 0 || fi.ModTime().Sub(ts) >= time.Millisecond {
					t.Errorf("%s %s: lastModified %q (mtime %s, %v)", shape, rel, lm, fi.ModTime().UTC(), err)
				}
				for _, k := range []string{"linesReturned", "totalLines", "lineRange"} {
					if _, ok := md[k]; ok {
						t.Errorf("%s %s: metadata.%s without lineRange", shape, rel, k)
					}
				}
			}
		}
	})

	t.Run("file kinds", func(t *testing.T) {
		tests := []struct {
			rel      string
			lines    float64
			language any // nil: absent
		}{
			{"stub.pyi", 1, "python-stub"},
			{"notes.txt", 1, nil},
			{"empty.py", 0, "python"},
			{"noeol.py", 2, "python"},
			{"crlf.py", 2, "python"},
			{"dir%20with%20space/f.py", 1, "python"},
		}
		for _, tt := range tests {
			for _, shape := range shapes {
				r := read(pro, shape, tt.rel, nil)
				mustStatus(t, r, 200, "")
				md := r.Body["metadata"].(map[string]any)
				lang, has := md["language"]
				if num(md["lines"]) != tt.lines || (tt.language == nil) == has || (has && lang != tt.language) {
					t.Errorf("%s %s: metadata %v, want lines %v language %v", shape, tt.rel, md, tt.lines, tt.language)
				}
			}
		}
		if r := read(pro, "generic", "crlf.py", nil); r.Body["content"] != "a = 1\r\nb = 2\r\n" {
			t.Errorf("CRLF not kept: %q", r.Body["content"])
		}
	})

	t.Run("lineRange", func(t *testing.T) {
		lines := strings.SplitAfter(string(files["pkg/mod.py"]), "\n")
		tests := []struct {
			name               string
			start, end         int
			wantStart, wantEnd int
		}{
			{"50 to 100 is 51 lines", 50, 100, 50, 100},
			{"first line", 0, 0, 0, 0},
			{"last line", 149, 149, 149, 149},
			{"end clamped", 140, 500, 140, 149},
			{"whole file", 0, 149, 0, 149},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, shape := range shapes {
					r := read(pro, shape, "pkg/mod.py", map[string]any{"lineRange": map[string]any{"start": tt.start, "end": tt.end}})
					mustStatus(t, r, 200, "")
					want := strings.Join(lines[tt.wantStart:tt.wantEnd+1], "")
					if r.Body["content"] != want {
						t.Errorf("%s: content %q, want %q", shape, r.Body["content"], want)
					}
					md := r.Body["metadata"].(map[string]any)
					n := float64(tt.wantEnd - tt.wantStart + 1)
					if num(md["linesReturned"]) != n || num(md["totalLines"]) != 150 || num(md["lines"]) != 150 {
						t.Errorf("%s: linesReturned %v totalLines %v lines %v, want %v 150 150", shape, md["linesReturned"], md["totalLines"], md["lines"], n)
					}
					if num(jget(md, "lineRange", "start")) != float64(tt.wantStart) || num(jget(md, "lineRange", "end")) != float64(tt.wantEnd) {
						t.Errorf("%s: metadata.lineRange %v, want %d-%d", shape, md["lineRange"], tt.wantStart, tt.wantEnd)
					}
					sum := sha256.Sum256(files["pkg/mod.py"])
					if md["hash"] != hex.EncodeToString(sum[:]) || num(md["size"]) != float64(len(files["pkg/mod.py"])) {
						t.Errorf("%s: hash/size must describe the whole file: %v", shape, md)
					}
				}
			})
		}
		if r := read(pro, "generic", "pkg/mod.py", map[string]any{"lineRange": map[string]any{"start": 50, "end": 100}}); strings.Count(fmt.Sprint(r.Body["content"]), "\n") != 51 {
			t.Errorf("50..100 did not return 51 lines: %s", r.Raw)
		}
		r := read(pro, "generic", "utf8.py", map[string]any{"lineRange": map[string]any{"start": 0, "end": 0}, "includeMetadata": false})
		mustStatus(t, r, 200, "")
		if _, ok := r.Body["metadata"]; ok || r.Body["content"] != string(files["utf8.py"]) {
			t.Errorf("lineRange without metadata: %s", r.Raw)
		}
	})

	t.Run("lineRange invalid", func(t *testing.T) {
		tests := []struct {
			name  string
			lr    any
			param string
		}{
			{"start after end", map[string]any{"start": 100, "end": 50}, "lineRange"},
			{"start beyond last line", map[string]any{"start": 150, "end": 160}, "lineRange"},
			{"negative start", map[string]any{"start": -1, "end": 5}, "lineRange.start"},
			{"negative end", map[string]any{"start": 0, "end": -5}, "lineRange.end"},
			{"missing end", map[string]any{"start": 1}, "lineRange.end"},
			{"fractional", map[string]any{"start": 1.5, "end": 3}, "lineRange.start"},
			{"unknown member", map[string]any{"start": 1, "end": 3, "step": 1}, "lineRange.step"},
			{"not an object", "1-3", "lineRange"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, shape := range shapes {
					r := read(pro, shape, "pkg/mod.py", map[string]any{"lineRange": tt.lr})
					mustStatus(t, r, 400, "INVALID_PARAMETER")
					if p := r.ErrDetails()["parameter"]; p != tt.param {
						t.Errorf("%s: details.parameter %v, want %s", shape, p, tt.param)
					}
					if strings.Contains(string(r.Raw), "line_") {
						t.Errorf("%s: content leaked in error: %s", shape, r.Raw)
					}
				}
			})
		}
	})

	t.Run("encodings", func(t *testing.T) {
		tests := []struct {
			rel, request string
			content      string
			encoding     string
		}{
			{"bom8.py", "", "x = 'é'\n", "utf-8"},
			{"u16le.py", "", "x = 'é😀'\n", "utf-16"},
			{"u16be.py", "", "x = 'é😀'\n", "utf-16"},
			{"u16be.py", "latin-1", "x = 'é😀'\n", "utf-16"}, // the BOM wins over the request
			{"latin.py", "", "# -*- coding: latin-1 -*-\nx = 'é'\n", "latin-1"},
			{"cp.py", "", "# coding: cp1252\nx = '“hi” €'\n", "cp1252"},
			{"nocookie_cp.py", "cp1252", "x = '“hi”'\n", "cp1252"},
			{"nocookie_lat.py", "latin-1", "x = 'é'\n", "latin-1"},
			{"nocookie_lat.py", "iso-8859-1", "x = 'é'\n", "latin-1"},
			{"u16nobom.py", "utf-16", "x = 'é'\n", "utf-16"},
			{"utf8.py", "", "s = 'é😀'\n", "utf-8"},
			{"utf8.py", "utf-8", "s = 'é😀'\n", "utf-8"},
			{"stub.pyi", "ascii", "def f() -> int: ...\n", "ascii"},
		}
		for _, tt := range tests {
			t.Run(tt.rel+"/"+tt.request, func(t *testing.T) {
				for _, shape := range shapes {
					r := readIn(pro, shape, tt.rel, tt.request)
					mustStatus(t, r, 200, "")
					if r.Body["content"] != tt.content {
						t.Errorf("%s: content %q, want %q", shape, r.Body["content"], tt.content)
					}
					md := r.Body["metadata"].(map[string]any)
					sum := sha256.Sum256(files[tt.rel])
					if md["encoding"] != tt.encoding || md["hash"] != hex.EncodeToString(sum[:]) || num(md["size"]) != float64(len(files[tt.rel])) {
						t.Errorf("%s: metadata %v, want encoding %s, hash and size of the raw bytes", shape, md, tt.encoding)
					}
				}
			})
		}
	})

	t.Run("encoding errors", func(t *testing.T) {
		tests := []struct {
			rel, request        string
			requested, detected string
		}{
			{"nocookie_cp.py", "", "utf-8", "cp1252"},
			{"nocookie_lat.py", "utf-8", "utf-8", "cp1252"},
			{"u16nobom.py", "", "utf-8", "utf-16"},
			{"ascii_cookie.py", "", "utf-8", "ascii"},
			{"utf8.py", "ascii", "ascii", "utf-8"},
			{"nocookie_cp.py", "ascii", "ascii", "cp1252"},
		}
		for _, tt := range tests {
			t.Run(tt.rel+"/"+tt.request, func(t *testing.T) {
				for _, shape := range shapes {
					r := readIn(pro, shape, tt.rel, tt.request)
					mustStatus(t, r, 422, "ENCODING_ERROR")
					d := r.ErrDetails()
					if d["path"] != tt.rel || d["requestedEncoding"] != tt.requested || d["detectedEncoding"] != tt.detected {
						t.Errorf("%s: details %v, want path %s requestedEncoding %s detectedEncoding %s", shape, d, tt.rel, tt.requested, tt.detected)
					}
				}
			})
		}
		for _, shape := range shapes {
			r := read(pro, shape, "utf8.py", map[string]any{"encoding": "klingon"})
			mustStatus(t, r, 400, "INVALID_PARAMETER")
			if d := r.ErrDetails(); d["parameter"] != "encoding" || d["value"] != "klingon" {
				t.Errorf("%s: unknown encoding details %v", shape, d)
			}
		}
	})

	t.Run("not found", func(t *testing.T) {
		for _, rel := range []string{"missing.py", "pkg/missing.py", "nodir/deeper/x.py", "pkg", "pkg/mod.py/x"} {
			for _, shape := range shapes {
				r := read(pro, shape, rel, nil)
				mustStatus(t, r, 404, "FILE_NOT_FOUND")
				if d := r.ErrDetails(); d["path"] != rel || d["workspaceRoot"] != real {
					t.Errorf("%s %s: details %v, want path %s workspaceRoot %s", shape, rel, d, rel, real)
				}
			}
		}
		// The path is percent-decoded once: %252e%252e is the literal name "%2e%2e".
		r := s.resource(pro, "svc://file/%252e%252e/pkg/mod.py", nil)
		mustStatus(t, r, 404, "FILE_NOT_FOUND")
		// A URI naming no file is a bad parameter, not a read of the root.
		mustStatus(t, s.resource(pro, "svc://file/", nil), 400, "INVALID_PARAMETER")
	})

	t.Run("size cap", func(t *testing.T) {
		for _, shape := range shapes {
			r := read(free, shape, "big.py", nil)
			mustStatus(t, r, 413, "FILE_TOO_LARGE")
			d := r.ErrDetails()
			if num(d["size"]) != mib+1 || num(d["limit"]) != mib {
				t.Errorf("%s: details %v, want size %d limit %d", shape, d, mib+1, mib)
			}
			if sg, _ := d["suggestion"].(string); sg == "" {
				t.Errorf("%s: no suggestion: %s", shape, r.Raw)
			}
			if strings.Contains(string(r.Raw), "####") {
				t.Errorf("%s: content in the error", shape)
			}
			// At the cap is allowed; a larger tier reads the bigger file.
			ok := read(free, shape, "exact.py", map[string]any{"includeMetadata": false})
			mustStatus(t, ok, 200, "")
			if c, _ := ok.Body["content"].(string); len(c) != mib {
				t.Errorf("%s: exact.py content %d bytes", shape, len(c))
			}
			mustStatus(t, read(pro, shape, "big.py", map[string]any{"includeMetadata": false}), 200, "")
		}
		// lineRange reads part of a file over the cap.
		r := read(free, "generic", "big.py", map[string]any{"lineRange": map[string]any{"start": 16384, "end": 16384}})
		mustStatus(t, r, 200, "")
		if r.Body["content"] != "\n" || num(jget(r.Body, "metadata", "totalLines")) != 16385 {
			t.Errorf("range of big file: content %q metadata %v", r.Body["content"], r.Body["metadata"])
		}
		// ...but not more than the cap's worth of lines.
		r = read(free, "generic", "big.py", map[string]any{"lineRange": map[string]any{"start": 0, "end": 16384}})
		mustStatus(t, r, 413, "FILE_TOO_LARGE")
		if d := r.ErrDetails(); num(d["limit"]) != mib || d["suggestion"] == nil || d["suggestion"] == "" {
			t.Errorf("over-cap range: details %v", d)
		}
	})

	t.Run("includeMetadata false", func(t *testing.T) {
		for _, shape := range shapes {
			r := read(pro, shape, "utf8.py", map[string]any{"includeMetadata": false})
			mustStatus(t, r, 200, "")
			if _, ok := r.Body["metadata"]; ok {
				t.Errorf("%s: metadata present: %s", shape, r.Raw)
			}
			if r.Body["content"] != "s = 'é😀'\n" || r.Body["relativePath"] != "utf8.py" || r.Body["path"] != filepath.Join(real, "utf8.py") {
				t.Errorf("%s: record %s", shape, r.Raw)
			}
		}
		mustStatus(t, s.do("GET", "/v1/resources/file/utf8.py?includeMetadata=nah", pro, nil), 400, "INVALID_PARAMETER")
	})
}

// ---- health ----

func testHealth(t *testing.T, s *server) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"a.py": "a = 1\n", "pkg/b.py": "b = 1\n", "pkg/c.pyi": "c: int\n", "notes.txt": "n\n", ".h.py": "h = 1\n"})
	key := s.addKeyReady("pro", ws)
	check := func(t *testing.T, r response, workspace, metrics bool) {
		t.Helper()
		mustStatus(t, r, 200, "")
		if st := r.Body["status"]; st != "healthy" && st != "degraded" && st != "unhealthy" {
			t.Errorf("status %v", st)
		}
		if v, _ := jget(r.Body, "server", "version").(string); v == "" {
			t.Errorf("server.version missing: %s", r.Raw)
		}
		if v, _ := jget(r.Body, "server", "engineVersion").(string); v == "" {
			t.Errorf("server.engineVersion missing: %s", r.Raw)
		}
		if up := num(jget(r.Body, "server", "uptime")); math.IsNaN(up) || up < 0 {
			t.Errorf("server.uptime %v", jget(r.Body, "server", "uptime"))
		}
		w, hasW := r.Body["workspace"].(map[string]any)
		if hasW != workspace {
			t.Fatalf("workspace present %v, want %v: %s", hasW, workspace, r.Raw)
		}
		if hasW {
			if _, ok := w["loaded"].(bool); !ok {
				t.Errorf("workspace.loaded %v", w["loaded"])
			}
			if _, ok := w["pythonVersion"].(string); !ok {
				t.Errorf("workspace.pythonVersion %v", w["pythonVersion"])
			}
			if p := num(w["indexingProgress"]); math.IsNaN(p) || p < 0 || p > 100 {
				t.Errorf("workspace.indexingProgress %v", w["indexingProgress"])
			}
			if math.IsNaN(num(w["fileCount"])) {
				t.Errorf("workspace.fileCount %v", w["fileCount"])
			}
		}
		m, hasM := r.Body["metrics"].(map[string]any)
		if hasM != metrics {
			t.Fatalf("metrics present %v, want %v: %s", hasM, metrics, r.Raw)
		}
		if hasM {
			for _, k := range []string{"requestsPerMinute", "avgResponseTime", "errorRate"} {
				if v := num(m[k]); math.IsNaN(v) || v < 0 {
					t.Errorf("metrics.%s %v", k, m[k])
				}
			}
			if er := num(m["errorRate"]); er > 100 {
				t.Errorf("errorRate %v is not a percentage", er)
			}
		}
	}
	t.Run("defaults", func(t *testing.T) {
		check(t, s.do("GET", "/v1/tools/health_check", key, nil), true, false)
		check(t, s.tool(key, "health_check", map[string]any{}), true, false)
		check(t, s.tool(key, "health_check", nil), true, false)
		check(t, s.do("POST", "/v1/tools/health_check", key, map[string]any{}), true, false)
	})
	t.Run("workspace loaded", func(t *testing.T) {
		var r response
		eventually(t, 60*time.Second, "workspace.loaded", func() bool {
			r = s.do("GET", "/v1/tools/health_check", key, nil)
			return jget(r.Body, "workspace", "loaded") == true
		})
		check(t, r, true, false)
		if fc := num(jget(r.Body, "workspace", "fileCount")); fc != 3 {
			t.Errorf("fileCount %v, want 3 Python files", fc)
		}
		if p := num(jget(r.Body, "workspace", "indexingProgress")); p != 100 {
			t.Errorf("indexingProgress %v when loaded", p)
		}
	})
	t.Run("flags", func(t *testing.T) {
		// One failing request so the error rate has something to count.
		mustStatus(t, s.resource(key, "svc://file/nope.py", nil), 404, "FILE_NOT_FOUND")
		tests := []struct {
			name           string
			r              response
			workspace, met bool
		}{
			{"GET includeWorkspace=false", s.do("GET", "/v1/tools/health_check?includeWorkspace=false", key, nil), false, false},
			{"GET includeMetrics=true", s.do("GET", "/v1/tools/health_check?includeMetrics=true", key, nil), true, true},
			{"GET both", s.do("GET", "/v1/tools/health_check?includeMetrics=true&includeWorkspace=false", key, nil), false, true},
			{"generic includeMetrics", s.tool(key, "health_check", map[string]any{"includeMetrics": true}), true, true},
			{"generic includeMetrics false", s.tool(key, "health_check", map[string]any{"includeMetrics": false, "includeWorkspace": true}), true, false},
			{"dedicated POST", s.do("POST", "/v1/tools/health_check", key, map[string]any{"includeWorkspace": false, "includeMetrics": true}), false, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				check(t, tt.r, tt.workspace, tt.met)
				if tt.met {
					if num(jget(tt.r.Body, "metrics", "requestsPerMinute")) <= 0 {
						t.Errorf("requestsPerMinute 0 after requests: %s", tt.r.Raw)
					}
					if num(jget(tt.r.Body, "metrics", "errorRate")) <= 0 {
						t.Errorf("errorRate 0 after a failed request: %s", tt.r.Raw)
					}
				}
			})
		}
	})
	t.Run("bad flags", func(t *testing.T) {
		for _, r := range []response{
			s.do("GET", "/v1/tools/health_check?includeMetrics=maybe", key, nil),
			s.tool(key, "health_check", map[string]any{"includeWorkspace": "yes"}),
			s.tool(key, "health_check", map[string]any{"verbose": true}),
		} {
			mustStatus(t, r, 400, "INVALID_PARAMETER")
		}
	})
}

// ---- workspace removed while serving ----

func testWorkspaceNotFound(t *testing.T, s *server) {
	parent := t.TempDir()
	ws := filepath.Join(parent, "gone")
	writeTree(t, ws, map[string]string{"a.py": "a = 1\n"})
	key := s.addKeyReady("pro", ws)
	mustStatus(t, s.resource(key, "svc://workspace/structure", nil), 200, "")
	mustStatus(t, s.resource(key, "svc://workspace/files", nil), 200, "")
	if err := os.RemoveAll(ws); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		r    func() response
	}{
		{"structure generic", func() response { return s.resource(key, "svc://workspace/structure", nil) }},
		{"structure GET", func() response { return s.do("GET", "/v1/resources/structure", key, nil) }},
		{"files generic", func() response { return s.resource(key, "svc://workspace/files", nil) }},
		{"files GET", func() response { return s.do("GET", "/v1/resources/files", key, nil) }},
		{"file generic", func() response { return s.resource(key, "svc://file/a.py", nil) }},
		{"file GET", func() response { return s.do("GET", "/v1/resources/file/a.py", key, nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r()
			mustStatus(t, r, 404, "WORKSPACE_NOT_FOUND")
			if d := r.ErrDetails(); d["workspaceRoot"] != ws {
				t.Fatalf("details.workspaceRoot %v, want %s", d["workspaceRoot"], ws)
			}
		})
	}
	h := s.do("GET", "/v1/tools/health_check", key, nil)
	mustStatus(t, h, 200, "")
	if h.Body["status"] != "unhealthy" {
		t.Errorf("health of a vanished workspace: %s", h.Raw)
	}
	// Recreated, it is served again.
	writeTree(t, ws, map[string]string{"b.py": "b = 1\n"})
	r := s.resource(key, "svc://workspace/files", nil)
	mustStatus(t, r, 200, "")
	if got := relPaths(t, r); !reflect.DeepEqual(got, []string{"b.py"}) {
		t.Fatalf("recreated workspace lists %v", got)
	}
}
