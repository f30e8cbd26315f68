package pyproject

import (
	"strconv"
	"strings"
)

// PywsTable is [tool.pyws], never nil.
func (c *Config) PywsTable() map[string]any {
	if t := c.Table("tool", "pyws"); t != nil {
		return t
	}
	return map[string]any{}
}

// Interpreter is [tool.pyws] python: the interpreter's path as written
// (relative to the workspace root allowed), "" when unset.
func (c *Config) Interpreter() string {
	p, _ := c.PywsTable()["python"].(string)
	return p
}

// TargetPython picks the Python version diagnostics target: [tool.pyws]
// python-version, else the interpreter's version (interpreter, "" when
// none is known), else the lower bound of [project] requires-python, else
// "" (the analyzer's own default).
func (c *Config) TargetPython(interpreter string) string {
	if v, ok := c.PywsTable()["python-version"].(string); ok && v != "" {
		return v
	}
	if interpreter != "" {
		return interpreter
	}
	if proj := c.Table("project"); proj != nil {
		if req, ok := proj["requires-python"].(string); ok {
			return MinRequiredPython(req)
		}
	}
	return ""
}

// MinRequiredPython reads the lower bound of a requires-python specifier
// (">=3.9", ">=3.8,<4", "~=3.10", "==3.11.*"): "3.9"; "" when it has
// none.
func MinRequiredPython(spec string) string {
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		for _, op := range []string{">=", "~=", "==", ">"} {
			if rest, ok := strings.CutPrefix(part, op); ok {
				f := strings.Split(strings.TrimSpace(rest), ".")
				if len(f) >= 2 && f[0] == "3" {
					if minor, err := strconv.Atoi(f[1]); err == nil {
						if op == ">" {
							minor++
						}
						return "3." + strconv.Itoa(minor)
					}
				}
			}
		}
	}
	return ""
}
