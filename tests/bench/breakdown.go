package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/plugins/indexer/summarize"
	"github.com/pyws/pyws/tests/internal/nativeindex"
	"github.com/pyws/pyws/wasm/parser"
)

// parts is pyws's cold index of one corpus taken apart, each part run
// alone in this process on one thread, on the files the server indexed.
type parts struct {
	files, bytes int
	list         time.Duration // walking the tree for .py/.pyi files
	read         time.Duration
	parse        time.Duration // the kernel's wasm parser, one instance
	guest        time.Duration // index_files calls, trees given: transfer + summarize in wasm
	hostCodec    time.Duration // of guest: encoding requests and decoding answers in the kernel
	native       time.Duration // the same summarizer compiled natively
}

// batchSize is about what host/index sends the indexer per call.
const batchSize = 64

func measureParts(ctx context.Context, repo, root, scratch string) (*parts, error) {
	p := &parts{}
	start := time.Now()
	paths, err := nativeindex.PythonFiles(root)(ctx)
	if err != nil {
		return nil, err
	}
	p.list = time.Since(start)
	start = time.Now()
	srcs := make([][]byte, len(paths))
	for i, f := range paths {
		if srcs[i], err = os.ReadFile(f); err != nil {
			return nil, err
		}
		p.bytes += len(srcs[i])
	}
	p.read = time.Since(start)
	p.files = len(paths)

	wrt := wazero.NewRuntime(ctx)
	defer wrt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, wrt)
	mod, err := parser.Compile(ctx, wrt)
	if err != nil {
		return nil, err
	}
	ps, err := mod.New(ctx)
	if err != nil {
		return nil, err
	}
	blobs := make([][]byte, len(paths))
	start = time.Now()
	for i, src := range srcs {
		if blobs[i], err = ps.Parse(ctx, src, 0); err != nil {
			blobs[i] = nil // too large or too deep: the server skips it too
		}
	}
	p.parse = time.Since(start)

	opts := func(rel string) summarize.Options {
		base := path.Base(rel)
		return summarize.Options{IsStub: strings.HasSuffix(base, ".pyi"), IsPackageInit: strings.HasPrefix(base, "__init__."), PythonMinor: 11, Platform: "linux"}
	}
	start = time.Now()
	for i, blob := range blobs {
		if blob == nil {
			continue
		}
		t, err := tree.Decode(blob, srcs[i])
		if err != nil {
			return nil, err
		}
		navindex.Encode(summarize.Summarize(t, opts(paths[i])))
	}
	p.native = time.Since(start)

	rt, err := plugins.Start(ctx, plugins.Config{Dirs: []string{filepath.Join(repo, "bin", "plugins", "indexer")},
		CacheDir: filepath.Join(scratch, "wazero"), Workers: 1, DefaultTimeout: 5 * time.Minute, MemoryLimitMiB: 2048})
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	args := json.RawMessage(`{"pythonMinor":11,"platform":"linux"}`)
	// One call first: the worker compiles the guest (not part of a build
	// once the server's compilation cache is warm).
	if _, err := rt.Call(ctx, "index_files", &abi.Request{Tool: "index_files", Arguments: args}); err != nil {
		return nil, err
	}
	for lo := 0; lo < len(paths); lo += batchSize {
		req := &abi.Request{Tool: "index_files", Arguments: args}
		for i := lo; i < min(lo+batchSize, len(paths)); i++ {
			if blobs[i] == nil {
				continue
			}
			rel, _ := filepath.Rel(root, paths[i])
			req.Files = append(req.Files, abi.File{URI: "file://" + paths[i], Path: filepath.ToSlash(rel), Source: srcs[i], Tree: blobs[i]})
		}
		start = time.Now()
		raw, err := rt.Call(ctx, "index_files", req)
		p.guest += time.Since(start)
		if err != nil {
			return nil, err
		}
		start = time.Now()
		if _, err := abi.EncodeRequest(req); err != nil {
			return nil, err
		}
		var res struct{ Summaries [][]byte }
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, err
		}
		p.hostCodec += time.Since(start)
	}
	return p, nil
}

// writeParts prints the parts beside the server's own figures.
func writeParts(w io.Writer, name string, p *parts, st serverTimes, workers int) {
	fmt.Fprintf(w, "\npyws cold start on %s, taken apart (%d files, %.1f MB; parts run alone, one thread, in the harness's process, unless marked server):\n\n", name, p.files, float64(p.bytes)/1e6)
	fmt.Fprintln(w, "| part | time | share of the server's cold start |")
	fmt.Fprintln(w, "|---|---:|---:|")
	line := func(part string, d time.Duration) {
		share := "-"
		if st.cold > 0 {
			share = fmt.Sprintf("%.0f%%", 100*d.Seconds()/st.cold.Seconds())
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", part, timed(d), share)
	}
	line("server: launch to a complete references answer, fresh --state, nothing prepared", st.cold)
	line("server: the same on a warm host (plugins compiled, typeshed summarized)", st.newWorkspace)
	if d := st.cold - st.newWorkspace; d > 0 {
		line("server: compiling plugins and summarizing typeshed (the difference)", d)
	}
	line("server: index build on the warm host (logged)", st.newBuild)
	line("file listing", p.list)
	line("reading", p.read)
	line("parsing in wasm (tree-sitter under wazero)", p.parse)
	line("summarizing in wasm + host-guest transfer (index_files, trees given)", p.guest)
	line("  of which encoding requests / decoding answers in the kernel", p.hostCodec)
	line("  summarizing natively instead (same Go code)", p.native)
	if rest := st.newBuild - (p.list + p.read + (p.parse+p.guest)/time.Duration(workers)); st.newBuild > 0 && rest > 0 {
		line(fmt.Sprintf("server build beyond listing, reading and (parse + summarize) / %d workers: linking, stubs closure, scheduling", workers), rest)
	}
	limit := p.parse / time.Duration(workers)
	line(fmt.Sprintf("parse-only limit: wasm parse over %d workers", workers), limit)
	if limit > 0 && st.newWorkspace > 0 {
		fmt.Fprintf(w, "\nOn a warm host the cold start is %.1fx the parse-only limit; with a fresh --state and nothing prepared %.1fx.\n",
			st.newWorkspace.Seconds()/limit.Seconds(), st.cold.Seconds()/limit.Seconds())
	}
}
