package service

import (
	"reflect"
	"strings"
	"testing"
)

func TestScanImports(t *testing.T) {
	src := "import os, sys as system\nfrom ..pkg.mod import (\n    a,\n    b as c,  # note\n)\nfrom . import x\n" +
		"import a.b \\\n    .c\nif x:\n    import lazy  # comment\nx = 'import nothing'\n"
	got := scanImports([]byte(src))
	want := []scannedImport{
		{module: "os"}, {module: "sys"},
		{level: 2, module: "pkg.mod", names: []string{"a", "b as c"}},
		{level: 1, module: "", names: []string{"x"}},
		{module: "a.b"},
		{module: "lazy"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestDottedPathAndModuleName(t *testing.T) {
	for _, tc := range []struct {
		rel    string
		hasSrc bool
		want   string
		ok     bool
	}{
		{"pkg/sub/mod.py", false, "pkg.sub.mod", true},
		{"pkg/__init__.py", false, "pkg", true},
		{"pkg/stub.pyi", false, "pkg.stub", true},
		{"src/pkg/mod.py", true, "pkg.mod", true},
		{"my-scripts/run.py", false, "", false},
		{"__init__.py", false, "", false},
		{"notes.txt", false, "", false},
	} {
		got, ok := moduleName(tc.rel, tc.hasSrc)
		if got != tc.want || ok != tc.ok {
			t.Errorf("moduleName(%q, %v) = %q, %v; want %q, %v", tc.rel, tc.hasSrc, got, ok, tc.want, tc.ok)
		}
	}
}

func TestModuleForAndRequiresPython(t *testing.T) {
	for _, tc := range []struct {
		importer string
		init     bool
		level    int
		mod      string
		want     string
	}{
		{"app.main", false, 1, "helpers", "app.helpers"},
		{"app", true, 1, "helpers", "app.helpers"},
		{"app.sub.main", false, 2, "", "app"},
		{"main", false, 2, "x", ""},
		{"app.main", false, 0, "os.path", "os.path"},
	} {
		if got := moduleFor(tc.importer, tc.init, tc.level, tc.mod, ""); got != tc.want {
			t.Errorf("moduleFor(%q, %v, %d, %q) = %q, want %q", tc.importer, tc.init, tc.level, tc.mod, got, tc.want)
		}
	}
	for spec, want := range map[string]string{">=3.9": "3.9", ">=3.8,<4": "3.8", "~=3.10": "3.10", ">3.8": "3.9", "<4": "", "==3.11.*": "3.11"} {
		if got := minRequiredPython(spec); got != want {
			t.Errorf("minRequiredPython(%q) = %q, want %q", spec, got, want)
		}
	}
}

func TestInstalledImported(t *testing.T) {
	installed := []string{"numpy", "requests", "yaml", "django"}
	got := installedImported(installed, map[string]int{"numpy.linalg": 0, "yaml": 0, ".local": 2, "os.path": 0})
	if strings.Join(got, ",") != "numpy,yaml" {
		t.Errorf("got %v, want numpy,yaml", got)
	}
	if got := installedImported(installed, nil); got == nil || len(got) != 0 {
		t.Errorf("no imports: got %#v, want an empty, non-nil list", got)
	}
}
