package parsertest

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// IndexBatchBytes is host/index's default batch: files are sent to the
// indexer in calls of about this much source.
const IndexBatchBytes = 256 << 10

// IndexRequests are the index_files request messages an index build
// sends for every .py/.pyi file under root, sorted by path: each file
// with its source and tree, batched by IndexBatchBytes of source, Python
// 3.11 on linux. Files the parser refuses (too large or too deep) are
// left out, as the build leaves them out. It skips tb when root holds no
// Python file.
func IndexRequests(tb testing.TB, root string) [][]byte {
	tb.Helper()
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		tb.Skipf("no Python files under %s", root)
	}
	sort.Strings(paths)
	args := json.RawMessage(`{"pythonMinor":11,"platform":"linux"}`)
	var msgs [][]byte
	req, size := &abi.Request{Tool: "index_files", Arguments: args}, 0
	flush := func() {
		if len(req.Files) > 0 {
			msg, err := abi.EncodeRequest(req)
			if err != nil {
				tb.Fatal(err)
			}
			msgs = append(msgs, msg)
		}
		req, size = &abi.Request{Tool: "index_files", Arguments: args}, 0
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		blob, err := Blob(src)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(root, p)
		req.Files = append(req.Files, abi.File{URI: "file://" + p, Path: filepath.ToSlash(rel), Source: src, Tree: blob})
		if size += len(src); size >= IndexBatchBytes {
			flush()
		}
	}
	flush()
	return msgs
}
