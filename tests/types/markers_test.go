package types

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// loadFixtures reads testdata's fixtures by module name, with the
// program they make and an evaluator over it.
func loadFixtures(t *testing.T) (map[string]string, *program, *pytypes.Evaluator) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.py"))
	fixtures := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fixtures[strings.TrimSuffix(filepath.Base(f), ".py")] = string(b)
	}
	p := newProgram(t, fixtures)
	return fixtures, p, pytypes.New(p, pytypes.Options{})
}

// TestHoverMarkers checks each `#@hover TEXT` marker of the fixtures in
// testdata (one per evaluation rule): the hover line of the first name
// bound on the marker's line is TEXT, exactly as pyright prints it.
func TestHoverMarkers(t *testing.T) {
	fixtures, p, ev := loadFixtures(t)
	for mod, src := range fixtures {
		u := p.unit(mod)
		t.Run(mod, func(t *testing.T) {
			for i, line := range strings.Split(src, "\n") {
				want, ok := markerOn(line)
				if !ok {
					continue
				}
				def := firstDefOnLine(u.s, int32(i))
				if def < 0 {
					t.Errorf("%s.py:%d: no binding on the marker's line", mod, i+1)
					continue
				}
				if got := ev.HoverLine(u, u.s.Defs[def].Sym, def); got != want {
					t.Errorf("%s.py:%d:\n got %s\nwant %s", mod, i+1, got, want)
				}
			}
		})
	}
}

// TestReadMarkers checks each `#@read NAME TEXT` marker of the fixtures
// in testdata: the hover of the first read of NAME on the marker's line
// is TEXT, the type narrowed where NAME is read.
func TestReadMarkers(t *testing.T) {
	fixtures, p, ev := loadFixtures(t)
	eachMarker(fixtures, "#@read ", func(mod string, i int, marker string) {
		u := p.unit(mod)
		name, want, _ := strings.Cut(marker, " ")
		got, found := "", false
		for _, o := range u.s.Occs {
			if o.Line == int32(i) && o.Flags&navindex.OccDef == 0 && u.s.Syms[o.Sym].Name == name {
				got, found = ev.HoverAt(u, o), true
				break
			}
		}
		if !found {
			t.Errorf("%s.py:%d: no read of %s", mod, i+1, name)
		} else if got != want {
			t.Errorf("%s.py:%d:\n got %s\nwant %s", mod, i+1, got, want)
		}
	})
}

// TestSignatureMarkers checks each `#@sig LABEL` marker of the fixtures
// in testdata: the active signature of the call opened on the marker's
// line that closes last (`super().m(a)`: m's), the cursor in its first
// argument, is LABEL as pyright prints it.
func TestSignatureMarkers(t *testing.T) {
	fixtures, p, ev := loadFixtures(t)
	eachMarker(fixtures, "#@sig ", func(mod string, i int, want string) {
		u := p.unit(mod)
		call := markedCall(u.s, i)
		if call == nil {
			t.Errorf("%s.py:%d: no call on the marker's line", mod, i+1)
			return
		}
		sh := ev.SignatureHelp(u, call.Expr, 0, call.Keys)
		got := "(none)"
		if len(sh.Signatures) > 0 {
			got = sh.Signatures[sh.Active].Label
		}
		if got != want {
			t.Errorf("%s.py:%d:\n got %s\nwant %s", mod, i+1, got, want)
		}
	})
}

// TestActiveParameterMarkers checks each `#@active ARG:PARAM ...`
// marker (written before the line's `#@sig`): with the cursor in written
// argument ARG of the line's call (as TestSignatureMarkers finds it),
// the active parameter is PARAM, the index pyright answers in the
// active signature's parameter labels.
func TestActiveParameterMarkers(t *testing.T) {
	fixtures, p, ev := loadFixtures(t)
	eachMarker(fixtures, "#@active ", func(mod string, i int, text string) {
		u := p.unit(mod)
		call := markedCall(u.s, i)
		if call == nil {
			t.Errorf("%s.py:%d: no call on the marker's line", mod, i+1)
			return
		}
		for _, pair := range strings.Fields(text) {
			if strings.HasPrefix(pair, "#@") {
				break
			}
			var arg, want int
			if _, err := fmt.Sscanf(pair, "%d:%d", &arg, &want); err != nil {
				t.Fatalf("%s.py:%d: marker %q: %v", mod, i+1, pair, err)
			}
			if got := ev.SignatureHelp(u, call.Expr, arg, call.Keys).ActiveParam; got != want {
				t.Errorf("%s.py:%d: argument %d: active parameter %d, want %d", mod, i+1, arg, got, want)
			}
		}
	})
}

// markedCall is the call opened on 0-based line i that closes last.
func markedCall(s *navindex.Summary, i int) *navindex.Call {
	var call *navindex.Call
	for j := range s.Calls {
		if c := &s.Calls[j]; c.Open.Line == int32(i) && (call == nil || call.Close.Less(c.Close)) {
			call = c
		}
	}
	return call
}

// eachMarker calls check with each line of the fixtures that carries
// tag: its module, its 0-based line and the marker's text after tag.
func eachMarker(fixtures map[string]string, tag string, check func(mod string, line int, text string)) {
	for mod, src := range fixtures {
		for i, line := range strings.Split(src, "\n") {
			if _, text, ok := strings.Cut(line, tag); ok {
				check(mod, i, strings.TrimSpace(text))
			}
		}
	}
}

// markerOn is the hover a line's marker expects.
func markerOn(line string) (string, bool) {
	_, want, ok := strings.Cut(line, "#@hover ")
	return strings.TrimSpace(want), ok
}

func firstDefOnLine(s *navindex.Summary, line int32) int32 {
	best := int32(-1)
	for i, d := range s.Defs {
		if d.Name.Line == line && (best < 0 || d.Name.Col < s.Defs[best].Name.Col) {
			best = int32(i)
		}
	}
	return best
}

// hasV5Facts reports a summary with values or annotations (a v4-era
// summarizer leaves them all -1).
func hasV5Facts(s *navindex.Summary) bool {
	for _, d := range s.Defs {
		if d.Value >= 0 || d.Annot >= 0 {
			return true
		}
	}
	return false
}
