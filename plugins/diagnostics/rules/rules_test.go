package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/markertest"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// parse parses src with the wasm parser (the kernel's), shared by tests.
func parse(tb testing.TB, src []byte) *tree.Tree { return parsertest.Tree(tb, src) }

// fixtureEnv is the `# env: {...}` header of a fixture.
type fixtureEnv struct {
	Path      string         `json:"path"`
	Module    string         `json:"module"`
	Init      bool           `json:"init"`
	Installed []string       `json:"installed"`
	Imports   map[string]int `json:"imports"`
	// Context: "file.py=module.name" pairs of files under testdata/context.
	Context []string `json:"context"`
}

// runFixture checks one marker fixture (package markertest): every
// diagnostic must be announced by a `# want "code"` (or "code:message
// substring") comment on its start line, and every announced code must be
// reported there.
func runFixture(t *testing.T, c markertest.Case) {
	src := c.Files[0].Src
	cfg, env := fixtureSettings(t, c)
	wants := markertest.Wants(src)
	for _, w := range wants {
		if Lookup(w.Code) == nil {
			t.Fatalf("line %d: unknown code %q", w.Line+1, w.Code)
		}
	}
	tr := parse(t, src)
	diags := Run(tr, textpos.New(src), cfg, env)
	if !strings.Contains(string(src), MissingTypeHint) {
		// missing-type-hint is on by default, and most fixtures leave
		// their functions unannotated on purpose: only fixtures that
		// name the code check it.
		diags = slices.DeleteFunc(diags, func(d abi.Diagnostic) bool { return d.Code == MissingTypeHint })
	}
	markertest.CheckWants(t, findings(diags), wants)
}

// fixtureSettings reads a fixture's `# config: {...}` ([tool.pyws] as
// JSON) and `# env: {...}` (fixtureEnv) directives.
func fixtureSettings(t *testing.T, c markertest.Case) (Config, Env) {
	f := c.Files[0]
	src := f.Src
	cfg := DefaultConfig()
	env := Env{Path: f.Path}
	if rest, ok := markertest.Directive(src, "config"); ok {
		var raw map[string]any
		if err := json.Unmarshal([]byte(rest), &raw); err != nil {
			t.Fatalf("config header: %v", err)
		}
		var warns []string
		cfg, warns = ParseConfig(raw)
		if len(warns) > 0 {
			t.Fatalf("config warnings: %v", warns)
		}
	}
	if rest, ok := markertest.Directive(src, "env"); ok {
		var fe fixtureEnv
		if err := json.Unmarshal([]byte(rest), &fe); err != nil {
			t.Fatalf("env header: %v", err)
		}
		if fe.Path != "" {
			env.Path = fe.Path
		}
		env.ModuleName, env.IsPackageInit, env.Imports = fe.Module, fe.Init, fe.Imports
		if fe.Installed != nil {
			env.Installed = map[string]bool{}
			for _, m := range fe.Installed {
				env.Installed[m] = true
			}
		}
		for _, cf := range fe.Context {
			file, mod, _ := strings.Cut(cf, "=")
			csrc, err := os.ReadFile(filepath.Join(filepath.Dir(c.Path), "context", file))
			if err != nil {
				t.Fatal(err)
			}
			// Through JSON, as the facts travel via the kernel.
			facts := ContextModuleFacts(ContextFile{Path: file, ModuleName: mod,
				IsPackageInit: filepath.Base(file) == "__init__.py", Tree: parse(t, csrc)}, cfg.PythonMinor)
			raw, err := json.Marshal(facts)
			if err != nil {
				t.Fatal(err)
			}
			if env.Facts == nil {
				env.Facts = map[string]*ModuleFacts{}
			}
			if env.Facts[mod], err = DecodeModuleFacts(raw); err != nil {
				t.Fatal(err)
			}
		}
	}
	return cfg, env
}

// findings are diagnostics as the marker harness compares them.
func findings(diags []abi.Diagnostic) []markertest.Finding {
	out := make([]markertest.Finding, len(diags))
	for i, d := range diags {
		out[i] = markertest.Finding{Line: d.Range.Start.Line, Code: d.Code, Message: d.Message}
	}
	return out
}

// TestFixtures runs every marker fixture in ../testdata (the harness's
// own tests, in plugin-sdk/markertest, show that it fails on a missing
// and on an unexpected diagnostic).
func TestFixtures(t *testing.T) {
	markertest.Run(t, []string{"../testdata/*.py", "../testdata/*.pyi"}, runFixture)
}
