package navigation

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// TestImports pins how the one module map answers a file's imports for
// get_diagnostics. Where the map diagnostics kept before (host/service,
// diagcontext.go) answered differently, the case says which answer is
// right and why.
func TestImports(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"app/__init__.py": "",
		"app/helpers.py":  "def scale(v): return v\n",
		"app/helpers.pyi": "def scale(v: float) -> float: ...\n",
		"app/main.py": "import os\nimport app.nothere\nimport app.fast\nfrom .helpers import scale, unused_name\n" +
			"from . import helpers\nfrom ..outside import thing\nimport lib.core\nfrom .helpers import *\n" +
			"scale(1)\nhelpers.scale(2)\n",
		"app/fast.cpython-312-x86_64-linux-gnu.so": "",
		"src/lib/__init__.py":                      "",
		"src/lib/core.py":                          "X = 1\n",
		"tools/helpers.py":                         "",
		"tools/deep/sibling.py":                    "",
		"tools/deep/run.py":                        "import helpers\nimport sibling\n",
		"vendor/pkg/__init__.py":                   "",
		"vendor/pkg/mod.py":                        "from . import other\n",
		"my-scripts/run.py":                        "import os\n",
	})
	x := index.New(index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: native(t), Parallel: 1,
		ListDir: func(rel string) ([]string, error) {
			ents, err := os.ReadDir(filepath.Join(root, rel))
			names := make([]string, len(ents))
			for i, e := range ents {
				names[i] = e.Name()
			}
			return names, err
		}})
	if err := x.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	imports := func(rel string) *index.FileImports {
		t.Helper()
		abs := filepath.Join(root, rel)
		text, _ := os.ReadFile(abs)
		fi, err := x.Imports(context.Background(), abs, text)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	bySpec := func(fi *index.FileImports) map[string]index.Import {
		m := map[string]index.Import{}
		for _, im := range fi.Imports {
			m[im.Spec()] = im
		}
		return m
	}

	main := imports("app/main.py")
	if main.Module != "app.main" || main.IsInit {
		t.Errorf("module %q init %v", main.Module, main.IsInit)
	}
	got := bySpec(main)
	for spec, want := range map[string]index.Import{
		"os":          {Module: "os", Status: abi.ImportAbsent, Name: "os"},
		"app":         {Module: "app", Status: abi.ImportFound, Name: "app", Rel: "app/__init__.py", RelIsInit: true},
		"app.nothere": {Module: "app.nothere", Status: abi.ImportTopOnly, Name: "app.nothere"},
		// A compiled extension module is a module, though not a source.
		"app.fast": {Module: "app.fast", Status: abi.ImportFound, Name: "app.fast"},
		// The stub defines the module for importers, as in pyright.
		".helpers": {Level: 1, Module: "helpers", Status: abi.ImportFound, Name: "app.helpers", Rel: "app/helpers.pyi", NamesUsed: true},
		".":        {Level: 1, Status: abi.ImportFound, Name: "app", Rel: "app/__init__.py", RelIsInit: true, NamesUsed: true},
		// Was ImportAbsent (not judged): two dots from app/main.py leave
		// the top-level package. Python refuses it ("attempted relative
		// import beyond top-level package") and pyright, which resolves
		// relative imports by directory, finds no outside.py either: an
		// error both ways, so the import is judged, as navigation links it.
		"..outside": {Level: 2, Module: "outside", Status: abi.ImportTopOnly, Name: "outside"},
		"lib.core":  {Module: "lib.core", Status: abi.ImportFound, Name: "lib.core", Rel: "src/lib/core.py"},
	} {
		if got[spec] != want {
			t.Errorf("%s:\n got %+v\nwant %+v", spec, got[spec], want)
		}
	}

	// Was ImportFound: the old map tried every directory above the
	// importing file. Python puts only the script's own directory on
	// sys.path, and pyright resolves a local import from the importing
	// file's directory only, so tools/helpers.py is not `helpers` for
	// tools/deep/run.py; its sibling is.
	run := bySpec(imports("tools/deep/run.py"))
	if run["helpers"].Status != abi.ImportAbsent || run["sibling"].Status != abi.ImportFound || run["sibling"].Rel != "tools/deep/sibling.py" {
		t.Errorf("tools/deep/run.py: %+v", run)
	}

	// Was "vendor.pkg.mod": a regular package below a plain directory is
	// named from its top package, as it is imported once installed and as
	// navigation names it; `from . import other` then resolves to
	// pkg.other, which the old name would have missed for the analyzer's
	// matching of context modules.
	if mod := imports("vendor/pkg/mod.py"); mod.Module != "pkg.mod" || bySpec(mod)["."].Name != "pkg" {
		t.Errorf("vendor/pkg/mod.py: module %q, imports %+v", mod.Module, mod.Imports)
	}
	// A path that is not importable has no module name.
	if m := imports("my-scripts/run.py").Module; m != "" {
		t.Errorf("my-scripts/run.py is module %q", m)
	}
}

// TestImportsFollowEdits: the answer is about the text the caller read,
// and a module added to the workspace is found once the index rescans.
func TestImportsFollowEdits(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"app/__init__.py": "", "app/main.py": "import app.later\n"})
	x := newTestIndex(t, root, "")
	abs := filepath.Join(root, "app/main.py")
	status := func(text, spec string) int {
		t.Helper()
		fi, err := x.Imports(context.Background(), abs, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range fi.Imports {
			if im.Spec() == spec {
				return im.Status
			}
		}
		return -1
	}
	if got := status("import app.later\n", "app.later"); got != abi.ImportTopOnly {
		t.Fatalf("before: %d", got)
	}
	write(t, root, map[string]string{"app/main.py": "import app.other\n"})
	if got := status("import app.other\n", "app.other"); got != abi.ImportTopOnly {
		t.Fatalf("an edited file's new import: %d", got)
	}
	write(t, root, map[string]string{"app/other.py": ""})
	if err := x.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := status("import app.other\n", "app.other"); got != abi.ImportFound {
		t.Fatalf("a new module: %d", got)
	}
}
