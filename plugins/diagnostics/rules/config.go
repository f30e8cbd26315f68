package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Config is the workspace's [tool.pyws] table, interpreted.
//
//	[tool.pyws]
//	python-version = "3.11"          # target version: builtins, stdlib modules, deprecations
//	enable  = ["all"]                # codes to turn on (all are on by default)
//	disable = ["missing-type-hint"]  # codes to turn off (wins over enable)
//	python = ".venv/bin/python"      # interpreter for import-not-found (read by the kernel)
//	ignore-noqa = false              # true: `# noqa` comments are ignored
//
//	[tool.pyws.missing-type-hint]
//	private = false                  # also check _private functions and methods
//	returns = true                   # require return annotations
//	parameters = true                # require parameter annotations
//
//	[tool.pyws.convention-violation]
//	ignore-names = ["setUpTestData"] # names never reported
type Config struct {
	// PythonMinor is the target Python 3 minor version (8-14).
	PythonMinor int
	enabled     map[string]bool

	// IgnoreNoqa: `# noqa` comments are ignored (ignore-noqa = true, for
	// audits and the differential tests); `# type: ignore` and
	// `# pyws: ignore` still count.
	IgnoreNoqa bool

	HintPrivate, HintReturns, HintParameters bool
	IgnoreNames                              map[string]bool
}

// DefaultPythonMinor is the target when neither the configuration nor an
// interpreter says.
const DefaultPythonMinor = 12

// DefaultConfig has every default-on code enabled.
func DefaultConfig() Config {
	c := Config{PythonMinor: DefaultPythonMinor, enabled: map[string]bool{}, HintReturns: true, HintParameters: true}
	for _, r := range Rules {
		c.enabled[r.Code] = r.DefaultOn
	}
	return c
}

// Enabled reports whether code is reported.
func (c *Config) Enabled(code string) bool {
	if c.enabled == nil {
		r := Lookup(code)
		return r != nil && r.DefaultOn
	}
	return c.enabled[code]
}

// ParseConfig interprets a decoded [tool.pyws] table (TOML decoded to
// JSON: strings, numbers, booleans, arrays, tables). Problems (unknown
// keys or codes, wrong types) do not fail the call: they are returned as
// warnings and the setting keeps its default.
func ParseConfig(raw map[string]any) (Config, []string) {
	c := DefaultConfig()
	var warn []string
	bad := func(format string, args ...any) { warn = append(warn, fmt.Sprintf(format, args...)) }
	codes := func(key string) []string {
		v, ok := raw[key]
		if !ok {
			return nil
		}
		list, ok := v.([]any)
		if !ok {
			bad("[tool.pyws] %s must be an array of codes", key)
			return nil
		}
		var out []string
		for _, x := range list {
			s, _ := x.(string)
			if s == "all" {
				for _, r := range Rules {
					out = append(out, r.Code)
				}
				continue
			}
			if Lookup(s) == nil {
				bad("[tool.pyws] %s: unknown code %v", key, x)
				continue
			}
			out = append(out, s)
		}
		return out
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := raw[k]
		switch k {
		case "python-version":
			if minor, ok := ParsePythonVersion(v); ok {
				c.PythonMinor = minor
			} else {
				bad(`[tool.pyws] python-version must be a string "3.N" with N in 8-14, got %v`, v)
			}
		case "enable", "disable":
		case "ignore-noqa":
			if b, ok := v.(bool); ok {
				c.IgnoreNoqa = b
			} else {
				bad("[tool.pyws] ignore-noqa must be a boolean")
			}
		case "python":
			// the interpreter: read by the kernel (host/interpreter)
		case MissingTypeHint:
			t, _ := v.(map[string]any)
			for opt, ov := range t {
				b, isBool := ov.(bool)
				switch {
				case !isBool:
					bad("[tool.pyws.%s] %s must be a boolean", k, opt)
				case opt == "private":
					c.HintPrivate = b
				case opt == "returns":
					c.HintReturns = b
				case opt == "parameters":
					c.HintParameters = b
				default:
					bad("[tool.pyws.%s] unknown option %s", k, opt)
				}
			}
		case ConventionViolation:
			t, _ := v.(map[string]any)
			for opt, ov := range t {
				if opt != "ignore-names" {
					bad("[tool.pyws.%s] unknown option %s", k, opt)
					continue
				}
				list, _ := ov.([]any)
				for _, x := range list {
					if s, ok := x.(string); ok {
						if c.IgnoreNames == nil {
							c.IgnoreNames = map[string]bool{}
						}
						c.IgnoreNames[s] = true
					}
				}
			}
		default:
			bad("[tool.pyws] unknown key %s", k)
		}
	}
	for _, code := range codes("enable") {
		c.enabled[code] = true
	}
	for _, code := range codes("disable") {
		c.enabled[code] = false
	}
	return c, warn
}

// ParsePythonVersion accepts "3.11" (a TOML float 3.11 too, but 3.10 as a
// float reads 3.1: write versions as strings) and returns the minor.
func ParsePythonVersion(v any) (int, bool) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return 0, false
	}
	s = strings.TrimSpace(s)
	major, rest, ok := strings.Cut(s, ".")
	if !ok || major != "3" {
		return 0, false
	}
	minorStr, _, _ := strings.Cut(rest, ".")
	minor, err := strconv.Atoi(minorStr)
	if err != nil || minor < 8 || minor > 14 {
		return 0, false
	}
	return minor, true
}
