package pyproject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	cases := []struct {
		name    string
		content string // "" means no file
		table   []string
		want    map[string]any
		wantErr string
	}{
		{name: "no file", table: []string{"tool", "black"}, want: nil},
		{name: "black table", content: "[tool.black]\nline-length = 100\nskip-string-normalization = true\n",
			table: []string{"tool", "black"}, want: map[string]any{"line-length": int64(100), "skip-string-normalization": true}},
		{name: "missing table", content: "[project]\nname = 'x'\n", table: []string{"tool", "isort"}, want: nil},
		{name: "not a table", content: "tool = 3\n", table: []string{"tool", "isort"}, want: nil},
		{name: "invalid toml", content: "[tool.black\nx = 1\n", wantErr: "pyproject.toml:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.content != "" {
				if err := os.WriteFile(filepath.Join(dir, FileName), []byte(c.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := Load(dir)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := cfg.Table(c.table...)
			if len(got) != len(c.want) || (c.want == nil) != (got == nil) {
				t.Fatalf("table %v, want %v", got, c.want)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Fatalf("%s = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

// TestLoadIsConfined: pyproject.toml is read through the workspace's
// confined reader, so a link out of the workspace is refused, not read;
// a directory of that name, or no workspace at all, is no configuration.
func TestLoadIsConfined(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.toml")
	if err := os.WriteFile(outside, []byte("[tool.black]\nline-length = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(linked, FileName)); err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load(linked); err == nil {
		t.Fatalf("a pyproject.toml linked out of the workspace was read: %v", cfg.Raw)
	}

	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{dir, filepath.Join(dir, "missing")} {
		cfg, err := Load(root)
		if err != nil || len(cfg.Raw) != 0 {
			t.Errorf("Load(%s) = %v, %v; want no configuration", root, cfg, err)
		}
	}
}
