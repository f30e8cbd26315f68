package pyright

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// maxOrderDependent is how many answers TestAnswersIndependentOfOrder
// lets differ: none (see RATIONALE.md "Why must an answer not depend on
// what was asked before?").
const maxOrderDependent = 0

// TestAnswersIndependentOfOrder asks the recorded hover, type definition
// and signature help positions of each project (both samples) of two
// fresh indexes, one front to back and one back to front, and of a third
// after every file's type findings and the references at every hover
// position: every answer must be the same. The evaluator remembers what it computed; an answer
// that depended on what was asked before would differ between users of
// one workspace, and between a replay and the server.
func TestAnswersIndependentOfOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("not in -short mode")
	}
	s := summarizer(t)
	for _, p := range typeProjects {
		t.Run(p.name, func(t *testing.T) {
			found := installedProject(t, p.name, p.pkg)
			var asks []func(x *index.Index, root string) string
			var hovered []Sample // the recorded hover positions, for otherTools
			for _, file := range []string{"types_" + p.name + ".json", "types_" + p.name + ".seed2.json"} {
				g, err := ReadTypeGolden(filepath.Join("testdata", file))
				if err != nil {
					t.Fatal(err)
				}
				skipUnlessRecorded(t, p.name, g.Package, g.Files, found)
				for _, c := range g.Cases {
					hovered = append(hovered, c.Sample)
					asks = append(asks, func(x *index.Index, root string) string {
						return fmt.Sprintf("hover %s:%d:%d %s | %v", c.Rel, c.Line, c.Char, pywsHover(x, root, c.Sample), pywsTypeDefinition(x, root, c.Sample))
					})
				}
			}
			for _, file := range []string{"signatures_" + p.name + ".json", "signatures_" + p.name + ".seed2.json"} {
				g, err := ReadSigGolden(filepath.Join("testdata", file))
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range g.Cases {
					asks = append(asks, func(x *index.Index, root string) string {
						sh := x.SignatureHelp(context.Background(), filepath.Join(root, c.Rel), c.Line, c.Char)
						return fmt.Sprintf("signature %s:%d:%d %+v", c.Rel, c.Line, c.Char, pywsSignatures(sh))
					})
				}
			}
			// What other tools ask of the evaluator first: every file's type
			// findings (one query over a whole file, with its own cut cache)
			// and the references at every recorded hover position (receivers
			// typed for attribute references).
			otherTools := func(x *index.Index, root string) {
				for _, rel := range sortedKeys(found) {
					x.TypeFindings(filepath.Join(root, rel))
				}
				for _, c := range hovered {
					if h := x.At(filepath.Join(root, c.Rel), c.Line, c.Char); h != nil {
						_, _ = x.References(context.Background(), h, true)
					}
				}
			}
			answers := func(reverse bool, before func(x *index.Index, root string)) []string {
				root := t.TempDir()
				if err := CopyFiles(distPackages, root, sortedKeys(found)); err != nil {
					t.Fatal(err)
				}
				x, err := nativeindex.BuildFor(context.Background(), s, root, "", index.Target{Minor: 11, Platform: "linux"})
				if err != nil {
					t.Fatal(err)
				}
				if before != nil {
					before(x, root)
				}
				out := make([]string, len(asks))
				for k := range asks {
					i := k
					if reverse {
						i = len(asks) - 1 - k
					}
					out[i] = asks[i](x, root)
				}
				return out
			}
			forward, backward, after := answers(false, nil), answers(true, nil), answers(false, otherTools)
			var differ []string
			for i := range forward {
				if forward[i] != backward[i] {
					differ = append(differ, "front to back: "+forward[i]+"\n      back to front: "+backward[i])
				}
				if forward[i] != after[i] {
					differ = append(differ, "front to back: "+forward[i]+"\n      after findings and references: "+after[i])
				}
			}
			t.Logf("%s: %d answers, %d depend on what was asked before", p.name, len(asks), len(differ))
			if len(differ) > maxOrderDependent {
				t.Errorf("%d of %d answers depend on what was asked before:\n%s", len(differ), len(asks), strings.Join(differ[:min(len(differ), 10)], "\n"))
			}
		})
	}
}
