package pyproject

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Line lengths: the bounds a request's lineLength and the files'
// line-length settings must respect, and the default of Black and of
// isort's black profile alike.
const (
	MinLineLength, MaxLineLength = 1, 1000
	DefaultLineLength            = 88
)

// FormatRequest is what a format_document request asks, already
// validated; LineLength 0 means not given.
type FormatRequest struct {
	TabSize      int
	InsertSpaces bool
	LineLength   int
}

// FormatConfig merges the request's options over the workspace's
// pyproject.toml at root over the defaults. [tool.black]: line-length,
// skip-string-normalization, skip-magic-trailing-comma (target-version and
// the rest are ignored). [tool.isort]: line_length, known_first_party,
// known_third_party, known_local_folder; the profile is always black, as
// `isort --profile black` forces it. isort's line length does not follow
// [tool.black] (the reference command does not either) but does follow the
// request's lineLength. A pyproject.toml that is not TOML, or a value of
// the wrong type, is INVALID_OPTIONS naming it. The directories isort's
// src_paths name (src/, then the root) are listed through the workspace's
// confined reader; the plugin derives the first-party names from them.
func FormatConfig(ws *workspace.Workspace, req FormatRequest) (abi.FormatConfig, error) {
	c := abi.FormatConfig{LineLength: DefaultLineLength, IsortLineLength: DefaultLineLength,
		TabSize: req.TabSize, InsertSpaces: req.InsertSpaces}
	pp, err := load(ws)
	if err != nil {
		return c, fault.New(fault.InvalidOptions, fault.Details{"option": FileName, "reason": err.Error()},
			"the workspace's %s cannot be read: %v", FileName, err)
	}
	if b := pp.Table("tool", "black"); b != nil {
		for _, step := range []error{
			intSetting(b, "tool.black", "line-length", &c.LineLength),
			boolSetting(b, "tool.black", "skip-string-normalization", &c.SkipStringNormalization),
			boolSetting(b, "tool.black", "skip-magic-trailing-comma", &c.SkipMagicTrailingComma),
		} {
			if step != nil {
				return c, step
			}
		}
	}
	if i := pp.Table("tool", "isort"); i != nil {
		for _, step := range []error{
			intSetting(i, "tool.isort", "line_length", &c.IsortLineLength),
			listSetting(i, "tool.isort", "known_first_party", &c.KnownFirstParty),
			listSetting(i, "tool.isort", "known_third_party", &c.KnownThirdParty),
			listSetting(i, "tool.isort", "known_local_folder", &c.KnownLocalFolder),
		} {
			if step != nil {
				return c, step
			}
		}
	}
	if req.LineLength > 0 {
		c.LineLength, c.IsortLineLength = req.LineLength, req.LineLength
	}
	for _, dir := range []string{"src", ""} {
		entries, err := ws.ReadDir(dir)
		if err != nil {
			continue // isort skips a missing or unreadable src path
		}
		l := abi.DirListing{Name: filepath.Base(filepath.Join(ws.Root(), dir)), Entries: make([]abi.DirEntry, len(entries))}
		for i, e := range entries {
			l.Entries[i] = abi.DirEntry{Name: e.Name, Dir: e.Dir}
		}
		c.SrcDirs = append(c.SrcDirs, l)
	}
	return c, nil
}

func badSetting(table, key string, v any, want string) error {
	full := table + "." + key
	return fault.New(fault.InvalidOptions, fault.Details{"option": full, "value": fmt.Sprint(v), "reason": "must be " + want, "source": FileName},
		"%s in %s must be %s", full, FileName, want)
}

// intSetting reads a line length.
func intSetting(tbl map[string]any, table, key string, dst *int) error {
	v, ok := tbl[key]
	if !ok {
		return nil
	}
	n, ok := v.(int64)
	if !ok || n < MinLineLength || n > MaxLineLength {
		return badSetting(table, key, v, fmt.Sprintf("an integer from %d to %d", MinLineLength, MaxLineLength))
	}
	*dst = int(n)
	return nil
}

func boolSetting(tbl map[string]any, table, key string, dst *bool) error {
	v, ok := tbl[key]
	if !ok {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		return badSetting(table, key, v, "a boolean")
	}
	*dst = b
	return nil
}

// listSetting reads what isort accepts for a list of modules: a list of
// strings or one comma-separated string.
func listSetting(tbl map[string]any, table, key string, dst *[]string) error {
	v, ok := tbl[key]
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				*dst = append(*dst, s)
			}
		}
	case []any:
		for _, it := range x {
			s, ok := it.(string)
			if !ok {
				return badSetting(table, key, v, "a list of strings")
			}
			*dst = append(*dst, s)
		}
	default:
		return badSetting(table, key, v, "a list of strings")
	}
	return nil
}
