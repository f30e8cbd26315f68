package textdiff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// apply splices edits into old the way host/edits does (positions
// resolved against the old text, applied back to front).
func apply(t testing.TB, old string, edits []abi.TextEdit) string {
	t.Helper()
	idx := textpos.New([]byte(old))
	out := old
	prevStart := len(old) + 1
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		s, err := idx.Offset(e.Range.Start.Line, e.Range.Start.Character)
		if err != nil {
			t.Fatalf("edit %d start %v: %v", i, e.Range.Start, err)
		}
		en, err := idx.Offset(e.Range.End.Line, e.Range.End.Character)
		if err != nil {
			t.Fatalf("edit %d end %v: %v", i, e.Range.End, err)
		}
		if s > en || en > prevStart {
			t.Fatalf("edit %d out of order or overlapping: %+v", i, edits)
		}
		prevStart = s
		out = out[:s] + e.NewText + out[en:]
	}
	return out
}

func TestEdits(t *testing.T) {
	pos := func(l, c int) abi.Position { return abi.Position{Line: l, Character: c} }
	cases := []struct {
		name     string
		old, new string
		want     []abi.TextEdit
	}{
		{"equal", "a\nb\n", "a\nb\n", nil},
		{"empty to text", "", "a\n", []abi.TextEdit{{Range: abi.Range{Start: pos(0, 0), End: pos(0, 0)}, NewText: "a\n"}}},
		{"text to empty", "a\n", "", []abi.TextEdit{{Range: abi.Range{Start: pos(0, 0), End: pos(1, 0)}, NewText: ""}}},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", []abi.TextEdit{{Range: abi.Range{Start: pos(1, 0), End: pos(2, 0)}, NewText: "B\n"}}},
		{"insert in middle", "a\nc\n", "a\nb\nc\n", []abi.TextEdit{{Range: abi.Range{Start: pos(1, 0), End: pos(1, 0)}, NewText: "b\n"}}},
		{"delete line", "a\nb\nc\n", "a\nc\n", []abi.TextEdit{{Range: abi.Range{Start: pos(1, 0), End: pos(2, 0)}, NewText: ""}}},
		{"two hunks", "a\nx\nb\nc\ny\nd\n", "a\nX\nb\nc\nY\nd\n", []abi.TextEdit{
			{Range: abi.Range{Start: pos(1, 0), End: pos(2, 0)}, NewText: "X\n"},
			{Range: abi.Range{Start: pos(4, 0), End: pos(5, 0)}, NewText: "Y\n"},
		}},
		{"add final newline", "a\nb", "a\nb\n", []abi.TextEdit{{Range: abi.Range{Start: pos(1, 0), End: pos(1, 1)}, NewText: "b\n"}}},
		{"utf16 end of last line", "x = '😀'", "x = \"😀\"\n", []abi.TextEdit{{Range: abi.Range{Start: pos(0, 0), End: pos(0, 8)}, NewText: "x = \"😀\"\n"}}},
		{"crlf kept per line", "a\r\nb\r\n", "a\r\nc\r\n", []abi.TextEdit{{Range: abi.Range{Start: pos(1, 0), End: pos(2, 0)}, NewText: "c\r\n"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Edits([]byte(c.old), []byte(c.new))
			if len(got) != len(c.want) {
				t.Fatalf("edits %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("edit %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
			if res := apply(t, c.old, got); res != c.new {
				t.Fatalf("applied %q, want %q", res, c.new)
			}
		})
	}
}

// TestMinimal checks the edit script against a quadratic LCS: the number
// of changed lines must be the minimum.
func TestMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		a, b := randomLines(r, r.IntN(30)), randomLines(r, r.IntN(30))
		edits := Edits([]byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
		changed := 0
		for _, e := range edits {
			changed += e.Range.End.Line - e.Range.Start.Line + strings.Count(e.NewText, "\n")
		}
		if want := len(a) + len(b) - 2*lcs(a, b); changed != want {
			t.Fatalf("%q -> %q: %d lines changed, minimum %d (%+v)", a, b, changed, want, edits)
		}
	}
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func randomLines(r *rand.Rand, n int) []string {
	words := []string{"a\n", "b\n", "c\n", "import os\n", "\n", "x = 1\n", "é😀\n"}
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	return out
}

// FuzzEdits: any two texts, as line arrays or raw bytes; applying the
// edits to the first gives the second, and equal texts give no edits.
func FuzzEdits(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("x\r\ny", "x\ny\r\n")
	f.Add("é😀\nz", "z\né😀")
	f.Fuzz(func(t *testing.T, old, new string) {
		edits := Edits([]byte(old), []byte(new))
		if old == new && len(edits) != 0 {
			t.Fatalf("edits for equal texts: %+v", edits)
		}
		if got := apply(t, old, edits); got != new {
			t.Fatalf("apply(%q, %+v) = %q, want %q", old, edits, got, new)
		}
	})
}

func BenchmarkEdits(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	a := randomLines(r, 5000)
	c := append([]string(nil), a...)
	for i := 0; i < len(c); i += 7 {
		c[i] = "changed\n"
	}
	old, new := []byte(strings.Join(a, "")), []byte(strings.Join(c, ""))
	for b.Loop() {
		Edits(old, new)
	}
}

// TestCostCap: texts far apart exceed maxCost; the edits are coarser but
// still exact.
func TestCostCap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randomLines(r, 3*maxCost), randomLines(r, 3*maxCost)
	old, new := strings.Join(a, ""), strings.Join(b, "")
	if got := apply(t, old, Edits([]byte(old), []byte(new))); got != new {
		t.Fatal("applied edits do not give the new text")
	}
}
