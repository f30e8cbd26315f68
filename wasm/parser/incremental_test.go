package parser

import (
	"bytes"
	"context"
	"testing"
	"time"
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
