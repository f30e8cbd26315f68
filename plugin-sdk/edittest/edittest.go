// Package edittest applies an analyzer's TextEdits to a source as
// apply_workspace_edit does (host/edits: positions in UTF-16 code units,
// edits that share an interior point refused), for the tests of the
// analyzers that return edits. Imported only by tests.
package edittest

import (
	"slices"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// Apply returns src with edits applied; a range outside src, an end
// before its start, or two overlapping edits fail the test: an action must
// be applicable as it is.
func Apply(tb testing.TB, src []byte, edits []abi.TextEdit) string {
	tb.Helper()
	idx := textpos.New(src)
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		start, err1 := idx.Offset(e.Range.Start.Line, e.Range.Start.Character)
		end, err2 := idx.Offset(e.Range.End.Line, e.Range.End.Character)
		if err1 != nil || err2 != nil || end < start {
			tb.Fatalf("edit %+v: bad range (%v, %v)", e, err1, err2)
		}
		spans[i] = span{start, end, e.NewText}
	}
	slices.SortStableFunc(spans, func(a, b span) int { return b.start - a.start })
	out := string(src)
	for i, s := range spans {
		if i > 0 && s.end > spans[i-1].start {
			tb.Fatalf("overlapping edits %+v", edits)
		}
		out = out[:s.start] + s.text + out[s.end:]
	}
	return out
}
