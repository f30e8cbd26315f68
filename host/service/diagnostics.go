package service

import (
	"context"
	"encoding/json"
	"log/slog"

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
	pyws, extra := s.diagnosticsArgs(ctx, f)
	sent := s.useContextFacts(pyws, extra)
	extra = sent.files
	pa := make(toolspec.Args, len(a)+1)
	for k, v := range a {
		if k != "severity" { // the kernel filters; the plugin's answer (and the cache) does not depend on it
			pa[k] = v
		}
	}
	pa["pyws"] = pyws
	files := append([]*sourceFile{f}, extra...)
	key := diagKey(pa, files)
	out, hit := s.ws.diag.results.get(key)
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
		s.ws.diag.results.put(key, out)
		sent.keep(s.ws.diag.facts, body.ContextFacts, s.svc.cfg.Logger)
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

// sentContext is how a call's context modules travel: as files (facts
// not known yet) or as facts.
type sentContext struct {
	files []*sourceFile
	keys  map[string][32]byte // module -> facts key, for the files sent
}

// useContextFacts replaces the context files whose facts are cached by
// those facts, in pyws.Facts, and returns the files still to send.
func (s *Session) useContextFacts(pyws *abi.DiagnosticsContext, files []*sourceFile) sentContext {
	plugin := ""
	if pi, ok := s.svc.cfg.Plugins.(PluginIdentity); ok {
		plugin = pi.PluginSHA256("get_diagnostics")
	}
	sent := sentContext{keys: map[string][32]byte{}}
	var keepCtx []abi.DiagnosticsContextFile
	for i, cf := range pyws.Context {
		if i >= len(files) {
			break
		}
		k := factsKey(files[i], cf, pyws.PythonVersion, plugin)
		if facts, ok := s.ws.diag.facts.get(k); ok {
			pyws.Facts = append(pyws.Facts, abi.ContextFacts{Module: cf.Module, Facts: facts})
			continue
		}
		keepCtx = append(keepCtx, cf)
		sent.files = append(sent.files, files[i])
		sent.keys[cf.Module] = k
	}
	pyws.Context = keepCtx
	return sent
}

// keep stores in c the facts the plugin reported for the files it was sent.
func (sent sentContext) keep(c *boundedCache, facts []abi.ContextFacts, log *slog.Logger) {
	for _, f := range facts {
		k, ok := sent.keys[f.Module]
		if !ok || !pluginresult.UsableFacts(f.Facts) {
			log.Warn("diagnostics plugin returned unusable context facts", "module", f.Module, "bytes", len(f.Facts))
			continue
		}
		c.put(k, append(json.RawMessage(nil), f.Facts...))
	}
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
