package tree

import (
	"os"
	"testing"
)

func FuzzDecode(f *testing.F) {
	f.Add(sampleSpec().encode(), []byte(sampleSource))
	if blob, err := os.ReadFile("testdata/sample.blob"); err == nil {
		src, _ := os.ReadFile("testdata/sample.py")
		f.Add(blob, src)
	}
	f.Fuzz(func(t *testing.T, blob, src []byte) {
		tr, err := Decode(blob, src)
		if err != nil {
			return
		}
		checkInvariants(t, tr)
	})
}

// checkInvariants verifies what Decode promises about an accepted tree,
// using only the public API.
func checkInvariants(t testing.TB, tr *Tree) {
	t.Helper()
	src := tr.Source()
	root := tr.Root()
	if root.IsNull() || !root.Parent().IsNull() || tr.NodeCount() < 1 {
		t.Fatal("bad root")
	}
	seen := 0
	root.Walk(func(n Node) bool {
		seen++
		if n.Index() != seen-1 {
			t.Fatalf("walk out of preorder at %d", n.Index())
		}
		if n.StartByte() > n.EndByte() || n.EndByte() > len(src) {
			t.Fatalf("node %d: range [%d,%d) of %d", n.Index(), n.StartByte(), n.EndByte(), len(src))
		}
		_ = n.Kind()
		_ = n.FieldName()
		_ = n.Text()
		prev := Node{}
		for c := range n.Children() {
			if c.Parent() != n || c.PrevSibling() != prev {
				t.Fatalf("node %d: child %d links", n.Index(), c.Index())
			}
			if c.StartByte() < n.StartByte() || c.EndByte() > n.EndByte() {
				t.Fatalf("node %d: child %d outside", n.Index(), c.Index())
			}
			if !prev.IsNull() && (prev.NextSibling() != c || c.StartByte() < prev.EndByte()) {
				t.Fatalf("node %d: siblings %d, %d", n.Index(), prev.Index(), c.Index())
			}
			prev = c
		}
		return true
	})
	if seen != tr.NodeCount() {
		t.Fatalf("walked %d of %d nodes", seen, tr.NodeCount())
	}
	for _, r := range [][2]int{{0, 0}, {0, len(src)}, {len(src) / 2, len(src) / 2}, {len(src), len(src)}} {
		n := tr.DescendantForByteRange(r[0], r[1])
		if n != root && (n.StartByte() > r[0] || n.EndByte() < r[1]) {
			t.Fatalf("DescendantForByteRange(%d,%d) = node %d [%d,%d)", r[0], r[1], n.Index(), n.StartByte(), n.EndByte())
		}
	}
	_ = root.String()
}
