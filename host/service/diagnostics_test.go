package service

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// TestAskBesideCheck: the plugin is asked while the kernel's type check
// still runs only as if the check finds nothing, and asked again with
// the findings when it finds some; a finished check's findings go with
// the one call; a failed call is the answer without waiting for the
// check (which, in the failing case, never finishes).
func TestAskBesideCheck(t *testing.T) {
	finding := []abi.TypeFinding{{Line: 3, Character: 4, EndCharacter: 9, Code: "undefined-variable", Message: "m"}}
	failed := errors.New("plugin timed out")
	tests := []struct {
		name     string
		ready    bool              // the check is done before the first ask
		found    []abi.TypeFinding // what the check finds
		callErr  error             // every ask fails with it
		wantSeen []int             // findings each ask saw
		wantErr  error
	}{
		{"done, nothing found", true, nil, nil, []int{0}, nil},
		{"done, findings", true, finding, nil, []int{1}, nil},
		{"running, nothing found", false, nil, nil, []int{0}, nil},
		{"running, findings: asked again", false, finding, nil, []int{0, 1}, nil},
		{"running, the call fails", false, finding, failed, []int{0}, failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checked := make(chan []abi.TypeFinding, 1)
			check := &typeCheck{checked: checked}
			if tt.ready {
				checked <- tt.found
			}
			a := &abi.DiagnosticsContext{}
			var seen []int
			ask := func() (diagnosticsAnswer, error) {
				seen = append(seen, len(a.TypeFindings))
				if !tt.ready && len(seen) == 1 && tt.callErr == nil {
					checked <- tt.found // the check ends during the first call
				}
				raw, _ := json.Marshal(a)
				return diagnosticsAnswer{raw: raw, fresh: true}, tt.callErr
			}
			ans, err := askBesideCheck(check, a, ask)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if len(seen) != len(tt.wantSeen) {
				t.Fatalf("asked with %v findings, want %v", seen, tt.wantSeen)
			}
			for i := range seen {
				if seen[i] != tt.wantSeen[i] {
					t.Fatalf("asked with %v findings, want %v", seen, tt.wantSeen)
				}
			}
			if err != nil {
				return
			}
			// The answer is the last call's, made with every finding.
			want, _ := json.Marshal(&abi.DiagnosticsContext{TypeFindings: tt.found})
			if string(ans.raw) != string(want) {
				t.Fatalf("answer %s, want %s", ans.raw, want)
			}
		})
	}
}

// TestNoFindingsEncodeAsNone: the arguments of a call made before the
// check is done (no findings) are byte for byte those of a call whose
// check found nothing, so the answer and its cache key are the same.
func TestNoFindingsEncodeAsNone(t *testing.T) {
	none, _ := json.Marshal(&abi.DiagnosticsContext{})
	empty, _ := json.Marshal(&abi.DiagnosticsContext{TypeFindings: []abi.TypeFinding{}})
	if string(none) != string(empty) {
		t.Fatalf("no findings encode as %s, an empty list as %s", none, empty)
	}
}
