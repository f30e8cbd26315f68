// Package pyproject reads a workspace's pyproject.toml for the tools that
// honour project configuration (format_document reads [tool.black] and
// [tool.isort]; diagnostics may read their own tables): Load parses the
// file once with github.com/pelletier/go-toml/v2 and Table walks dotted
// names. It gives the settings the kernel itself acts on their meaning:
// [tool.pyws] and the target Python version (python.go), and
// format_document's configuration, the request's options
// (FormatOptionParams, ParseFormatRequest) over [tool.black] and
// [tool.isort] over the defaults (FormatConfig).
//
// A missing file is not an error (Load returns an empty Config); a file
// that is not valid TOML is, with the position go-toml reports, so callers
// can tell the user which line to fix.
package pyproject

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/workspace"
)

// FileName is the file Load reads in the workspace root.
const FileName = "pyproject.toml"

// MaxBytes bounds the file Load reads; a larger pyproject.toml is refused.
const MaxBytes = 1 << 20

// Config is one parsed pyproject.toml.
type Config struct {
	Path string         // absolute path of the file; "" when there is none
	Raw  map[string]any // the whole document; empty when there is no file
}

// Load reads root/pyproject.toml through the workspace's confined reader:
// a pyproject.toml that is a symbolic link out of the workspace is an
// error, not read. A missing file, or a directory of that name, is no
// configuration.
func Load(root string) (*Config, error) {
	ws, err := workspace.Open(root)
	if fault.CodeOf(err) == fault.WorkspaceNotFound {
		return &Config{Raw: map[string]any{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return load(ws)
}

// load reads pyproject.toml from the root of ws.
func load(ws *workspace.Workspace) (*Config, error) {
	path := filepath.Join(ws.Root(), FileName)
	data, err := ws.ReadBytes(path, MaxBytes)
	if fault.CodeOf(err) == fault.FileNotFound {
		return &Config{Raw: map[string]any{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses data as the pyproject.toml at path.
func Parse(path string, data []byte) (*Config, error) {
	raw := map[string]any{}
	if err := toml.Unmarshal(data, &raw); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: %s", path, line, col, de.Error())
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Config{Path: path, Raw: raw}, nil
}

// Table returns the table at a dotted path such as Table("tool", "black"),
// or nil when it is missing or not a table.
func (c *Config) Table(path ...string) map[string]any {
	if c == nil {
		return nil
	}
	cur := c.Raw
	for _, k := range path {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}
