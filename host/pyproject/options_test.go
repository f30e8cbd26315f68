package pyproject

import (
	"encoding/json"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

func TestParseFormatRequest(t *testing.T) {
	cases := []struct {
		raw    string
		want   FormatRequest
		option string // "" when valid
	}{
		{`{}`, FormatRequest{TabSize: 4, InsertSpaces: true}, ""},
		{`null`, FormatRequest{TabSize: 4, InsertSpaces: true}, ""},
		{`{"tabSize": 2, "insertSpaces": false, "lineLength": 100}`, FormatRequest{TabSize: 2, InsertSpaces: false, LineLength: 100}, ""},
		{`{"lineLength": 120.0, "tabSize": null}`, FormatRequest{TabSize: 4, InsertSpaces: true, LineLength: 120}, ""},
		{`{"tabSize": 0}`, FormatRequest{}, "tabSize"},
		{`{"tabSize": 17}`, FormatRequest{}, "tabSize"},
		{`{"lineLength": 0}`, FormatRequest{}, "lineLength"},
		{`{"lineLength": 1001}`, FormatRequest{}, "lineLength"},
		{`{"lineLength": 88.5}`, FormatRequest{}, "lineLength"},
		{`{"lineLength": "88"}`, FormatRequest{}, "lineLength"},
		{`{"insertSpaces": "yes"}`, FormatRequest{}, "insertSpaces"},
		{`{"indent": 2}`, FormatRequest{}, "indent"},
		{`[1]`, FormatRequest{}, "options"},
		{`5`, FormatRequest{}, "options"},
	}
	for _, c := range cases {
		got, err := ParseFormatRequest(json.RawMessage(c.raw))
		if c.option == "" {
			if err != nil || got != c.want {
				t.Errorf("%s: %+v %v, want %+v", c.raw, got, err, c.want)
			}
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.InvalidOptions || fe.Details["option"] != c.option || fe.Details["reason"] == "" {
			t.Errorf("%s: %v, want INVALID_OPTIONS for %s", c.raw, err, c.option)
		}
	}
	// No options sent.
	if got, err := ParseFormatRequest(nil); err != nil || got != (FormatRequest{TabSize: 4, InsertSpaces: true}) {
		t.Errorf("default: %+v %v", got, err)
	}
}

// TestFormatOptionBoundsAreTheParams: ParseFormatRequest refuses exactly
// outside the bounds FormatOptionParams declare (and the docs show).
func TestFormatOptionBoundsAreTheParams(t *testing.T) {
	for _, name := range []string{"tabSize", "lineLength"} {
		lo, hi := formatOptionBounds(name)
		for _, n := range []int{lo - 1, lo, hi, hi + 1} {
			raw, _ := json.Marshal(map[string]int{name: n})
			_, err := ParseFormatRequest(json.RawMessage(raw))
			fe, refused := fault.As(err)
			if wantRefused := n < lo || n > hi; refused != wantRefused {
				t.Errorf("%s=%d: err %v, want refused %v", name, n, err, wantRefused)
			}
			if refused && (fe.Details["min"] != lo || fe.Details["max"] != hi) {
				t.Errorf("%s=%d: details %v, want min %d max %d", name, n, fe.Details, lo, hi)
			}
		}
	}
	if o, _ := ParseFormatRequest(nil); o.TabSize != formatOption("tabSize").Default || o.InsertSpaces != formatOption("insertSpaces").Default {
		t.Errorf("defaults %+v are not the row's", o)
	}
}
