package types

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// TestMarkersThroughTheKernel runs the hover markers of testdata with
// the kernel's own Program (host/index, linking into typeshed's stubs as
// `serve` does) instead of this package's stand-in.
func TestMarkersThroughTheKernel(t *testing.T) {
	ctx := context.Background()
	s, err := nativeindex.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	newProgram(t, nil) // skips without v5 summaries or stubs
	x, err := nativeindex.Build(ctx, s, "testdata", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.py"))
	x.View(func(p *index.Program) {
		ev := pytypes.New(p, pytypes.Options{})
		for _, f := range files {
			rel := filepath.Base(f)
			u := p.Unit(rel)
			if u == nil {
				t.Errorf("%s: not indexed", rel)
				continue
			}
			src, _ := os.ReadFile(f)
			for i, line := range strings.Split(string(src), "\n") {
				want, ok := markerOn(line)
				if !ok {
					continue
				}
				def := firstDefOnLine(u.S, int32(i))
				if got := ev.HoverLine(u, u.S.Defs[def].Sym, def); got != want {
					t.Errorf("%s:%d:\n got %s\nwant %s", rel, i+1, got, want)
				}
			}
		}
	})
}
