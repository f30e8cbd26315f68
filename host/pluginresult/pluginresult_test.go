package pluginresult

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

func TestDecodeDiagnostics(t *testing.T) {
	idx := textpos.New([]byte("x = 1\ny = 2\n"))
	diag := func(line, char, severity int, code string) string {
		return `{"range":{"start":{"line":` + itoa(line) + `,"character":` + itoa(char) + `},"end":{"line":` + itoa(line) + `,"character":` + itoa(char) +
			`}},"severity":` + itoa(severity) + `,"code":"` + code + `","message":"m"}`
	}
	body, err := DecodeDiagnostics([]byte(`{"diagnostics":[`+diag(1, 0, 2, "b")+`,`+diag(0, 2, 1, "a")+`],"warnings":["w"]}`), idx)
	if err != nil {
		t.Fatal(err)
	}
	if len(body.Diagnostics) != 2 || body.Diagnostics[0].Code != "a" || body.Diagnostics[1].Source != abi.EngineName || string(body.Warnings) != `["w"]` {
		t.Fatalf("got %+v: want sorted by position, the engine as source, warnings kept", body)
	}
	for _, bad := range []struct{ raw, want string }{
		{`[]`, "not a diagnostics object"},
		{`{"diagnostics":[` + diag(5, 0, 1, "a") + `]}`, "outside the file"},
		{`{"diagnostics":[` + diag(0, 0, 5, "a") + `]}`, "severity 5 is not 1-4"},
		{`{"diagnostics":[` + diag(0, 0, 1, "") + `]}`, "code must be 1-64 bytes"},
		{`{"diagnostics":[` + strings.Repeat(diag(0, 0, 1, "a")+",", MaxDiagnostics) + diag(0, 0, 1, "a") + `]}`, "exceed the limit"},
	} {
		if _, err := DecodeDiagnostics([]byte(bad.raw), idx); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%.60s: err %v, want one saying %q", bad.raw, err, bad.want)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestUsableFacts(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"sigs":{}}`: true,
		`[1,2]`:       false, // not an object
		`{"x":`:       false, // not JSON
		``:            false,
		`{"x":` + strings.Repeat(" ", MaxFactsBytes) + `1}`: false, // too large
	} {
		if got := UsableFacts(json.RawMessage(raw)); got != want {
			t.Errorf("%.20q: %v, want %v", raw, got, want)
		}
	}
}

func TestDecodeFormat(t *testing.T) {
	r, err := DecodeFormat([]byte(`{"text":"x = 1\n","needsBlack":true,"signature":{"hash":"h","items":3}}`), 6)
	if err != nil || *r.Text != "x = 1\n" || !r.NeedsBlack || r.Signature.Hash != "h" {
		t.Fatalf("got %+v %v", r, err)
	}
	for _, bad := range []struct{ raw, want string }{
		{`[1]`, "invalid result"},
		{`{"text":"a\u0000b"}`, "not plausible source"},
		{`{"text":"` + strings.Repeat("x", 1<<20+100) + `"}`, "not plausible source"},
	} {
		if _, err := DecodeFormat([]byte(bad.raw), 10); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%.40s: err %v, want one saying %q", bad.raw, err, bad.want)
		}
	}
}

func TestDecodeSummaries(t *testing.T) {
	if s, err := DecodeSummaries([]byte(`{"summaries":["YQ==","Yg=="]}`), 2); err != nil || string(s[0]) != "a" || string(s[1]) != "b" {
		t.Fatalf("got %q %v", s, err)
	}
	if _, err := DecodeSummaries([]byte(`{"summaries":["YQ=="]}`), 2); err == nil || !strings.Contains(err.Error(), "1 summaries for 2 files") {
		t.Fatalf("a summary missing: %v", err)
	}
	if _, err := DecodeSummaries([]byte(`{"summaries":"x"}`), 1); err == nil {
		t.Fatal("a malformed result is accepted")
	}
}

func TestDecodeCodeActions(t *testing.T) {
	idx := textpos.New([]byte("import os\nx = 1\n"))
	edit := func(sl, sc, el, ec int, text string) string {
		return `{"range":{"start":{"line":` + itoa(sl) + `,"character":` + itoa(sc) + `},"end":{"line":` + itoa(el) + `,"character":` + itoa(ec) + `}},"newText":"` + text + `"}`
	}
	diag := `{"range":{"start":{"line":0,"character":7},"end":{"line":0,"character":9}},"severity":2,"code":"unused-import","message":"m"}`
	action := func(title string, edits ...string) string {
		return `{"title":"` + title + `","diagnostic":` + diag + `,"edits":[` + strings.Join(edits, ",") + `],"isPreferred":true}`
	}
	body, err := DecodeCodeActions([]byte(`{"actions":[`+action("Remove", edit(0, 0, 1, 0, ""))+`],"fixAll":[`+edit(0, 0, 1, 0, "")+`]}`), idx)
	if err != nil {
		t.Fatal(err)
	}
	if len(body.Actions) != 1 || !body.Actions[0].IsPreferred || body.Actions[0].Diagnostic.Source != abi.EngineName || len(body.FixAll) != 1 {
		t.Fatalf("got %+v", body)
	}
	for _, bad := range []struct{ raw, want string }{
		{`[]`, "not a code actions object"},
		{`{"actions":[` + action("", edit(0, 0, 0, 1, "")) + `]}`, "title must be 1-200 bytes"},
		{`{"actions":[` + action("Remove") + `]}`, "no edits"},
		{`{"actions":[` + action("Remove", edit(0, 0, 5, 0, "")) + `]}`, "outside the file"},
		{`{"actions":[` + action("Remove", edit(0, 0, 0, 5, ""), edit(0, 4, 1, 0, "")) + `]}`, "overlap"},
		{`{"actions":[` + action("Remove", edit(0, 0, 0, 1, `\u0000`)) + `]}`, "not plausible source"},
		{`{"actions":[],"fixAll":[` + edit(1, 2, 1, 1, "") + `]}`, "fix-all: edit 0: range start is after its end"},
	} {
		if _, err := DecodeCodeActions([]byte(bad.raw), idx); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%.80s: err %v, want one saying %q", bad.raw, err, bad.want)
		}
	}
	// Touching edits and insertions at one point apply: not refused.
	if err := CheckEdits([]abi.TextEdit{
		{Range: abi.Range{Start: abi.Position{Line: 0, Character: 0}, End: abi.Position{Line: 0, Character: 3}}},
		{Range: abi.Range{Start: abi.Position{Line: 0, Character: 3}, End: abi.Position{Line: 0, Character: 3}}, NewText: "a"},
		{Range: abi.Range{Start: abi.Position{Line: 0, Character: 3}, End: abi.Position{Line: 0, Character: 3}}, NewText: "b"},
	}, idx); err != nil {
		t.Errorf("touching edits refused: %v", err)
	}
}
