package edits

import (
	"encoding/json"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

func TestDecodeChanges(t *testing.T) {
	edit := `{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"newText":"x"}`
	tests := []struct {
		name      string
		body      string
		wantFiles int
		wantCode  string
		wantParam string
	}{
		{"wrapped", `{"changes":{"file:///w/a.py":[` + edit + `]}}`, 1, "", ""},
		{"bare changes map", `{"file:///w/a.py":[` + edit + `],"file:///w/b.py":[]}`, 2, "", ""},
		{"changes not an object", `{"changes":[1]}`, 0, fault.InvalidParameter, "edit.changes"},
		{"edits not an array", `{"changes":{"file:///w/a.py":{}}}`, 0, fault.InvalidParameter, `edit.changes["file:///w/a.py"]`},
		{"missing newText", `{"changes":{"a.py":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]}}`, 0, fault.InvalidParameter, `edit.changes["a.py"][0].newText`},
		{"missing range", `{"changes":{"a.py":[{"newText":""}]}}`, 0, fault.InvalidParameter, `edit.changes["a.py"][0].range`},
		{"fractional line", `{"changes":{"a.py":[{"range":{"start":{"line":0.5,"character":0},"end":{"line":0,"character":0}},"newText":""}]}}`, 0, fault.InvalidParameter, `edit.changes["a.py"][0].range.start.line`},
		{"negative character", `{"changes":{"a.py":[{"range":{"start":{"line":0,"character":-1},"end":{"line":0,"character":0}},"newText":""}]}}`, 0, fault.InvalidRange, `edit.changes["a.py"][0].range.start.character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeChanges(json.RawMessage(tt.body))
			if tt.wantCode != "" {
				fe, ok := fault.As(err)
				if !ok || fe.Code != tt.wantCode || fe.Details["parameter"] != tt.wantParam {
					t.Fatalf("err = %v, want %s naming %s", err, tt.wantCode, tt.wantParam)
				}
				return
			}
			if err != nil || len(got) != tt.wantFiles {
				t.Fatalf("got %d files, err %v; want %d", len(got), err, tt.wantFiles)
			}
		})
	}
}
