package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/edits"
)

// TestLogRecoveriesSaysWhatHappened: a journal recovery discarded (never
// committed, no file touched) must not be logged as a completed edit.
func TestLogRecoveriesSaysWhatHappened(t *testing.T) {
	tests := []struct {
		name    string
		rec     edits.Recovery
		want    string
		notWant string
	}{
		{"uncommitted", edits.Recovery{Journal: "j1"}, "discarded an uncommitted workspace edit", "completed"},
		{"committed", edits.Recovery{Journal: "j2", Committed: true, Rewritten: []string{"/w/a.py"}}, "completed an interrupted workspace edit", "discarded"},
		{"corrupt", edits.Recovery{Journal: "j3", Committed: true, Corrupt: true}, "corrupt", "completed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			logRecoveries(slog.New(slog.NewTextHandler(&buf, nil)), []edits.Recovery{tt.rec})
			got := buf.String()
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.notWant) || !strings.Contains(got, tt.rec.Journal) {
				t.Fatalf("log %q: want %q and the journal name, not %q", got, tt.want, tt.notWant)
			}
		})
	}
}
