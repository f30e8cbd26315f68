package pysem

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

var update = flag.Bool("update", false, "rewrite testdata/dump/*.dump")

// parseBlob parses src with the kernel's wasm parser and returns the blob.
func parseBlob(tb testing.TB, src []byte) ([]byte, error) { return parsertest.Blob(src) }

// parse parses Python source into a tree (fails the test on error).
func parse(tb testing.TB, src string) *tree.Tree { return parsertest.Tree(tb, []byte(src)) }

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
	files := parsertest.StdlibFiles(tb)
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
