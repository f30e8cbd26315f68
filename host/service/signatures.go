package service

import (
	"context"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/toolspec"
)

// SignatureHelpResult is the result of get_signature_help: empty
// signatures outside a call's argument list.
type SignatureHelpResult struct {
	Signatures      []SignatureInformation `json:"signatures"`
	ActiveSignature int                    `json:"activeSignature"`
	// ActiveParameter indexes the active signature's parameters: one past
	// the last when the argument at the position fills none of them, -1
	// when there are none (pyright's answers).
	ActiveParameter int `json:"activeParameter"`
}

// SignatureInformation is one signature of the callee, in pyright's
// notation: `(a: int, b: str = "x") -> None`.
type SignatureInformation struct {
	Label         string                 `json:"label"`
	Documentation string                 `json:"documentation,omitempty"`
	Parameters    []ParameterInformation `json:"parameters"`
}

// ParameterInformation is one parameter of a signature, as its label
// writes it (`b: str = "x"`; "/", "*" and "..." are entries too).
type ParameterInformation struct {
	Label         string `json:"label"`
	Documentation string `json:"documentation,omitempty"`
}

func runSignatureHelp(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	f, x, _, err := navQuery(ctx, s, a, fault.WorkspaceNotLoaded)
	if err != nil {
		return nil, err
	}
	return toSignatureHelp(x.SignatureHelp(ctx, f.abs, a.Int("line"), a.Int("character"))), nil
}

func toSignatureHelp(sh index.SignatureHelp) SignatureHelpResult {
	out := SignatureHelpResult{Signatures: []SignatureInformation{}, ActiveSignature: sh.ActiveSignature, ActiveParameter: sh.ActiveParameter}
	for _, sig := range sh.Signatures {
		info := SignatureInformation{Label: sig.Label, Documentation: sig.Doc, Parameters: []ParameterInformation{}}
		for _, p := range sig.Params {
			info.Parameters = append(info.Parameters, ParameterInformation{Label: p})
		}
		out.Signatures = append(out.Signatures, info)
	}
	if len(out.Signatures) == 0 {
		out.ActiveSignature, out.ActiveParameter = 0, -1
	}
	return out
}
