package service

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
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
	body, err := unmarshalDiagnostics(out)
	if err == nil {
		if !hit {
			logDiagnosticsWarnings(s, body.Warnings)
		}
		err = body.validate(f.index)
	}
	if err != nil {
		return nil, fault.New(fault.ServerUnavailable, fault.Details{"tool": "get_diagnostics", "reason": err.Error()},
			"the diagnostics plugin returned an invalid result: %v", err)
	}
	diags := body.Diagnostics
	if !hit {
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
		if !ok || len(f.Facts) > maxFactsBytes || len(f.Facts) == 0 || f.Facts[0] != '{' || !json.Valid(f.Facts) {
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

// maxDiagnostics bounds what a plugin may return for one file.
const maxDiagnostics = 10000

// DecodeDiagnostics validates a plugin's get_diagnostics result: plugin
// output is untrusted, so every range must lie in the file, severities must
// be 1-4 and codes non-empty. Counts are always recomputed by the kernel.
// The result is sorted by position.
func DecodeDiagnostics(raw []byte, idx *textpos.Index) ([]abi.Diagnostic, error) {
	body, err := unmarshalDiagnostics(raw)
	if err != nil {
		return nil, err
	}
	if err := body.validate(idx); err != nil {
		return nil, err
	}
	return body.Diagnostics, nil
}

// diagnosticsBody is the plugin's get_diagnostics result, decoded once
// for both the diagnostics and the configuration warnings.
type diagnosticsBody struct {
	Diagnostics []abi.Diagnostic `json:"diagnostics"`
	// Warnings are only logged: a malformed list is ignored, not an
	// invalid result.
	Warnings json.RawMessage `json:"warnings"`
	// ContextFacts are kept for later calls (diagState.facts); malformed ones
	// are dropped, not an invalid result.
	ContextFacts []abi.ContextFacts `json:"contextFacts"`
}

func unmarshalDiagnostics(raw []byte) (*diagnosticsBody, error) {
	var body diagnosticsBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("result is not a diagnostics object: %w", err)
	}
	return &body, nil
}

// validate is DecodeDiagnostics' check of a decoded result; it sorts the
// diagnostics by position.
func (body *diagnosticsBody) validate(idx *textpos.Index) error {
	if len(body.Diagnostics) > maxDiagnostics {
		return fmt.Errorf("%d diagnostics exceed the limit of %d", len(body.Diagnostics), maxDiagnostics)
	}
	for i := range body.Diagnostics {
		d := &body.Diagnostics[i]
		if d.Severity < abi.SeverityError || d.Severity > abi.SeverityHint {
			return fmt.Errorf("diagnostic %d: severity %d is not 1-4", i, d.Severity)
		}
		if d.Code == "" || len(d.Code) > 64 {
			return fmt.Errorf("diagnostic %d: code must be 1-64 bytes", i)
		}
		if len(d.Message) > 4096 {
			d.Message = d.Message[:4096]
		}
		if err := checkRange(d.Range, idx); err != nil {
			return fmt.Errorf("diagnostic %d: %w", i, err)
		}
		if d.Source == "" {
			d.Source = abi.EngineName
		}
	}
	sort.SliceStable(body.Diagnostics, func(i, j int) bool {
		a, b := body.Diagnostics[i].Range.Start, body.Diagnostics[j].Range.Start
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Character < b.Character
	})
	return nil
}

// checkRange accepts a range whose ends are positions in the file (ends may
// sit at a line's end) and whose start is not after its end.
func checkRange(r abi.Range, idx *textpos.Index) error {
	start, err := idx.Offset(r.Start.Line, r.Start.Character)
	if err != nil {
		return fmt.Errorf("range start %d:%d is outside the file", r.Start.Line, r.Start.Character)
	}
	end, err := idx.Offset(r.End.Line, r.End.Character)
	if err != nil {
		return fmt.Errorf("range end %d:%d is outside the file", r.End.Line, r.End.Character)
	}
	if start > end {
		return fmt.Errorf("range start is after its end")
	}
	return nil
}
