package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkPipeline formats a corpus natively, every phase as the kernel
// runs them (parse with the wasm parser, isort, Black, parse the result,
// equivalence check), and reports files/s. The corpus is
// PYWS_FORMAT_BENCH_DIR, by default Debian's requests and flask:
//
//	go test -run '^$' -bench Pipeline -benchtime 1x ./plugins/formatter/
//
// tests/differential/format times the same against the CLI tools over
// HTTP in one run.
func BenchmarkPipeline(b *testing.B) {
	dirs := []string{"/usr/lib/python3/dist-packages/requests", "/usr/lib/python3/dist-packages/flask"}
	if d := os.Getenv("PYWS_FORMAT_BENCH_DIR"); d != "" {
		dirs = []string{d}
	}
	var srcs [][]byte
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".py") {
				if src, err := os.ReadFile(p); err == nil {
					srcs = append(srcs, src)
				}
			}
			return nil
		})
	}
	if len(srcs) == 0 {
		b.Skip("no corpus")
	}
	cfg := defaultConfig(b)
	start := time.Now()
	files := 0
	for b.Loop() {
		for _, src := range srcs {
			if _, err := pipeline(b, src, cfg); err != nil {
				b.Logf("refused: %v", err)
			}
			files++
		}
	}
	b.ReportMetric(float64(files)/time.Since(start).Seconds(), "files/s")
}
