package plugins

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/pyws/pyws/host/parser"
)

func TestKeptTrees(t *testing.T) {
	big := func(tag string, n int) []byte { return append([]byte(tag), bytes.Repeat([]byte("x"), n)...) }
	var k keptTrees
	if _, _, ok := k.claim("small.py", []byte("x = 1\n")); ok {
		t.Error("a small file was given a slot")
	}
	if _, _, ok := k.claim("", big("a", keepMinBytes)); ok {
		t.Error("a file without a key was given a slot")
	}
	a1, a2 := big("a1", keepMinBytes), big("a2", keepMinBytes)
	slotA, prev, ok := k.claim("a.py", a1)
	if !ok || prev != nil {
		t.Fatalf("first claim: ok %v prev %v", ok, prev != nil)
	}
	slot, prev, _ := k.claim("a.py", a2)
	if slot != slotA || !bytes.Equal(prev, a1) {
		t.Fatalf("second claim: slot %d (want %d), prev is the first version: %v", slot, slotA, bytes.Equal(prev, a1))
	}
	// Fill every other slot; the next new file takes the least recently
	// used one, a.py's, and a.py starts over.
	for i := 1; i < parser.Slots; i++ {
		if s, _, _ := k.claim(fmt.Sprintf("f%d.py", i), big("f", keepMinBytes)); s == slotA {
			t.Fatalf("f%d.py took a.py's slot while others were free", i)
		}
	}
	if s, p, _ := k.claim("new.py", big("n", keepMinBytes)); s != slotA || p != nil {
		t.Fatalf("new.py got slot %d (want a.py's %d), prev %v", s, slotA, p != nil)
	}
	if _, p, _ := k.claim("a.py", a2); p != nil {
		t.Error("a.py kept a prev after its slot was taken")
	}
	// The byte budget forgets the oldest files, never the one being parsed.
	k.reset()
	huge := big("h", keepMaxBytes/2)
	k.claim("h1.py", huge)
	k.claim("h2.py", huge)
	k.claim("h3.py", huge)
	if k.bytes > keepMaxBytes {
		t.Errorf("%d bytes kept, budget %d", k.bytes, keepMaxBytes)
	}
	if _, ok := k.files["h3.py"]; !ok {
		t.Error("the file just parsed was forgotten")
	}
	if _, ok := k.files["h1.py"]; ok {
		t.Error("the oldest file was kept over budget")
	}
	// Forgetting after a failure, and a file that shrank below the minimum.
	k.claim("s.py", big("s", keepMinBytes))
	k.claim("s.py", []byte("tiny\n"))
	if _, ok := k.files["s.py"]; ok {
		t.Error("a file that became small kept its stale slot")
	}
}

// TestWorkerParserIncremental: a worker's parser gives the same blobs
// for successive versions of files as a fresh parse, whether it reuses
// their trees or not, and across its own recycling.
func TestWorkerParserIncremental(t *testing.T) {
	ctx := context.Background()
	tp, err := newTreeParser(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := tp.(*workerParser)
	defer w.Close(ctx)
	fresh, err := newTreeParser(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.(*workerParser).Close(ctx)
	var body bytes.Buffer
	for i := range 400 {
		fmt.Fprintf(&body, "def f%d(a, b=%d):\n    return [a + b for _ in range(%d)]\n\n\n", i, i, i)
	}
	base := body.Bytes()
	versions := [][]byte{base, append(append([]byte(nil), base...), "# edit\n"...),
		bytes.Replace(base, []byte("f10("), []byte("g10("), 1), []byte("def broken(:\n"), base}
	for round := range 2 {
		for i, v := range versions {
			for _, key := range []string{"file:///w/a.py", "file:///w/b.py"} {
				got, err := w.Parse(ctx, key, v, 0)
				if err != nil {
					t.Fatal(err)
				}
				want, err := fresh.Parse(ctx, "", v, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d version %d of %s differs from a fresh parse", round, i, key)
				}
			}
		}
		if round == 0 { // the parser instance is recycled: nothing kept survives
			w.p.Close(ctx)
			w.p = nil
		}
	}
	if _, ok := w.kept.files["file:///w/a.py"]; !ok {
		t.Error("a.py's tree is not kept")
	}
}
