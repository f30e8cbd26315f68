package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// BenchmarkGuestIndex is an index build's summarizing in wasm: the
// index_files calls of every file under $PYWS_SUMMARIZE_CORPUS (Django's
// package when unset) in the build's batches, trees given, each made to
// the packed indexer under wazero in this process and followed by
// pyws_idle as a worker does. "guest-cpu-ms" is the calls (the copy in,
// the guest's decoding, summarizing and answer, the copy out),
// "idle-cpu-ms" the collections pyws_idle runs after them, "host-cpu-ms"
// the kernel's decoding of the answers into summaries. The parts inside
// the guest are BenchmarkIndexParts (plugins/indexer). With
// PYWS_INDEX_SUMMARIES set it first writes every file's summary there,
// to compare two builds of the plugin byte for byte.
func BenchmarkGuestIndex(b *testing.B) {
	dir := guestDir(b)
	root := os.Getenv("PYWS_SUMMARIZE_CORPUS")
	if root == "" {
		root = parsertest.DjangoRoot
	}
	msgs := parsertest.IndexRequests(b, root)
	mod, call := loadGuest(b, filepath.Join(dir, "indexer", "plugin.wasm"))
	idle := mod.ExportedFunction(abi.ExportIdle)
	ctx := context.Background()
	call(msgs[0])
	if name := os.Getenv("PYWS_INDEX_SUMMARIES"); name != "" {
		writeSummaries(b, name, msgs, call)
	}
	var guest, idled, host time.Duration
	for b.Loop() {
		for _, msg := range msgs {
			t0 := processCPU()
			out := call(msg)
			t1 := processCPU()
			guest += t1 - t0
			resp, err := abi.DecodeResponse(out)
			if err != nil {
				b.Fatal(err)
			}
			var res struct{ Summaries [][]byte }
			if err := json.Unmarshal(resp.Result, &res); err != nil {
				b.Fatal(err)
			}
			t2 := processCPU()
			host += t2 - t1
			if idle != nil {
				if _, err := idle.Call(ctx); err != nil {
					b.Fatal(err)
				}
			}
			idled += processCPU() - t2
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(guest.Microseconds())/1000/n, "guest-cpu-ms")
	b.ReportMetric(float64(idled.Microseconds())/1000/n, "idle-cpu-ms")
	b.ReportMetric(float64(host.Microseconds())/1000/n, "host-cpu-ms")
	b.ReportMetric(float64(mod.Memory().Size())/(1<<20), "MiB")
}

// writeSummaries writes the summaries the guest answers msgs with to the
// file name: per file its path, a tab, the summary's SHA-256, a newline.
func writeSummaries(b *testing.B, name string, msgs [][]byte, call func([]byte) []byte) {
	var out bytes.Buffer
	for _, msg := range msgs {
		req, err := abi.DecodeRequest(msg)
		if err != nil {
			b.Fatal(err)
		}
		resp, err := abi.DecodeResponse(call(msg))
		if err != nil {
			b.Fatal(err)
		}
		var res struct{ Summaries [][]byte }
		if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Summaries) != len(req.Files) {
			b.Fatalf("%d summaries for %d files: %v", len(res.Summaries), len(req.Files), err)
		}
		for i, f := range req.Files {
			fmt.Fprintf(&out, "%s\t%x\n", f.Path, sha256.Sum256(res.Summaries[i]))
		}
	}
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
}
