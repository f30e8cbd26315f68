package service

// format_document, kernel side. The plugin (plugins/formatter) does the
// formatting; the kernel validates options (host/pyproject, INVALID_OPTIONS),
// reads the file under the tier's size cap, resolves configuration (request
// options over pyproject.toml over defaults, first-party names from the workspace),
// drives the plugin's phases, refuses results that do not parse or are not
// equivalent to the original, and turns the final text into minimal edits
// (host/textdiff) that it remembers for FILE_MODIFIED. It never writes.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/textdiff"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace/textenc"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// FormatResult is format_document's result.
type FormatResult struct {
	Edits      []abi.TextEdit `json:"edits"`
	TotalEdits int            `json:"totalEdits"`
}

func runFormat(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	if err := s.ws.requireLoaded(fault.WorkspaceNotLoaded); err != nil {
		return nil, err
	}
	raw, _ := a["options"].(json.RawMessage) // absent: the row's default, toolspec.Args{}
	opts, err := pyproject.ParseFormatRequest(raw)
	if err != nil {
		return nil, err
	}
	f, err := s.readPython(a.String("uri"), s.Limits.MaxFormatBytes)
	if err != nil {
		return nil, err
	}
	cfg, err := pyproject.FormatConfig(s.ws.ws, opts)
	if err != nil {
		return nil, err
	}
	cfg.Pyi = strings.EqualFold(filepath.Ext(f.abs), ".pyi")

	final, err := s.formatText(ctx, f, cfg)
	if err != nil {
		return nil, err
	}
	edits := textdiff.Edits(f.text, final)
	if edits == nil {
		edits = []abi.TextEdit{}
	}
	if len(edits) > 0 && s.svc.cfg.Edits != nil {
		sum, err := s.rawContentHash(f)
		if err != nil {
			return nil, err
		}
		s.svc.cfg.Edits.Remember(f.abs, edits, sum)
	}
	return FormatResult{Edits: edits, TotalEdits: len(edits)}, nil
}

// rawContentHash is the SHA-256 of the file's bytes on disk (what the edit
// engine hashes), checked to still decode to the text that was formatted:
// a file that changed during the call is FILE_MODIFIED now rather than
// edits remembered against content they were not computed from.
// format_document and get_code_actions remember their edits with it.
func (s *Session) rawContentHash(f *sourceFile) (string, error) {
	raw, err := s.ws.ws.ReadBytes(f.abs, s.Limits.MaxReadFileBytes)
	if err == nil {
		text, _, derr := textenc.Decode(raw, "")
		if derr == nil && bytes.Equal(text, f.text) {
			sum := sha256.Sum256(raw)
			return hex.EncodeToString(sum[:]), nil
		}
	}
	return "", fault.New(fault.FileModified, fault.Details{"uri": f.uri, "path": f.rel},
		"%s changed while its edits were being made; ask for them again", f.rel)
}

// formatText runs the plugin's phases and returns the checked result.
func (s *Session) formatText(ctx context.Context, f *sourceFile, cfg abi.FormatConfig) ([]byte, error) {
	src, crlf := lfText(f.text)
	call := func(phase string, text []byte) (*pluginresult.Format, error) {
		return s.formatPhase(ctx, f, cfg, phase, text)
	}

	first, err := call("format", src)
	if err != nil {
		return nil, err
	}
	if first.Text == nil || first.Signature == nil {
		return nil, formatterBroken(f, "the formatter's result lacks text or signature")
	}
	text := []byte(*first.Text)
	// The digest of the comments of Black's input: the signature forgets
	// comments, so the check compares them apart (the plugin runs Black
	// without its own token self-check, which this and the signature cover).
	comments := first.Comments
	if first.NeedsBlack {
		r, err := call("black", text)
		if err != nil {
			return nil, err
		}
		if r.Text == nil {
			return nil, formatterBroken(f, "the formatter's black phase returned no text")
		}
		text, comments = []byte(*r.Text), r.Comments
	}
	reindent := cfg.TabSize != 4 || !cfg.InsertSpaces
	if reindent || !bytes.Equal(text, src) {
		check := func(candidate []byte) (*pluginresult.Format, error) {
			r, err := call("check", candidate)
			if err != nil {
				return nil, err
			}
			if r.ParseError != nil {
				return nil, formatterBroken(f, fmt.Sprintf("the formatted code does not parse (line %d, character %d)", r.ParseError.Line+1, r.ParseError.Character+1))
			}
			if r.Signature == nil || r.Signature.Hash != first.Signature.Hash {
				return nil, formatterBroken(f, "the formatted code is not equivalent to the original")
			}
			if r.Comments != comments {
				return nil, formatterBroken(f, "the formatted code's comments differ from the original's")
			}
			return r, nil
		}
		r, err := check(text)
		if err != nil {
			return nil, err
		}
		if reindent && r.Text != nil && *r.Text != string(text) {
			cfg.TabSize, cfg.InsertSpaces = 4, true // check the re-indented text as it is
			if _, err := check([]byte(*r.Text)); err != nil {
				return nil, err
			}
			text = []byte(*r.Text)
		}
	}
	if crlf {
		text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
	}
	return text, nil
}

// lfText returns src with "\r\n" line endings made "\n" (the formatter
// plugin works on "\n" text), and whether its first line ended in
// "\r\n" (Black writes that ending everywhere).
func lfText(src []byte) (text []byte, crlf bool) {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		crlf = true
	}
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	return src, crlf
}

// formatPhase runs one phase of the formatter plugin on text, a version
// of f.
func (s *Session) formatPhase(ctx context.Context, f *sourceFile, cfg abi.FormatConfig, phase string, text []byte) (*pluginresult.Format, error) {
	sf := *f
	sf.text = text
	out, err := s.callPlugin(ctx, "format_document", toolspec.Args{"uri": f.uri, "phase": phase, "config": cfg}, &sf)
	if err != nil {
		return nil, err
	}
	r, err := pluginresult.DecodeFormat(out, len(text))
	if err != nil {
		return nil, formatterBroken(f, err.Error())
	}
	return r, nil
}

// formatterBroken refuses a result that failed the safety check: a
// formatter bug, not the user's error, so SERVER_UNAVAILABLE with details
// {reason: "formatter produced non-equivalent code", detail}, and no edits.
func formatterBroken(f *sourceFile, detail string) *fault.Error {
	return fault.New(fault.ServerUnavailable,
		fault.Details{"tool": "format_document", "uri": f.uri, "reason": "formatter produced non-equivalent code", "detail": detail},
		"formatting %s was refused as unsafe: %s; the file was not changed", f.rel, detail)
}
