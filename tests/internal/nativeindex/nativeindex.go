// Package nativeindex builds a host/index.Index in-process for tests and
// tools: the wasm parser runs under wazero in this process and the
// indexer plugin's code (plugins/indexer/summarize) runs natively, so the
// summaries are the ones the plugin produces, without worker processes.
package nativeindex

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/plugin-sdk/typeshed"
	"github.com/pyws/pyws/plugins/indexer/summarize"
	"github.com/pyws/pyws/tests/internal/teststubs"
	"github.com/pyws/pyws/wasm/parser"
)

// Summarizer is an index.Summarizer running in-process.
type Summarizer struct {
	mu sync.Mutex
	p  *parser.Parser
}

// New starts a parser instance.
func New(ctx context.Context) (*Summarizer, error) {
	rt := wazero.NewRuntime(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	m, err := parser.Compile(ctx, rt)
	if err != nil {
		return nil, err
	}
	p, err := m.New(ctx)
	if err != nil {
		return nil, err
	}
	return &Summarizer{p: p}, nil
}

// Version names the in-process summarizer for the disk cache.
func (n *Summarizer) Version() string { return "native" }

// Parse parses src into a tree.
func (n *Summarizer) Parse(ctx context.Context, src []byte) (*tree.Tree, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	blob, err := n.p.Parse(ctx, src, 0)
	if err != nil {
		return nil, err
	}
	return tree.Decode(blob, src)
}

// Summarize implements index.Summarizer.
func (n *Summarizer) Summarize(ctx context.Context, target index.Target, files []index.Source) ([][]byte, error) {
	out := make([][]byte, len(files))
	for i, f := range files {
		t, err := n.Parse(ctx, f.Text)
		if err != nil {
			return nil, err
		}
		base := path.Base(f.Rel)
		out[i] = navindex.Encode(summarize.Summarize(t, summarize.Options{
			IsStub: strings.HasSuffix(base, ".pyi"), IsPackageInit: strings.HasPrefix(base, "__init__."),
			PythonMinor: target.Minor,
		}))
	}
	return out, nil
}

// PythonFiles lists the .py and .pyi files under root, skipping hidden
// directories and __pycache__.
func PythonFiles(root string) func(context.Context) ([]string, error) {
	return func(context.Context) ([]string, error) {
		var out []string
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != root && (d.Name() == "__pycache__" || strings.HasPrefix(d.Name(), ".")) {
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

var (
	stubsMu   sync.Mutex
	stubSets  = map[index.Summarizer]*index.StubSets{}
	stubsOnce sync.Once
	stubsTree *typeshed.Stubs
	stubsErr  error
)

// StubSets returns the process's stub sets summarized by s (one per
// summarizer, in memory), over the repository's bin/typeshed (`make
// stubs`), as `serve` links its workspaces.
func StubSets(s index.Summarizer) (*index.StubSets, error) {
	stubsOnce.Do(func() { stubsTree, stubsErr = teststubs.Open() })
	if stubsErr != nil {
		return nil, stubsErr
	}
	stubsMu.Lock()
	defer stubsMu.Unlock()
	set := stubSets[s]
	if set == nil {
		set = index.NewStubSets(index.StubConfig{Stubs: stubsTree, Summarizer: s, Parallel: 1})
		stubSets[s] = set
	}
	return set, nil
}

// Build indexes root with s (a Summarizer, or a test's wrapper of one),
// linking into typeshed's stubs as the service does, for the default
// target (index.DefaultTarget).
func Build(ctx context.Context, s index.Summarizer, root, cacheDir string) (*index.Index, error) {
	return BuildFor(ctx, s, root, cacheDir, index.Target{})
}

// BuildFor is Build for target t: the Python version and platform whose
// stubs and static conditions apply (a zero field takes the default).
func BuildFor(ctx context.Context, s index.Summarizer, root, cacheDir string, t index.Target) (*index.Index, error) {
	stubs, err := StubSets(s)
	if err != nil {
		return nil, err
	}
	x := index.New(index.Config{Root: root, Files: PythonFiles(root), Read: os.ReadFile, Summarizer: s, CacheDir: cacheDir, Parallel: 1, Stubs: stubs, Target: t})
	return x, x.Build(ctx)
}
