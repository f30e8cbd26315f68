package pyright

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/index"
)

// OutlineGolden is pyright's textDocument/documentSymbol answer for
// every Python file of a project, flattened: per file, one entry per
// symbol, "Outer.Name|kind|line:char|startLine-endLine" (the name's
// position, then the symbol's range lines; 0-based; kind as LSP names
// it). It holds the package version and each file's SHA-256, none of the
// source.
type OutlineGolden struct {
	Project string              `json:"project"`
	Package string              `json:"package"`
	Pyright string              `json:"pyright"`
	Files   map[string]string   `json:"files"`
	Symbols map[string][]string `json:"symbols"`
}

// outlineProjects are the packages whose outlines are recorded.
var outlineProjects = []struct{ name, pkg string }{{"requests", "python3-requests"}, {"flask", "python3-flask"}}

// outlineFloors: today's figures minus a margin.
var outlineFloors = map[string]float64{"precision": 0.95, "recall": 0.95, "range": 0.98}

var lspKinds = map[int]string{2: "module", 5: "class", 6: "method", 7: "property", 8: "field", 9: "constructor",
	10: "enum", 12: "function", 13: "variable", 14: "constant", 26: "typeParameter"}

type lspSymbol struct {
	Name           string `json:"name"`
	Kind           int    `json:"kind"`
	Range          lspRange
	SelectionRange lspRange    `json:"selectionRange"`
	Children       []lspSymbol `json:"children"`
}

type lspRange struct {
	Start struct{ Line, Character int } `json:"start"`
	End   struct{ Line, Character int } `json:"end"`
}

func outlineEntry(path, kind string, selLine, selChar, start, end int) string {
	return fmt.Sprintf("%s|%s|%d:%d|%d-%d", path, kind, selLine, selChar, start, end)
}

// TestOutlineAgreement replays pyright's recorded document symbols
// against get_document_symbols' outline (Index.Outline): precision (of
// pyws's symbols, those pyright lists at the same name position under
// the same path), recall (of pyright's symbols outside function bodies,
// imports left out, those pyws lists) and range (of the matched classes,
// functions, methods and properties, the same first and last lines:
// pyright's range of a variable is its name, pyws's the statement). PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=requests,flask
// re-records with a live pyright.
func TestOutlineAgreement(t *testing.T) {
	s := summarizer(t)
	_, record := recording()
	for _, p := range outlineProjects {
		t.Run(p.name, func(t *testing.T) {
			golden := filepath.Join("testdata", "outline_"+p.name+".json")
			found := installedProject(t, p.name, p.pkg)
			root, x := projectIndex(t, s, distPackages, found)
			var g OutlineGolden
			if record[p.name] {
				g = OutlineGolden{Project: p.name, Package: debianVersion(p.pkg), Pyright: pyrightVersion(), Files: found}
				recordOutlines(t, root, &g)
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
			var prec, recall, rng [2]int // agreeing, compared
			for _, rel := range sortedKeys(g.Files) {
				theirs := map[string]string{} // path|line:char -> entry
				for _, e := range g.Symbols[rel] {
					f := strings.Split(e, "|")
					theirs[f[0]+"|"+f[2]] = e
				}
				ours := map[string]string{}
				var walk func(prefix string, os []*index.OutlineSymbol)
				walk = func(prefix string, os []*index.OutlineSymbol) {
					for _, o := range os {
						path := prefix + o.Name
						e := o.Extent
						start, end := int(e.Line), int(e.EndLine)
						if e == (e2zero) {
							start, end = int(o.Line), int(o.Line)
						}
						ours[path+"|"+fmt.Sprintf("%d:%d", o.Line, o.Col)] = outlineEntry(path, o.Kind, int(o.Line), int(o.Col), start, end)
						walk(path+".", o.Children)
					}
				}
				walk("", x.Outline(filepath.Join(root, rel)))
				for k, e := range ours {
					prec[1]++
					te, ok := theirs[k]
					if !ok {
						verbose(t, "pyws only: %s %s", rel, e)
						continue
					}
					prec[0]++
					if !isDef(te) {
						continue // pyright's range of a variable is its name; pyws's the statement, which edits need
					}
					rng[1]++
					if lines(te) == lines(e) {
						rng[0]++
					} else {
						verbose(t, "range: %s pyright %s pyws %s", rel, te, e)
					}
				}
				for k, te := range theirs {
					if !pywsKind(te) {
						continue
					}
					recall[1]++
					if _, ok := ours[k]; ok {
						recall[0]++
					} else {
						verbose(t, "pyright only: %s %s", rel, te)
					}
				}
			}
			figs := map[string][2]int{"precision": prec, "recall": recall, "range": rng}
			names := []string{"precision", "recall", "range"}
			var b strings.Builder
			for _, n := range names {
				f := figs[n]
				v := float64(f[0]) / float64(max(1, f[1]))
				fmt.Fprintf(&b, " %s %.1f%% (%d/%d)", n, 100*v, f[0], f[1])
				if v < outlineFloors[n] {
					t.Errorf("%s: %s %.3f < floor %.3f", p.name, n, v, outlineFloors[n])
				}
			}
			t.Logf("%s outline against pyright:%s", p.name, b.String())
		})
	}
}

var e2zero = (index.OutlineSymbol{}).Extent

// pywsKind: what an outline is meant to list of pyright's symbols: not
// imports (module), not what a function body binds (a path under a
// function or method is a local).
func pywsKind(entry string) bool {
	f := strings.Split(entry, "|")
	return f[1] != "module" && !strings.Contains(f[0], "()")
}

// isDef: a class, function, method or property entry.
func isDef(entry string) bool {
	switch strings.Split(entry, "|")[1] {
	case "class", "function", "method", "property", "constructor":
		return true
	}
	return false
}

func lines(entry string) string { return entry[strings.LastIndexByte(entry, '|')+1:] }

func verbose(t *testing.T, format string, args ...any) {
	if os.Getenv("PYWS_PYRIGHT_VERBOSE") != "" {
		t.Logf(format, args...)
	}
}

// recordOutlines asks a live pyright for every file's document symbols;
// a symbol under a function or method gets "()" after that function's
// name in its path (pywsKind leaves such locals out).
func recordOutlines(t *testing.T, root string, g *OutlineGolden) {
	c, err := Start(ServerPath(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g.Symbols = map[string][]string{}
	for _, rel := range sortedKeys(g.Files) {
		abs := filepath.Join(root, rel)
		if err := c.Open(abs); err != nil {
			t.Fatal(err)
		}
		raw, err := c.Call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file://" + abs}}, 60*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var syms []lspSymbol
		if err := json.Unmarshal(raw, &syms); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		var out []string
		var walk func(prefix string, ss []lspSymbol)
		walk = func(prefix string, ss []lspSymbol) {
			for _, s := range ss {
				kind := lspKinds[s.Kind]
				if kind == "" {
					kind = fmt.Sprint(s.Kind)
				}
				path := prefix + s.Name
				out = append(out, outlineEntry(path, kind, s.SelectionRange.Start.Line, s.SelectionRange.Start.Character, s.Range.Start.Line, s.Range.End.Line))
				if s.Kind == 12 || s.Kind == 6 || s.Kind == 9 {
					path += "()"
				}
				walk(path+".", s.Children)
			}
		}
		walk("", syms)
		sort.Strings(out)
		g.Symbols[rel] = slices.Compact(out)
	}
}
