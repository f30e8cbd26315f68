package service

import (
	"context"
	"encoding/json"

	"github.com/pyws/pyws/host/diagcache"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// DiagnosticsResult is get_diagnostics' result.
type DiagnosticsResult struct {
	Diagnostics  []abi.Diagnostic `json:"diagnostics"`
	ErrorCount   int              `json:"errorCount"`
	WarningCount int              `json:"warningCount"`
}

var severityByName = map[string]int{
	"error": abi.SeverityError, "warning": abi.SeverityWarning,
	"information": abi.SeverityInformation, "hint": abi.SeverityHint,
}

func runDiagnostics(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	if err := s.ws.requireLoaded(fault.WorkspaceNotLoaded); err != nil {
		return nil, err
	}
	f, err := s.readPython(a.String("uri"), s.Limits.MaxReadFileBytes)
	if err != nil {
		return nil, err
	}
	ans, err := s.askDiagnosticsPlugin(ctx, "get_diagnostics", a.String("uri"), f)
	if err != nil {
		return nil, err
	}
	body, err := pluginresult.DecodeDiagnostics(ans.raw, f.index)
	if err != nil {
		return nil, diagnosticsPluginBroken("get_diagnostics", err)
	}
	s.keepDiagnosticsAnswer(ans, body.Warnings, body.ContextFacts)
	diags := body.Diagnostics
	res := DiagnosticsResult{Diagnostics: []abi.Diagnostic{}}
	want := severityByName[a.String("severity")]
	for _, d := range diags {
		switch d.Severity {
		case abi.SeverityError:
			res.ErrorCount++
		case abi.SeverityWarning:
			res.WarningCount++
		}
		if want == 0 || d.Severity == want {
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	return res, nil
}

// diagnosticsAnswer is what the diagnostics plugin answered for a file,
// and what keepDiagnosticsAnswer needs to remember a fresh answer.
type diagnosticsAnswer struct {
	raw     json.RawMessage
	key     diagcache.Key
	pending diagcache.Pending
	fresh   bool // not from the cache
}

// askDiagnosticsPlugin calls tool (get_diagnostics, get_code_actions) of
// the diagnostics plugin for f with the workspace facts and context files
// diagnosticsArgs gathers, or answers from the workspace's cache when the
// plugin already answered the same question. uri is the caller's
// spelling of the file.
//
// The type findings are one of the arguments, and the check that makes
// them (in the kernel) is still running when the rest is ready for a
// file whose context facts are all kept. Most files have none, and an
// argument list without findings is byte for byte the one with an empty
// list, so the plugin is then asked at once as if the check finds
// nothing, the check running meanwhile on the other core; only when it
// does find something is the plugin asked again with the findings (the
// worker keeps the file's tree and the facts, so the second call is the
// guest's work alone). A failed first call's error is the answer: the
// findings do not change what a plugin's failure means, and asking again
// would double a timeout.
func (s *Session) askDiagnosticsPlugin(ctx context.Context, tool, uri string, f *sourceFile) (diagnosticsAnswer, error) {
	pyws, context, check := s.diagnosticsArgs(ctx, f)
	s.fetchContextFacts(ctx, pyws, context)
	files, pending := s.useContextFacts(pyws, f, context)
	sources := make([]diagcache.Source, len(files))
	for i, sf := range files {
		sources[i] = diagcache.Source{Path: sf.rel, Text: sf.text}
	}
	ask := func() (diagnosticsAnswer, error) {
		// The kernel filters by severity or range: the plugin's answer
		// (and the cache) does not depend on them. The arguments are
		// encoded once, for the key and the call.
		args, err := json.Marshal(toolspec.Args{"uri": uri, "pyws": pyws})
		if err != nil {
			return diagnosticsAnswer{}, err
		}
		ans := diagnosticsAnswer{key: diagcache.AnswerKey(tool, args, sources), pending: pending}
		var hit bool
		if ans.raw, hit = s.ws.diag.cache.Answer(ans.key); hit {
			return ans, nil
		}
		raw, err := s.callPluginEncoded(ctx, tool, args, files...)
		ans.raw, ans.fresh = raw, true
		return ans, err
	}
	return askBesideCheck(check, pyws, ask)
}

// askBesideCheck runs ask with a.TypeFindings from check: at once without
// them while the check is still running, again with them only if it then
// finds any (askDiagnosticsPlugin says why).
func askBesideCheck(check *typeCheck, a *abi.DiagnosticsContext, ask func() (diagnosticsAnswer, error)) (diagnosticsAnswer, error) {
	if check.ready() {
		a.TypeFindings = check.wait()
		return ask()
	}
	ans, err := ask() // a.TypeFindings nil: as if the check finds nothing
	if err != nil {
		return ans, err // without waiting for the check: cancelled or timed out, the caller is told now
	}
	if found := check.wait(); len(found) > 0 {
		a.TypeFindings = found
		return ask()
	}
	return ans, nil
}

// keepDiagnosticsAnswer remembers a fresh answer, once decoded and checked,
// and the context facts that came with it.
func (s *Session) keepDiagnosticsAnswer(ans diagnosticsAnswer, warnings json.RawMessage, facts []abi.ContextFacts) {
	if !ans.fresh {
		return
	}
	logDiagnosticsWarnings(s, warnings)
	s.ws.diag.cache.KeepAnswer(ans.key, ans.raw)
	if len(facts) > 0 {
		build := s.diagnosticsPluginBuild()
		s.ws.diag.factsFrom.Store(&build)
	}
	s.keepContextFacts(ans.pending, facts)
}

func (s *Session) keepContextFacts(pending diagcache.Pending, facts []abi.ContextFacts) {
	for _, f := range s.ws.diag.cache.KeepFacts(pending, facts) {
		s.svc.cfg.Logger.Warn("diagnostics plugin returned unusable context facts", "module", f.Module, "bytes", len(f.Facts))
	}
}

// fetchContextFacts asks the plugin for the facts of each context module
// it has none kept for, one facts-only call per module before the file's
// own call. The runtime gives a call the worker that last parsed its
// first file: for a module, the worker that indexed it and may still hold
// its tree, where the file's call goes to the file's worker, which about
// half the time must parse the module again (a first pass over Django
// parsed 100 of 230 context modules so). A module whose call fails is
// sent with the file, as before, and so is every module until the plugin
// has answered with facts once (diagState.factsFrom).
func (s *Session) fetchContextFacts(ctx context.Context, pyws *abi.DiagnosticsContext, context []*sourceFile) {
	plugin := s.diagnosticsPluginBuild()
	if b := s.ws.diag.factsFrom.Load(); b == nil || *b != plugin {
		return // not known to give facts: the modules go with the file
	}
	for i, cf := range context {
		if i >= len(pyws.Context) {
			break
		}
		one := &abi.DiagnosticsContext{Config: pyws.Config, PythonVersion: pyws.PythonVersion, Installed: []string{},
			Imports: map[string]int{}, Context: []abi.DiagnosticsContextFile{pyws.Context[i]}, FactsOnly: true}
		pending := s.ws.diag.cache.UseFacts(one, [][]byte{cf.text}, plugin)
		if len(pending.Sent) == 0 {
			continue // kept
		}
		raw, err := s.callPlugin(ctx, "get_diagnostics", toolspec.Args{"uri": cf.uri, "pyws": one}, cf)
		if err != nil {
			continue
		}
		if body, err := pluginresult.DecodeDiagnostics(raw, contextLines(cf)); err == nil {
			s.keepContextFacts(pending, body.ContextFacts)
		}
	}
}

// diagnosticsPluginBuild names the diagnostics plugin's build, which
// context facts are kept under ("" when the runtime cannot say).
func (s *Session) diagnosticsPluginBuild() string {
	if pi, ok := s.svc.cfg.Plugins.(PluginIdentity); ok {
		return pi.PluginSHA256("get_diagnostics")
	}
	return ""
}

func diagnosticsPluginBroken(tool string, err error) *fault.Error {
	return fault.New(fault.ServerUnavailable, fault.Details{"tool": tool, "reason": err.Error()},
		"the diagnostics plugin returned an invalid result: %v", err)
}

// useContextFacts replaces the context modules whose facts are kept by
// those facts (in pyws.Facts), and returns the files to send: f, then the
// context files still needed.
func (s *Session) useContextFacts(pyws *abi.DiagnosticsContext, f *sourceFile, context []*sourceFile) ([]*sourceFile, diagcache.Pending) {
	plugin := s.diagnosticsPluginBuild()
	texts := make([][]byte, len(context))
	for i, cf := range context {
		texts[i] = cf.text
	}
	pending := s.ws.diag.cache.UseFacts(pyws, texts, plugin)
	files := []*sourceFile{f}
	for _, i := range pending.Sent {
		files = append(files, context[i])
	}
	return files, pending
}

// logDiagnosticsWarnings logs the configuration problems the plugin
// found in [tool.pyws] (once per distinct message set is enough for a
// log; they are cheap).
func logDiagnosticsWarnings(s *Session, raw json.RawMessage) {
	var warnings []string
	if len(raw) > 0 && json.Unmarshal(raw, &warnings) == nil && len(warnings) > 0 {
		s.svc.cfg.Logger.Warn("[tool.pyws] configuration problems", "workspace", s.ws.root, "problems", warnings)
	}
}
