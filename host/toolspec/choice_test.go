package toolspec

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tiers"
)

// addressed is a tool addressed by a position or by a symbol, as the
// navigation rows are.
func addressed() *Spec {
	return &Spec{Name: "get_test_tool", Kind: KindTool, Description: "a tool for the test", Family: tiers.FamilyAnalysis,
		Params: []Param{{Name: "uri", Type: TypeString}, {Name: "line", Type: TypeInteger}, {Name: "character", Type: TypeInteger},
			{Name: "symbol", Type: TypeString}, {Name: "newName", Type: TypeString, Required: true}},
		OneOf:  []Choice{{Params: []string{"line", "character"}, Needs: []string{"uri"}}, {Params: []string{"symbol"}}},
		Result: reflect.TypeFor[struct{}]()}
}

// TestOneOf: a call without an alternative hears what the first would
// need, in the words of a plain required parameter (the spec's rule for a
// missing line); a call choosing both is INVALID_PARAMETER naming both;
// uri may come with either.
func TestOneOf(t *testing.T) {
	tests := []struct {
		args, wantParam, wantMsg string
	}{
		{`{"newName":"y"}`, "uri", `missing required parameter "uri"`},
		{`{"uri":"a.py","newName":"y"}`, "line", `missing required parameter "line"`},
		{`{"uri":"a.py","line":1,"newName":"y"}`, "character", `missing required parameter "character"`},
		{`{"line":1,"character":2,"newName":"y"}`, "uri", `missing required parameter "uri"`},
		{`{"uri":"a.py","line":1,"character":2,"symbol":"m.f","newName":"y"}`, "symbol", "give either line and character or symbol, not both"},
		{`{"character":2,"symbol":"m.f","newName":"y"}`, "symbol", "not both"},
		{`{"symbol":"m.f"}`, "newName", `missing required parameter "newName"`},
		{`{"uri":"a.py","line":1,"character":2,"newName":"y"}`, "", ""},
		{`{"symbol":"m.f","newName":"y"}`, "", ""},
		{`{"uri":"a.py","symbol":"f","newName":"y"}`, "", ""},
	}
	s := addressed()
	if err := s.Check(map[string]bool{}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		_, err := s.DecodeArgs(json.RawMessage(tt.args))
		if tt.wantParam == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.args, err)
			}
			continue
		}
		f, ok := fault.As(err)
		if !ok || f.Code != fault.InvalidParameter || f.Details["parameter"] != tt.wantParam || !strings.Contains(f.Message, tt.wantMsg) {
			t.Errorf("%s: got %v, want INVALID_PARAMETER on %s saying %q", tt.args, err, tt.wantParam, tt.wantMsg)
		}
	}
}

// TestOneOfSchema: nothing of an alternative is required in the schema
// (a client may send either), the description says the rule, and the
// reference's required column says when.
func TestOneOfSchema(t *testing.T) {
	s := addressed()
	a := s.ArgumentsSchema()
	if strings.Join(a.Required, ",") != "newName" {
		t.Errorf("required %v, want only newName", a.Required)
	}
	if want := "Give either uri, line and character, or symbol; not both."; a.Description != want {
		t.Errorf("description %q, want %q", a.Description, want)
	}
	for name, want := range map[string]string{"uri": "unless symbol", "symbol": "unless line and character", "newName": "yes"} {
		i := paramIndex(s.Params, name)
		if got := s.RequiredText(s.Params[i]); got != want {
			t.Errorf("RequiredText(%s) = %q, want %q", name, got, want)
		}
	}
}

func paramIndex(params []Param, name string) int {
	for i, p := range params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func TestOneOfCheck(t *testing.T) {
	for name, spoil := range map[string]func(*Spec){
		"undeclared": func(s *Spec) { s.OneOf[1].Params = []string{"name"} },
		"required":   func(s *Spec) { s.Params[1].Required = true },
		"empty":      func(s *Spec) { s.OneOf[1].Params = nil },
	} {
		s := addressed()
		spoil(s)
		if err := s.Check(map[string]bool{}); err == nil {
			t.Errorf("%s: Check accepted it", name)
		}
	}
}
