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
	pyws, context := s.diagnosticsArgs(ctx, f)
	files, pending := s.useContextFacts(pyws, f, context)
	pa := make(toolspec.Args, len(a)+1)
	for k, v := range a {
		if k != "severity" { // the kernel filters; the plugin's answer (and the cache) does not depend on it
			pa[k] = v
		}
	}
	pa["pyws"] = pyws
	sources := make([]diagcache.Source, len(files))
	for i, sf := range files {
		sources[i] = diagcache.Source{Path: sf.rel, Text: sf.text}
	}
	key := diagcache.AnswerKey(pa, sources)
	out, hit := s.ws.diag.cache.Answer(key)
	if !hit {
		if out, err = s.callPlugin(ctx, "get_diagnostics", pa, files...); err != nil {
			return nil, err
		}
	}
	body, err := pluginresult.DecodeDiagnostics(out, f.index)
	if err != nil {
		return nil, fault.New(fault.ServerUnavailable, fault.Details{"tool": "get_diagnostics", "reason": err.Error()},
			"the diagnostics plugin returned an invalid result: %v", err)
	}
	diags := body.Diagnostics
	if !hit {
		logDiagnosticsWarnings(s, body.Warnings)
		s.ws.diag.cache.KeepAnswer(key, out)
		for _, f := range s.ws.diag.cache.KeepFacts(pending, body.ContextFacts) {
			s.svc.cfg.Logger.Warn("diagnostics plugin returned unusable context facts", "module", f.Module, "bytes", len(f.Facts))
		}
	}
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

// useContextFacts replaces the context modules whose facts are kept by
// those facts (in pyws.Facts), and returns the files to send: f, then the
// context files still needed.
func (s *Session) useContextFacts(pyws *abi.DiagnosticsContext, f *sourceFile, context []*sourceFile) ([]*sourceFile, diagcache.Pending) {
	plugin := ""
	if pi, ok := s.svc.cfg.Plugins.(PluginIdentity); ok {
		plugin = pi.PluginSHA256("get_diagnostics")
	}
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
