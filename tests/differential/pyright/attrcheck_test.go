package pyright

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// attributeRule is pyright's rule for a read of an attribute the
// receiver's class does not have.
const attributeRule = "reportAttributeAccessIssue"

// attributePrecisionFloor is the share of pyws's attribute findings
// (pytypes.Evaluator.Check) on a line where pyright reports
// reportAttributeAccessIssue: the precision bar for type errors.
const attributePrecisionFloor = 0.95

// TestAttributeCheckPrecision runs the evaluator's attribute check over
// every file of requests, flask and django and confirms each finding
// against pyright's recorded reportAttributeAccessIssue errors
// (testdata/types_<project>.json, recorded in an empty environment for
// Python 3.11 on Linux, so the index is built for that target without
// installed packages).
func TestAttributeCheckPrecision(t *testing.T) {
	s := summarizer(t)
	var total Ratio
	confirmedBy := 0
	for _, p := range typeProjects {
		t.Run(p.name, func(t *testing.T) {
			if testing.Short() {
				t.Skip("not in -short mode")
			}
			found, err := ProjectFiles(distPackages, p.name)
			if err != nil || len(found) == 0 {
				t.Skipf("%s is not installed: apt-get install %s", p.name, p.pkg)
			}
			g, err := ReadTypeGolden(filepath.Join("testdata", "types_"+p.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if d := FilesDiffer(g.Files, found); d != "" {
				t.Skipf("the installed files are not the recorded %s: %s", g.Package, d)
			}
			root, x := projectIndex(t, s, distPackages, g.Files)
			var r Ratio
			reported := map[string]bool{}
			for _, d := range g.Diags {
				if d.Rule == attributeRule {
					rel, line, _ := splitAt(d.At)
					reported[rel+":"+strconv.Itoa(line)] = true
				}
			}
			for _, rel := range sortedKeys(g.Files) {
				src, err := os.ReadFile(filepath.Join(root, rel))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(string(src), "\n")
				for _, f := range x.TypeFindings(filepath.Join(root, rel)) {
					if f.Code != "undefined-variable" {
						continue // type-mismatch: TestTypeAgreement's
					}
					if l := lines[f.Span.Line]; strings.Contains(l, "# type: ignore") || strings.Contains(l, "# pyright: ignore") {
						continue // suppressed, in pyright as in get_diagnostics
					}
					at := rel + ":" + strconv.Itoa(int(f.Span.Line))
					ok := reported[at]
					r.add(ok)
					if ok {
						confirmedBy++
					} else if testing.Verbose() {
						t.Logf("unconfirmed %s: %s", at, f.Message)
					}
				}
			}
			t.Logf("%s: attribute findings confirmed by pyright %d/%d; pyright reports %d", p.name, r.OK, r.N, len(reported))
			total.OK += r.OK
			total.N += r.N
		})
	}
	t.Logf("total: %d/%d (%.3f)", total.OK, total.N, total.Value())
	if total.Value() < attributePrecisionFloor {
		t.Errorf("attribute check precision %.3f (%d/%d) < %.2f", total.Value(), total.OK, total.N, attributePrecisionFloor)
	}
}
