package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/edittest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// ruffRecord is testdata/ruff/fixes.json: Ruff's F401, F841 and F811
// findings on Debian's requests, flask and django, with their fixes
// (record.js beside it records them with Ruff's wasm build).
type ruffRecord struct {
	Ruff     string `json:"ruff"`
	Projects map[string]struct {
		Files       int                      `json:"files"`
		Diagnostics map[string][]ruffFinding `json:"diagnostics"`
	} `json:"projects"`
}

type ruffFinding struct {
	Code  string `json:"code"`
	Start [2]int `json:"start"`
	End   [2]int `json:"end"`
	Fix   []struct {
		Start [2]int `json:"start"`
		End   [2]int `json:"end"`
		Text  string `json:"text"`
	} `json:"fix"`
}

var ruffCodes = map[string]string{"F401": UnusedImport, "F841": UnusedVariable, "F811": DuplicateImport}

// ruffFloor is the share of Ruff's fixes our fix of the same finding
// equals (the file after one is the file after the other), from the last
// run; it may only rise.
const ruffFloor = 0.95

// TestRuffFixes replays Ruff's recorded fixes without Ruff: for each
// finding Ruff fixes, our fix of the same finding (same code, same start)
// must give the same file. Ruff saw each file without its path, so no
// file is a package's __init__ here either. Needs Debian's
// python3-{requests,flask,django}; skipped without them.
func TestRuffFixes(t *testing.T) {
	raw, err := os.ReadFile("../testdata/ruff/fixes.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec ruffRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	const root = "/usr/lib/python3/dist-packages"
	total, same := 0, 0
	var misses []string
	projects := make([]string, 0, len(rec.Projects))
	for p := range rec.Projects {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	for _, p := range projects {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Skipf("%s not installed (apt-get install python3-%s)", p, p)
		}
		ptotal, psame := 0, 0
		files := rec.Projects[p].Diagnostics
		for rel, findings := range files {
			src, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatalf("%s: %v (Debian's package changed: record again)", rel, err)
			}
			idx := textpos.New(src)
			actions := Actions(parse(t, src), idx, DefaultConfig(), Env{Path: rel})
			for _, f := range findings {
				if f.Fix == nil {
					continue
				}
				ptotal++
				want := edittest.Apply(t, src, ruffEdits(f))
				got, found := "", false
				for _, a := range actions {
					s := a.Diagnostic.Range.Start
					if a.Diagnostic.Code == ruffCodes[f.Code] && s.Line == f.Start[0] && s.Character == f.Start[1] {
						got, found = edittest.Apply(t, src, a.Edits), true
						break
					}
				}
				switch {
				case got == want:
					psame++
				case !found:
					misses = append(misses, rel+":"+strconv.Itoa(f.Start[0]+1)+": "+f.Code+": no fix of ours")
				default:
					misses = append(misses, rel+":"+strconv.Itoa(f.Start[0]+1)+": "+f.Code+": "+firstChange(want, got))
				}
			}
		}
		t.Logf("%s: %d of Ruff's %d fixes identical", p, psame, ptotal)
		total, same = total+ptotal, same+psame
	}
	sort.Strings(misses)
	for _, m := range misses {
		t.Log(m)
	}
	share := float64(same) / float64(max(total, 1))
	t.Logf("Ruff %s: %d/%d fixes identical (%.1f%%)", rec.Ruff, same, total, 100*share)
	if share < ruffFloor {
		t.Errorf("%.1f%% of Ruff's fixes identical, below the floor of %.0f%%", 100*share, 100*ruffFloor)
	}
}

func ruffEdits(f ruffFinding) []abi.TextEdit {
	out := make([]abi.TextEdit, len(f.Fix))
	for i, e := range f.Fix {
		out[i] = abi.TextEdit{Range: abi.Range{Start: abi.Position{Line: e.Start[0], Character: e.Start[1]},
			End: abi.Position{Line: e.End[0], Character: e.End[1]}}, NewText: e.Text}
	}
	return out
}

// firstChange shows the first line where got departs from want.
func firstChange(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			return "line " + strconv.Itoa(i+1) + ": Ruff " + strconv.Quote(wl[i]) + ", ours " + strconv.Quote(gl[i])
		}
	}
	return "line counts differ"
}
