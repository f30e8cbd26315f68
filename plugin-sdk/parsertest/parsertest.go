// Package parsertest gives tests real syntax trees from the parser module
// the kernel runs (wasm/parser): one instance per test binary, shared
// under a lock (a Parser is not safe for concurrent use), restarted if a
// trap closes it. Analyzer tests use it so their fixtures are parsed
// exactly as in production. It lives in the SDK, which may import the
// wasm layer below it, so analyzers' tests never import the host; its own
// tests check the module's trees as plugin-sdk/tree decodes them.
package parsertest

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/wasm/parser"
	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

var (
	mu     sync.Mutex
	module *parser.Module
	inst   *parser.Parser
)

// Blob parses src and returns the tree blob. The parse is unbounded.
func Blob(src []byte) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	ctx := context.Background()
	if module == nil {
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		m, err := parser.Compile(ctx, rt)
		if err != nil {
			return nil, err
		}
		module = m
	}
	if inst == nil {
		p, err := module.New(ctx)
		if err != nil {
			return nil, err
		}
		inst = p
	}
	blob, err := inst.Parse(ctx, src, 0)
	if errors.Is(err, parser.ErrTrap) || errors.Is(err, parser.ErrClosed) {
		inst = nil // a trap closed the instance: the next call starts a new one
	}
	return blob, err
}

// Tree parses src into a decoded tree, failing tb on any error.
func Tree(tb testing.TB, src []byte) *tree.Tree {
	tb.Helper()
	blob, err := Blob(src)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := tree.Decode(blob, src)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// StdlibFiles lists the local CPython stdlib's .py files, sorted, or
// skips tb when there is no python3 (see wasm/stdlibcorpus).
func StdlibFiles(tb testing.TB) []string {
	tb.Helper()
	return stdlibcorpus.Files(tb)
}

// StdlibBench returns wasm/stdlibcorpus's fixed benchmark sample (paths,
// sources, total bytes), for analyzers' benchmarks, which may not import
// wasm themselves.
func StdlibBench(b *testing.B) (paths []string, srcs [][]byte, total int64) {
	b.Helper()
	return stdlibcorpus.Bench(b)
}

// DjangoSample is the seeded sample of n of Debian's Django .py files
// that tests/bench formats and checks (the harness's 300 by default):
// paths sorted, and their sources. It skips tb without python3-django.
func DjangoSample(tb testing.TB, n int) (paths []string, srcs [][]byte) {
	tb.Helper()
	filepath.WalkDir(DjangoRoot, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".py") {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		tb.Skip("python3-django is not installed")
	}
	sort.Strings(paths)
	r := rand.New(rand.NewSource(1))
	r.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	paths = paths[:min(n, len(paths))]
	sort.Strings(paths)
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	return paths, srcs
}

// DjangoRoot is where Debian's python3-django installs the package.
const DjangoRoot = "/usr/lib/python3/dist-packages/django"

// Message is the request message the kernel sends a plugin for tool on
// one file: args, and the file with its source and its tree parsed here.
func Message(tb testing.TB, tool string, args any, path string, src []byte) []byte {
	tb.Helper()
	blob, err := Blob(src)
	if err != nil {
		tb.Fatal(err)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		tb.Fatal(err)
	}
	msg, err := abi.EncodeRequest(&abi.Request{Tool: tool, Arguments: raw,
		Files: []abi.File{{URI: "file://" + path, Path: path, Source: src, Tree: blob}}})
	if err != nil {
		tb.Fatal(err)
	}
	return msg
}

// RunMessages is a benchmark's loop: every message through handle (a
// plugin's sdk.HandleMessage), reported in ms per file of files, wall
// and the process's CPU time (which waits for a core on a shared machine
// do not inflate).
func RunMessages(b *testing.B, handle func([]byte) []byte, msgs [][]byte, files int) {
	cpu := processCPU()
	for b.Loop() {
		for _, msg := range msgs {
			handle(msg)
		}
	}
	n := float64(b.N * files)
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/n, "ms/file")
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/n, "cpu-ms/file")
}

// processCPU is the user and system time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
