package pyright

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"unicode/utf8"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// completionFloors are the lowest figures TestCompletionAgreement
// accepts: pyws's share of sampled identifiers in its top five (pyright's
// in the comment) and its recall of pyright's member lists, measured
// 2026-11-27 minus a margin.
var completionFloors = map[string]struct{ top5, recall float64 }{
	"requests": {0.69, 0.92}, // 214/300 (pyright 92/300), 0.937 over 49 lists
	"flask":    {0.76, 0.94}, // 233/300 (pyright 95/300), 0.957 over 71 lists
	"django":   {0.70, 0.90}, // 361/500 (pyright 119/500), 0.914 over 83 lists
}

// TestCompletionAgreement replays pyright's recorded completions on
// requests, flask and django (testdata/completions_<project>.json; the
// types sampler, seed 1, 300/300/500 identifiers) against pyws's index
// in-process: at each identifier, asked one character in, is the
// identifier written there among the first five items? At a member
// position, how much of pyright's list (asked at the identifier's start)
// does pyws offer? With PYWS_PYRIGHT_UPDATE=1 it records the projects
// PYWS_PYRIGHT names from a live pyright.
func TestCompletionAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("not in -short mode")
	}
	s := summarizer(t)
	_, record := recording()
	total := &CompletionScore{}
	ran := 0
	for _, p := range typeProjects {
		t.Run(p.name, func(t *testing.T) {
			golden := filepath.Join("testdata", "completions_"+p.name+".json")
			found := installedProject(t, p.name, p.pkg)
			g := &CompletionGolden{Project: p.name, Package: debianVersion(p.pkg), Seed: typeSeed, Files: found}
			if !record[p.name] {
				var err error
				if g, err = readGolden[CompletionGolden](golden); err != nil {
					t.Fatalf("%v (record with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=%s)", err, p.name)
				}
				skipUnlessRecorded(t, p.name, g.Package, g.Files, found)
			}
			if g.Cases == nil {
				root := t.TempDir()
				if err := CopyFiles(distPackages, root, sortedKeys(g.Files)); err != nil {
					t.Fatal(err)
				}
				recordCompletions(t, s, root, g, p.samples)
				writeCompletionGolden(t, golden, g)
			}
			root, x := projectIndex(t, s, distPackages, g.Files)
			sc := replayCompletions(t, root, x, g)
			t.Logf("%s: %s", p.name, sc)
			if os.Getenv("PYWS_PYRIGHT_VERBOSE") != "" {
				for _, m := range sc.Misses {
					t.Log("  " + m)
				}
			}
			top5, _, recall := sc.Figures()
			if f := completionFloors[p.name]; top5 < f.top5 || recall < f.recall {
				t.Errorf("%s: top-5 %.3f (floor %.3f), member recall %.3f (floor %.3f)", p.name, top5, f.top5, recall, f.recall)
			}
			total.Merge(sc)
			ran++
		})
	}
	if ran > 0 {
		t.Logf("total: %s", total)
	}
}

func writeCompletionGolden(t *testing.T, path string, g *CompletionGolden) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := g.Write(f); err != nil {
		t.Fatal(err)
	}
}

// memberPosition reports an identifier at byte off of src that follows
// a dot (spaces between allowed).
func memberPosition(src []byte, off int) bool {
	i := off - 1
	for i >= 0 && (src[i] == ' ' || src[i] == '\t') {
		i--
	}
	return i >= 0 && src[i] == '.'
}

// completionOffsets are the byte offsets of a sample's identifier start
// and one character into it.
func completionOffsets(t testing.TB, root string, smp Sample) (src []byte, start, oneIn int) {
	src, err := os.ReadFile(filepath.Join(root, smp.Rel))
	if err != nil {
		t.Fatal(err)
	}
	start, err = textpos.New(src).Offset(smp.Line, smp.Char)
	if err != nil {
		t.Fatal(err)
	}
	_, n := utf8.DecodeRune(src[start:])
	return src, start, start + n
}

// recordCompletions asks a live pyright at the sampled positions.
func recordCompletions(t *testing.T, s *nativeindex.Summarizer, root string, g *CompletionGolden, n int) {
	g.Config, g.Pyright = configurePyright(t, root), pyrightVersion()
	samples, err := Samples(context.Background(), s, root, n, g.Seed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(ServerPath(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	labels := func(items []CompletionItem) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = it.Label
		}
		return out
	}
	for _, smp := range samples {
		abs := filepath.Join(root, smp.Rel)
		src, start, _ := completionOffsets(t, root, smp)
		first, _ := utf8.DecodeRuneInString(smp.Name)
		items, err := c.Completion(abs, smp.Line, smp.Char+utf16Len(first))
		if err != nil {
			t.Fatalf("completion %s:%d:%d: %v", smp.Rel, smp.Line, smp.Char, err)
		}
		cc := CompletionCase{Sample: smp, Member: memberPosition(src, start), Top5: TopFive(labels(items), string(first))}
		if cc.Member {
			items, err := c.Completion(abs, smp.Line, smp.Char)
			if err != nil {
				t.Fatalf("completion %s:%d:%d: %v", smp.Rel, smp.Line, smp.Char, err)
			}
			cc.Members = labels(items)
			sort.Strings(cc.Members)
		}
		g.Cases = append(g.Cases, cc)
	}
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// replayCompletions scores pyws, the in-process index x of root, against g.
func replayCompletions(t *testing.T, root string, x *index.Index, g *CompletionGolden) *CompletionScore {
	sc := &CompletionScore{}
	for _, c := range g.Cases {
		src, start, oneIn := completionOffsets(t, root, c.Sample)
		abs := filepath.Join(root, c.Rel)
		var top5, members []string
		for _, it := range x.Completions(abs, src, oneIn, 5).Items {
			top5 = append(top5, it.Label)
		}
		if c.Member {
			for _, it := range x.Completions(abs, src, start, math.MaxInt).Items {
				members = append(members, it.Label)
			}
		}
		sc.Add(c, top5, members)
	}
	return sc
}
