// Command diagnostics is the analyzer plugin behind get_diagnostics and
// get_code_actions' fixes. It receives the file to check (the first file
// of the request, with its syntax tree), the workspace facts the kernel
// gathered under the "pyws" argument (configuration, target Python
// version, module name, installed packages, which imports the workspace
// resolves) and, as further files, the workspace modules the file imports
// from. It returns the file's diagnostics (package rules); the kernel
// validates them, filters by severity and counts them. For
// get_code_actions it returns the fixes of those diagnostics instead
// (rules.FileFixes): one action per fixable diagnostic and the fix-all
// edit.
package main

import (
	"encoding/json"
	"runtime/debug"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"

	"github.com/pyws/pyws/plugins/diagnostics/rules"
	"github.com/pyws/pyws/plugins/diagnostics/syntax"
)

func init() {
	// One call allocates a tree, a semantic model and findings, then the
	// instance idles: collecting less often is cheaper in wasm, whose
	// collector is not concurrent (the instance's memory cap still holds).
	debug.SetGCPercent(400)
	sdk.Serve(handle)
}

func main() {}

type result struct {
	Diagnostics []abi.Diagnostic `json:"diagnostics"`
	// Warnings are configuration problems ([tool.pyws]); the kernel logs
	// them.
	Warnings []string `json:"warnings,omitempty"`
	// ContextFacts are the facts of the context files of the request, for
	// the kernel to send instead of the files next time.
	ContextFacts []abi.ContextFacts `json:"contextFacts,omitempty"`
}

// codeActionsResult is get_code_actions' answer: the quick fixes of the
// file's diagnostics (all of them: the kernel keeps those in the
// requested range) and the fix-all edit.
type codeActionsResult struct {
	Actions      []abi.CodeAction   `json:"actions"`
	FixAll       []abi.TextEdit     `json:"fixAll,omitempty"`
	Warnings     []string           `json:"warnings,omitempty"`
	ContextFacts []abi.ContextFacts `json:"contextFacts,omitempty"`
}

// handle serves get_diagnostics and get_code_actions, which take the same
// arguments and files: the fixes are those of the diagnostics.
func handle(req *sdk.Request) (any, error) {
	if len(req.Files) == 0 {
		return nil, sdk.Errorf("INVALID_PARAMETER", nil, "%s needs a file", req.Tool)
	}
	f := req.Files[0]
	codeActions := req.Tool == "get_code_actions"
	var a struct {
		Pyws abi.DiagnosticsContext `json:"pyws"`
	}
	var argErr error
	if len(req.Arguments) > 0 {
		argErr = json.Unmarshal(req.Arguments, &a)
	}
	if argErr == nil && a.Pyws.FactsOnly {
		cfg, _ := parseConfig(a.Pyws)
		return result{Diagnostics: []abi.Diagnostic{}, ContextFacts: contextFacts(req.Files, a.Pyws.Context, cfg.PythonMinor, nil)}, nil
	}
	if f.TooDeep != nil {
		// The SDK withheld the tree: CPython's refusal is the answer (and
		// a file that does not parse has no fixes).
		if codeActions {
			return codeActionsResult{Actions: []abi.CodeAction{}}, nil
		}
		return result{Diagnostics: []abi.Diagnostic{syntax.TooDeep(*f.TooDeep, textpos.New(f.Source))}}, nil
	}
	if f.Tree == nil {
		return nil, sdk.Errorf("PARSE_ERROR", map[string]any{"uri": f.URI}, "no syntax tree for %s", f.Path)
	}
	if argErr != nil {
		return nil, sdk.Errorf("INVALID_PARAMETER", nil, "%s arguments: %v", req.Tool, argErr)
	}
	cfg, warnings := parseConfig(a.Pyws)
	env := rules.Env{Path: f.Path, ModuleName: a.Pyws.Module, IsPackageInit: a.Pyws.IsPackageInit, Imports: a.Pyws.Imports,
		TypeFindings: a.Pyws.TypeFindings}
	if a.Pyws.Installed != nil {
		env.Installed = make(map[string]bool, len(a.Pyws.Installed))
		for _, m := range a.Pyws.Installed {
			env.Installed[m] = true
		}
	}
	env.Facts = make(map[string]*rules.ModuleFacts, len(a.Pyws.Facts)+len(a.Pyws.Context))
	for _, cf := range a.Pyws.Facts {
		// Facts this plugin made earlier; unreadable ones (another build's)
		// leave the module unknown, which only hides findings.
		if mf := decodedFacts.get(cf.Module, cf.Facts); mf != nil {
			env.Facts[cf.Module] = mf
		}
	}
	facts := contextFacts(req.Files[1:], a.Pyws.Context, cfg.PythonMinor, env.Facts)
	if codeActions {
		fixes := rules.FileFixes(f.Tree, textpos.New(f.Source), cfg, env)
		if fixes.Actions == nil {
			fixes.Actions = []abi.CodeAction{}
		}
		return codeActionsResult{Actions: fixes.Actions, FixAll: fixes.All, Warnings: warnings, ContextFacts: facts}, nil
	}
	diags := rules.Run(f.Tree, textpos.New(f.Source), cfg, env)
	if diags == nil {
		diags = []abi.Diagnostic{}
	}
	return result{Diagnostics: diags, Warnings: warnings, ContextFacts: facts}, nil
}

// parseConfig is the rules' configuration from [tool.pyws] and the
// target version, and the configuration's problems.
func parseConfig(pyws abi.DiagnosticsContext) (rules.Config, []string) {
	cfg, warnings := rules.ParseConfig(pyws.Config)
	if minor, ok := rules.ParsePythonVersion(pyws.PythonVersion); ok {
		cfg.PythonMinor = minor
	}
	return cfg, warnings
}

// contextFacts derives the facts of each context module in context from
// its file among files, for the kernel to keep, and adds them to known
// when it is not nil.
func contextFacts(files []sdk.File, context []abi.DiagnosticsContextFile, pythonMinor int, known map[string]*rules.ModuleFacts) []abi.ContextFacts {
	var facts []abi.ContextFacts
	for _, cf := range context {
		for _, rf := range files {
			if rf.Path != cf.Path {
				continue
			}
			mf := rules.ContextModuleFacts(rules.ContextFile{Path: cf.Path, ModuleName: cf.Module, IsPackageInit: cf.IsPackageInit, Tree: rf.Tree}, pythonMinor)
			if known != nil {
				known[cf.Module] = mf
			}
			if raw, err := json.Marshal(mf); err == nil {
				facts = append(facts, abi.ContextFacts{Module: cf.Module, Facts: raw})
			}
			break
		}
	}
	return facts
}

// decodedFacts keeps, across the calls an instance serves, the decoded
// facts of each context module by the bytes the kernel sends for it: a
// module many files import comes with each of their calls, and decoding
// its JSON again each time was about 6% of a checking call natively, more
// in wasm. A module's entry is replaced when its bytes differ (it was
// edited, or the target version changed); a decoded ModuleFacts is never
// written after it is made, so calls can share it.
var decodedFacts = factsMemo{byModule: map[string]memoFacts{}}

// maxMemoFactsBytes bounds the memo by the facts' JSON (their decoded
// form is of the same order): a first pass over Django keeps about 250
// modules in well under 1 MiB; beyond the bound the memo starts afresh,
// so it adds at most a few MiB to the instance's memory.
const maxMemoFactsBytes = 4 << 20

type memoFacts struct {
	raw   string
	facts *rules.ModuleFacts
}

type factsMemo struct {
	byModule map[string]memoFacts
	size     int // the kept facts' JSON bytes
}

// get returns the facts raw decodes to, nil when it does not decode.
func (m *factsMemo) get(module string, raw []byte) *rules.ModuleFacts {
	if e, ok := m.byModule[module]; ok && e.raw == string(raw) {
		return e.facts
	}
	mf, err := rules.DecodeModuleFacts(raw)
	if err != nil {
		return nil
	}
	if e, ok := m.byModule[module]; ok {
		m.size -= len(e.raw)
	}
	if m.size+len(raw) > maxMemoFactsBytes {
		clear(m.byModule)
		m.size = 0
	}
	m.byModule[module] = memoFacts{raw: string(raw), facts: mf}
	m.size += len(raw)
	return mf
}
