package service

import (
	"encoding/json"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// TestCodeActionsArguments validates get_code_actions' arguments as the
// API does (the row's parameters), then reads the range as the handler
// does: refusals name the field.
func TestCodeActionsArguments(t *testing.T) {
	row, ok := NewTable(Operations()).Tool("get_code_actions")
	if !ok {
		t.Fatal("no get_code_actions row")
	}
	tests := []struct {
		name, body  string
		code, param string
		want        abi.Range
	}{
		{"cursor", `{"uri":"a.py","range":{"start":{"line":2,"character":4},"end":{"line":2,"character":4}}}`, "", "",
			abi.Range{Start: abi.Position{Line: 2, Character: 4}, End: abi.Position{Line: 2, Character: 4}}},
		{"selection with kinds", `{"uri":"a.py","range":{"start":{"line":0,"character":9},"end":{"line":3,"character":0}},"only":["quickfix","source"]}`, "", "",
			abi.Range{Start: abi.Position{Line: 0, Character: 9}, End: abi.Position{Line: 3, Character: 0}}},
		{"end line before start", `{"uri":"a.py","range":{"start":{"line":2,"character":0},"end":{"line":1,"character":5}}}`, fault.InvalidParameter, "range.end", abi.Range{}},
		{"end character before start", `{"uri":"a.py","range":{"start":{"line":2,"character":6},"end":{"line":2,"character":5}}}`, fault.InvalidParameter, "range.end", abi.Range{}},
		{"missing range", `{"uri":"a.py"}`, fault.InvalidParameter, "range", abi.Range{}},
		{"missing start", `{"uri":"a.py","range":{"end":{"line":0,"character":0}}}`, fault.InvalidParameter, "range.start", abi.Range{}},
		{"negative character", `{"uri":"a.py","range":{"start":{"line":0,"character":-1},"end":{"line":0,"character":0}}}`, fault.InvalidParameter, "range.start.character", abi.Range{}},
		{"unknown position member", `{"uri":"a.py","range":{"start":{"line":0,"col":0},"end":{"line":0,"character":0}}}`, fault.InvalidParameter, "range.start.character", abi.Range{}},
		{"unknown kind", `{"uri":"a.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"only":["refactor"]}`, fault.InvalidParameter, "only[0]", abi.Range{}},
		{"kind not a string", `{"uri":"a.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"only":[1]}`, fault.InvalidParameter, "only[0]", abi.Range{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := toolspec.DecodeArgs(row.Params, json.RawMessage(tt.body))
			var r abi.Range
			if err == nil {
				r, err = rangeArg(a)
			}
			if tt.code == "" {
				if err != nil || r != tt.want {
					t.Fatalf("got %+v, %v; want %+v", r, err, tt.want)
				}
				return
			}
			f, ok := err.(*fault.Error)
			if !ok || f.Code != tt.code || f.Details["parameter"] != tt.param {
				t.Fatalf("got %v, want %s naming %s", err, tt.code, tt.param)
			}
			if tt.name == "unknown kind" {
				if allowed, _ := f.Details["allowed"].([]string); len(allowed) != len(codeActionKinds) {
					t.Fatalf("the refusal lists %v, want the kinds %v", f.Details["allowed"], codeActionKinds)
				}
			}
		})
	}
}

func TestWantsKind(t *testing.T) {
	tests := []struct {
		only []string
		kind string
		want bool
	}{
		{nil, KindQuickFix, true},
		{nil, KindOrganizeImports, true},
		{[]string{KindQuickFix}, KindQuickFix, true},
		{[]string{KindQuickFix}, KindFixAll, false},
		{[]string{KindSource}, KindOrganizeImports, true},
		{[]string{KindSource}, KindFixAll, true},
		{[]string{KindSource}, KindQuickFix, false},
		{[]string{KindFixAll}, KindOrganizeImports, false},
		{[]string{KindOrganizeImports, KindQuickFix}, KindQuickFix, true},
	}
	for _, tt := range tests {
		if got := wantsKind(tt.only, tt.kind); got != tt.want {
			t.Errorf("wantsKind(%v, %s) = %v, want %v", tt.only, tt.kind, got, tt.want)
		}
	}
}

func TestMeets(t *testing.T) {
	r := func(sl, sc, el, ec int) abi.Range {
		return abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}}
	}
	diag := r(2, 7, 2, 9)
	tests := []struct {
		name string
		sel  abi.Range
		want bool
	}{
		{"cursor inside", r(2, 8, 2, 8), true},
		{"cursor at the start", r(2, 7, 2, 7), true},
		{"cursor at the end", r(2, 9, 2, 9), true},
		{"cursor before", r(2, 6, 2, 6), false},
		{"cursor after", r(2, 10, 2, 10), false},
		{"selection across", r(1, 0, 3, 0), true},
		{"selection ending at the start", r(0, 0, 2, 7), true},
		{"selection above", r(0, 0, 1, 40), false},
		{"selection below", r(3, 0, 4, 0), false},
	}
	for _, tt := range tests {
		if got := meets(diag, tt.sel); got != tt.want {
			t.Errorf("%s: meets = %v, want %v", tt.name, got, tt.want)
		}
	}
}
