package index

import (
	"fmt"
	"testing"
)

func TestValidIdentifier(t *testing.T) {
	cases := []struct {
		s  string
		ok bool
	}{
		{"x", true}, {"_private", true}, {"x1", true}, {"élément", true}, {"变量", true}, {"match", true}, {"type", true}, {"_", true},
		{"", false}, {"1x", false}, {"class", false}, {"None", false}, {"a-b", false}, {"a b", false}, {"a.b", false}, {"x$", false},
	}
	for _, c := range cases {
		if got := ValidIdentifier(c.s); got != c.ok {
			t.Errorf("ValidIdentifier(%q) = %v, want %v", c.s, got, c.ok)
		}
	}
}

// TestSummaryBatches: a job's calls keep every file once and in order,
// hold at most batchBytes, start small (the first answer comes soon) and
// shrink towards the end (the workers finish together).
func TestSummaryBatches(t *testing.T) {
	for _, tt := range []struct {
		name            string
		sizes           []int
		batch, parallel int
	}{
		{"Django-like", repeatSizes(860, 10<<10), 256 << 10, 2},
		{"one large file", []int{1 << 20}, 256 << 10, 2},
		{"few small", repeatSizes(3, 100), 256 << 10, 2},
		{"early index", repeatSizes(20, 30<<10), 32 << 10, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var todo []pending
			for i, n := range tt.sizes {
				todo = append(todo, pending{f: &File{Rel: fmt.Sprintf("f%04d.py", i)}, text: make([]byte, n)})
			}
			bs := summaryJob{batchBytes: tt.batch, parallel: tt.parallel}.batches(todo)
			var seen []pending
			sizes := make([]int, len(bs))
			for i, b := range bs {
				for _, p := range b {
					sizes[i] += len(p.text)
				}
				if len(b) > 1 && sizes[i] > tt.batch {
					t.Errorf("batch %d holds %d bytes, over %d", i, sizes[i], tt.batch)
				}
				seen = append(seen, b...)
			}
			if len(seen) != len(todo) {
				t.Fatalf("%d files in the batches, want %d", len(seen), len(todo))
			}
			for i := range seen {
				if seen[i].f != todo[i].f {
					t.Fatalf("file %d is %s, want %s", i, seen[i].f.Rel, todo[i].f.Rel)
				}
			}
			if len(bs) > 1 && len(bs[0]) > 1 && sizes[0] > tt.batch/8 {
				t.Errorf("first batch %d bytes, want at most %d", sizes[0], tt.batch/8)
			}
			if n := len(sizes); n > 4 && len(bs[n-1]) > 1 && sizes[n-1] > tt.batch/4 {
				t.Errorf("last batch %d bytes of %d: the tail is not shrunk (%v)", sizes[n-1], tt.batch, sizes)
			}
		})
	}
}

func repeatSizes(n, size int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = size
	}
	return out
}
