package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rawFileAccess are the functions that open, read, list or stat a file by
// path. On a workspace path they bypass host/workspace, its confinement
// (no escape through ".." or a symbolic link) and its encoding rules.
// Referring to one counts, called or not (var openFile = os.OpenFile).
var rawFileAccess = map[string][]string{
	"os":                    {"ReadFile", "ReadDir", "Open", "OpenFile", "Stat", "Lstat", "OpenRoot", "OpenInRoot", "DirFS"},
	"path/filepath":         {"Walk", "WalkDir", "Glob"},
	"io/ioutil":             {"ReadFile", "ReadDir"},
	"syscall":               {"Open", "Stat", "Lstat"},
	"golang.org/x/sys/unix": {"Open", "Openat", "Openat2", "Stat", "Lstat", "Fstatat"},
	// The kernel's non-blocking bounded reader opens whatever path it is
	// given; its callers are listed by their use of it.
	"github.com/pyws/pyws/host/regularfile": {"Read"},
}

// The code checked is host, api and cmd and every package of this module
// their production code imports (a plugin package the kernel links runs
// in the kernel), test files excluded; the confined reader itself is
// exempt.
var (
	confinedRoots = []string{"./host/...", "./api/...", "./cmd/..."}
	confinedOwner = "host/workspace"
)

// rawAccessAllowed lists the functions that may use rawFileAccess outside
// host/workspace, because the paths they touch are not workspace files or
// because they are the edit engine. A function is "Name", a method
// "Type.Name", package-level code "". An entry that matches nothing must
// go: the list may only shrink.
var rawAccessAllowed = []allowedAccess{
	{"host/tenants/keys.go", []string{"Store.reload", "readKeysFile"}, "the keys file (--keys)"},
	{"host/tenants/keys.go", []string{"Add"}, "`keys add` checks that a key's workspace root is a directory; it reads nothing in it"},
	{"host/plugins/load.go", []string{"pluginDirs", "plugin.verify", "marked"}, "plugin directories (--plugins) and their modules; the compile cache's marks of checked modules"},
	{"cmd/pyws/stubs.go", []string{"openStubs"}, "the typeshed stubs directory (--stubs), read through plugin-sdk/typeshed"},
	{"host/plugins/manifest.go", []string{"ReadManifest"}, "a plugin's manifest.json"},
	{"host/plugins/engine.go", []string{"guest.load"}, "a plugin's wasm module, in the worker (loaded at the plugin's first call)"},
	{"host/plugins/pack.go", []string{"Pack", "Seal", "seal"}, "`plugin pack`: the analyzer's source directory and the plugins directory it writes"},
	{"host/plugins/rss_linux.go", []string{"residentBytes"}, "/proc/<pid>/statm of a worker"},
	{"host/index/index.go", []string{"readCached"}, "the summaries cached under --state/index (workspace files) and --state/stubs (typeshed's stubs, whose own bytes come through plugin-sdk/typeshed's fs.FS, opened by openStubs)"},
	{"host/index/index.go", []string{"Index.load", "Index.statChanged"}, "the stat sweep over paths the workspace listed: only size and mtime, which decide what to re-read through Config.Read (workspace.ReadSource)"},
	{"host/index/stat_linux.go", []string{"unchangedOnDisk"}, "the stat sweep's stat (Index.statChanged) without os.Stat's allocation: only size and mtime"},
	{"host/index/stat_other.go", []string{"unchangedOnDisk"}, "the stat sweep's stat (Index.statChanged): only size and mtime"},
	{"host/edits/journal.go", []string{"Engine.write", "Engine.recover", "Engine.removeStaleNew"}, "the edit journal under --state/edits"},
	{"host/edits/locks.go", []string{"Engine.flockStripes"}, "the edit engine's lock files under --state"},
	{"host/edits/journal.go", []string{"Engine.syncDir", "Engine.recoverJournal"}, "the edit engine's journal under --state: fsync of its directory, and recovery's reading of each journal"},
	{"host/edits/place.go", []string{"openPlace", "", "place.lstat"}, "the edit engine, the only writer: opens the directory of a file it edits through an os.Root at the workspace root (so a link swapped in later cannot lead out) and then works relative to that descriptor by the file's own name (openat, renameat, unlinkat with O_NOFOLLOW)"},
	{"host/index/stdlibdocs.go", []string{"readStdlibSource"}, "the interpreter's standard library sources (sysconfig's stdlib directory, as its probe reported it), read for the docstrings typeshed's stubs lack; only dotted-identifier module names, regular files under 4 MiB"},
	{"host/index/site.go", []string{"readSiteSource"}, "installed packages under the interpreter's search directories (sys.path without the standard library, as its probe reported it), read for their types; only dotted-identifier module names, regular files under 4 MiB"},
	{"host/interpreter/interpreter.go", []string{"Find"}, "looks for a virtual environment's python executable to run it; reads nothing from it"},
	{"host/pyproject/watched.go", []string{"Watched.Config"}, "stats pyproject.toml (size and modification time) to notice a change; its bytes come through host/workspace"},
	{"host/interpreter/interpreter.go", []string{"Prober.remembered", "fingerprint"}, "the interpreter's remembered answer under --state/interpreters, and stats of the interpreter file and the directories it named (size and modification time), never workspace files"},
	{"host/regularfile/regularfile.go", []string{"Read"}, "opens the path its caller gives (each caller is listed here by its use of regularfile.Read)"},
	{"cmd/pyws/prepare.go", []string{"seedCompileCache", "sameDir", "copyFileAtomic"}, "copies the prepared compiled plugins (--prepared, beside the binary) into --state's compilation cache"},
}

type allowedAccess struct {
	file   string
	funcs  []string
	reason string
}

// rawAccess is one use of a rawFileAccess function.
type rawAccess struct {
	file, fn, call string // call as written, e.g. "os.ReadFile"
	line           int
}

func (r rawAccess) String() string {
	fn := r.fn
	if fn == "" {
		fn = "package scope"
	}
	return r.file + ":" + strconv.Itoa(r.line) + " in " + fn + ": " + r.call
}

// findRawAccess returns the uses of rawFileAccess in f, each named by the
// function that holds it; file is f's repository path, for the results.
func findRawAccess(fset *token.FileSet, file string, f *ast.File) []rawAccess {
	// The file's names for the packages of rawFileAccess; an import may be
	// renamed.
	local := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := rawFileAccess[path]; !ok {
			continue
		}
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = path
	}
	if len(local) == 0 {
		return nil
	}
	var found []rawAccess
	for _, d := range f.Decls {
		fn := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = funcName(fd)
		}
		ast.Inspect(d, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// A package name has no Obj; a local variable shadowing it has.
			id, ok := sel.X.(*ast.Ident)
			if !ok || id.Obj != nil {
				return true
			}
			if path, ok := local[id.Name]; ok && slices.Contains(rawFileAccess[path], sel.Sel.Name) {
				found = append(found, rawAccess{file: file, fn: fn, call: id.Name + "." + sel.Sel.Name, line: fset.Position(sel.Pos()).Line})
			}
			return true
		})
	}
	return found
}

// funcName is "Name" for a function, "Type.Name" for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if idx, ok := t.(*ast.IndexExpr); ok { // a generic receiver
		t = idx.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// unconfined returns what found has that allowed does not permit, and
// the entries of allowed that permit nothing in found (stale).
func unconfined(found []rawAccess, allowed []allowedAccess) (forbidden []rawAccess, stale []string) {
	used := make([]bool, len(allowed))
	for _, r := range found {
		ok := false
		for i, a := range allowed {
			if a.file == r.file && slices.Contains(a.funcs, r.fn) {
				used[i], ok = true, true
			}
		}
		if !ok {
			forbidden = append(forbidden, r)
		}
	}
	for i, a := range allowed {
		if !used[i] {
			stale = append(stale, a.file+" "+strings.Join(a.funcs, ", "))
		}
	}
	return forbidden, stale
}

// rawAccessInKernel parses every non-test Go file of the packages checked
// (build tags ignored, so every platform's files count) and returns their
// uses of rawFileAccess.
func rawAccessInKernel(t *testing.T) []rawAccess {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{.Dir}}"}, confinedRoots...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	var found []rawAccess
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, dir, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(pkg, module) || strings.TrimPrefix(pkg, module) == confinedOwner {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			// With object resolution, so a local variable shadowing a
			// package name is seen.
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, findRawAccess(fset, strings.TrimPrefix(pkg, module)+"/"+name, f)...)
		}
	}
	return found
}

// TestWorkspaceReadsAreConfined: outside host/workspace, the kernel
// (host, api, cmd and what they link) never opens, reads, lists or stats a
// path except where rawAccessAllowed says why (docs/architecture.md,
// "Layers").
func TestWorkspaceReadsAreConfined(t *testing.T) {
	found := rawAccessInKernel(t)
	if len(found) == 0 {
		t.Fatal("no raw file access found at all: is the scan looking at the right tree?")
	}
	forbidden, stale := unconfined(found, rawAccessAllowed)
	for _, r := range forbidden {
		t.Errorf("%s: read workspace files through host/workspace (ReadSource, PythonFiles, ...), or add the function to rawAccessAllowed with the reason its path is not a workspace file", r)
	}
	for _, s := range stale {
		t.Errorf("rawAccessAllowed: %s no longer reads files by path: remove the entry", s)
	}
}

// TestConfinementCheckCatchesPlantedReads runs the check over a small
// source with raw reads in the forms the scan must see.
func TestConfinementCheckCatchesPlantedReads(t *testing.T) {
	const src = `package planted

import (
	"os"
	fp "path/filepath"
)

var openFile = os.OpenFile // a reference counts, not only a call

type Index struct{}

func (x *Index) load(abs string) ([]byte, error) { return os.ReadFile(abs) }

func walk(root string) error { return fp.WalkDir(root, nil) }

func shadowed() {
	os := struct{ Open func() }{}
	os.Open() // a local variable named os, not the package
}

func allowed(keys string) ([]byte, error) { return os.ReadFile(keys) }

func harmless() error { return os.MkdirAll("/tmp/x", 0o700) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := findRawAccess(fset, "host/planted/planted.go", f)
	var got []string
	for _, r := range found {
		got = append(got, r.String())
	}
	want := []string{
		"host/planted/planted.go:8 in package scope: os.OpenFile",
		"host/planted/planted.go:12 in Index.load: os.ReadFile",
		"host/planted/planted.go:14 in walk: fp.WalkDir",
		"host/planted/planted.go:21 in allowed: os.ReadFile",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	allow := []allowedAccess{
		{file: "host/planted/planted.go", funcs: []string{"allowed"}, reason: "reads the keys file"},
		{file: "host/planted/planted.go", funcs: []string{"gone"}, reason: "no longer reads anything"},
	}
	forbidden, stale := unconfined(found, allow)
	if len(forbidden) != 3 || slices.ContainsFunc(forbidden, func(r rawAccess) bool { return r.fn == "allowed" }) {
		t.Errorf("forbidden = %v, want the three uses outside allowed", forbidden)
	}
	if !slices.Equal(stale, []string{"host/planted/planted.go gone"}) {
		t.Errorf("stale = %v, want the entry for gone", stale)
	}
}
