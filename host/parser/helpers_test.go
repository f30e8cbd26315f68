package parser

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// newModule returns a compiled module in a fresh runtime, closed with the test.
func newModule(tb testing.TB) *Module {
	tb.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
	tb.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	m, err := Compile(ctx, rt)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func newParser(tb testing.TB) *Parser {
	tb.Helper()
	p, err := newModule(tb).New(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close(context.Background()) })
	return p
}

func mustParse(tb testing.TB, p *Parser, src string) *tree.Tree {
	tb.Helper()
	blob, err := p.Parse(context.Background(), []byte(src), 0)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := tree.Decode(blob, []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

var stdlibOnce = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("python3", "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	return strings.TrimSpace(string(out)), err
})

// stdlibFiles lists the CPython stdlib's .py files (site-packages
// excluded), sorted, or skips the test when there is no python3.
func stdlibFiles(tb testing.TB) []string {
	tb.Helper()
	dir, err := stdlibOnce()
	if err != nil || dir == "" {
		tb.Skipf("no python3 stdlib: %v", err)
	}
	var files []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
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
