package service

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pyws/pyws/host/fault"
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
	if got, err := ParseFormatOptions(Args{}); err != nil || got != (FormatOptions{TabSize: 4, InsertSpaces: true}) {
		t.Errorf("default: %+v %v", got, err)
	}
}

func TestResolveFormatConfig(t *testing.T) {
	cases := []struct {
		name      string
		pyproject string
		opts      FormatOptions
		check     func(abi.FormatConfig) bool
		errOption string
	}{
		{"defaults", "", FormatOptions{TabSize: 4, InsertSpaces: true},
			func(c abi.FormatConfig) bool { return c.LineLength == 88 && c.IsortLineLength == 88 }, ""},
		{"black and isort tables", "[tool.black]\nline-length = 100\nskip-string-normalization = true\ntarget-version = ['py38']\n[tool.isort]\nknown_first_party = ['acme']\nline_length = 79\n",
			FormatOptions{TabSize: 4, InsertSpaces: true},
			func(c abi.FormatConfig) bool {
				return c.LineLength == 100 && c.IsortLineLength == 79 && c.SkipStringNormalization && reflect.DeepEqual(c.KnownFirstParty, []string{"acme"})
			}, ""},
		{"comma string list", "[tool.isort]\nknown_first_party = 'a, b'\n", FormatOptions{TabSize: 4, InsertSpaces: true},
			func(c abi.FormatConfig) bool { return reflect.DeepEqual(c.KnownFirstParty, []string{"a", "b"}) }, ""},
		{"request wins", "[tool.black]\nline-length = 100\n", FormatOptions{TabSize: 4, InsertSpaces: true, LineLength: 60},
			func(c abi.FormatConfig) bool { return c.LineLength == 60 && c.IsortLineLength == 60 }, ""},
		{"first party from the workspace", "", FormatOptions{TabSize: 4, InsertSpaces: true},
			func(c abi.FormatConfig) bool { return contains(c.SrcModules, "pkg") && contains(c.SrcModules, "mod") }, ""},
		{"wrong type", "[tool.black]\nline-length = 'long'\n", FormatOptions{TabSize: 4}, nil, "tool.black.line-length"},
		{"not toml", "[tool.black\n", FormatOptions{TabSize: 4}, nil, "pyproject.toml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
			os.WriteFile(filepath.Join(root, "mod.py"), nil, 0o644)
			if c.pyproject != "" {
				os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte(c.pyproject), 0o644)
			}
			got, err := ResolveFormatConfig(root, c.opts)
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
