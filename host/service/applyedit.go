package service

import (
	"context"
	"encoding/json"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
)

func runApplyEdit(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	raw, _ := a["edit"].(json.RawMessage)
	changes, err := edits.DecodeChanges(raw)
	if err != nil {
		return nil, refused(err, "")
	}
	lim := edits.Limits{MaxFiles: s.Limits.MaxFilesPerEdit, MaxEditsPerFile: s.Limits.MaxEditsPerFile}
	res, err := s.svc.cfg.Edits.Apply(ctx, s.ws.ws, changes, lim)
	if err != nil {
		return nil, refused(err, res.FailureReason)
	}
	return res, nil
}

// refused attaches the result form of a refusal (applied false, the
// failure reason) to err, which the api renders beside the envelope.
func refused(err error, reason string) error {
	fe, ok := fault.As(err)
	if !ok {
		return err
	}
	if reason == "" {
		reason = fe.Code + ": " + fe.Message
	}
	fe.Details["result"] = map[string]any{
		"applied": false, "failureReason": reason,
		"filesModified": 0, "totalEdits": 0,
	}
	return err
}
