package service

// get_code_actions, kernel side. Three kinds of action, each an edit
// apply_workspace_edit takes as it is ({changes: {<file_uri>: [TextEdit]}}):
//
//   - quickfix: the fixes of the diagnostics whose range meets the
//     requested one, from the diagnostics plugin (its tool
//     get_code_actions, sent what get_diagnostics sends);
//   - source.fixAll: every fix of the file at once, from the same answer;
//   - source.organizeImports: isort's output alone, from the formatter
//     plugin's phase "isort" with the configuration format_document
//     resolves, checked equivalent in phase "check", turned into minimal
//     edits (host/textdiff).
//
// A file with syntax errors gets no action; it is not an error.

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/host/textdiff"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// The kinds of code action, as LSP names them.
const (
	KindQuickFix        = "quickfix"
	KindSource          = "source"
	KindOrganizeImports = "source.organizeImports"
	KindFixAll          = "source.fixAll"
)

// codeActionKinds are the values `only` accepts: a kind selects itself
// and the kinds under it ("source" both source actions).
var codeActionKinds = []string{KindQuickFix, KindSource, KindOrganizeImports, KindFixAll}

var rangeParam = toolspec.Param{Name: "range", Type: toolspec.TypeObject, Required: true, Doc: "the selection; an empty range is a cursor position",
	Fields: []toolspec.Param{
		{Name: "start", Type: toolspec.TypeObject, Required: true, Fields: positionFields},
		{Name: "end", Type: toolspec.TypeObject, Required: true, Fields: positionFields},
	}}

var positionFields = []toolspec.Param{
	{Name: "line", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0), Doc: "0-indexed line"},
	{Name: "character", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0), Doc: "0-indexed character, in UTF-16 code units"},
}

// CodeActionsResult is get_code_actions' result.
type CodeActionsResult struct {
	Actions []CodeAction `json:"actions"`
}

// CodeAction is one action: its edit, and for a quick fix the diagnostic
// it fixes.
type CodeAction struct {
	Title       string           `json:"title"`
	Kind        string           `json:"kind"`
	Edit        WorkspaceEdit    `json:"edit"`
	Diagnostics []abi.Diagnostic `json:"diagnostics,omitempty"`
	IsPreferred bool             `json:"isPreferred,omitempty"`
}

// WorkspaceEdit is apply_workspace_edit's `edit` argument.
type WorkspaceEdit struct {
	Changes map[string][]abi.TextEdit `json:"changes"`
}

func runCodeActions(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	if err := s.ws.requireLoaded(fault.WorkspaceNotLoaded); err != nil {
		return nil, err
	}
	rng, err := rangeArg(a)
	if err != nil {
		return nil, err
	}
	only := a.Strings("only")
	f, err := s.readPython(a.String("uri"), s.Limits.MaxReadFileBytes)
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		name string
		pos  abi.Position
	}{{"range.start", rng.Start}, {"range.end", rng.End}} {
		if _, err := positionOffset(f, p.pos.Line, p.pos.Character); err != nil {
			err.Details["parameter"] = p.name
			return nil, err
		}
	}

	res := CodeActionsResult{Actions: []CodeAction{}}
	edit := func(edits []abi.TextEdit) WorkspaceEdit {
		return WorkspaceEdit{Changes: map[string][]abi.TextEdit{f.uri: edits}}
	}
	if wantsKind(only, KindQuickFix) || wantsKind(only, KindFixAll) {
		ans, err := s.askDiagnosticsPlugin(ctx, "get_code_actions", a.String("uri"), f)
		if err != nil {
			return nil, err
		}
		body, err := pluginresult.DecodeCodeActions(ans.raw, f.index)
		if err != nil {
			return nil, diagnosticsPluginBroken("get_code_actions", err)
		}
		s.keepDiagnosticsAnswer(ans, body.Warnings, body.ContextFacts)
		if wantsKind(only, KindQuickFix) {
			for _, fix := range body.Actions {
				if meets(fix.Diagnostic.Range, rng) {
					res.Actions = append(res.Actions, CodeAction{Title: fix.Title, Kind: KindQuickFix, Edit: edit(fix.Edits),
						Diagnostics: []abi.Diagnostic{fix.Diagnostic}, IsPreferred: fix.IsPreferred})
				}
			}
		}
		if wantsKind(only, KindFixAll) && len(body.FixAll) > 0 {
			res.Actions = append(res.Actions, CodeAction{Title: "Fix all auto-fixable problems", Kind: KindFixAll, Edit: edit(body.FixAll)})
		}
	}
	if wantsKind(only, KindQuickFix) {
		fixes, err := s.missingImportFixes(ctx, f, rng)
		if err != nil {
			return nil, err
		}
		res.Actions = append(res.Actions, fixes...)
	}
	if wantsKind(only, KindOrganizeImports) && s.svc.serves("format_document") {
		edits, err := s.organizeImports(ctx, f)
		if err != nil {
			return nil, err
		}
		if len(edits) > 0 {
			res.Actions = append(res.Actions, CodeAction{Title: "Organize imports", Kind: KindOrganizeImports, Edit: edit(edits)})
		}
	}
	if len(res.Actions) > 0 && s.svc.cfg.Edits != nil {
		// As format_document's: applying an action after the file changed
		// is FILE_MODIFIED.
		sum, err := s.rawContentHash(f)
		if err != nil {
			return nil, err
		}
		for _, act := range res.Actions {
			s.svc.cfg.Edits.Remember(f.abs, act.Edit.Changes[f.uri], sum)
		}
	}
	return res, nil
}

// rangeArg reads the validated range argument, refusing an end before its
// start.
func rangeArg(a toolspec.Args) (abi.Range, error) {
	obj, _ := a.Object("range")
	pos := func(name string) abi.Position {
		p, _ := obj.Object(name)
		return abi.Position{Line: p.Int("line"), Character: p.Int("character")}
	}
	r := abi.Range{Start: pos("start"), End: pos("end")}
	if comparePositions(r.End, r.Start) < 0 {
		return r, toolspec.Invalid("range.end", r.End, "range.end (%d:%d) is before range.start (%d:%d)",
			r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return r, nil
}

func comparePositions(a, b abi.Position) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Character - b.Character
}

// meets reports whether two ranges share a position, ends included: a
// cursor (an empty range) meets a diagnostic it stands in or at the end of.
func meets(a, b abi.Range) bool {
	return comparePositions(a.Start, b.End) <= 0 && comparePositions(b.Start, a.End) <= 0
}

// wantsKind reports whether the `only` filter selects kind: no filter, or
// kind itself or one of its parents ("source" selects
// "source.organizeImports"), as LSP filters.
func wantsKind(only []string, kind string) bool {
	return len(only) == 0 || slices.ContainsFunc(only, func(k string) bool {
		return k == kind || strings.HasPrefix(kind, k+".")
	})
}

// organizeImports returns the edits that turn f into isort's output, nil
// when isort changes nothing or the file does not parse. Configuration is
// format_document's without request options ([tool.isort], first-party
// names); a pyproject.toml it cannot read, or isort output that the
// formatter finds not equivalent, leaves the action out (logged) rather
// than failing the other actions.
func (s *Session) organizeImports(ctx context.Context, f *sourceFile) ([]abi.TextEdit, error) {
	cfg, err := s.isortConfig(f)
	if err != nil {
		s.svc.cfg.Logger.Warn("organize imports left out", "path", f.rel, "reason", err.Error())
		return nil, nil
	}
	src, crlf := lfText(f.text)
	sorted, err := s.formatPhase(ctx, f, cfg, "isort", src)
	if err != nil {
		return nil, err
	}
	if sorted.ParseError != nil || sorted.Text == nil || *sorted.Text == string(src) {
		return nil, nil
	}
	text := []byte(*sorted.Text)
	check, err := s.formatPhase(ctx, f, cfg, "check", text)
	if err != nil {
		return nil, err
	}
	if check.ParseError != nil || check.Signature == nil || sorted.Signature == nil || check.Signature.Hash != sorted.Signature.Hash {
		s.svc.cfg.Logger.Warn("organize imports left out: isort's output is not equivalent to the file", "path", f.rel)
		return nil, nil
	}
	if crlf {
		text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
	}
	return textdiff.Edits(f.text, text), nil
}
