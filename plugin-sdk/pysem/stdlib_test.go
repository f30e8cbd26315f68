package pysem

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func optsFor(path string) Options {
	return Options{IsPackageInit: filepath.Base(path) == "__init__.py", IsStub: strings.HasSuffix(path, ".pyi"), PythonMinor: 11}
}

// TestAnalyzeStdlib analyzes every stdlib file: no panic, and every ref,
// binding and attribute lies inside the source and is found by At.
func TestAnalyzeStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("stdlib walk skipped with -short")
	}
	files := stdlibTrees(t)
	if len(files) == 0 {
		t.Skip("no stdlib")
	}
	var nodes, refs, binds int
	start := time.Now()
	for _, f := range files {
		m := analyzeNoPanic(t, f)
		if m == nil {
			continue
		}
		nodes += f.Tree.NodeCount()
		refs += len(m.Refs)
		binds += len(m.Bindings)
		for _, r := range m.Refs {
			if r.Start < 0 || r.End > len(f.Src) || r.Start >= r.End || string(f.Src[r.Start:r.End]) != r.Name {
				t.Errorf("%s: bad ref %q at %d-%d", f.Path, r.Name, r.Start, r.End)
				break
			}
		}
		for _, b := range m.Bindings {
			if b.Scope == nil || b.Site == nil || string(b.NameNode.Text()) != b.Name {
				t.Errorf("%s: bad binding %q", f.Path, b.Name)
				break
			}
		}
	}
	t.Logf("%d files, %d nodes, %d refs, %d bindings in %v", len(files), nodes, refs, binds, time.Since(start))
}

func analyzeNoPanic(t *testing.T, f parsedFile) (m *Module) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", f.Path, r)
			m = nil
		}
	}()
	return Analyze(f.Tree, optsFor(f.Path))
}

func BenchmarkAnalyzeStdlib(b *testing.B) {
	files := stdlibTrees(b)
	if len(files) == 0 {
		b.Skip("no stdlib")
	}
	var bytes int64
	for _, f := range files {
		bytes += int64(len(f.Src))
	}
	b.SetBytes(bytes)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Analyze(f.Tree, optsFor(f.Path))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/stdlib")
	_ = fmt.Sprint
}
