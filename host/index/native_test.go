package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/plugins/indexer/summarize"
	"github.com/pyws/pyws/wasm/parser"
)

// nativeSummarizer runs the indexer's code in-process (the wasm parser,
// then package summarize natively): the same summaries the plugin
// produces, without worker processes.
type nativeSummarizer struct {
	mu    sync.Mutex
	p     *parser.Parser
	calls int
}

var (
	nativeOnce sync.Once
	nativeInst *nativeSummarizer
	nativeErr  error
)

func native(tb testing.TB) *nativeSummarizer {
	tb.Helper()
	nativeOnce.Do(func() {
		ctx := context.Background()
		rt := wazero.NewRuntime(ctx)
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		m, err := parser.Compile(ctx, rt)
		if err != nil {
			nativeErr = err
			return
		}
		p, err := m.New(ctx)
		nativeInst, nativeErr = &nativeSummarizer{p: p}, err
	})
	if nativeErr != nil {
		tb.Fatal(nativeErr)
	}
	return nativeInst
}

func (n *nativeSummarizer) Version() string { return "native-test" }

func (n *nativeSummarizer) Summarize(ctx context.Context, files []Source) ([][]byte, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.calls++
	out := make([][]byte, len(files))
	for i, f := range files {
		blob, err := n.p.Parse(ctx, f.Text, 0)
		if err != nil {
			return nil, err
		}
		t, err := tree.Decode(blob, f.Text)
		if err != nil {
			return nil, err
		}
		base := path.Base(f.Rel)
		out[i] = navindex.Encode(summarize.Summarize(t, summarize.Options{
			IsStub: strings.HasSuffix(base, ".pyi"), IsPackageInit: strings.HasPrefix(base, "__init__."),
		}))
	}
	return out, nil
}

// dirFiles lists the Python files under root.
func dirFiles(root string) func(context.Context) ([]string, error) {
	return func(context.Context) ([]string, error) {
		var out []string
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "__pycache__" || strings.HasPrefix(d.Name(), ".")) && p != root {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
				out = append(out, p)
			}
			return nil
		})
		sort.Strings(out)
		return out, err
	}
}

// newTestIndex builds an index over root with the native summarizer.
func newTestIndex(tb testing.TB, root, cacheDir string) *Index {
	tb.Helper()
	x := New(Config{Root: root, Files: dirFiles(root), Read: os.ReadFile, Summarizer: native(tb), CacheDir: cacheDir, Parallel: 1})
	if err := x.Build(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return x
}

func hashOf(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
