package pyright

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugins/diagnostics/rules"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// typeFloors are the lowest figures TestTypeAgreement accepts: pyws's
// figures when the goldens were recorded, minus a small margin. The type
// model (issue 13) is not wired into hover yet, so they are low; raise
// them as it lands, towards the targets (hover type and
// signature >= 0.90, type definition >= 0.95, type-mismatch precision
// >= 0.95). typeDefinition is 0: pyws has no get_type_definition yet.
var typeFloors = map[string]map[string]float64{
	//            hover type, signature, type definition, type-mismatch precision
	"requests": {"type": 0, "signature": 0, "typeDefinition": 0, "mismatch": 0},
	"flask":    {"type": 0, "signature": 0, "typeDefinition": 0, "mismatch": 0},
	"django":   {"type": 0, "signature": 0, "typeDefinition": 0, "mismatch": 0},
	"total":    {"type": 0, "signature": 0, "typeDefinition": 0, "mismatch": 0},
}

// TestTypeAgreement replays pyright's recorded type answers on requests,
// flask and django (testdata/types_<project>.json) against pyws's index
// run in-process: hover type, signature, type definition agreement and
// type-mismatch precision, per project and in total, each checked
// against typeFloors. A project is skipped when its Debian package is
// not installed or its files are not the recorded ones. With
// PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=requests,flask,django it asks a
// live pyright and rewrites those goldens first.
func TestTypeAgreement(t *testing.T) {
	s := summarizer(t)
	record := map[string]bool{}
	if os.Getenv("PYWS_PYRIGHT_UPDATE") != "" {
		for _, p := range strings.Split(os.Getenv("PYWS_PYRIGHT"), ",") {
			record[p] = true
		}
	}
	scores := map[string]*TypeScore{}
	var names []string
	for _, p := range typeProjects {
		t.Run(p.name, func(t *testing.T) {
			golden := filepath.Join("testdata", "types_"+p.name+".json")
			found, err := ProjectFiles(distPackages, p.name)
			if err != nil || len(found) == 0 {
				t.Skipf("%s: %s is not installed (%s/%s: %v); apt-get install %s", p.name, p.pkg, distPackages, p.name, err, p.pkg)
			}
			var g *TypeGolden
			root := t.TempDir()
			if record[p.name] {
				g = &TypeGolden{Project: p.name, Package: debianVersion(p.pkg), Seed: typeSeed, Files: found}
				if err := CopyFiles(distPackages, root, sortedKeys(found)); err != nil {
					t.Fatal(err)
				}
				recordTypes(t, s, root, g, p.samples)
				writeGolden(t, golden, g)
			} else {
				if g, err = ReadTypeGolden(golden); err != nil {
					t.Fatalf("%v (record with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=%s)", err, p.name)
				}
				if d := FilesDiffer(g.Files, found); d != "" {
					t.Skipf("%s: the installed files are not the recorded %s: %s; install that version or re-record with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=%s", p.name, g.Package, d, p.name)
				}
				if err := CopyFiles(distPackages, root, sortedKeys(g.Files)); err != nil {
					t.Fatal(err)
				}
			}
			scores[p.name] = replayTypes(t, s, root, g)
			names = append(names, p.name)
		})
	}
	if len(names) == 0 {
		return
	}
	total := &TypeScore{}
	for _, n := range names {
		total.Merge(scores[n])
	}
	scores["total"] = total
	var sb strings.Builder
	WriteTable(&sb, append(names, "total"), scores)
	t.Logf("pyws against pyright %s:\n%s", pyrightVersionOf(t), sb.String())
	for _, n := range append(names, "total") {
		checkFloors(t, n, scores[n])
	}
}

func pyrightVersionOf(t *testing.T) string {
	g, err := ReadTypeGolden(filepath.Join("testdata", "types_requests.json"))
	if err != nil {
		return "?"
	}
	return g.Pyright
}

func checkFloors(t *testing.T, name string, s *TypeScore) {
	t.Helper()
	floors, ok := typeFloors[name]
	if !ok {
		t.Errorf("%s: no floors recorded", name)
		return
	}
	for fig, r := range s.Figures() {
		if r.Value() < floors[fig] {
			t.Errorf("%s: %s agreement %.3f (%d/%d) < floor %.3f", name, fig, r.Value(), r.OK, r.N, floors[fig])
		}
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func writeGolden(t *testing.T, path string, g *TypeGolden) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := g.Write(f); err != nil {
		t.Fatal(err)
	}
}

// replayTypes scores pyws, indexing root in-process, against g.
func replayTypes(t *testing.T, s *nativeindex.Summarizer, root string, g *TypeGolden) *TypeScore {
	ctx := context.Background()
	x, err := nativeindex.Build(ctx, s, root, "")
	if err != nil {
		t.Fatal(err)
	}
	sc := &TypeScore{}
	for _, c := range g.Cases {
		sc.AddHover(c, pywsHover(x, root, c.Sample), pywsTypeDefinition(x, root, c.Sample))
	}
	for _, f := range pywsFindings(t, s, root, sortedKeys(g.Files)) {
		sc.AddFinding(f, g.Diags)
	}
	if sc.Hovers == 0 {
		t.Fatal("no recorded samples")
	}
	buckets := make([]string, 0, len(sc.Buckets))
	for b, n := range sc.Buckets {
		buckets = append(buckets, b+"="+strconv.Itoa(n))
	}
	sort.Strings(buckets)
	t.Logf("%s: %d pyright hovers by bucket: %s; %d pyright type errors", g.Project, sc.Hovers, strings.Join(buckets, " "), len(g.Diags))
	if os.Getenv("PYWS_PYRIGHT_VERBOSE") != "" {
		for _, m := range sc.Misses {
			t.Logf("  %s %s\n      pyright: %s\n      pyws:    %s", m.Figure, m.At, oneLine(m.Pyright), oneLine(m.Pyws))
		}
	}
	return sc
}

func oneLine(s string) string {
	if s == "" {
		return "(none)"
	}
	return strings.ReplaceAll(s, "\n", " ⏎ ")
}

// pywsHover is the code block of pyws's hover at the sample ("" when
// pyws has none).
func pywsHover(x *index.Index, root string, smp Sample) string {
	h := x.At(filepath.Join(root, smp.Rel), smp.Line, smp.Char)
	if h == nil {
		return ""
	}
	md, err := x.Hover(h)
	if err != nil {
		return ""
	}
	return HoverCode(md)
}

// pywsTypeDefinition is pyws's type definition at the sample, in
// TypeDefString's notation. pyws has no get_type_definition yet (issue
// 13): nil, which disagrees wherever pyright finds one. Wire the type
// model in here when it lands.
func pywsTypeDefinition(*index.Index, string, Sample) []string { return nil }

// pywsFindings runs the diagnostics plugin's rules natively on every
// file (Python 3.11; no workspace facts, which the kernel would add for
// calls into workspace modules).
func pywsFindings(t *testing.T, s *nativeindex.Summarizer, root string, rels []string) []Finding {
	ctx := context.Background()
	cfg, _ := rules.ParseConfig(map[string]any{"python-version": "3.11"})
	var out []Finding
	for _, rel := range rels {
		if !strings.HasSuffix(rel, ".py") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := s.Parse(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		mod := strings.TrimSuffix(strings.TrimSuffix(rel, ".py"), "/__init__")
		env := rules.Env{Path: rel, ModuleName: strings.ReplaceAll(mod, "/", "."), IsPackageInit: strings.HasSuffix(rel, "/__init__.py")}
		for _, d := range rules.Run(tr, textpos.New(src), cfg, env) {
			out = append(out, Finding{Rel: rel, Line: d.Range.Start.Line, Code: d.Code, Message: d.Message})
		}
	}
	return out
}
