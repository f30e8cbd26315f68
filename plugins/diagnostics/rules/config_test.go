package rules

import (
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		raw     map[string]any
		on, off []string
		minor   int
		warn    string
	}{
		{"defaults", nil, []string{UnusedImport, ConventionViolation, MissingTypeHint}, nil, DefaultPythonMinor, ""},
		{"enable and disable", map[string]any{"enable": []any{"missing-type-hint"}, "disable": []any{"unused-import"}},
			[]string{MissingTypeHint}, []string{UnusedImport}, DefaultPythonMinor, ""},
		{"missing-type-hint disabled", map[string]any{"disable": []any{"missing-type-hint"}}, []string{UnusedImport}, []string{MissingTypeHint}, DefaultPythonMinor, ""},
		{"all", map[string]any{"enable": []any{"all"}, "disable": []any{"deprecated"}}, []string{MissingTypeHint}, []string{Deprecated}, DefaultPythonMinor, ""},
		{"version", map[string]any{"python-version": "3.9"}, nil, nil, 9, ""},
		{"float version warns", map[string]any{"python-version": 3.1}, nil, nil, DefaultPythonMinor, "python-version"},
		{"unknown code", map[string]any{"enable": []any{"F401"}}, nil, nil, DefaultPythonMinor, "unknown code"},
		{"unknown key", map[string]any{"colour": true}, nil, nil, DefaultPythonMinor, "unknown key"},
		{"bad option type", map[string]any{"missing-type-hint": map[string]any{"private": "yes"}}, nil, nil, DefaultPythonMinor, "boolean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, warns := ParseConfig(tc.raw)
			for _, code := range tc.on {
				if !c.Enabled(code) {
					t.Errorf("%s off", code)
				}
			}
			for _, code := range tc.off {
				if c.Enabled(code) {
					t.Errorf("%s on", code)
				}
			}
			if c.PythonMinor != tc.minor {
				t.Errorf("minor %d, want %d", c.PythonMinor, tc.minor)
			}
			joined := strings.Join(warns, "; ")
			if (tc.warn == "") != (joined == "") || !strings.Contains(joined, tc.warn) {
				t.Errorf("warnings %q, want %q", joined, tc.warn)
			}
		})
	}
}

func TestStdlibTables(t *testing.T) {
	for _, tc := range []struct {
		mod   string
		minor int
		want  bool
	}{
		{"os", 8, true}, {"zoneinfo", 8, false}, {"zoneinfo", 9, true}, {"tomllib", 10, false}, {"tomllib", 11, true},
		{"distutils", 11, true}, {"distutils", 12, false}, {"imp", 12, false}, {"cgi", 12, true}, {"cgi", 13, false},
		{"formatter", 9, true}, {"formatter", 10, false}, {"annotationlib", 13, false}, {"annotationlib", 14, true},
		{"requests", 11, false}, {"__main__", 8, true}, {"__main__", 14, true},
	} {
		if got := IsStdlib(tc.mod, tc.minor); got != tc.want {
			t.Errorf("IsStdlib(%q, 3.%d) = %v, want %v", tc.mod, tc.minor, got, tc.want)
		}
	}
}
