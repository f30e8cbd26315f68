package parser

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

func TestInputEdit(t *testing.T) {
	for _, c := range []struct {
		name, prev, src string
		want            [editWords]uint32
	}{
		{"same", "a\nb\n", "a\nb\n", [editWords]uint32{4, 4, 4, 2, 0, 2, 0, 2, 0}},
		{"insert mid-line", "ab\ncd\n", "ab\ncXd\n", [editWords]uint32{4, 4, 5, 1, 1, 1, 1, 1, 2}},
		{"delete a line", "a\nbb\nc\n", "a\nc\n", [editWords]uint32{2, 5, 2, 1, 0, 2, 0, 1, 0}},
		{"replace across lines", "x = 1\ny = 2\n", "x = (\n 3)\ny = 2\n", [editWords]uint32{4, 5, 9, 0, 4, 0, 5, 1, 3}},
		{"append", "a\n", "a\n# c\n", [editWords]uint32{2, 2, 6, 1, 0, 1, 0, 2, 0}},
		{"from empty", "", "ab", [editWords]uint32{0, 0, 2, 0, 0, 0, 0, 0, 2}},
		{"to empty", "a\nb", "", [editWords]uint32{0, 3, 0, 0, 0, 1, 1, 0, 0}},
		// A repeated run: prefix and suffix must not overlap.
		{"repeated", "aaa", "aaaa", [editWords]uint32{3, 3, 4, 0, 3, 0, 3, 0, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := InputEdit([]byte(c.prev), []byte(c.src)); got != c.want {
				t.Errorf("InputEdit(%q, %q) = %v, want %v", c.prev, c.src, got, c.want)
			}
		})
	}
}

func TestParseSlotEdgeCases(t *testing.T) {
	p := newParser(t)
	ctx := context.Background()
	if _, err := p.ParseSlot(ctx, Slots, nil, []byte("x\n"), 0); err == nil {
		t.Error("slot out of range accepted")
	}
	// An edit against an empty slot is a fresh parse.
	a := []byte("def f():\n    return 1\n")
	b := []byte("def f():\n    return 2\n")
	got, err := p.ParseSlot(ctx, 3, a, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := p.Parse(ctx, b, 0)
	if !bytes.Equal(got, want) {
		t.Error("edit against an empty slot differs from a fresh parse")
	}
	// Without prev the slot's tree (another file's) is replaced, not reused.
	c := []byte("class C:\n    pass\n")
	got, err = p.ParseSlot(ctx, 3, nil, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, _ = p.Parse(ctx, c, 0)
	if !bytes.Equal(got, want) {
		t.Error("parse without prev differs from a fresh parse")
	}
	// A timeout empties the slot and the parser stays usable.
	big := bytes.Repeat([]byte("x = [1, 2, (3, 4), {5: 6}]\n"), 20000)
	if _, err := p.ParseSlot(ctx, 3, c, big, time.Microsecond); err == nil {
		t.Fatal("a 540 KB parse finished within 1 µs")
	}
	got, err = p.ParseSlot(ctx, 3, big, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("parse after a timeout differs from a fresh parse")
	}
}

// scatter returns src with changes on many lines, as a formatter makes
// them, keeping the code valid: a blank line inserted before every 7th
// line, blank lines after every 11th dropped, a comment added to every
// 13th. Lines after a backslash continuation are left alone.
func scatter(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	var out []byte
	continued := false
	for i, l := range lines {
		next := bytes.HasSuffix(bytes.TrimRight(l, "\n"), []byte("\\"))
		switch {
		case continued || next:
		case i%7 == 3:
			out = append(out, '\n')
		case i%11 == 5 && len(bytes.TrimSpace(l)) == 0:
			continued = next
			continue
		case i%13 == 6 && bytes.HasSuffix(l, []byte("\n")):
			l = append(bytes.TrimSuffix(l, []byte("\n")), "  # c\n"...)
		}
		continued = next
		out = append(out, l...)
	}
	return out
}

func TestInputEditsReplay(t *testing.T) {
	cases := [][2]string{
		{"a\nb\nc\n", "a\nb\nc\n"},
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\nb\nc\nd\ne\n", "a\nX\nc\nd\nY\nZ\n"},
		{"", "x\n"},
		{"x\n", ""},
		{"x = 'a'\ny = 1\nz = 'b'\n", "x = \"a\"\ny = 1\nz = \"b\"\n"},
		{"a\nb", "a\nc\nb"},
		{"p\nq\nr\ns\nt\n", "q\nr\nS\nt\nu\n"},
		// No anchors and every other line changed: past the diff's bounds,
		// one range.
		{strings.Repeat("x = 1\n", 20000), strings.Repeat("x = 1\nx = 2\n", 10000)},
	}
	for _, f := range stdlibcorpus.Files(t)[:40] {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, [2]string{string(src), string(scatter(src))}, [2]string{string(scatter(src)), string(src)})
	}
	for _, c := range cases {
		prev, src := []byte(c[0]), []byte(c[1])
		doc := append([]byte(nil), prev...)
		edits := InputEdits(prev, src)
		if len(edits) == 0 {
			t.Fatalf("no edits for %.40q -> %.40q", prev, src)
		}
		for i, e := range edits {
			start, oldEnd, newEnd := int(e[0]), int(e[1]), int(e[2])
			if i > 0 && oldEnd > int(edits[i-1][0]) {
				t.Fatalf("edit %d %v overlaps the one applied before it %v", i, e, edits[i-1])
			}
			r, c := point(doc[:start])
			or, oc := point(doc[:oldEnd])
			// The range's new text is in src after the new text of the ranges
			// before it, which are applied after it.
			shift := 0
			for _, f := range edits[i+1:] {
				shift += int(f[2]) - int(f[1])
			}
			if newEnd < start || start+shift < 0 || newEnd+shift > len(src) {
				t.Fatalf("edit %v outside src", e)
			}
			repl := src[start+shift : newEnd+shift]
			nr, nc := advance(r, c, repl)
			if got := [6]uint32{e[3], e[4], e[5], e[6], e[7], e[8]}; got != [6]uint32{r, c, or, oc, nr, nc} {
				t.Fatalf("edit %v: points %v, want %v", e, got, [6]uint32{r, c, or, oc, nr, nc})
			}
			doc = append(append(append([]byte(nil), doc[:start]...), repl...), doc[oldEnd:]...)
		}
		if !bytes.Equal(doc, src) {
			t.Fatalf("edits of %.60q do not give %.60q: %.60q", prev, src, doc)
		}
	}
}

// TestParseSlotScatteredEdits: a tree edited in many places parses to the
// blob a fresh parse gives, on the stdlib with a formatter's kind of
// scattered changes, both ways.
func TestParseSlotScatteredEdits(t *testing.T) {
	p := newParser(t)
	ctx := context.Background()
	files := stdlibcorpus.Files(t)
	step := max(len(files)/60, 1)
	for i := 0; i < len(files); i += step {
		src, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		edited := scatter(src)
		for _, pair := range [][2][]byte{{src, edited}, {edited, src}} {
			if _, err := p.ParseSlot(ctx, 5, nil, pair[0], 0); err != nil {
				t.Fatal(err)
			}
			got, err := p.ParseSlot(ctx, 5, pair[0], pair[1], 0)
			if err != nil {
				t.Fatal(err)
			}
			want, err := p.Parse(ctx, pair[1], 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: incremental blob differs from a fresh parse (%d edits)", files[i], len(InputEdits(pair[0], pair[1])))
			}
		}
	}
}
