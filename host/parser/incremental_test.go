package parser

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/tree"
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

// editsOf returns versions of src a user might save one after another:
// small valid edits, a broken version, and the fix.
func editsOf(src []byte) [][]byte {
	mid := bytes.IndexByte(src[len(src)/2:], '\n')
	if mid < 0 {
		return nil
	}
	mid += len(src)/2 + 1 // start of a line in the middle
	var vs [][]byte
	add := func(parts ...[]byte) { vs = append(vs, bytes.Join(parts, nil)) }
	add(src, []byte("# edited\n"))                                   // append a comment
	add(src[:mid], []byte("# note\n"), src[mid:])                    // insert a comment line
	add(src[:mid], []byte("\n\n"), src[mid:])                        // insert blank lines
	add(src[:mid], []byte("def (\n"), src[mid:])                     // break it
	add(src)                                                         // fix it
	add(bytes.Replace(src, []byte("self"), []byte("this"), 1))       // rename one occurrence
	add(bytes.Replace(src, []byte("return"), []byte("return  "), 1)) // whitespace
	add(src)
	return vs
}

// TestParseSlotMatchesParse parses successive versions of stdlib files
// incrementally and requires the blob a fresh parse gives, for every
// version that is valid Python. For broken versions it only requires a
// blob that decodes; the fix after a broken version must match again.
func TestParseSlotMatchesParse(t *testing.T) {
	if testing.Short() {
		t.Skip("parses many stdlib versions")
	}
	files := stdlibFiles(t)
	p, fresh := newParser(t), newParser(t)
	ctx := context.Background()
	checked, brokenDiffer := 0, 0
	for i := 0; i < len(files); i += max(1, len(files)/60) {
		src, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		slot := i % Slots
		if _, err := p.ParseSlot(ctx, slot, nil, src, time.Minute); err != nil {
			t.Fatalf("%s: %v", files[i], err)
		}
		prev := src
		for j, v := range editsOf(src) {
			got, err := p.ParseSlot(ctx, slot, prev, v, time.Minute)
			if err != nil {
				t.Fatalf("%s version %d: %v", files[i], j, err)
			}
			want, err := fresh.Parse(ctx, v, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			wt, err := tree.Decode(want, v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tree.Decode(got, v); err != nil {
				t.Fatalf("%s version %d: incremental blob does not decode: %v", files[i], j, err)
			}
			if !bytes.Equal(got, want) {
				if !wt.Root().HasError() {
					t.Fatalf("%s version %d: incremental tree differs from a fresh parse of valid code", files[i], j)
				}
				brokenDiffer++
			}
			checked++
			prev = v
		}
	}
	t.Logf("%d incremental parses checked; %d broken versions settled differently from a fresh parse", checked, brokenDiffer)
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

// FuzzParseSlot: any two sources, the second parsed incrementally from the
// first, give a blob that decodes, and the fresh parse's blob whenever the
// second is valid.
func FuzzParseSlot(f *testing.F) {
	seeds := []string{"x = 1\n", "def f(a, b=2):\n    return a + b\n", "class C:\n    def m(self):\n        pass\n",
		"if x:\n    y\nelse:\n    z\n", "s = f'{a!r:>{w}}'\n", "d = {k: v for k, v in x}\n", "def (\n", "@dec\nasync def g():\n    await h()\n"}
	for i, a := range seeds {
		f.Add([]byte(a), []byte(seeds[(i+1)%len(seeds)]))
		f.Add([]byte(a), []byte(a+"# c\n"))
	}
	p, fresh := newParser(f), newParser(f)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ctx := context.Background()
		if _, err := p.ParseSlot(ctx, 0, nil, a, 10*time.Second); err != nil {
			t.Skip(err)
		}
		got, err := p.ParseSlot(ctx, 0, a, b, 10*time.Second)
		if err != nil {
			t.Skip(err)
		}
		if _, err := tree.Decode(got, b); err != nil {
			t.Fatalf("incremental blob does not decode: %v", err)
		}
		want, err := fresh.Parse(ctx, b, 10*time.Second)
		if err != nil {
			t.Skip(err)
		}
		wt, _ := tree.Decode(want, b)
		if !bytes.Equal(got, want) && !wt.Root().HasError() {
			t.Fatal(fmt.Sprintf("incremental parse of valid code %q (from %q) differs from a fresh parse", b, a))
		}
	})
}

func TestBlobHasError(t *testing.T) {
	p := newParser(t)
	for src, want := range map[string]bool{"x = 1\n": false, "def (\n": true, "": false, "x = (1,\n": true} {
		blob, err := p.Parse(context.Background(), []byte(src), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := blobHasError(blob); got != want {
			t.Errorf("blobHasError(%q) = %v, want %v", src, got, want)
		}
	}
	if !blobHasError([]byte("PYWT")) {
		t.Error("a truncated blob must count as broken")
	}
}
