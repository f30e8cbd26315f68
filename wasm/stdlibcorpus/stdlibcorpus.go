// Package stdlibcorpus hands tests and benchmarks the local CPython
// standard library as Python source to parse: the whole library, or a
// fixed sample for benchmarks. It sits in the bottom layer beside the
// parser module so the parser's own tests (wasm/parser) and everything
// above them (plugin-sdk/parsertest, host) share one definition. Without
// python3 the callers are skipped.
package stdlibcorpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

var dirOnce = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("python3", "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	return strings.TrimSpace(string(out)), err
})

// Dir returns the stdlib directory, or skips tb when there is no python3.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := dirOnce()
	if err != nil || dir == "" {
		tb.Skipf("no python3 stdlib: %v", err)
	}
	return dir
}

// Files lists the stdlib's .py files (site-packages excluded), sorted.
func Files(tb testing.TB) []string {
	tb.Helper()
	var files []string
	filepath.WalkDir(Dir(tb), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".py") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files
}

// benchFiles is a fixed sample of modules of different styles (~1.4 MB),
// so benchmark figures compare across machines with the same Python.
var benchFiles = []string{
	"argparse.py", "typing.py", "inspect.py", "dataclasses.py", "json/decoder.py",
	"asyncio/base_events.py", "email/_header_value_parser.py", "collections/__init__.py",
	"pydoc_data/topics.py", "tkinter/__init__.py", "unittest/mock.py", "ast.py",
}

// Bench returns the benchmark sample's paths and sources and their total
// size, or skips b when a file is missing.
func Bench(b *testing.B) (paths []string, srcs [][]byte, total int64) {
	dir := Dir(b)
	for _, f := range benchFiles {
		p := filepath.Join(dir, f)
		src, err := os.ReadFile(p)
		if err != nil {
			b.Skip(err)
		}
		paths = append(paths, p)
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	return paths, srcs, total
}
