package types

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// distPackages is where Debian installs requests, flask and django.
const distPackages = "/usr/lib/python3/dist-packages"

// TestRecordedHovers replays pyright's recorded hovers on requests,
// flask and django (tests/differential/pyright/testdata/types_*.json)
// against the evaluator alone, linked by this package's program: the
// hover line at each recorded position, compared with pyright's hover
// folded onto one line. It logs agreement (all hovers, typed hovers
// without Unknown, signatures) and asserts nothing yet: the kernel's
// TestTypeAgreement owns the floors.
func TestRecordedHovers(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, proj := range []string{"requests", "flask", "django"} {
		t.Run(proj, func(t *testing.T) {
			g := readRecorded(t, proj)
			fixtures := map[string]string{}
			for rel := range g.Files {
				src, err := os.ReadFile(filepath.Join(distPackages, rel))
				if err != nil {
					t.Skipf("%s is not installed: %v", proj, err)
				}
				fixtures[moduleOf(rel)] = string(src)
			}
			p := newProgram(t, fixtures)
			for rel := range g.Files {
				if strings.HasSuffix(rel, "/__init__.py") {
					p.units[moduleOf(rel)].pkgInit = true
				}
			}
			facts := false
			for mod := range fixtures {
				facts = facts || hasV5Facts(p.units[mod].s)
			}
			if !facts {
				t.Skip("the indexer does not emit navindex v5 facts yet")
			}
			ev := pytypes.New(p, pytypes.Options{})
			var all, typed, sigs [2]int // [asked, agreed]
			for _, c := range g.Cases {
				if c.Hover == "" {
					continue
				}
				u := p.units[moduleOf(c.Rel)]
				want := oneLine(c.Hover)
				ok := hoverAt(ev, u, c.Line, c.Character) == want
				count := func(n *[2]int) {
					n[0]++
					if ok {
						n[1]++
					}
				}
				count(&all)
				switch {
				case strings.Contains(want, "def "):
					count(&sigs)
				case strings.Contains(want, ": ") && !strings.Contains(want, "Unknown") && !strings.HasPrefix(want, "(class)"):
					count(&typed)
				}
			}
			t.Logf("%s: all %d/%d, typed without Unknown %d/%d, signatures %d/%d", proj, all[1], all[0], typed[1], typed[0], sigs[1], sigs[0])
		})
	}
}

type recorded struct {
	Files map[string]string
	Cases []struct {
		Rel             string
		Line, Character int32
		Hover           string
	}
}

func readRecorded(t *testing.T, proj string) recorded {
	var g recorded
	b, err := os.ReadFile(filepath.Join(repoRoot(), "tests", "differential", "pyright", "testdata", "types_"+proj+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// moduleOf is the module a path under site-packages holds.
func moduleOf(rel string) string {
	return strings.TrimSuffix(strings.ReplaceAll(strings.TrimSuffix(rel, ".py"), "/", "."), ".__init__")
}

// oneLine is a hover's code block as one line: pyright breaks a long
// signature after "(" and each ",".
func oneLine(h string) string {
	if i := strings.Index(h, "\n\n"); i >= 0 {
		h = h[:i]
	}
	h = strings.ReplaceAll(h, "(\n    ", "(")
	h = strings.ReplaceAll(h, ",\n    ", ", ")
	h = strings.ReplaceAll(h, "\n)", ")")
	h, _, _ = strings.Cut(h, "\n")
	return h
}

// hoverAt is the evaluator's hover line for the occurrence at (line,
// char) of u.
func hoverAt(ev *pytypes.Evaluator, u *unit, line, char int32) string {
	for _, o := range u.s.Occs {
		if o.Line == line && o.Col <= char && char < o.End {
			return ev.HoverAt(u, o)
		}
	}
	return ""
}
