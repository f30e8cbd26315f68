package summarize

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// benchCorpus parses the files the benchmarks summarize: the stdlib
// sample, or every .py/.pyi file under $PYWS_SUMMARIZE_CORPUS (e.g. the
// typeshed stubs) when set.
func benchCorpus(b *testing.B) (trees []*tree.Tree, opts []Options, total int64) {
	var paths []string
	var srcs [][]byte
	if dir := os.Getenv("PYWS_SUMMARIZE_CORPUS"); dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
				if src, err := os.ReadFile(p); err == nil {
					paths, srcs, total = append(paths, p), append(srcs, src), total+int64(len(src))
				}
			}
			return nil
		})
	} else {
		paths, srcs, total = parsertest.StdlibBench(b)
	}
	for i, src := range srcs {
		base := filepath.Base(paths[i])
		trees = append(trees, parsertest.Tree(b, src))
		opts = append(opts, Options{IsStub: strings.HasSuffix(base, ".pyi"), IsPackageInit: strings.HasPrefix(base, "__init__.py")})
	}
	return trees, opts, total
}

// BenchmarkFromModule times the summary alone (the semantic models are
// built first) and reports the encoded size of the corpus's summaries.
func BenchmarkFromModule(b *testing.B) {
	trees, opts, total := benchCorpus(b)
	mods := make([]*pysem.Module, len(trees))
	for i, t := range trees {
		mods[i] = pysem.Analyze(t, pysem.Options{IsStub: opts[i].IsStub, IsPackageInit: opts[i].IsPackageInit})
	}
	var size, exprs int
	for _, m := range mods {
		s := FromModule(m, "")
		size += len(navindex.Encode(s))
		exprs += len(s.Exprs)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuNow()
	for b.Loop() {
		for _, m := range mods {
			FromModule(m, "")
		}
	}
	b.ReportMetric(cpuSince(cpu0)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(size)/1024, "summary-KiB")
	b.ReportMetric(float64(exprs), "exprs")
}

// BenchmarkSummarize times what the plugin does per file: the semantic
// model and the summary.
func BenchmarkSummarize(b *testing.B) {
	trees, opts, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuNow()
	for b.Loop() {
		for i, t := range trees {
			Summarize(t, opts[i])
		}
	}
	b.ReportMetric(cpuSince(cpu0)/float64(b.N), "cpu-ms/op")
}

// cpuNow is the process's user and system CPU time: on a shared machine
// it varies less with the load than the wall time does.
func cpuNow() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func cpuSince(t0 float64) float64 { return cpuNow() - t0 }
