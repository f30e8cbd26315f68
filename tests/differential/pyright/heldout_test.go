package pyright

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// heldOutSample is a sample of positions no rule of the evaluator was
// written against (the tuning replays seed 1's, TestTypeAgreement and
// TestSignatureAgreement), so its agreement says how the rules
// generalize. Each has its own goldens (testdata/types_<project>.seed<N>.json,
// signatures_<project>.seed<N>.json) and floors: the figures at
// recording (in the comments: agreeing / compared) minus a margin.
type heldOutSample struct {
	seed      int64
	strict    bool                          // kept from those who tune: PYWS_PYRIGHT_VERBOSE never lists its misses
	floors    map[string]map[string]float64 // hover type, signature, type definition, mismatch
	sigFloors map[string]map[string]float64 // signature help label, active parameter, none
}

// heldOutSamples: seed 2 was recorded at ebbe153 and then looked at for
// causes by the engineers who tuned the evaluator, seed 3 was recorded
// at 55ffcb6 and kept from them, so it stays held out in the strict
// sense.
var heldOutSamples = []heldOutSample{
	{
		seed: 2,
		floors: map[string]map[string]float64{
			"requests": {"type": 0.94, "signature": 0.97, "typeDefinition": 0.97, "mismatch": 0.95},                         // 75/78, 46/46, 73/74, 1/1, 1/10
			"flask":    {"type": 0.95, "signature": 0.97, "typeDefinition": 0.96, "mismatch": 0.95},                         // 134/140, 41/41, 130/133, 1/1, 1/9
			"django":   {"type": 0.97, "signature": 0.92, "typeDefinition": 0.96, "mismatch": 0.98, "mismatchRecall": 0.29}, // 144/147, 67/71, 140/144, 140/140, 139/436
			"total":    {"type": 0.96, "signature": 0.96, "typeDefinition": 0.97, "mismatch": 0.98, "mismatchRecall": 0.29}, // 353/365, 154/158, 343/351, 142/142, 141/455
		},
		sigFloors: map[string]map[string]float64{
			"requests": {"label": 0.96, "param": 0.99, "none": 0.93}, // 246/254, 253/254, 44/46
			"flask":    {"label": 0.94, "param": 0.96, "none": 0.96}, // 223/234, 227/234, 65/66
			"django":   {"label": 0.92, "param": 0.98, "none": 0.97}, // 384/413, 408/413, 86/87
			"total":    {"label": 0.94, "param": 0.98, "none": 0.97}, // 853/901, 888/901, 195/199
		},
	},
	{
		seed:   3,
		strict: true,
		floors: map[string]map[string]float64{
			"requests": {"type": 0.88, "signature": 0.86, "typeDefinition": 0.92, "mismatch": 0.95},                         // 78/87, 40/45, 80/85, 1/1, 1/10
			"flask":    {"type": 0.94, "signature": 0.94, "typeDefinition": 0.95, "mismatch": 0.95},                         // 119/125, 38/39, 118/123, 1/1, 1/9
			"django":   {"type": 0.93, "signature": 0.91, "typeDefinition": 0.96, "mismatch": 0.98, "mismatchRecall": 0.29}, // 151/161, 65/70, 155/159, 140/140, 139/436
			"total":    {"type": 0.93, "signature": 0.92, "typeDefinition": 0.95, "mismatch": 0.98, "mismatchRecall": 0.29}, // 348/373, 143/154, 353/367, 142/142, 141/455
		},
		sigFloors: map[string]map[string]float64{
			"requests": {"label": 0.95, "param": 0.98, "none": 0.92}, // 247/258, 255/258, 40/42
			"flask":    {"label": 0.94, "param": 0.98, "none": 0.95}, // 224/235, 232/235, 63/65
			"django":   {"label": 0.91, "param": 0.99, "none": 0.97}, // 379/413, 411/413, 86/87
			"total":    {"label": 0.93, "param": 0.99, "none": 0.96}, // 850/906, 898/906, 189/194
		},
	},
}

// listMisses says whether t lists its disagreements: PYWS_PYRIGHT_VERBOSE
// is set and t is not a strict held-out sample's, whose misses nobody
// tuning the evaluator should read (the suggested verbose command matches
// the held-out tests too).
func listMisses(t *testing.T) bool {
	if os.Getenv("PYWS_PYRIGHT_VERBOSE") == "" {
		return false
	}
	for _, h := range heldOutSamples {
		if h.strict && strings.Contains(t.Name(), fmt.Sprintf("/seed%d/", h.seed)) {
			return false
		}
	}
	return true
}

// TestTypeAgreementHeldOut replays pyright's type answers at each
// held-out sample of requests, flask and django (the same counts as
// TestTypeAgreement's): hover type, signature and type definition
// agreement, per project and in total, against the sample's floors.
// Re-record one with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=<projects> and
// -run 'TestTypeAgreementHeldOut/seed<N>'. Look at its misses only to
// find causes, never to add a rule for one of them: then it would no
// longer be held out.
func TestTypeAgreementHeldOut(t *testing.T) {
	heldOut(t, "types", func(h heldOutSample) map[string]map[string]float64 { return h.floors },
		projectTypes, (*TypeScore).Merge, WriteTable, checkTypeFloors)
}

// TestSignatureAgreementHeldOut is TestSignatureAgreement at each
// held-out sample of call positions: how the signature rules generalize.
// Re-record one with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=<projects> and
// -run 'TestSignatureAgreementHeldOut/seed<N>'.
func TestSignatureAgreementHeldOut(t *testing.T) {
	heldOut(t, "signatures", func(h heldOutSample) map[string]map[string]float64 { return h.sigFloors },
		projectSigs, (*SigScore).Merge, func(w io.Writer, names []string, scores map[string]*SigScore) {
			WriteSigTable(w, names, scores)
			fmt.Fprintf(w, "same label by project: %s\n", LabelLine(names, scores))
		}, checkSigFloors)
}

// heldOut replays each held-out sample's goldens (testdata/<kind>_<project>.seed<N>.json)
// with run, per project and in total, and checks the figures against the
// sample's floors.
func heldOut[S any](t *testing.T, kind string, floorsOf func(heldOutSample) map[string]map[string]float64,
	run func(*testing.T, *nativeindex.Summarizer, string, string, string, int64, int, bool) *S,
	merge func(*S, *S), write func(io.Writer, []string, map[string]*S),
	check func(*testing.T, string, map[string]float64, *S)) {
	if testing.Short() {
		t.Skip("not in -short mode")
	}
	s := summarizer(t)
	_, record := recording()
	for _, h := range heldOutSamples {
		t.Run(fmt.Sprintf("seed%d", h.seed), func(t *testing.T) {
			scores := map[string]*S{}
			var names []string
			for _, p := range typeProjects {
				t.Run(p.name, func(t *testing.T) {
					file := fmt.Sprintf("%s_%s.seed%d.json", kind, p.name, h.seed)
					scores[p.name] = run(t, s, p.name, p.pkg, file, h.seed, p.samples, record[p.name])
					names = append(names, p.name)
				})
			}
			if len(names) == 0 {
				return
			}
			total := new(S)
			for _, n := range names {
				merge(total, scores[n])
			}
			scores["total"] = total
			var sb strings.Builder
			write(&sb, append(names, "total"), scores)
			t.Logf("pyws's %s against pyright's recorded answers at held-out positions (seed %d):\n%s", kind, h.seed, sb.String())
			if len(names) == len(typeProjects) {
				names = append(names, "total")
			}
			for _, n := range names {
				check(t, fmt.Sprintf("%s (held out, seed %d)", n, h.seed), floorsOf(h)[n], scores[n])
			}
		})
	}
}
