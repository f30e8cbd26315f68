package pyproject

import (
	"runtime"
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

// PythonVersionSetting is [tool.pyws] python-version as written ("3.11"),
// "" when unset.
func (c *Config) PythonVersionSetting() string {
	v, _ := c.PywsTable()["python-version"].(string)
	return v
}

// PythonPlatformSetting is [tool.pyws] python-platform as written
// (sys.platform: "linux", "darwin", "win32"), "" when unset.
func (c *Config) PythonPlatformSetting() string {
	v, _ := c.PywsTable()["python-platform"].(string)
	return v
}

// TypesTarget picks the Python whose stubs and static conditions
// (`sys.version_info`, `sys.platform`) navigation and types follow, as
// pyright picks pythonVersion and pythonPlatform: [tool.pyws]
// python-version, else the version of the workspace's interpreter
// (interpVersion, "" when none answered), else 0 (the index's default,
// 3.12); [tool.pyws] python-platform, else the interpreter's sys.platform
// (interpPlatform), else the server's own platform as sys.platform names
// it. requires-python is not used: its lower bound is the oldest Python
// the project supports, not the one it runs on.
func (c *Config) TypesTarget(interpVersion, interpPlatform string) (minor int, platform string) {
	for _, v := range []string{c.PythonVersionSetting(), interpVersion} {
		f := strings.Split(v, ".")
		if len(f) >= 2 && f[0] == "3" {
			if m, err := strconv.Atoi(f[1]); err == nil && m > 0 {
				minor = m
				break
			}
		}
	}
	platform = c.PythonPlatformSetting()
	if platform == "" {
		platform = interpPlatform
	}
	if platform == "" {
		platform = goosPlatform(runtime.GOOS)
	}
	return minor, platform
}

// goosPlatform is sys.platform for a Go GOOS: "win32" for windows,
// "linux" for an unknown one.
func goosPlatform(goos string) string {
	switch goos {
	case "windows":
		return "win32"
	case "darwin", "linux", "aix", "emscripten", "wasi":
		return goos
	case "freebsd", "openbsd", "netbsd", "dragonfly", "solaris", "illumos":
		return goos // CPython appends the major release ("freebsd14"); typeshed tests only linux, darwin and win32
	}
	return "linux"
}
