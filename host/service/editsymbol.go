package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// Edit actions of edit_symbol.
var editActions = []string{"replace_body", "replace", "insert_before", "insert_after"}

// EditSymbolResult is edit_symbol's result: apply_workspace_edit takes it
// as it is.
type EditSymbolResult struct {
	Changes map[string][]abi.TextEdit `json:"changes" doc:"file URI -> edits, for apply_workspace_edit"`
	// Symbol is the dotted name of what was edited, Range the statement
	// before the edit.
	Symbol string    `json:"symbol" doc:"the dotted name of the symbol edited"`
	Range  abi.Range `json:"range" doc:"the symbol's statement before the edit (a def or class from its first decorator)"`
}

func runEditSymbol(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	_, x, h, err := symbolQuery(ctx, s, a, fault.WorkspaceNotIndexed, fault.NoSymbolFound)
	if err != nil {
		return nil, err
	}
	sym, err := x.Defined(h)
	if err != nil {
		return nil, err
	}
	f, err := s.readPython(workspace.FileURI(sym.Abs), s.Limits.MaxReadFileBytes)
	if err != nil {
		return nil, err
	}
	edit, err := symbolEdit(f.text, f.index, sym.Extent, a.String("action"), a.String("text"))
	if err != nil {
		return nil, err
	}
	if err := s.checkParses(ctx, f, edit); err != nil {
		return nil, err
	}
	raw, err := s.ws.ws.ReadBytes(f.abs, 0)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	if s.svc.cfg.Edits != nil {
		s.svc.cfg.Edits.Remember(f.abs, []abi.TextEdit{edit}, hex.EncodeToString(sum[:]))
	}
	return EditSymbolResult{Changes: map[string][]abi.TextEdit{f.uri: {edit}}, Symbol: sym.Qualified(), Range: extentRange(sym.Extent, sym.Span)}, nil
}

// checkParses asks the formatter plugin's parser whether the file parses
// once edit is applied: PARSE_ERROR, with where, when it does not.
func (s *Session) checkParses(ctx context.Context, f *sourceFile, edit abi.TextEdit) error {
	start, err := f.index.Offset(edit.Range.Start.Line, edit.Range.Start.Character)
	if err != nil {
		return err
	}
	end, err := f.index.Offset(edit.Range.End.Line, edit.Range.End.Character)
	if err != nil {
		return err
	}
	text := make([]byte, 0, len(f.text)+len(edit.NewText))
	text = append(append(append(text, f.text[:start]...), edit.NewText...), f.text[end:]...)
	cfg, err := pyproject.FormatConfig(s.ws.ws, pyproject.FormatRequest{})
	if err != nil {
		return err
	}
	lf, _ := lfText(text)
	r, err := s.formatPhase(ctx, f, cfg, "check", lf)
	if err != nil {
		return err
	}
	if p := r.ParseError; p != nil {
		return fault.New(fault.ParseError, fault.Details{"uri": f.uri, "line": p.Line, "character": p.Character, "reason": "the edited file would not parse"},
			"with the text in place, %s would not parse (line %d, character %d); nothing was returned", f.rel, p.Line+1, p.Character+1)
	}
	return nil
}

// symbolEdit is the edit that does action with text to the statement at
// x in src: text is dedented, then indented as the statement (its body,
// for replace_body), with the file's line breaks; what is inserted is
// kept apart from its neighbour by a blank line (two at top level).
func symbolEdit(src []byte, ix *textpos.Index, x navindex.Extent, action, text string) (abi.TextEdit, error) {
	lineText := func(line int32) string {
		if int(line) >= ix.LineCount() {
			return ""
		}
		return strings.TrimSuffix(string(src[ix.LineStart(int(line)):ix.LineEnd(int(line))]), "\r")
	}
	nl := "\n"
	if strings.Contains(string(src), "\r\n") {
		nl = "\r\n"
	}
	indent := leadingSpace(lineText(x.Line))
	gap := nl
	if indent == "" {
		gap = nl + nl
	}
	lines := dedent(text)
	if len(lines) == 0 && action != "replace_body" {
		return abi.TextEdit{}, toolspec.Invalid("text", nil, "text is empty: nothing to %s", strings.ReplaceAll(action, "_", " "))
	}
	at := func(line, col int32) abi.Position { return abi.Position{Line: int(line), Character: int(col)} }
	span := func(l0, c0, l1, c1 int32) abi.Range { return abi.Range{Start: at(l0, c0), End: at(l1, c1)} }
	switch action {
	case "replace":
		return abi.TextEdit{Range: span(x.Line, x.Col, x.EndLine, x.EndCol), NewText: indented(lines, indent, nl, false)}, nil
	case "insert_before":
		return abi.TextEdit{Range: span(x.Line, 0, x.Line, 0), NewText: indented(lines, indent, nl, true) + nl + gap}, nil
	case "insert_after":
		return abi.TextEdit{Range: span(x.EndLine, x.EndCol, x.EndLine, x.EndCol), NewText: nl + gap + indented(lines, indent, nl, true)}, nil
	case "replace_body":
		if x.BodyLine == 0 && x.BodyCol == 0 {
			return abi.TextEdit{}, toolspec.Invalid("action", action, "replace_body needs a def or a class; the symbol is a variable")
		}
		if len(lines) == 0 {
			lines = []string{"pass"}
		}
		body := lineText(x.BodyLine)
		before := utf16Prefix(body, int(x.BodyCol))
		if strings.TrimSpace(before) == "" {
			return abi.TextEdit{Range: span(x.BodyLine, x.BodyCol, x.EndLine, x.EndCol), NewText: indented(lines, before, nl, false)}, nil
		}
		// The body shares its line with the header (def f(): pass): it
		// moves to lines of its own after the colon.
		colon := strings.LastIndexByte(before, ':')
		if colon < 0 {
			return abi.TextEdit{}, fault.New(fault.ServerUnavailable, fault.Details{"reason": "no colon before the body"},
				"the symbol's body at line %d has no colon before it", x.BodyLine+1)
		}
		colonEnd := int32(textpos.UTF16Len([]byte(before[:colon+1])))
		return abi.TextEdit{Range: span(x.BodyLine, colonEnd, x.EndLine, x.EndCol), NewText: nl + indented(lines, indent+"    ", nl, true)}, nil
	}
	return abi.TextEdit{}, toolspec.Invalid("action", action, "action must be one of %s", strings.Join(editActions, ", "))
}

// utf16Prefix is the part of line before UTF-16 character col.
func utf16Prefix(line string, col int) string {
	n := 0
	for i, r := range line {
		if n >= col {
			return line[:i]
		}
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return line
}

func leadingSpace(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// dedent splits text into lines without their common indentation
// (blank lines do not count) and without blank lines at either end.
func dedent(text string) []string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	common, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := leadingSpace(l)
		if first {
			common, first = ind, false
		}
		for !strings.HasPrefix(ind, common) {
			common = common[:len(common)-1]
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(strings.TrimPrefix(l, common), " \t")
	}
	return out
}

// indented joins lines with nl, each non-blank one after indent (the
// first too when first is true: it then starts a line of its own).
func indented(lines []string, indent, nl string, first bool) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString(nl)
		}
		if l != "" && (i > 0 || first) {
			b.WriteString(indent)
		}
		b.WriteString(l)
	}
	return b.String()
}
