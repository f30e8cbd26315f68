package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/wasm/parser"
)

// BenchmarkGuestDjango takes a format_document and a get_diagnostics
// request over tests/bench's 300 Django files apart, per file: "parse"
// is the kernel's wasm parser, "encode" the request with the tree,
// "format" and "diagnostics" one call of the packed plugin under wazero
// in this process with the tree given (the request's transfer into the
// guest, its decoding, the work and the answer): the guests' share of
// the harness's rows. "diagnostics+context" is "diagnostics" as a first
// pass calls it, with the context modules whose facts the plugin derives
// (parsertest.DjangoDiagnosticsRequests).
func BenchmarkGuestDjango(b *testing.B) {
	dir := guestDir(b)
	paths, srcs := parsertest.DjangoSample(b, 300)
	blobs := make([][]byte, len(srcs))
	for i, src := range srcs {
		var err error
		if blobs[i], err = parsertest.Blob(src); err != nil {
			b.Fatal(err)
		}
	}
	// perFile reports wall and CPU time per file: the machine is shared,
	// and the process's CPU time is what waits for a core do not inflate.
	var cpuStart time.Duration
	startCPU := func() { cpuStart = processCPU() }
	perFile := func(b *testing.B) {
		n := float64(b.N * len(srcs))
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/n, "ms/file")
		b.ReportMetric(float64((processCPU()-cpuStart).Microseconds())/1000/n, "cpu-ms/file")
	}
	b.Run("parse", func(b *testing.B) {
		startCPU()
		for b.Loop() {
			for _, src := range srcs {
				if _, err := parsertest.Blob(src); err != nil {
					b.Fatal(err)
				}
			}
		}
		perFile(b)
	})
	cfg := abi.FormatConfig{LineLength: 88, IsortLineLength: 88, TabSize: 4, InsertSpaces: true}
	formatMsgs := make([][]byte, len(srcs))
	diagMsgs := make([][]byte, len(srcs))
	encode := func() {
		for i, src := range srcs {
			uri := "file://" + paths[i]
			args, _ := json.Marshal(map[string]any{"uri": uri, "phase": "format", "config": cfg})
			formatMsgs[i], _ = abi.EncodeRequest(&abi.Request{Tool: "format_document", Arguments: args,
				Files: []abi.File{{URI: uri, Path: paths[i], Source: src, Tree: blobs[i]}}})
			mod := strings.TrimSuffix(strings.TrimPrefix(paths[i], "/usr/lib/python3/dist-packages/"), ".py")
			pyws := abi.DiagnosticsContext{Config: map[string]any{}, PythonVersion: "3.11", Module: strings.ReplaceAll(mod, "/", "."),
				Installed: []string{}, Imports: map[string]int{}, Context: []abi.DiagnosticsContextFile{}}
			args, _ = json.Marshal(map[string]any{"uri": uri, "pyws": pyws})
			diagMsgs[i], _ = abi.EncodeRequest(&abi.Request{Tool: "get_diagnostics", Arguments: args,
				Files: []abi.File{{URI: uri, Path: paths[i], Source: src, Tree: blobs[i]}}})
		}
	}
	encode() // the guests' requests, whichever sub-benchmarks run
	// A first pass's requests: the files with the context modules they
	// import, each module once (the kernel keeps its facts afterwards).
	ctxReqs, _ := parsertest.DjangoDiagnosticsRequests(b, len(srcs))
	contextMsgs := make([][]byte, len(ctxReqs))
	for i, r := range ctxReqs {
		var err error
		if contextMsgs[i], err = abi.EncodeRequest(r); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("encode", func(b *testing.B) {
		startCPU()
		for b.Loop() {
			encode()
		}
		perFile(b)
	})
	for _, c := range []struct {
		plugin string
		msgs   [][]byte
	}{{"formatter", formatMsgs}, {"diagnostics", diagMsgs}, {"diagnostics+context", contextMsgs}} {
		b.Run(c.plugin, func(b *testing.B) {
			plugin, _, _ := strings.Cut(c.plugin, "+")
			mod, call := loadGuest(b, filepath.Join(dir, plugin, "plugin.wasm"))
			call(c.msgs[0])
			startCPU()
			for b.Loop() {
				for _, msg := range c.msgs {
					call(msg)
				}
			}
			perFile(b)
			b.ReportMetric(float64(mod.Memory().Size())/(1<<20), "MiB")
		})
	}
}

// guestDir is where the benchmarks take the packed plugins from:
// PYWS_BENCH_PLUGINS_DIR when set (to compare builds of the same plugin,
// e.g. other compiler flags, in one run), else this tree's, packed.
func guestDir(b *testing.B) string {
	if d := os.Getenv("PYWS_BENCH_PLUGINS_DIR"); d != "" {
		return d
	}
	build(b)
	return pluginsDir
}

// processCPU is the user and system time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFormatRequestDjango runs format_document's phases as the
// kernel does (host/service/format.go: "format", "black" when isort
// changed the file, "check" when the text changed), each text parsed by
// the kernel's wasm parser as a worker parses it (a file of 8 KiB or
// more from the tree of its previous version) and the packed formatter called under wazero
// in this process, over tests/bench's 300 Django files, and reports the
// CPU time per file of the parses and of each phase's guest call. What
// is left of the harness's per-file time is HTTP, the pipes to the
// worker and the kernel's own work.
func BenchmarkFormatRequestDjango(b *testing.B) {
	dir := guestDir(b)
	paths, srcs := parsertest.DjangoSample(b, 300)
	_, call := loadGuest(b, filepath.Join(dir, "formatter", "plugin.wasm"))
	cfg := abi.FormatConfig{LineLength: 88, IsortLineLength: 88, TabSize: 4, InsertSpaces: true}
	// The worker keeps the tree of a file of 8 KiB or more and parses the
	// file's next version from it (host/plugins keptTrees): a phase's text
	// is the next version of the file the phase before parsed.
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	b.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	pm, err := parser.Compile(ctx, rt)
	if err != nil {
		b.Fatal(err)
	}
	p, err := pm.New(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var kept []byte // the source of the tree in slot 0: the current file's last version
	var parseCPU time.Duration
	phaseCPU := map[string]time.Duration{}
	phaseCalls := map[string]int{}
	parsePhaseCPU := map[string]time.Duration{} // parsing the text each phase is sent
	phase := func(i int, name string, text []byte) *pluginresult.Format {
		start := processCPU()
		if name == "format" {
			kept = nil // another file
		}
		var blob []byte
		var err error
		if len(text) >= 8<<10 {
			blob, err = p.ParseSlot(ctx, 0, kept, text, 0)
			kept = text
		} else {
			blob, err = p.Parse(ctx, text, 0)
		}
		if err != nil {
			b.Fatal(err)
		}
		mid := processCPU()
		parseCPU += mid - start
		parsePhaseCPU[name] += mid - start
		uri := "file://" + paths[i]
		args, _ := json.Marshal(map[string]any{"uri": uri, "phase": name, "config": cfg})
		msg, _ := abi.EncodeRequest(&abi.Request{Tool: "format_document", Arguments: args,
			Files: []abi.File{{URI: uri, Path: paths[i], Source: text, Tree: blob}}})
		resp, err := abi.DecodeResponse(call(msg))
		if err != nil || resp.Error != nil {
			b.Fatalf("%s %s: %v %v", paths[i], name, err, resp.Error)
		}
		r, err := pluginresult.DecodeFormat(resp.Result, len(text))
		if err != nil {
			b.Fatal(err)
		}
		phaseCPU[name] += processCPU() - mid
		phaseCalls[name]++
		return r
	}
	start := processCPU()
	for b.Loop() {
		for i, src := range srcs {
			first := phase(i, "format", src)
			text, comments := []byte(*first.Text), first.Comments
			if first.NeedsBlack {
				r := phase(i, "black", text)
				text, comments = []byte(*r.Text), r.Comments
			}
			if !bytes.Equal(text, src) {
				if r := phase(i, "check", text); r.Signature == nil || r.Signature.Hash != first.Signature.Hash || r.Comments != comments {
					b.Fatalf("%s: not equivalent", paths[i])
				}
			}
		}
	}
	n := float64(b.N * len(srcs))
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	b.ReportMetric(ms(processCPU()-start), "cpu-ms/file")
	b.ReportMetric(ms(parseCPU), "parse-cpu-ms/file")
	for name, d := range phaseCPU {
		b.ReportMetric(ms(d), name+"-cpu-ms/file")
		b.ReportMetric(float64(phaseCalls[name])/float64(b.N), name+"-calls")
		b.ReportMetric(ms(parsePhaseCPU[name]), "parse-"+name+"-cpu-ms/file")
	}
}
