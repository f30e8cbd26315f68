package pyright

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// sharedIndexes are the in-process indexes of recorded projects, built
// once per test binary: the type and completion agreements replay
// answers recorded on the same files, and Django's index is the
// expensive part of both.
var sharedIndexes = struct {
	sync.Mutex
	m map[string]sharedIndex
}{m: map[string]sharedIndex{}}

type sharedIndex struct {
	root string
	x    *index.Index
}

// TestMain removes the shared workspaces after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, si := range sharedIndexes.m {
		os.RemoveAll(si.root)
	}
	os.Exit(code)
}

// projectIndex returns a workspace holding files (path under src to
// SHA-256) and its index for Python 3.11 on Linux, the target pyright's
// answers were recorded for; the same files give the same workspace. It
// must not be written to.
func projectIndex(t testing.TB, s *nativeindex.Summarizer, src string, files map[string]string) (string, *index.Index) {
	t.Helper()
	rels := sortedKeys(files)
	var key strings.Builder
	key.WriteString(src)
	for _, r := range rels {
		key.WriteString("\x00" + r + "=" + files[r])
	}
	sharedIndexes.Lock()
	defer sharedIndexes.Unlock()
	if si, ok := sharedIndexes.m[key.String()]; ok {
		return si.root, si.x
	}
	root, err := os.MkdirTemp("", "pyws-pyright-")
	if err != nil {
		t.Fatal(err)
	}
	if err := CopyFiles(src, root, rels); err != nil {
		os.RemoveAll(root)
		t.Fatal(err)
	}
	x, err := nativeindex.BuildFor(context.Background(), s, root, "", index.Target{Minor: 11, Platform: "linux"})
	if err != nil {
		os.RemoveAll(root)
		t.Fatal(err)
	}
	sharedIndexes.m[key.String()] = sharedIndex{root, x}
	return root, x
}
