package pyright

import (
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkTypeFindingsDjango times the kernel's type findings
// (pytypes.Evaluator.Check: attribute reads and type-mismatch sites) of
// every Django file, as get_diagnostics asks for one file, over the
// in-process index of Django; p50-ms, p90-ms and max-ms are per file.
// The first run evaluates what the index's evaluator has not yet; the
// later ones are warm (what a repeated get_diagnostics costs).
//
//	go test ./tests/differential/pyright -run XXX -bench TypeFindingsDjango -benchtime 3x
func BenchmarkTypeFindingsDjango(b *testing.B) {
	found, err := ProjectFiles(distPackages, "django")
	if err != nil || len(found) == 0 {
		b.Skip("python3-django is not installed")
	}
	root, x := projectIndex(b, summarizer(b), distPackages, found)
	var abs []string
	for _, rel := range sortedKeys(found) {
		abs = append(abs, filepath.Join(root, rel))
	}
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		for _, a := range abs {
			t0 := time.Now()
			x.TypeFindings(a)
			lat = append(lat, time.Since(t0))
		}
	}
	b.StopTimer()
	reportLatencies(b, lat)
}
