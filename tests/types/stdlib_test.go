package types

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// TestStdlibHovers hovers every binding of some of the local CPython's
// stdlib modules (as workspace files, bodies inferred), linked with the
// stubs: no panic, no hang, and a share of known types to watch.
func TestStdlibHovers(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	files := parsertest.StdlibFiles(t)
	if len(files) > 40 {
		files = files[:40]
	}
	fixtures := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fixtures["ws_"+strings.TrimSuffix(filepath.Base(f), ".py")] = string(b)
	}
	p := newProgram(t, fixtures)
	ev := pytypes.New(p, pytypes.Options{})
	hovers, unknown := 0, 0
	for mod := range fixtures {
		u := p.unit(mod)
		for i, d := range u.s.Defs {
			line := ev.HoverLine(u, d.Sym, int32(i))
			hovers++
			if line == "" || strings.Contains(line, "Unknown") {
				unknown++
			}
		}
	}
	t.Logf("%d hovers over %d files, %d with Unknown (%.0f%%)", hovers, len(files), unknown, 100*float64(unknown)/float64(max(hovers, 1)))
}
