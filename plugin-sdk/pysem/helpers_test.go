package pysem

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/parser"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// testParser is one wasm parser instance shared by the package's tests
// (a Parser is not safe for concurrent use: hold parserMu).
var (
	parserMu   sync.Mutex
	parserInst *parser.Parser
	parserErr  error
	parserOnce sync.Once
)

func sharedParser(tb testing.TB) *parser.Parser {
	tb.Helper()
	parserOnce.Do(func() {
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		m, err := parser.Compile(ctx, rt)
		if err != nil {
			parserErr = err
			return
		}
		parserInst, parserErr = m.New(ctx)
	})
	if parserErr != nil {
		tb.Fatal(parserErr)
	}
	return parserInst
}

// parseBlob parses src with the wasm parser and returns the tree blob.
func parseBlob(tb testing.TB, src []byte) ([]byte, error) {
	tb.Helper()
	p := sharedParser(tb)
	parserMu.Lock()
	defer parserMu.Unlock()
	blob, err := p.Parse(context.Background(), src, 0)
	if err != nil && strings.Contains(err.Error(), "closed") {
		// A trap discarded the instance: start a new one.
		parserOnce = sync.Once{}
	}
	return blob, err
}

// parse parses Python source into a tree (fails the test on error).
func parse(tb testing.TB, src string) *tree.Tree {
	tb.Helper()
	b := []byte(src)
	blob, err := parseBlob(tb, b)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := tree.Decode(blob, b)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

var stdlibDirOnce = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("python3", "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	return strings.TrimSpace(string(out)), err
})

// stdlibFiles lists the CPython stdlib's .py files (site-packages
// excluded), sorted, or skips the test when there is no python3.
func stdlibFiles(tb testing.TB) []string {
	tb.Helper()
	dir, err := stdlibDirOnce()
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

type parsedFile struct {
	Path string
	Src  []byte
	Tree *tree.Tree
}

// stdlibTrees parses every stdlib file once per process. Blobs are cached
// on disk by content hash (under the OS temp dir) because a full wasm parse
// of the stdlib takes about 20 s.
var (
	stdlibTreesOnce sync.Once
	stdlibTreesVal  []parsedFile
)

func stdlibTrees(tb testing.TB) []parsedFile {
	tb.Helper()
	files := stdlibFiles(tb)
	stdlibTreesOnce.Do(func() {
		cache := filepath.Join(os.TempDir(), "pysem-tree-cache")
		os.MkdirAll(cache, 0o755)
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			sum := sha256.Sum256(src)
			cp := filepath.Join(cache, hex.EncodeToString(sum[:16])+".blob")
			blob, err := os.ReadFile(cp)
			if err != nil {
				blob, err = parseBlob(tb, src)
				if err != nil {
					tb.Logf("%s: %v", f, err)
					continue
				}
				os.WriteFile(cp, blob, 0o644)
			}
			t, err := tree.Decode(blob, src)
			if err != nil {
				tb.Logf("%s: %v", f, err)
				continue
			}
			stdlibTreesVal = append(stdlibTreesVal, parsedFile{f, src, t})
		}
	})
	return stdlibTreesVal
}
