package service

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestParseFormatOptions(t *testing.T) {
	cases := []struct {
		raw    string
		want   FormatOptions
		option string // "" when valid
	}{
		{`{}`, FormatOptions{TabSize: 4, InsertSpaces: true}, ""},
		{`null`, FormatOptions{TabSize: 4, InsertSpaces: true}, ""},
		{`{"tabSize": 2, "insertSpaces": false, "lineLength": 100}`, FormatOptions{TabSize: 2, InsertSpaces: false, LineLength: 100}, ""},
		{`{"lineLength": 120.0, "tabSize": null}`, FormatOptions{TabSize: 4, InsertSpaces: true, LineLength: 120}, ""},
		{`{"tabSize": 0}`, FormatOptions{}, "tabSize"},
		{`{"tabSize": 17}`, FormatOptions{}, "tabSize"},
		{`{"lineLength": 0}`, FormatOptions{}, "lineLength"},
		{`{"lineLength": 1001}`, FormatOptions{}, "lineLength"},
		{`{"lineLength": 88.5}`, FormatOptions{}, "lineLength"},
		{`{"lineLength": "88"}`, FormatOptions{}, "lineLength"},
		{`{"insertSpaces": "yes"}`, FormatOptions{}, "insertSpaces"},
		{`{"indent": 2}`, FormatOptions{}, "indent"},
		{`[1]`, FormatOptions{}, "options"},
		{`5`, FormatOptions{}, "options"},
	}
	for _, c := range cases {
		got, err := ParseFormatOptions(json.RawMessage(c.raw))
		if c.option == "" {
			if err != nil || got != c.want {
				t.Errorf("%s: %+v %v, want %+v", c.raw, got, err, c.want)
			}
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.InvalidOptions || fe.Details["option"] != c.option || fe.Details["reason"] == "" {
			t.Errorf("%s: %v, want INVALID_OPTIONS for %s", c.raw, err, c.option)
		}
	}
	// The table's default (no options sent) is an empty Args.
	if got, err := ParseFormatOptions(toolspec.Args{}); err != nil || got != (FormatOptions{TabSize: 4, InsertSpaces: true}) {
		t.Errorf("default: %+v %v", got, err)
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
	sess := testSession(t, root)
	got, err := sess.formatConfig(FormatOptions{TabSize: 2, InsertSpaces: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []abi.DirListing{
		{Name: "src", Entries: []abi.DirEntry{{Name: "app", Dir: true}}},
		{Name: filepath.Base(sess.ws.ws.Root()), Entries: []abi.DirEntry{{Name: "mod.py"}, {Name: "pkg", Dir: true}, {Name: "pyproject.toml"}, {Name: "src", Dir: true}}},
	}
	if got.LineLength != 100 || got.TabSize != 2 || !reflect.DeepEqual(got.SrcDirs, want) {
		t.Fatalf("got %+v\nwant src dirs %+v", got, want)
	}
	os.RemoveAll(filepath.Join(root, "src"))
	if got, _ := sess.formatConfig(FormatOptions{}); len(got.SrcDirs) != 1 {
		t.Fatalf("a missing src/ is listed: %+v", got.SrcDirs)
	}
}

// testSession is a session on a service without plugins, serving root.
func testSession(t *testing.T, root string) *Session {
	t.Helper()
	svc := New(Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(svc.Close)
	ws, err := svc.workspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return &Session{svc: svc, ws: ws}
}
