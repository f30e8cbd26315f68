package service

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"

	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/textdiff"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/pycomplete"
)

// importPlacer makes the edits that add `from m import name` to one file
// where `isort --profile black` puts it, with the formatter's isort phase
// (the isort organize imports uses, not a second one): the statement is
// written above the module's first import (pycomplete.ImportLine) and
// isort places it (merging it into an existing `from m import ...`).
// When isort would also reorder the file's other imports (the file is not
// isort-clean), does not parse it, or no formatter is served, the edit is
// the plain insertion above the first import.
type importPlacer struct {
	s       *Session
	f       *sourceFile
	cfg     abi.FormatConfig
	checked bool
	clean   bool // isort leaves the file as it is
}

func (s *Session) newImportPlacer(f *sourceFile) *importPlacer {
	return &importPlacer{s: s, f: f}
}

// isortConfig is format_document's configuration without request
// options, as organize imports uses it; ok false when the workspace's
// pyproject.toml cannot be read.
func (s *Session) isortConfig(f *sourceFile) (abi.FormatConfig, error) {
	opts, _ := pyproject.ParseFormatRequest(nil) // the defaults
	cfg, err := pyproject.FormatConfig(s.ws.ws, opts)
	if err != nil {
		return cfg, err
	}
	cfg.Pyi = strings.EqualFold(filepath.Ext(f.abs), ".pyi")
	return cfg, nil
}

// edits adds `from mod import name`.
func (p *importPlacer) edits(ctx context.Context, mod, name string) ([]abi.TextEdit, error) {
	stmt := "from " + mod + " import " + name + "\n"
	src, crlf := lfText(p.f.text)
	if !p.checked {
		p.checked = true
		if p.s.svc.serves("format_document") {
			cfg, err := p.s.isortConfig(p.f)
			if err == nil {
				p.cfg = cfg
				sorted, err := p.s.formatPhase(ctx, p.f, cfg, "isort", src)
				if err != nil {
					return nil, err
				}
				p.clean = sorted.ParseError == nil && sorted.Text != nil && *sorted.Text == string(src)
			}
		}
	}
	if p.clean {
		at := pycomplete.ImportLine(src)
		with := append(append(append([]byte{}, src[:at]...), stmt...), src[at:]...)
		sorted, err := p.s.formatPhase(ctx, p.f, p.cfg, "isort", with)
		if err != nil {
			return nil, err
		}
		if sorted.ParseError == nil && sorted.Text != nil {
			text := []byte(*sorted.Text)
			if crlf {
				text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
			}
			return textdiff.Edits(p.f.text, text), nil
		}
	}
	at := pycomplete.ImportLine(p.f.text)
	line, _ := p.f.index.Position(at)
	if crlf {
		stmt = strings.ReplaceAll(stmt, "\n", "\r\n")
	}
	pos := abi.Position{Line: line, Character: 0}
	if at == len(p.f.text) && len(p.f.text) > 0 && p.f.text[len(p.f.text)-1] != '\n' {
		// A file without a final newline, all header: the statement goes
		// on a new last line.
		l, c := p.f.index.Position(at)
		pos = abi.Position{Line: l, Character: c}
		stmt = "\n" + strings.TrimSuffix(stmt, "\n")
	}
	return []abi.TextEdit{{Range: abi.Range{Start: pos, End: pos}, NewText: stmt}}, nil
}

// missingImportFixes are the quick fixes that import a name read in rng
// that nothing binds and exactly one workspace or standard-library
// module defines (index.MissingImports). They come from the kernel, not
// the diagnostics rules: only the workspace index knows which modules
// define a name. Without an index (no indexer plugin) there are none.
func (s *Session) missingImportFixes(ctx context.Context, f *sourceFile, rng abi.Range) ([]CodeAction, error) {
	x := s.ws.idx.Load()
	if x == nil {
		return nil, nil
	}
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	if err := x.Refresh(ctx); err != nil {
		return nil, indexError(ctx, err)
	}
	if err := x.EnsureFile(ctx, f.abs, f.text); err != nil {
		return nil, indexError(ctx, err)
	}
	placer := s.newImportPlacer(f)
	var out []CodeAction
	for _, m := range x.MissingImports(f.abs, rng.Start.Line, rng.End.Line) {
		if !meets(toRange(m.Span), rng) {
			continue
		}
		edits, err := placer.edits(ctx, m.Module, m.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, CodeAction{Title: "Import " + m.Name + " from " + m.Module, Kind: KindQuickFix, IsPreferred: true,
			Edit: WorkspaceEdit{Changes: map[string][]abi.TextEdit{f.uri: edits}}})
	}
	return out, nil
}
