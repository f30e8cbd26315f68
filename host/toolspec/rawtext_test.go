package toolspec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pyws/pyws/host/fault"
)

func TestBadText(t *testing.T) {
	edit := func(newText string) string {
		return `{"edit":{"changes":{"file:///w/a.py":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"ok"},` +
			`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"` + newText + `"}]}}}`
	}
	const second = `edit.changes["file:///w/a.py"][1].newText`
	for _, c := range []struct {
		raw, path, what string // path "" means valid
	}{
		{edit(`\ud800x`), second, `a lone UTF-16 surrogate \ud800 at character 0`},
		{edit(`ab\ud800`), second, `a lone UTF-16 surrogate \ud800 at character 2`},
		{edit(`\udc00`), second, `a lone UTF-16 surrogate \udc00 at character 0`},
		{edit(`\ude00\ud83d`), second, `a lone UTF-16 surrogate \ude00 at character 0`},
		{edit(`\ud800\ud800\udc00`), second, `a lone UTF-16 surrogate \ud800 at character 0`},
		{edit(`\ud800\u0041`), second, `a lone UTF-16 surrogate \ud800 at character 0`},
		{edit(`\ud83d\ude00 \uD83D\uDE00`), "", ""},
		{edit(`😀\ud83d\ude00\ufffd�`), "", ""},
		{edit(`\\ud800`), "", ""}, // an escaped backslash, then text
		{edit("é\xff"), second, "a byte that is not UTF-8 (0xff) at character 1"},
		{edit("\xed\xa0\x80"), second, "a byte that is not UTF-8 (0xed) at character 0"}, // a surrogate in UTF-8
		{edit("\xc0\xaf"), second, "a byte that is not UTF-8 (0xc0) at character 0"},     // overlong
		{`{"uri":"a\udfff.py","line":[1,"\ud801"]}`, "uri", `a lone UTF-16 surrogate \udfff at character 1`},
		{`{"uri":"a.py","list":[1,{"x":["ok","\ud801"]}]}`, "list[1].x[1]", `a lone UTF-16 surrogate \ud801 at character 0`},
		{`{"b\ud800d":1}`, "[\"b\uFFFDd\"]", `its name holds a lone UTF-16 surrogate \ud800 at character 1`},
		{`"\ud800"`, "", `a lone UTF-16 surrogate \ud800 at character 0`},
		{`{"a":{},"b":[],"c":"\"\\\/\b\f\n\r\t"}`, "", ""},
	} {
		path, what, bad := badText([]byte(c.raw))
		if bad != (c.what != "") || path != c.path || what != c.what {
			t.Errorf("%q: %v %q %q, want %q %q", c.raw, bad, path, what, c.path, c.what)
		}
	}
}

// TestDecodeArgsRefusesBadText: the check runs for every tool's arguments.
func TestDecodeArgsRefusesBadText(t *testing.T) {
	params := []Param{{Name: "uri", Type: TypeString, Required: true}}
	_, err := DecodeArgs(params, json.RawMessage(`{"uri":"file:///w/\ud800.py"}`))
	f, ok := fault.As(err)
	if !ok || f.Code != fault.InvalidParameter || f.Details["parameter"] != "uri" || !strings.Contains(f.Message, `\ud800`) {
		t.Fatalf("got %v", err)
	}
	if _, err := DecodeArgs(params, json.RawMessage(`{"uri":"file:///w/\ud83d\ude00.py"}`)); err != nil {
		t.Fatal(err)
	}
	_, err = QueryToJSON(params, map[string][]string{"uri": {"ok", "a\xffb"}})
	if f, ok := fault.As(err); !ok || f.Details["parameter"] != "uri" {
		t.Fatalf("query: %v", err)
	}
}

// FuzzBadText compares badText with an independent reference on a
// TextEdit's newText built from UTF-16 code units (each escaped or
// written raw) and raw bytes: the text is bad exactly when the units do
// not survive a UTF-16 round trip (unicode/utf16 replaces lone surrogates)
// or the bytes are not UTF-8; when it is not bad, encoding/json decodes
// it unaltered.
func FuzzBadText(f *testing.F) {
	f.Add([]byte{0xd8, 0x00, 0, 'x'}, []byte("ok"), uint64(0))
	f.Add([]byte{0xd8, 0x3d, 0xde, 0x00}, []byte(""), uint64(1))
	f.Add([]byte{0xdc, 0x00}, []byte("é"), uint64(2))
	f.Add([]byte{}, []byte("\xff"), uint64(0))
	f.Add([]byte{0xd8, 0x3d, 0xde, 0x00}, []byte("\xed\xa0\x80"), uint64(3))
	f.Fuzz(func(t *testing.T, unitBytes, tail []byte, escapes uint64) {
		units := make([]uint16, len(unitBytes)/2)
		for i := range units {
			units[i] = uint16(unitBytes[2*i])<<8 | uint16(unitBytes[2*i+1])
		}
		var b strings.Builder
		for i, u := range units {
			r := rune(u)
			if escapes>>(i%64)&1 == 1 || utf16.IsSurrogate(r) || r < 0x20 || r == '"' || r == '\\' {
				fmt.Fprintf(&b, `\u%04x`, u)
			} else {
				b.WriteRune(r)
			}
		}
		tail = slices.Clone(tail)
		for i, c := range tail {
			if c < 0x20 || c == '"' || c == '\\' {
				tail[i] = 'x'
			}
		}
		b.Write(tail)
		raw := `{"edit":{"changes":{"file:///w/a.py":[{"newText":"` + b.String() + `"}]}}}`
		if !json.Valid([]byte(raw)) {
			t.Fatalf("built invalid JSON %q", raw)
		}
		want := !slices.Equal(utf16.Encode(utf16.Decode(units)), units) || !utf8.Valid(tail)
		path, what, bad := badText([]byte(raw))
		if bad != want {
			t.Fatalf("%q: bad %v (%s), reference %v", raw, bad, what, want)
		}
		if bad && path != `edit.changes["file:///w/a.py"][0].newText` {
			t.Fatalf("%q: path %q", raw, path)
		}
		if !bad {
			var v struct {
				Edit struct {
					Changes map[string][]struct{ NewText string }
				}
			}
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				t.Fatal(err)
			}
			if got, want := v.Edit.Changes["file:///w/a.py"][0].NewText, string(utf16.Decode(units))+string(tail); got != want {
				t.Fatalf("%q decodes to %q, want %q", raw, got, want)
			}
		}
	})
}
