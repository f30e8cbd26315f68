package rules

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/edittest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

var update = flag.Bool("update", false, "rewrite the generated sections of docs/diagnostics.md and testdata/fixes/*.golden")

// TestRegistryComplete: the registry has each code of the spec's list
// once, each with its documentation, examples and pass, and doc/ has no
// page of a rule that is gone.
func TestRegistryComplete(t *testing.T) {
	spec := []string{UndefinedVariable, TypeMismatch, ImportNotFound, SyntaxError, MissingArgument,
		UnusedImport, UnusedVariable, DuplicateImport, UnreachableCode, Deprecated, MissingTypeHint, ConventionViolation}
	var codes []string
	for _, r := range Rules {
		codes = append(codes, r.Code)
		if r.Severity < abi.SeverityError || r.Severity > abi.SeverityInformation {
			t.Errorf("%s: severity %d", r.Code, r.Severity)
		}
		if strings.TrimSpace(r.Doc) == "" || r.Bad == "" || r.Good == "" || r.ComparedWith == "" {
			t.Errorf("%s: documentation, examples or comparison missing", r.Code)
		}
		if page, err := os.ReadFile(filepath.Join("doc", r.Code+".md")); err != nil || string(page) != r.Doc {
			t.Errorf("%s: Doc is not doc/%s.md (%v)", r.Code, r.Code, err)
		}
		if (r.pass == noPass) != (r.Code == SyntaxError) {
			t.Errorf("%s: pass %d (only syntax-error has none)", r.Code, r.pass)
		}
		if r.Fix != nil && (r.Fix.Title == "" || r.Fix.edits == nil) {
			t.Errorf("%s: a fix without a title or edits", r.Code)
		}
	}
	if !slices.Equal(codes, spec) {
		t.Errorf("codes %v, want the spec's list %v", codes, spec)
	}
	for id := noPass + 1; id < numPasses; id++ {
		if len(passCodes[id]) == 0 || passRuns[id] == nil {
			t.Errorf("pass %d: codes %v, run %v", id, passCodes[id], passRuns[id] != nil)
		}
	}
	pages, _ := filepath.Glob(filepath.Join("doc", "*.md"))
	for _, p := range pages {
		if Lookup(strings.TrimSuffix(filepath.Base(p), ".md")) == nil {
			t.Errorf("%s documents no rule", p)
		}
	}
}

// exampleEnv is the workspace the examples are checked (and documented)
// in: neither module of the import-not-found examples is a workspace
// module, and the interpreter has requests installed.
var exampleEnv = Env{Path: "example.py", Installed: map[string]bool{"requests": true},
	Imports: map[string]int{"reqeusts": ImportAbsent, "requests": ImportAbsent}}

// reported returns the diagnostics of code in src under the default
// configuration.
func reported(t *testing.T, src, code string) []abi.Diagnostic {
	t.Helper()
	b := []byte(src)
	diags := Run(parse(t, b), textpos.New(b), DefaultConfig(), exampleEnv)
	return slices.DeleteFunc(diags, func(d abi.Diagnostic) bool { return d.Code != code })
}

// TestRuleExamples: each rule reports its Bad example and not its Good
// one, and its fix, applied to Bad, gives Good.
func TestRuleExamples(t *testing.T) {
	for _, r := range Rules {
		t.Run(r.Code, func(t *testing.T) {
			if len(reported(t, r.Bad, r.Code)) == 0 {
				t.Errorf("the bad example is not reported:\n%s", r.Bad)
			}
			if d := reported(t, r.Good, r.Code); len(d) > 0 {
				t.Errorf("the good example is reported: %v", d)
			}
			if r.Fix == nil {
				return
			}
			src := []byte(r.Bad)
			actions := Actions(parse(t, src), textpos.New(src), DefaultConfig(), exampleEnv)
			actions = slices.DeleteFunc(actions, func(a abi.CodeAction) bool { return a.Diagnostic.Code != r.Code })
			if len(actions) != 1 {
				t.Fatalf("%d fixes of the bad example, want 1", len(actions))
			}
			if got := edittest.Apply(t, src, actions[0].Edits); got != r.Good {
				t.Errorf("the fix gives\n%s\nwant the good example\n%s", got, r.Good)
			}
		})
	}
}

// TestDiagnosticsDoc keeps the generated sections of docs/diagnostics.md
// equal to the registry: go test ./plugins/diagnostics/rules -run
// TestDiagnosticsDoc -update rewrites them. Each generated section lies
// between "<!-- generated: NAME -->" and "<!-- end generated -->"; the
// rest of the page is written by hand.
func TestDiagnosticsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "diagnostics.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := doc
	for _, s := range []struct {
		name string
		body string
	}{
		{"codes", codeTableMarkdown()},
		{"rules", rulesMarkdown(t)},
	} {
		re := regexp.MustCompile(`(?s)(<!-- generated: ` + s.name + ` -->\n).*?(<!-- end generated -->)`)
		if !re.Match(got) {
			t.Fatalf("docs/diagnostics.md lacks <!-- generated: %s --> ... <!-- end generated -->", s.name)
		}
		got = re.ReplaceAll(got, []byte("${1}"+strings.ReplaceAll(s.body, "$", "$$")+"${2}"))
	}
	if bytes.Equal(got, doc) {
		return
	}
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("docs/diagnostics.md is stale: run go test ./plugins/diagnostics/rules -run TestDiagnosticsDoc -update")
}

var severityNames = map[int]string{abi.SeverityError: "1 Error", abi.SeverityWarning: "2 Warning", abi.SeverityInformation: "3 Information"}

func codeTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| Code | Severity | On by default | Fix | Compared with |\n|---|---|---|---|---|\n")
	for _, r := range Rules {
		on := "yes"
		switch {
		case r.pass == noPass:
			on = "always"
		case !r.DefaultOn:
			on = "no"
		}
		fix := ""
		if r.Fix != nil {
			fix = r.Fix.Title
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s | %s |\n", r.Code, r.Code, severityNames[r.Severity], on, fix, r.ComparedWith)
	}
	return b.String()
}

// rulesMarkdown is a section per rule: its documentation, then its
// examples with what the rule reports on the bad one (checked by
// TestRuleExamples).
func rulesMarkdown(t *testing.T) string {
	var b strings.Builder
	for i, r := range Rules {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "## %s\n\n%s\nReported:\n\n```python\n%s```\n\n", r.Code, r.Doc, r.Bad)
		for _, d := range reported(t, r.Bad, r.Code) {
			fmt.Fprintf(&b, "- line %d: %s\n", d.Range.Start.Line+1, d.Message)
		}
		fmt.Fprintf(&b, "\nNot reported:\n\n```python\n%s```\n", r.Good)
		if r.Fix != nil {
			fmt.Fprintf(&b, "\nFix: %s (turns the first example into the second).\n", strings.ToLower(r.Fix.Title[:1])+r.Fix.Title[1:])
		}
	}
	return b.String()
}
