package edits

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// fuzzTexts are the replacement texts ops pick from; invalidText is picked
// only by the op byte 255.
var (
	fuzzTexts   = []string{"", "x", "é", "😀", "\n", "\r\n", "ab\ncd", "\r", "\ufeff", "def f():\n\tpass\n"}
	invalidText = "\xff"
)

// decodeOps turns fuzz bytes into at most 8 edits, mostly at valid
// positions of content, sometimes out of bounds or backwards.
func decodeOps(content []byte, ops []byte) []abi.TextEdit {
	lines := bytes.Split(bytes.TrimPrefix(content, utf8BOM), []byte("\n"))
	width := func(l int) int {
		if l < 0 || l >= len(lines) {
			return 3
		}
		return textpos.UTF16Len(bytes.TrimSuffix(lines[l], []byte("\r")))
	}
	pick := func(b byte, n int) int { // in [0, n], with 255 meaning n+1
		if b == 255 {
			return n + 1
		}
		return int(b) % (n + 1)
	}
	var edits []abi.TextEdit
	for i := 0; i+5 <= len(ops) && len(edits) < 8; i += 5 {
		o := ops[i : i+5]
		sl := pick(o[0], len(lines)-1)
		sc := pick(o[1], width(sl))
		el, ec := sl, sc
		switch o[2] % 8 {
		case 2, 3, 4: // same line, further right
			ec = sc + pick(o[3], max(width(sl)-sc, 0))
		case 5, 6: // a later line
			el = sl + 1 + int(o[3]%2)
			if o[3]&0x80 == 0 {
				el = min(el, len(lines)-1)
			}
			ec = pick(o[3]/4, width(el))
		case 7: // anything, possibly backwards or negative
			el, ec = int(int8(o[3]))%6, int(int8(o[2]))%7
		}
		text := invalidText
		if o[4] != 255 {
			text = fuzzTexts[int(o[4])%len(fuzzTexts)]
		}
		edits = append(edits, ed(sl, sc, el, ec, text))
	}
	return edits
}

// reference applies edits the naive way: the text as UTF-16 code units,
// positions checked one by one, overlaps checked pairwise, and the edits
// spliced bottom to top. It returns the expected content or the code of the
// expected refusal. The encoding rules are the package's (see doc.go).
func reference(content []byte, edits []abi.TextEdit) ([]byte, string) {
	for _, e := range edits {
		if !utf8.ValidString(e.NewText) {
			return nil, fault.InvalidParameter
		}
	}
	if bytes.HasPrefix(content, []byte{0xFF, 0xFE}) || bytes.HasPrefix(content, []byte{0xFE, 0xFF}) {
		return nil, fault.EncodingError
	}
	body, bom := bytes.CutPrefix(content, utf8BOM)
	if !utf8.Valid(body) {
		return nil, fault.EncodingError
	}
	if c := codingCookie(body); c != "" && !isUTF8Name(c) {
		if bom || !isASCII(body) {
			return nil, fault.EncodingError
		}
		for _, e := range edits {
			if !isASCII([]byte(e.NewText)) {
				return nil, fault.EncodingError
			}
		}
	}
	units := utf16.Encode([]rune(string(body)))
	// Line starts and content ends, in units.
	starts, ends := []int{0}, []int{}
	for i, u := range units {
		if u == '\n' {
			end := i
			if i > 0 && units[i-1] == '\r' {
				end--
			}
			ends = append(ends, end)
			starts = append(starts, i+1)
		}
	}
	ends = append(ends, len(units))
	at := func(p abi.Position) (int, bool) {
		if p.Line < 0 || p.Line >= len(starts) || p.Character < 0 {
			return 0, false
		}
		off := starts[p.Line] + p.Character
		if off > ends[p.Line] {
			return 0, false
		}
		if off > 0 && off < len(units) && utf16.IsSurrogate(rune(units[off-1])) && units[off-1] < 0xDC00 {
			return 0, false // between a high and a low surrogate
		}
		return off, true
	}
	type sp struct{ s, e, i int }
	spans := make([]sp, len(edits))
	for i, ed := range edits {
		s, ok1 := at(ed.Range.Start)
		e, ok2 := at(ed.Range.End)
		if !ok1 || !ok2 || s > e {
			return nil, fault.InvalidRange
		}
		spans[i] = sp{s, e, i}
	}
	inside := func(x int, a sp) bool { return a.s < x && x < a.e }
	for i := range spans {
		for j := i + 1; j < len(spans); j++ {
			a, b := spans[i], spans[j]
			ae, be := a.s == a.e, b.s == b.e
			switch {
			case !ae && !be && a.s < b.e && b.s < a.e,
				ae && inside(a.s, b),
				be && inside(b.s, a):
				return nil, fault.ConflictingEdits
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool {
		a, b := spans[i], spans[j]
		if a.s != b.s {
			return a.s < b.s
		}
		if a.e != b.e {
			return a.e < b.e
		}
		return a.i < b.i
	})
	for k := len(spans) - 1; k >= 0; k-- {
		s := spans[k]
		repl := utf16.Encode([]rune(edits[s.i].NewText))
		units = append(units[:s.s], append(repl, units[s.e:]...)...)
	}
	out := []byte(string(utf16.Decode(units)))
	if bom {
		out = append(append([]byte{}, utf8BOM...), out...)
	}
	return out, ""
}

func FuzzApply(f *testing.F) {
	f.Add([]byte("def foo():\n    return foo\n"), []byte{0, 4, 1, 3, 1, 1, 11, 1, 3, 1})
	f.Add([]byte("s = '😀'; y = 1\r\nz\n"), []byte{0, 10, 1, 1, 2, 0, 6, 0, 0, 3, 1, 0, 2, 4, 4})
	f.Add([]byte("\ufeffx\n"), []byte{0, 0, 0, 0, 1, 0, 0, 0, 0, 9})
	f.Add([]byte("a\xffb\n"), []byte{0, 0, 0, 0, 1})
	f.Add([]byte("# coding: latin-1\nx\n"), []byte{1, 0, 1, 1, 2})
	f.Add([]byte("abc"), []byte{0, 1, 1, 2, 0, 0, 2, 0, 0, 1, 0, 1, 0, 0, 3})
	f.Add([]byte(""), []byte{0, 0, 3, 200, 1})

	root, state := f.TempDir(), f.TempDir()
	e, err := Open(state)
	if err != nil {
		f.Fatal(err)
	}
	e.noSync = true
	path := filepath.Join(root, "a.py")
	uri := uriOf(root, "a.py")

	f.Fuzz(func(t *testing.T, content, ops []byte) {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		edits := decodeOps(content, ops)
		want, wantCode := reference(content, edits)

		res, err := e.Apply(context.Background(), dirResolver{root}, map[string][]abi.TextEdit{uri: edits}, Limits{})
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if wantCode != "" {
			if fault.CodeOf(err) != wantCode {
				t.Fatalf("edits %+v on %q: err %v, want %s", edits, content, err, wantCode)
			}
			if res.Applied || !bytes.Equal(got, content) {
				t.Fatalf("refused apply changed the file: %q -> %q", content, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("edits %+v on %q: %v", edits, content, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("edits %+v on %q:\n got %q\nwant %q", edits, content, got, want)
		}
		if res.TotalEdits != len(edits) || res.FilesModified != btoi(!bytes.Equal(content, want)) {
			t.Fatalf("result %+v", res)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
