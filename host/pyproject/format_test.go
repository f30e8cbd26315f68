package pyproject

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestFormatConfig(t *testing.T) {
	defaults := FormatRequest{TabSize: 4, InsertSpaces: true}
	cases := []struct {
		name      string
		pyproject string
		req       FormatRequest
		check     func(abi.FormatConfig) bool
		errOption string
	}{
		{"defaults", "", defaults,
			func(c abi.FormatConfig) bool {
				return c.LineLength == 88 && c.IsortLineLength == 88 && c.TabSize == 4 && c.InsertSpaces
			}, ""},
		{"black and isort tables", "[tool.black]\nline-length = 100\nskip-string-normalization = true\ntarget-version = ['py38']\n[tool.isort]\nknown_first_party = ['acme']\nline_length = 79\n",
			defaults,
			func(c abi.FormatConfig) bool {
				return c.LineLength == 100 && c.IsortLineLength == 79 && c.SkipStringNormalization && reflect.DeepEqual(c.KnownFirstParty, []string{"acme"})
			}, ""},
		{"comma string list", "[tool.isort]\nknown_first_party = 'a, b'\n", defaults,
			func(c abi.FormatConfig) bool { return reflect.DeepEqual(c.KnownFirstParty, []string{"a", "b"}) }, ""},
		{"request wins", "[tool.black]\nline-length = 100\n", FormatRequest{TabSize: 2, InsertSpaces: false, LineLength: 60},
			func(c abi.FormatConfig) bool {
				return c.LineLength == 60 && c.IsortLineLength == 60 && c.TabSize == 2 && !c.InsertSpaces
			}, ""},
		{"wrong type", "[tool.black]\nline-length = 'long'\n", defaults, nil, "tool.black.line-length"},
		{"out of bounds", "[tool.isort]\nline_length = 1001\n", defaults, nil, "tool.isort.line_length"},
		{"not a list", "[tool.isort]\nknown_third_party = [1]\n", defaults, nil, "tool.isort.known_third_party"},
		{"not toml", "[tool.black\n", defaults, nil, "pyproject.toml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if c.pyproject != "" {
				os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte(c.pyproject), 0o644)
			}
			ws, err := workspace.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			got, err := FormatConfig(ws, c.req)
			if c.errOption != "" {
				fe, ok := fault.As(err)
				if !ok || fe.Code != fault.InvalidOptions || fe.Details["option"] != c.errOption {
					t.Fatalf("err %v, want INVALID_OPTIONS for %s", err, c.errOption)
				}
				return
			}
			if err != nil || !c.check(got) {
				t.Fatalf("%+v %v", got, err)
			}
		})
	}
}

func TestTargetPython(t *testing.T) {
	for spec, want := range map[string]string{">=3.9": "3.9", ">=3.8,<4": "3.8", "~=3.10": "3.10", ">3.8": "3.9", "<4": "", "==3.11.*": "3.11"} {
		if got := MinRequiredPython(spec); got != want {
			t.Errorf("MinRequiredPython(%q) = %q, want %q", spec, got, want)
		}
	}
	cases := []struct {
		name, toml, interpreter, want string
		setting                       string // [tool.pyws] python
	}{
		{"the setting wins", "[tool.pyws]\npython-version = '3.10'\npython = 'bin/py'\n[project]\nrequires-python = '>=3.8'\n", "3.12", "3.10", "bin/py"},
		{"then the interpreter", "[project]\nrequires-python = '>=3.8'\n", "3.12", "3.12", ""},
		{"then requires-python", "[project]\nrequires-python = '>=3.8'\n", "", "3.8", ""},
		{"else the analyzer's default", "", "", "", ""},
	}
	for _, c := range cases {
		cfg, err := Parse("pyproject.toml", []byte(c.toml))
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.TargetPython(c.interpreter); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if cfg.Interpreter() != c.setting {
			t.Errorf("%s: interpreter %q, want %q", c.name, cfg.Interpreter(), c.setting)
		}
	}
}

func TestWatchedRereadsOnChange(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, FileName)
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	w := Watch(ws, nil)
	if got := w.Config().PywsTable(); len(got) != 0 {
		t.Fatalf("no file: %v", got)
	}
	os.WriteFile(p, []byte("[tool.pyws]\npython-version = '3.9'\n"), 0o644)
	first := w.Config()
	if first.PywsTable()["python-version"] != "3.9" {
		t.Fatalf("new file not read: %v", first.Raw)
	}
	if w.Config() != first {
		t.Error("an unchanged file was parsed again")
	}
	os.WriteFile(p, []byte("[tool.pyws\n"), 0o644)
	os.Chtimes(p, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if got := w.Config(); got == first || len(got.Raw) != 0 {
		t.Fatalf("invalid TOML is read as empty, got %v", got.Raw)
	}
}

// TestFormatConfigListsSrcPaths: the plugin gets the request's options
// merged with pyproject.toml, and the listings of src/ and the root made
// through the workspace's reader, src/ first as isort's src_paths.
func TestFormatConfigListsSrcPaths(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.MkdirAll(filepath.Join(root, "src", "app"), 0o755)
	os.WriteFile(filepath.Join(root, "mod.py"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[tool.black]\nline-length = 100\n"), 0o644)
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	got, err := FormatConfig(ws, FormatRequest{TabSize: 2, InsertSpaces: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []abi.DirListing{
		{Name: "src", Entries: []abi.DirEntry{{Name: "app", Dir: true}}},
		{Name: filepath.Base(ws.Root()), Entries: []abi.DirEntry{{Name: "mod.py"}, {Name: "pkg", Dir: true}, {Name: "pyproject.toml"}, {Name: "src", Dir: true}}},
	}
	if got.LineLength != 100 || got.TabSize != 2 || !reflect.DeepEqual(got.SrcDirs, want) {
		t.Fatalf("got %+v\nwant src dirs %+v", got, want)
	}
	os.RemoveAll(filepath.Join(root, "src"))
	if got, _ := FormatConfig(ws, FormatRequest{}); len(got.SrcDirs) != 1 {
		t.Fatalf("a missing src/ is listed: %+v", got.SrcDirs)
	}
}

func TestTypesTarget(t *testing.T) {
	cases := []struct {
		name, toml, version, platform string
		minor                         int
		wantPlatform                  string
	}{
		{"the settings win", "[tool.pyws]\npython-version = '3.10'\npython-platform = 'win32'\n", "3.12", "linux", 10, "win32"},
		{"then the interpreter", "[project]\nrequires-python = '>=3.8'\n", "3.11", "darwin", 11, "darwin"},
		{"not requires-python: the default", "[project]\nrequires-python = '>=3.8'\n", "", "", 0, goosPlatform(runtime.GOOS)},
		{"a version that is no Python 3 is ignored", "[tool.pyws]\npython-version = 'latest'\n", "2.7", "linux", 0, "linux"},
	}
	for _, c := range cases {
		cfg, err := Parse("pyproject.toml", []byte(c.toml))
		if err != nil {
			t.Fatal(err)
		}
		minor, platform := cfg.TypesTarget(c.version, c.platform)
		if minor != c.minor || platform != c.wantPlatform {
			t.Errorf("%s: 3.%d %s, want 3.%d %s", c.name, minor, platform, c.minor, c.wantPlatform)
		}
	}
	for goos, want := range map[string]string{"windows": "win32", "linux": "linux", "darwin": "darwin", "plan9": "linux"} {
		if got := goosPlatform(goos); got != want {
			t.Errorf("goosPlatform(%s) = %s, want %s", goos, got, want)
		}
	}
}
