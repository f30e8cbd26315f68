package pyright

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// refsAndRename is the references (in the order answered, declarations
// included) and the rename edits at a position, or their error codes.
func refsAndRename(ctx context.Context, x *index.Index, h *index.Hit, abs string, line, char int) string {
	if h == nil {
		return "no symbol"
	}
	var b strings.Builder
	refs, err := x.References(ctx, h, true)
	fmt.Fprintf(&b, "refs %s:", fault.CodeOf(err))
	for _, r := range refs {
		fmt.Fprintf(&b, " %s:%d:%d-%d", r.Rel, r.Line, r.Col, r.End)
	}
	edits, err := x.Rename(ctx, h, NewName)
	fmt.Fprintf(&b, "\nrename %s:", fault.CodeOf(err))
	for _, e := range edits {
		fmt.Fprintf(&b, " %s:%d:%d-%d", e.Rel, e.Line, e.Col, e.End)
	}
	return b.String()
}

// TestEarlyReferencesComplete: a references or rename query during the
// first build is answered by an early index (index.EarlyComplete) that
// holds the files containing the name and what linking them reads; its
// answer must be the complete index's, position by position, in order.
// On Django's copy, at tests/bench's 200 reference positions (seed 1)
// and its start-up symbol (class Model): all of them in turn of one
// index whose build has not started (nothing but the early index
// answers; its early set grown by every query before: what it holds
// beyond the need must not change an answer), and some (every other
// with PYWS_EARLY_ALL=1) also of a fresh one.
func TestEarlyReferencesComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("not in -short mode")
	}
	c, _ := CorpusNamed("django")
	if !c.Installed() {
		t.Skipf("%s is not installed", c.Src)
	}
	ctx := context.Background()
	root, err := c.CopyTo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := summarizer(t)
	stubs, err := nativeindex.StubSets(s)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	cfg := index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: s, CacheDir: cache, Parallel: 1, Stubs: stubs}
	full := index.New(cfg)
	if err := full.Build(ctx); err != nil {
		t.Fatal(err)
	}
	samples, err := Samples(ctx, s, root, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	samples = append(samples, Sample{Rel: c.Rel, Line: c.Line, Char: c.Char, Name: "Model"})
	shared := index.New(cfg)
	fresh := 12 // fresh indexes for some of them (each costs summaries read and a link of its early set)
	if os.Getenv("PYWS_EARLY_ALL") != "" {
		fresh = len(samples)
	}
	var answered, waited int
	for i, smp := range samples {
		abs := filepath.Join(root, smp.Rel)
		want := refsAndRename(ctx, full, full.At(abs, smp.Line, smp.Char), abs, smp.Line, smp.Char)
		idxs := []*index.Index{shared}
		if i%(len(samples)/fresh+1) == 0 || smp.Name == "Model" {
			idxs = append(idxs, index.New(cfg))
		}
		for _, x := range idxs {
			var got string
			ok, err := x.EarlyComplete(ctx, abs, smp.Line, smp.Char, func(e *index.Index, h *index.Hit) error {
				got = refsAndRename(ctx, e, h, abs, smp.Line, smp.Char)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				waited++
				continue
			}
			answered++
			if got != want {
				t.Errorf("%s:%d:%d (%s): the early answer differs from the complete index's\n%s", smp.Rel, smp.Line, smp.Char, smp.Name, tokenDiff(got, want))
			}
		}
	}
	t.Logf("%d early answers equal the complete index's; %d queries would wait for the build (their name is in too many files)", answered, waited)
	if answered < len(samples)/2 {
		t.Errorf("only %d of %d queries answered early", answered, len(samples))
	}
}

// tokenDiff shows what an early answer lacks (-) and adds (+) against
// the complete one, word by word.
func tokenDiff(early, complete string) string {
	count := map[string]int{}
	for _, w := range strings.Fields(complete) {
		count[w]++
	}
	for _, w := range strings.Fields(early) {
		count[w]--
	}
	var out []string
	for _, w := range strings.Fields(complete + " " + early) {
		switch n := count[w]; {
		case n > 0:
			out = append(out, "-"+w)
		case n < 0:
			out = append(out, "+"+w)
		}
		count[w] = 0
	}
	return strings.Join(out, " ")
}
