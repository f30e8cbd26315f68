package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
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

var (
	wantRe   = regexp.MustCompile(`# want((?: "[a-z-]+(?::[^"]*)?")+)\s*$`)
	wantItem = regexp.MustCompile(`"([a-z-]+)(?::([^"]*))?"`)
)

type want struct {
	line int // 0-based
	code string
	msg  string // substring, optional
}

// runFixture checks one marker fixture: every diagnostic must be announced
// by a `# want "code"` (or "code:message substring") comment on its start
// line, and every announced code must be reported there.
func runFixture(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	env := Env{Path: filepath.Base(path)}
	var wants []want
	for i, l := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(l, "# config: "); ok {
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
		if rest, ok := strings.CutPrefix(l, "# env: "); ok {
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
				csrc, err := os.ReadFile(filepath.Join(filepath.Dir(path), "context", file))
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
		if m := wantRe.FindStringSubmatch(l); m != nil {
			for _, it := range wantItem.FindAllStringSubmatch(m[1], -1) {
				if _, ok := Info(it[1]); !ok {
					t.Fatalf("line %d: unknown code %q", i+1, it[1])
				}
				wants = append(wants, want{i, it[1], it[2]})
			}
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
	checkWants(t, diags, wants)
}

func checkWants(t *testing.T, diags []abi.Diagnostic, wants []want) {
	t.Helper()
	checkWantsInto(t, diags, wants)
}

// TestFixtures runs every marker fixture in ../testdata.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.py")
	more, _ := filepath.Glob("../testdata/*.pyi")
	files = append(files, more...)
	sort.Strings(files)
	if len(files) < 5 {
		t.Fatalf("only %d fixtures found", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), func(t *testing.T) { runFixture(t, f) })
	}
}

// TestFixtureHarnessFails makes sure the harness itself can fail: a missing
// and an unexpected diagnostic are both errors.
func TestFixtureHarnessFails(t *testing.T) {
	diags := []abi.Diagnostic{{Code: UnusedImport, Range: abi.Range{Start: abi.Position{Line: 2}}}}
	for _, tc := range []struct {
		name  string
		wants []want
		ok    bool
	}{
		{"match", []want{{2, UnusedImport, ""}}, true},
		{"missing", []want{{2, UnusedImport, ""}, {3, UnusedVariable, ""}}, false},
		{"unexpected", nil, false},
		{"wrong line", []want{{1, UnusedImport, ""}}, false},
		{"wrong message", []want{{2, UnusedImport, "nope"}}, false},
	} {
		sub := &recorder{}
		checkWantsInto(sub, diags, tc.wants)
		if sub.failed == tc.ok {
			t.Errorf("%s: failed=%v, want ok=%v (%s)", tc.name, sub.failed, tc.ok, strings.Join(sub.msgs, "; "))
		}
	}
}

type recorder struct {
	failed bool
	msgs   []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

func checkWantsInto(r interface {
	Errorf(string, ...any)
	Helper()
}, diags []abi.Diagnostic, wants []want) {
	used := make([]bool, len(diags))
	for _, w := range wants {
		found := false
		for i, d := range diags {
			if !used[i] && d.Range.Start.Line == w.line && d.Code == w.code && strings.Contains(d.Message, w.msg) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			r.Errorf("line %d: want %s %q, not reported", w.line+1, w.code, w.msg)
		}
	}
	for i, d := range diags {
		if !used[i] {
			r.Errorf("line %d: unexpected %s: %s", d.Range.Start.Line+1, d.Code, d.Message)
		}
	}
}
