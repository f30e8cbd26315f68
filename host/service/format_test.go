package service

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

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
	got, err := sess.formatConfig(pyproject.FormatRequest{TabSize: 2, InsertSpaces: true})
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
	if got, _ := sess.formatConfig(pyproject.FormatRequest{}); len(got.SrcDirs) != 1 {
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
