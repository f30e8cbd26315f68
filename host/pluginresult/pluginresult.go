// Package pluginresult decodes what plugins answer and refuses what cannot
// be right before it reaches a caller or a cache. Plugin output is
// untrusted: a plugin is a separately built module, possibly an operator's,
// and a bug in one must not become a range outside the file, a severity the
// spec has no name for, text that is not source, or a cache filled with
// junk. The errors are plain; host/service says which fault a caller gets
// (SERVER_UNAVAILABLE naming the tool).
package pluginresult

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// MaxDiagnostics bounds what a plugin may return for one file.
const MaxDiagnostics = 10000

// MaxFactsBytes bounds what a plugin may say about one context module.
const MaxFactsBytes = 1 << 20

// Diagnostics is the diagnostics plugin's get_diagnostics result.
type Diagnostics struct {
	Diagnostics []abi.Diagnostic `json:"diagnostics"`
	// Warnings are only logged: a malformed list is ignored, not an
	// invalid result.
	Warnings json.RawMessage `json:"warnings"`
	// ContextFacts are kept for later calls; the unusable ones (UsableFacts)
	// are dropped, not an invalid result.
	ContextFacts []abi.ContextFacts `json:"contextFacts"`
}

// DecodeDiagnostics decodes a get_diagnostics result and checks it against
// the file it is about: every range must lie in the file, severities must
// be 1-4 and codes 1-64 bytes; long messages are cut and a missing source
// is the engine's. The diagnostics come back sorted by position; counts are
// the kernel's to compute.
func DecodeDiagnostics(raw []byte, idx *textpos.Index) (*Diagnostics, error) {
	var body Diagnostics
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("result is not a diagnostics object: %w", err)
	}
	if len(body.Diagnostics) > MaxDiagnostics {
		return nil, fmt.Errorf("%d diagnostics exceed the limit of %d", len(body.Diagnostics), MaxDiagnostics)
	}
	for i := range body.Diagnostics {
		if err := checkDiagnostic(&body.Diagnostics[i], idx); err != nil {
			return nil, fmt.Errorf("diagnostic %d: %w", i, err)
		}
	}
	sort.SliceStable(body.Diagnostics, func(i, j int) bool {
		a, b := body.Diagnostics[i].Range.Start, body.Diagnostics[j].Range.Start
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Character < b.Character
	})
	return &body, nil
}

// checkDiagnostic refuses a diagnostic outside the file, of a severity
// other than 1-4 or a code not of 1-64 bytes; it cuts a long message and
// names the engine as the source when none is given.
func checkDiagnostic(d *abi.Diagnostic, idx *textpos.Index) error {
	if d.Severity < abi.SeverityError || d.Severity > abi.SeverityHint {
		return fmt.Errorf("severity %d is not 1-4", d.Severity)
	}
	if d.Code == "" || len(d.Code) > 64 {
		return fmt.Errorf("code must be 1-64 bytes")
	}
	if len(d.Message) > 4096 {
		d.Message = d.Message[:4096]
	}
	if err := checkRange(d.Range, idx); err != nil {
		return err
	}
	if d.Source == "" {
		d.Source = abi.EngineName
	}
	return nil
}

// CodeActions is the diagnostics plugin's get_code_actions result: the
// fixes of the file's diagnostics, and every fix at once.
type CodeActions struct {
	Actions []abi.CodeAction `json:"actions"`
	FixAll  []abi.TextEdit   `json:"fixAll"`
	// Warnings and ContextFacts: as in Diagnostics.
	Warnings     json.RawMessage    `json:"warnings"`
	ContextFacts []abi.ContextFacts `json:"contextFacts"`
}

// MaxEdits bounds the edits of one code action.
const MaxEdits = 100000

// DecodeCodeActions decodes a get_code_actions result and checks it
// against the file it is about: each diagnostic as DecodeDiagnostics
// does, titles of 1-200 bytes, and edits that apply_workspace_edit can
// apply (CheckEdits).
func DecodeCodeActions(raw []byte, idx *textpos.Index) (*CodeActions, error) {
	var body CodeActions
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("result is not a code actions object: %w", err)
	}
	if len(body.Actions) > MaxDiagnostics {
		return nil, fmt.Errorf("%d actions exceed the limit of %d", len(body.Actions), MaxDiagnostics)
	}
	for i := range body.Actions {
		a := &body.Actions[i]
		if a.Title == "" || len(a.Title) > 200 {
			return nil, fmt.Errorf("action %d: title must be 1-200 bytes", i)
		}
		if err := checkDiagnostic(&a.Diagnostic, idx); err != nil {
			return nil, fmt.Errorf("action %d: diagnostic: %w", i, err)
		}
		if len(a.Edits) == 0 {
			return nil, fmt.Errorf("action %d: no edits", i)
		}
		if err := CheckEdits(a.Edits, idx); err != nil {
			return nil, fmt.Errorf("action %d: %w", i, err)
		}
	}
	if err := CheckEdits(body.FixAll, idx); err != nil {
		return nil, fmt.Errorf("fix-all: %w", err)
	}
	return &body, nil
}

// CheckEdits refuses edits of one file that apply_workspace_edit would
// refuse or that cannot be right: more than MaxEdits, a range outside the
// file, two that overlap (as apply_workspace_edit sees it), new text that is not valid UTF-8 or holds a NUL
// byte.
func CheckEdits(edits []abi.TextEdit, idx *textpos.Index) error {
	if len(edits) > MaxEdits {
		return fmt.Errorf("%d edits exceed the limit of %d", len(edits), MaxEdits)
	}
	type span struct{ start, end int }
	spans := make([]span, len(edits))
	for i, e := range edits {
		if err := checkRange(e.Range, idx); err != nil {
			return fmt.Errorf("edit %d: %w", i, err)
		}
		if !utf8.ValidString(e.NewText) || strings.IndexByte(e.NewText, 0) >= 0 {
			return fmt.Errorf("edit %d: new text is not plausible source", i)
		}
		start, _ := idx.Offset(e.Range.Start.Line, e.Range.Start.Character)
		end, _ := idx.Offset(e.Range.End.Line, e.Range.End.Character)
		spans[i] = span{start, end}
	}
	// Overlap as apply_workspace_edit sees it (host/edits): edits that
	// only touch, and insertions at one point, are fine.
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end < spans[j].end
	})
	maxEnd := -1
	for _, sp := range spans {
		if sp.start < maxEnd {
			return fmt.Errorf("edits overlap at byte %d", sp.start)
		}
		maxEnd = max(maxEnd, sp.end)
	}
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

// UsableFacts reports whether what a plugin said about a context module
// may be kept and sent back with later calls: a JSON object of at most
// MaxFactsBytes.
func UsableFacts(facts json.RawMessage) bool {
	return len(facts) > 0 && len(facts) <= MaxFactsBytes && facts[0] == '{' && json.Valid(facts)
}

// Format is one phase's answer of the formatter plugin (it mirrors
// plugins/formatter's Result).
type Format struct {
	Text       *string    `json:"text"`
	NeedsBlack bool       `json:"needsBlack"`
	Signature  *Signature `json:"signature"`
	// ParseError is where the formatted code stops parsing (check phase).
	ParseError *abi.Position `json:"parseError"`
	// Comments digests the comments of Black's input (phases format and
	// black) or of the candidate (check): equal digests, the same comments.
	Comments string `json:"comments"`
}

// Signature summarises code for the equivalence check: equal hashes,
// equivalent code.
type Signature struct {
	Hash  string `json:"hash"`
	Items int    `json:"items"`
}

// DecodeFormat decodes a formatter phase's answer to a source of
// sourceLen bytes. Text, when present, must be plausible source: UTF-8
// without NUL bytes, and not absurdly larger than what was sent.
func DecodeFormat(raw []byte, sourceLen int) (*Format, error) {
	var r Format
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("the formatter returned an invalid result: %v", err)
	}
	if r.Text != nil {
		if !utf8.ValidString(*r.Text) || strings.IndexByte(*r.Text, 0) >= 0 || len(*r.Text) > 4*sourceLen+1<<20 {
			return nil, fmt.Errorf("the formatter returned text that is not plausible source")
		}
	}
	return &r, nil
}

// DecodeSummaries decodes the indexer plugin's answer for files files:
// one navigation summary each, in order (host/index decodes and checks
// each summary itself).
func DecodeSummaries(raw []byte, files int) ([][]byte, error) {
	var res struct {
		Summaries [][]byte `json:"summaries"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("indexer result: %w", err)
	}
	if len(res.Summaries) != files {
		return nil, fmt.Errorf("indexer returned %d summaries for %d files", len(res.Summaries), files)
	}
	return res.Summaries, nil
}
