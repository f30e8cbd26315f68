package pyright

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// Thresholds of the quality bar.
const (
	minDefinition = 0.95
	minF1         = 0.90
	minRename     = 0.85
)

func summarizer(t testing.TB) *nativeindex.Summarizer {
	t.Helper()
	s, err := nativeindex.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func report(t *testing.T, name string, cases []Case, ours []Answer, sc *Score) {
	t.Helper()
	show := func(kind string, idx []int) {
		for k, i := range idx {
			if k >= 15 {
				t.Logf("  ... %d more %s differences", len(idx)-k, kind)
				break
			}
			c := cases[i]
			py, us := c.Pyright, ours[i]
			switch kind {
			case "definition":
				t.Logf("  %s %s:%d:%d %s: pyright %v %s | pyws %v %s", kind, c.Rel, c.Line, c.Char, c.Name, py.Def, py.DefErr, us.Def, us.DefErr)
			case "references":
				t.Logf("  %s %s:%d:%d %s: F1 %.2f pyright %d pyws %d (%s) only-pyright %v only-pyws %v", kind, c.Rel, c.Line, c.Char, c.Name, F1(py.Refs, us.Refs), len(py.Refs), len(us.Refs), us.RefsErr, diff(py.Refs, us.Refs, 4), diff(us.Refs, py.Refs, 4))
			case "rename":
				t.Logf("  %s %s:%d:%d %s: pyright %d edits %s | pyws %d edits %s only-pyright %v only-pyws %v", kind, c.Rel, c.Line, c.Char, c.Name, len(py.Rename), py.RenameErr, len(us.Rename), us.RenameErr, diff(py.Rename, us.Rename, 3), diff(us.Rename, py.Rename, 3))
			}
		}
	}
	t.Logf("%s: %s", name, sc)
	if os.Getenv("PYWS_PYRIGHT_VERBOSE") != "" || t.Failed() {
		show("definition", sc.DefMiss)
		show("references", sc.LowF1)
		show("rename", sc.RenameMiss)
	}
}

func diff(a, b []string, max int) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
			if len(out) == max {
				break
			}
		}
	}
	return out
}

func check(t *testing.T, sc *Score) {
	t.Helper()
	if sc.N == 0 {
		t.Fatal("no samples")
	}
	if d := float64(sc.DefOK) / float64(sc.N); d < minDefinition {
		t.Errorf("definition agreement %.3f < %.2f", d, minDefinition)
	}
	if f := sc.F1Sum / float64(sc.N); f < minF1 {
		t.Errorf("references F1 %.3f < %.2f", f, minF1)
	}
	if r := float64(sc.RenameOK) / float64(sc.N); r < minRename {
		t.Errorf("rename agreement %.3f < %.2f", r, minRename)
	}
}

// TestGolden checks pyws against pyright's answers recorded for every
// identifier of the navigation fixtures (tests/navigation/testdata). With
// PYWS_PYRIGHT_UPDATE=1 it asks a live pyright and rewrites the goldens.
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "navigation", "testdata", "*"))
	if len(dirs) == 0 {
		t.Fatal("no fixtures")
	}
	s := summarizer(t)
	ctx := context.Background()
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			root, _ := filepath.Abs(dir)
			golden := filepath.Join("testdata", name+".json")
			var cases []Case
			if os.Getenv("PYWS_PYRIGHT_UPDATE") != "" {
				samples, err := Samples(ctx, s, root, 0, 1)
				if err != nil {
					t.Fatal(err)
				}
				c, err := Start(ServerPath(), root)
				if err != nil {
					t.Fatal(err)
				}
				for _, smp := range samples {
					cases = append(cases, Case{Sample: smp, Pyright: AskPyright(c, root, smp)})
				}
				c.Close()
				b, _ := json.MarshalIndent(cases, "", " ")
				if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				b, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (record goldens with PYWS_PYRIGHT_UPDATE=1)", err)
				}
				if err := json.Unmarshal(b, &cases); err != nil {
					t.Fatal(err)
				}
			}
			x, err := nativeindex.Build(ctx, s, root, "")
			if err != nil {
				t.Fatal(err)
			}
			var sc Score
			ours := make([]Answer, len(cases))
			for i, c := range cases {
				ours[i] = AskPyws(ctx, x, root, c.Sample)
				sc.Add(i, c.Pyright, ours[i])
			}
			check(t, &sc)
			report(t, name, cases, ours, &sc)
		})
	}
}

// TestDifferential compares pyws with a live pyright on real projects:
// PYWS_PYRIGHT=requests,flask,django (Debian's python3-* packages copied
// into a fresh workspace each), PYWS_PYRIGHT_SAMPLES (default 300) and
// PYWS_PYRIGHT_SEED (default 1).
func TestDifferential(t *testing.T) {
	projects := os.Getenv("PYWS_PYRIGHT")
	if projects == "" {
		t.Skip("set PYWS_PYRIGHT=requests,flask,django to run against pyright")
	}
	n, seed := 300, int64(1)
	if v, err := strconv.Atoi(os.Getenv("PYWS_PYRIGHT_SAMPLES")); err == nil {
		n = v
	}
	if v, err := strconv.ParseInt(os.Getenv("PYWS_PYRIGHT_SEED"), 10, 64); err == nil {
		seed = v
	}
	s := summarizer(t)
	ctx := context.Background()
	for _, p := range strings.Split(projects, ",") {
		t.Run(p, func(t *testing.T) {
			root := t.TempDir()
			src := filepath.Join("/usr/lib/python3/dist-packages", p)
			if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
				t.Fatalf("copy %s: %v %s", src, err, out)
			}
			exec.Command("find", root, "-name", "__pycache__", "-prune", "-exec", "rm", "-rf", "{}", "+").Run()
			root, _ = filepath.EvalSymlinks(root)
			start := time.Now()
			x, err := nativeindex.Build(ctx, s, root, "")
			if err != nil {
				t.Fatal(err)
			}
			ourBuild := time.Since(start)
			samples, err := Samples(ctx, s, root, n, seed)
			if err != nil {
				t.Fatal(err)
			}
			pstart := time.Now()
			c, err := Start(ServerPath(), root)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var sc Score
			cases := make([]Case, len(samples))
			ours := make([]Answer, len(samples))
			var firstRefs time.Duration
			for i, smp := range samples {
				if i == 0 {
					abs := filepath.Join(root, smp.Rel)
					c.References(abs, smp.Line, smp.Char, true)
					firstRefs = time.Since(pstart)
				}
				cases[i] = Case{Sample: smp, Pyright: AskPyright(c, root, smp)}
				ours[i] = AskPyws(ctx, x, root, smp)
				sc.Add(i, cases[i].Pyright, ours[i])
			}
			t.Logf("%s: pyws index build %v (in-process, one parser); pyright first references answer after %v", p, ourBuild.Round(time.Millisecond), firstRefs.Round(time.Millisecond))
			report(t, p, cases, ours, &sc)
			if out := os.Getenv("PYWS_PYRIGHT_DUMP"); out != "" {
				b, _ := json.MarshalIndent(map[string]any{"cases": cases, "pyws": ours}, "", " ")
				os.WriteFile(fmt.Sprintf("%s/%s.json", out, p), b, 0o644)
			}
			check(t, &sc)
		})
	}
}

// TestFirstReferences times pyright from process start to its first
// references answer on a well-used symbol of each corpus (Corpora), and
// fails when pyright finds no uses of it. PYWS_PYRIGHT_TIMING=django,stdlib.
// `make bench` (tests/bench) runs the same timing beside pyws's.
func TestFirstReferences(t *testing.T) {
	which := os.Getenv("PYWS_PYRIGHT_TIMING")
	if which == "" {
		t.Skip("set PYWS_PYRIGHT_TIMING=django,stdlib")
	}
	for _, name := range strings.Split(which, ",") {
		c, ok := CorpusNamed(name)
		if !ok {
			t.Fatalf("unknown workspace %q", name)
		}
		t.Run(name, func(t *testing.T) {
			root, err := c.CopyTo(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			tm, client, err := FirstReferences(ServerPath(), root, c)
			if err != nil {
				t.Fatal(err)
			}
			client.Close()
			t.Logf("%s: pyright first references answer after %v (%d references), complete (%d) after %v", name,
				tm.First.Round(time.Millisecond), tm.FirstCount, tm.Count, tm.Complete.Round(time.Millisecond))
		})
	}
}
