package plugins

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/pyws/pyws/wasm/parser"
	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

func TestKeptTrees(t *testing.T) {
	big := func(tag string, n int) []byte { return append([]byte(tag), bytes.Repeat([]byte("x"), n)...) }
	var k keptTrees
	if _, _, ok := k.claim("small.py", false, []byte("x = 1\n")); ok {
		t.Error("a small file was given a slot")
	}
	if _, _, ok := k.claim("", false, big("a", keepMinBytes)); ok {
		t.Error("a file without a key was given a slot")
	}
	a1, a2 := big("a1", keepMinBytes), big("a2", keepMinBytes)
	if _, _, ok := k.claim("alone.py", true, a1); !ok {
		t.Error("a file parsed alone was given no slot for its first version")
	}
	k.reset()
	if _, _, ok := k.claim("a.py", false, a1); ok {
		t.Error("a file's first version, parsed among others, was given a slot")
	}
	// seen claims each file's first version, which keeps no tree.
	seen := func(keys ...string) {
		for _, key := range keys {
			if _, _, ok := k.claim(key, false, big("s", keepMinBytes)); ok {
				t.Fatalf("%s: a first version was given a slot", key)
			}
		}
	}
	slotA, prev, ok := k.claim("a.py", false, a1)
	if !ok || prev != nil {
		t.Fatalf("first claim: ok %v prev %v", ok, prev != nil)
	}
	slot, prev, _ := k.claim("a.py", false, a2)
	if slot != slotA || !bytes.Equal(prev, a1) {
		t.Fatalf("second claim: slot %d (want %d), prev is the first version: %v", slot, slotA, bytes.Equal(prev, a1))
	}
	// Fill every other slot; the next new file takes the least recently
	// used one, a.py's, and a.py starts over.
	for i := 1; i < parser.Slots; i++ {
		seen(fmt.Sprintf("f%d.py", i))
		if s, _, _ := k.claim(fmt.Sprintf("f%d.py", i), false, big("f", keepMinBytes)); s == slotA {
			t.Fatalf("f%d.py took a.py's slot while others were free", i)
		}
	}
	seen("new.py")
	if s, p, _ := k.claim("new.py", false, big("n", keepMinBytes)); s != slotA || p != nil {
		t.Fatalf("new.py got slot %d (want a.py's %d), prev %v", s, slotA, p != nil)
	}
	if _, p, _ := k.claim("a.py", false, a2); p != nil {
		t.Error("a.py kept a prev after its slot was taken")
	}
	// The byte budget forgets the oldest files, never the one being parsed.
	k.reset()
	huge := big("h", keepMaxBytes/2)
	seen("h1.py", "h2.py", "h3.py")
	k.claim("h1.py", false, huge)
	k.claim("h2.py", false, huge)
	k.claim("h3.py", false, huge)
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
	k.claim("s.py", false, big("s", keepMinBytes))
	k.claim("s.py", false, []byte("tiny\n"))
	if _, ok := k.files["s.py"]; ok {
		t.Error("a file that became small kept its stale slot")
	}
}

// TestWorkerParserIncremental: a worker's parser gives the same blobs
// for successive versions of files as a fresh parse, whether it reuses
// their trees or not, and across its own recycling.
func TestWorkerParserIncremental(t *testing.T) {
	ctx := context.Background()
	w, fresh := newTestWorkerParser(t), newTestWorkerParser(t)
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
				got, err := w.Parse(ctx, key, false, v, 0)
				if err != nil {
					t.Fatal(err)
				}
				want, err := fresh.Parse(ctx, "", true, v, 0)
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

// TestParseKeptMatchesParse parses successive versions of stdlib files
// (valid edits, a broken version, its fix) the way a worker does, from the
// kept tree, and requires the blob a fresh parse gives for every one:
// tree-sitter guarantees it for valid code, parseKept's second parse for
// broken code.
func TestParseKeptMatchesParse(t *testing.T) {
	if testing.Short() {
		t.Skip("parses many stdlib versions")
	}
	files := stdlibcorpus.Files(t)
	p, fresh := newTestParser(t), newTestParser(t)
	ctx := context.Background()
	checked := 0
	for i := 0; i < len(files); i += max(1, len(files)/60) {
		src, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		slot := i % parser.Slots
		if _, err := parseKept(ctx, p, slot, nil, src, time.Minute); err != nil {
			t.Fatalf("%s: %v", files[i], err)
		}
		prev := src
		for j, v := range editsOf(src) {
			got, err := parseKept(ctx, p, slot, prev, v, time.Minute)
			if err != nil {
				t.Fatalf("%s version %d: %v", files[i], j, err)
			}
			want, err := fresh.Parse(ctx, v, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s version %d: the kept tree's parse differs from a fresh parse", files[i], j)
			}
			checked++
			prev = v
		}
	}
	t.Logf("%d incremental parses checked", checked)
}

// FuzzParseKept: any two sources, the second parsed from the first's kept
// tree, give the fresh parse's blob.
func FuzzParseKept(f *testing.F) {
	seeds := []string{"x = 1\n", "def f(a, b=2):\n    return a + b\n", "class C:\n    def m(self):\n        pass\n",
		"if x:\n    y\nelse:\n    z\n", "s = f'{a!r:>{w}}'\n", "d = {k: v for k, v in x}\n", "def (\n", "@dec\nasync def g():\n    await h()\n"}
	for i, a := range seeds {
		f.Add([]byte(a), []byte(seeds[(i+1)%len(seeds)]))
		f.Add([]byte(a), []byte(a+"# c\n"))
	}
	p, fresh := newTestParser(f), newTestParser(f)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ctx := context.Background()
		if _, err := parseKept(ctx, p, 0, nil, a, 10*time.Second); err != nil {
			t.Skip(err)
		}
		got, err := parseKept(ctx, p, 0, a, b, 10*time.Second)
		if err != nil {
			t.Skip(err)
		}
		want, err := fresh.Parse(ctx, b, 10*time.Second)
		if err != nil {
			t.Skip(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("parse of %q from the kept tree of %q differs from a fresh parse", b, a)
		}
	})
}

func TestBlobHasError(t *testing.T) {
	p := newTestParser(t)
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

// newTestWorkerParser returns a worker's tree parser, closed with the test.
func newTestWorkerParser(tb testing.TB) *workerParser {
	tb.Helper()
	ctx := context.Background()
	tp, err := newTreeParser(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	w := tp.(*workerParser)
	tb.Cleanup(func() { w.Close(ctx) })
	return w
}

// newTestParser returns a parser instance made as a worker makes its own,
// closed with the test.
func newTestParser(tb testing.TB) *parser.Parser {
	tb.Helper()
	w := newTestWorkerParser(tb)
	p, err := w.mod.New(withLinearMemory(context.Background())) // as workerParser.Parse does
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestWorkerParserShed: an idle worker closes its parser instance when it
// keeps no tree (a batch's files), keeps it while it holds a file's tree
// for the next version, and parses the same after closing.
func TestWorkerParserShed(t *testing.T) {
	ctx := context.Background()
	w := newTestWorkerParser(t)
	src := bytes.Repeat([]byte("def f(a, b):\n    return a + b\n\n\n"), 400) // above keepMinBytes
	before := liveReservations.Load()
	first, err := w.Parse(ctx, "file:///w/a.py", false, src, 0) // among others: no tree kept
	if err != nil {
		t.Fatal(err)
	}
	if got := liveReservations.Load(); got != before+1 {
		t.Fatalf("%d reservations after a parse, want %d", got, before+1)
	}
	w.shed(ctx)
	if w.p != nil || liveReservations.Load() != before {
		t.Fatal("the parser instance survived shedding with no tree kept")
	}
	if _, err := w.Parse(ctx, "file:///w/b.py", true, src, 0); err != nil { // alone: its tree is kept
		t.Fatal(err)
	}
	w.shed(ctx)
	if w.p == nil {
		t.Fatal("shedding closed the parser instance while it keeps b.py's tree")
	}
	again, err := w.Parse(ctx, "file:///w/a.py", false, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Fatal("the blob after shedding differs")
	}
}
