package pysem

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// This file derives pyflakes' main findings from the model alone and
// compares them with Debian's pyflakes on the stdlib. It is a test of the
// model, not the product rules (those live in the diagnostics plugin).
//
//	PYSEM_PYFLAKES=1 go test ./plugin-sdk/pysem -run TestPyflakesDiff -v
//
// PYSEM_PYFLAKES_N=300 limits the number of files (spread over the
// stdlib); PYSEM_PYFLAKES_SHOW=n prints n mismatches per category. On
// the whole stdlib it fails when a category's precision or recall falls
// below pyflakesFloor.

// finding is one diagnostic keyed the way pyflakes prints it.
type finding struct {
	cat  string // undefined, undefined-export, undefined-local, unused-import, unused-variable
	key  string // line:detail
	path string
}

var pyflakesLine = regexp.MustCompile(`^(.*?):(\d+):(\d+):? (.*)$`)
var (
	reUndef       = regexp.MustCompile(`^undefined name '([^']*)'$`)
	reUndefExport = regexp.MustCompile(`^undefined name '([^']*)' in __all__$`)
	reUndefLocal  = regexp.MustCompile(`^local variable '([^']*)' .* referenced before assignment$`)
	reUnusedImp   = regexp.MustCompile(`^'(.*)' imported but unused$`)
	reUnusedVar   = regexp.MustCompile(`^local variable '([^']*)' is assigned to but never used$`)
	reSyntax      = regexp.MustCompile(`(?i)syntax|not permitted|invalid|unexpected|expected|indent|unindent|unterminated|EOF|decode|null bytes|encoding`)
)

// runPyflakes returns pyflakes' findings per file, and the files it could
// not parse. Output is cached in the temp dir by the file list's hash.
func runPyflakes(t *testing.T, files []string) (map[string][]finding, map[string]bool) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-m", "pyflakes", "--version").Run(); err != nil {
		t.Skip("pyflakes not installed (apt-get install python3-pyflakes)")
	}
	h := sha256.New()
	for _, f := range files {
		fi, _ := os.Stat(f)
		fmt.Fprintf(h, "%s %d\n", f, fi.Size())
	}
	cache := filepath.Join(os.TempDir(), "pysem-pyflakes-"+hex.EncodeToString(h.Sum(nil))[:16]+".txt")
	out, err := os.ReadFile(cache)
	if err != nil {
		var buf bytes.Buffer
		for i := 0; i < len(files); i += 200 {
			j := min(i+200, len(files))
			cmd := exec.Command(py, append([]string{"-m", "pyflakes"}, files[i:j]...)...)
			cmd.Stdout = &buf
			cmd.Stderr = &buf
			cmd.Run() // exit status 1 when there are findings
		}
		out = buf.Bytes()
		os.WriteFile(cache, out, 0o644)
	}
	res := map[string][]finding{}
	bad := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := pyflakesLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		path, line, msg := m[1], m[2], m[4]
		add := func(cat, detail string) {
			res[path] = append(res[path], finding{cat, line + ":" + detail, path})
		}
		if mm := reUndefExport.FindStringSubmatch(msg); mm != nil {
			add("undefined-export", mm[1])
		} else if mm := reUndef.FindStringSubmatch(msg); mm != nil {
			add("undefined", mm[1])
		} else if mm := reUndefLocal.FindStringSubmatch(msg); mm != nil {
			add("undefined-local", mm[1])
		} else if mm := reUnusedImp.FindStringSubmatch(msg); mm != nil {
			if !strings.HasSuffix(mm[1], ".*") && !strings.Contains(mm[1], "import *") {
				add("unused-import", mm[1])
			}
		} else if mm := reUnusedVar.FindStringSubmatch(msg); mm != nil {
			add("unused-variable", mm[1])
		} else if reSyntax.MatchString(msg) && !strings.Contains(msg, "format") && !strings.Contains(msg, "forward annotation") && !strings.Contains(msg, "type comment") {
			bad[path] = true
		}
	}
	return res, bad
}

// modelFindings computes pyflakes-like findings from the model.
func modelFindings(m *Module, path string) []finding {
	src := m.Tree.Source()
	idx := textpos.New(src)
	line := func(off int) string { l, _ := idx.Position(off); return strconv.Itoa(l + 1) }
	var out []finding
	add := func(cat string, off int, detail string) {
		out = append(out, finding{cat, line(off) + ":" + detail, path})
	}
	// Undefined names.
	type sk struct {
		s    *Scope
		name string
	}
	lastUnboundLocal := map[sk]*Ref{}
	if !m.HasStarImport {
		for _, r := range m.Refs {
			if r.Ctx.Has(CtxGlobal) || r.Ctx.Has(CtxNonlocal) {
				continue
			}
			undefined := (r.Binding == nil && !r.Builtin && !r.Implicit) || r.Unbound
			if !undefined {
				continue
			}
			if r.Ctx.Has(CtxAllEntry) {
				if filepath.Base(path) != "__init__.py" {
					add("undefined-export", m.All.Stmts[0].StartByte(), r.Name)
				}
				continue
			}
			if InNameErrorTry(r.Node) {
				continue
			}
			off := r.Start
			if r.Ctx.Has(CtxStringAnnotation) {
				off = r.Node.StartByte()
			}
			// An unbound local that would otherwise resolve outward is
			// pyflakes' "referenced before assignment".
			if r.Unbound && r.Binding != nil && r.Binding.Scope.Kind == ScopeFunction && r.Scope == r.Binding.Scope && r.Binding.Scope.Parent != nil {
				outer := m.resolve(nil, r.Binding.Scope.Parent, r.Name, r.Start, true)
				if (outer.Binding != nil && !outer.Unbound) || outer.Builtin {
					k := sk{r.Binding.Scope, r.Name}
					if first := FirstDefinition(r.Binding.Scope.Bindings[r.Name]); first != nil && r.Start < first.NameNode.StartByte() {
						lastUnboundLocal[k] = r
					}
					continue
				}
			}
			add("undefined", off, r.Name)
		}
	}
	for _, r := range lastUnboundLocal {
		add("undefined-local", r.Start, r.Name)
	}
	// Unused imports and variables.
	for _, s := range m.Scopes {
		if s.Kind == ScopeClass {
			continue
		}
		for name, bs := range s.Bindings {
			var final *Binding
			for _, b := range bs {
				if b.Site == s || b.walrus {
					final = b
				}
			}
			if final == nil {
				continue
			}
			used := false
			for _, b := range bs {
				for _, r := range b.Refs {
					if !r.Unbound {
						used = true
					}
				}
			}
			// pyflakes: `import a.b` is used when `import a as x` is.
			if final.Kind == BindImport && final.Import.AsName == "" && strings.Contains(final.Import.Module, ".") {
				for _, other := range s.Bindings {
					for _, o := range other {
						if o.Kind == BindImport && o.Import.AsName != "" && o.Import.Module == name {
							for _, r := range o.Refs {
								if !r.Unbound {
									used = true
								}
							}
						}
					}
				}
			}
			if s == m.Root && m.All.Has(name) {
				used = true
			}
			switch final.Kind {
			case BindImport, BindImportFrom:
				if !used {
					add("unused-import", final.DefNode.StartByte(), final.Import.String())
				}
			}
			if s.Kind == ScopeFunction && !used && name != "_" && !s.UsesLocals && final.IsPlainAssignment() {
				add("unused-variable", final.NameNode.StartByte(), name)
			}
		}
	}
	for _, b := range m.Bindings {
		if b.Kind == BindExcept && len(b.Refs) == 0 && b.Scope.Kind != ScopeClass {
			add("unused-variable", b.DefNode.StartByte(), b.Name)
		}
	}
	return out
}

type counts struct{ both, onlyModel, onlyPyflakes int }

func (c *counts) precision() float64 {
	tp := c.both - c.onlyPyflakes
	if tp+c.onlyModel == 0 {
		return 1
	}
	return float64(tp) / float64(tp+c.onlyModel)
}

func (c *counts) recall() float64 {
	if c.both == 0 {
		return 1
	}
	return float64(c.both-c.onlyPyflakes) / float64(c.both)
}

// pyflakesFloor is, per category, the precision and recall the model
// reached against pyflakes 3.0.1 on the whole stdlib of Python 3.11.7
// when last measured (rounded down): a change to the model that loses
// agreement fails TestPyflakesDiff. Raise them when the model gets better.
var pyflakesFloor = map[string]struct{ precision, recall float64 }{
	"undefined":        {0.989, 0.963}, // 368 of the model's 372 agree, of pyflakes' 382
	"undefined-export": {1, 1},
	"undefined-local":  {1, 0}, // pyflakes' 3 findings are not derived yet
	"unused-import":    {1, 0.945},
	"unused-variable":  {0.998, 0.989},
}

func TestPyflakesDiff(t *testing.T) {
	if os.Getenv("PYSEM_PYFLAKES") == "" {
		t.Skip("set PYSEM_PYFLAKES=1 to compare with pyflakes on the stdlib")
	}
	all := stdlibTrees(t)
	sample := false
	if n, _ := strconv.Atoi(os.Getenv("PYSEM_PYFLAKES_N")); n > 0 && n < len(all) {
		sample = true
		step := len(all) / n
		var pick []parsedFile
		for i := 0; i < len(all) && len(pick) < n; i += step {
			pick = append(pick, all[i])
		}
		all = pick
	}
	stats, examples, files := compareWithPyflakes(t, all)
	if files == 0 {
		t.Fatal("no file compared")
	}
	t.Logf("%d files compared (%d skipped: syntax errors)", files, len(all)-files)
	show, _ := strconv.Atoi(os.Getenv("PYSEM_PYFLAKES_SHOW"))
	for _, cat := range slices.Sorted(maps.Keys(stats)) {
		c := stats[cat]
		tp := c.both - c.onlyPyflakes
		t.Logf("%-17s pyflakes=%5d model=%5d agree=%5d  precision=%.3f recall=%.3f", cat, c.both, tp+c.onlyModel, tp, c.precision(), c.recall())
		ex := examples[cat]
		sort.Strings(ex)
		for i := 0; i < len(ex) && i < show; i++ {
			t.Log("   ", ex[i])
		}
		floor, ok := pyflakesFloor[cat]
		switch {
		case sample:
			// The floors hold for the whole stdlib, not for a sample.
		case !ok:
			t.Errorf("%s: a category with no floor in pyflakesFloor", cat)
		case c.precision() < floor.precision || c.recall() < floor.recall:
			t.Errorf("%s: precision %.3f, recall %.3f; the floor is %.3f, %.3f", cat, c.precision(), c.recall(), floor.precision, floor.recall)
		}
	}
}

// compareWithPyflakes counts, per category, the findings of pyflakes
// (both) and those only the model or only pyflakes has, over the files
// both can parse, with examples of each mismatch.
func compareWithPyflakes(t *testing.T, all []parsedFile) (map[string]*counts, map[string][]string, int) {
	var paths []string
	for _, f := range all {
		paths = append(paths, f.Path)
	}
	pf, bad := runPyflakes(t, paths)
	stats := map[string]*counts{}
	of := func(cat string) *counts {
		if stats[cat] == nil {
			stats[cat] = &counts{}
		}
		return stats[cat]
	}
	examples := map[string][]string{}
	files := 0
	for _, f := range all {
		if bad[f.Path] || f.Tree.Root().HasError() {
			continue
		}
		files++
		mine := modelFindings(Analyze(f.Tree, optsFor(f.Path)), f.Path)
		theirs := pf[f.Path]
		cnt := map[string]int{}
		for _, x := range theirs {
			cnt[x.cat+"|"+x.key]++
		}
		for _, x := range mine {
			cnt[x.cat+"|"+x.key]--
		}
		for k, v := range cnt {
			cat := k[:strings.IndexByte(k, '|')]
			c := of(cat)
			for ; v > 0; v-- {
				c.onlyPyflakes++
				examples[cat] = append(examples[cat], "pyflakes only: "+f.Path+":"+k[len(cat)+1:])
			}
			for ; v < 0; v++ {
				c.onlyModel++
				examples[cat] = append(examples[cat], "model only:    "+f.Path+":"+k[len(cat)+1:])
			}
		}
		for _, x := range theirs {
			of(x.cat).both++
		}
	}
	return stats, examples, files
}
