package pyright

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/index"
)

// CallsGolden is pyright's callHierarchy/incomingCalls answer for
// sampled functions and methods of a project: per function (its dotted
// path in the outline and its name's position, "rel|path|line:char"),
// the call sites pyright lists ("rel:line:char", sorted). Package version
// and file SHA-256s, no source.
type CallsGolden struct {
	Project string              `json:"project"`
	Package string              `json:"package"`
	Pyright string              `json:"pyright"`
	Seed    int64               `json:"seed"`
	Files   map[string]string   `json:"files"`
	Calls   map[string][]string `json:"calls"`
}

const callSamples = 150

// callFloor: the mean F1 of call sites, today's figure minus a margin.
var callFloor = map[string]float64{"requests": 0.95, "flask": 0.95}

// TestCallAgreement replays pyright's recorded incoming calls against
// get_call_hierarchy's (Index.CallHierarchy, depth 1) on sampled
// functions and methods of requests and flask: per function, the F1 of
// the call-site sets, averaged. PYWS_PYRIGHT_UPDATE=1
// PYWS_PYRIGHT=requests,flask re-records with a live pyright.
func TestCallAgreement(t *testing.T) {
	s := summarizer(t)
	_, record := recording()
	for _, p := range outlineProjects {
		t.Run(p.name, func(t *testing.T) {
			golden := filepath.Join("testdata", "calls_"+p.name+".json")
			found := installedProject(t, p.name, p.pkg)
			root, x := projectIndex(t, s, distPackages, found)
			var g CallsGolden
			if record[p.name] {
				g = CallsGolden{Project: p.name, Package: debianVersion(p.pkg), Pyright: pyrightVersion(), Seed: typeSeed, Files: found}
				recordCalls(t, x, root, &g)
				b, _ := json.MarshalIndent(g, "", " ")
				if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				b, err := os.ReadFile(golden)
				if err != nil || json.Unmarshal(b, &g) != nil {
					t.Fatalf("%s: %v (record with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=%s)", golden, err, p.name)
				}
				if d := FilesDiffer(g.Files, found); d != "" {
					t.Skipf("%s: the installed files are not the recorded %s: %s", p.name, g.Package, d)
				}
			}
			sum, n, exact := 0.0, 0, 0
			for _, key := range sortedKeys2(g.Calls) {
				f := strings.Split(key, "|")
				var line, char int
				fmt.Sscanf(f[2], "%d:%d", &line, &char)
				h := x.At(filepath.Join(root, f[0]), line, char)
				var ours []string
				if h != nil {
					if c, err := x.CallHierarchy(context.Background(), h, true, 1, 1000); err == nil {
						for _, node := range c.Calls {
							for _, site := range node.Sites {
								ours = append(ours, fmt.Sprintf("%s:%d:%d", site.Rel, site.Line, site.Col))
							}
						}
					}
				}
				sort.Strings(ours)
				f1 := setF1(g.Calls[key], ours)
				if f1 == 1 {
					exact++
				} else {
					verbose(t, "%s: F1 %.2f\n  pyright %v\n  pyws    %v", key, f1, g.Calls[key], ours)
				}
				sum += f1
				n++
			}
			mean := sum / float64(max(n, 1))
			t.Logf("%s incoming calls against pyright: mean F1 %.3f over %d functions (%d identical)", p.name, mean, n, exact)
			if mean < callFloor[p.name] {
				t.Errorf("%s: mean F1 %.3f < floor %.3f", p.name, mean, callFloor[p.name])
			}
		})
	}
}

func sortedKeys2(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// setF1 is the F1 of two sets of strings (1 when both are empty);
// duplicates count once.
func setF1(a, b []string) float64 {
	a, b = slices.Compact(slices.Sorted(slices.Values(a))), slices.Compact(slices.Sorted(slices.Values(b)))
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	in := map[string]bool{}
	for _, s := range a {
		in[s] = true
	}
	both := 0
	for _, s := range b {
		if in[s] {
			both++
		}
	}
	if both == 0 {
		return 0
	}
	p, r := float64(both)/float64(len(b)), float64(both)/float64(len(a))
	return 2 * p * r / (p + r)
}

// recordCalls samples callSamples functions and methods of pyws's
// outlines (seeded) and asks a live pyright for their incoming calls.
func recordCalls(t *testing.T, x *index.Index, root string, g *CallsGolden) {
	var all []string
	for _, rel := range sortedKeys(g.Files) {
		var walk func(prefix string, os []*index.OutlineSymbol)
		walk = func(prefix string, os []*index.OutlineSymbol) {
			for _, o := range os {
				if o.Kind == "function" || o.Kind == "method" {
					all = append(all, fmt.Sprintf("%s|%s|%d:%d", rel, prefix+o.Name, o.Line, o.Col))
				}
				walk(prefix+o.Name+".", o.Children)
			}
		}
		walk("", x.Outline(filepath.Join(root, rel)))
	}
	r := rand.New(rand.NewSource(g.Seed))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	all = all[:min(callSamples, len(all))]
	c, err := Start(ServerPath(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g.Calls = map[string][]string{}
	for _, key := range all {
		f := strings.Split(key, "|")
		var line, char int
		fmt.Sscanf(f[2], "%d:%d", &line, &char)
		abs := filepath.Join(root, f[0])
		if err := c.Open(abs); err != nil {
			t.Fatal(err)
		}
		raw, err := c.Call("textDocument/prepareCallHierarchy", pos(abs, line, char), 60*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var items []json.RawMessage
		json.Unmarshal(raw, &items)
		sites := []string{}
		for _, item := range items {
			raw, err := c.Call("callHierarchy/incomingCalls", map[string]any{"item": item}, 120*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			var calls []struct {
				From struct {
					URI string `json:"uri"`
				} `json:"from"`
				FromRanges []lspRange `json:"fromRanges"`
			}
			if err := json.Unmarshal(raw, &calls); err != nil {
				t.Fatal(err)
			}
			for _, call := range calls {
				rel := strings.TrimPrefix(strings.TrimPrefix(call.From.URI, "file://"), root+"/")
				for _, fr := range call.FromRanges {
					sites = append(sites, fmt.Sprintf("%s:%d:%d", rel, fr.Start.Line, fr.Start.Character))
				}
			}
		}
		sort.Strings(sites)
		g.Calls[key] = slices.Compact(sites) // pyright may list a site twice (two items for one def)
	}
}
