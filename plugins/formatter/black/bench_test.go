package black

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// benchFiles are real Python files: the Debian packages of requests and
// flask and Django's db and forms packages when installed, else this
// package's fixtures.
func benchFiles(b *testing.B) (srcs [][]byte, trees []*tree.Tree, total int64) {
	roots := []string{
		"/usr/lib/python3/dist-packages/requests",
		"/usr/lib/python3/dist-packages/flask",
		"/usr/lib/python3/dist-packages/django/db",
		"/usr/lib/python3/dist-packages/django/forms",
	}
	var files []string
	for _, r := range roots {
		filepath.WalkDir(r, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		files, _ = filepath.Glob("testdata/*.py")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		t := parse(b, src)
		if t.Root().HasError() {
			continue
		}
		srcs = append(srcs, src)
		trees = append(trees, t)
		total += int64(len(src))
	}
	return
}

// BenchmarkFormat formats every benchmark file once per iteration (the
// parse is done beforehand, as the host hands plugins a decoded tree).
func BenchmarkFormat(b *testing.B) {
	srcs, trees, total := benchFiles(b)
	b.SetBytes(total)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for i, src := range srcs {
			if _, err := Format(src, trees[i], Options{}); err != nil {
				b.Fatal(err)
			}
		}
		n++
	}
	b.ReportMetric(float64(len(srcs)*n)/b.Elapsed().Seconds(), "files/s")
}
