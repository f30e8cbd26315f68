package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"

	"github.com/pyws/pyws/plugins/indexer/summarize"
)

// BenchmarkIndexParts takes an index build's index_files calls apart,
// over the whole corpus in the build's batches (indexMessages), each
// batch as the guest handles it, so the live heap and the collector's
// pace are a call's: "decode" the request message and its trees (the
// SDK's side of the tree hand-off), "analyze" the semantic models
// (pysem), "summary" the summaries from them, "encode" their binary
// form, "result" the JSON answer holding them (base64). Each part's
// time includes the collections its allocations triggered; gc-ms is the
// runtime's estimate of the collector's share of all of it. "call" is
// the same work behind the SDK (sdk.HandleMessage). Built for
// GOOS=wasip1 and run under wazero it gives the same parts in wasm; see
// RATIONALE.md ("Round seven") for the commands.
func BenchmarkIndexParts(b *testing.B) {
	msgs := indexMessages(b)
	// The guest's soft memory limit (init) is for a call's heap; the
	// corpus's messages held here too would make it collect all the time.
	held := 0
	for _, msg := range msgs {
		held += len(msg)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(debug.SetMemoryLimit(-1) + int64(held))
	files := 0
	for _, msg := range msgs {
		r, err := abi.DecodeRequest(msg)
		if err != nil {
			b.Fatal(err)
		}
		files += len(r.Files)
	}
	b.Run("parts", func(b *testing.B) {
		var p partTimes
		for b.Loop() {
			for _, msg := range msgs {
				p.call(b, msg)
			}
		}
		for i, name := range partNames {
			b.ReportMetric(p.ms[i]/float64(b.N), name+"-ms/op")
			b.ReportMetric(float64(p.allocs[i])/float64(b.N), name+"-allocs/op")
		}
		b.ReportMetric(p.gcMs/float64(b.N), "gc-ms/op")
		b.ReportMetric(float64(files), "files")
	})
	b.Run("call", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cpuNow()
		for b.Loop() {
			for _, msg := range msgs {
				sdk.HandleMessage(handle, msg)
			}
		}
		b.ReportMetric((cpuNow()-cpu0)/float64(b.N), "cpu-ms/op")
	})
}

var partNames = [...]string{"decode", "analyze", "summary", "encode", "result"}

// partTimes adds up each part's time (ms) and allocations over calls.
type partTimes struct {
	ms     [len(partNames)]float64
	allocs [len(partNames)]uint64
	gcMs   float64
}

// call does what handle does for msg, one part at a time.
func (p *partTimes) call(b *testing.B, msg []byte) {
	stats := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(stats)
	gc0 := stats[1].Value.Float64()
	part := 0
	t0, a0 := time.Now(), stats[0].Value.Uint64()
	next := func() {
		metrics.Read(stats)
		t1, a1 := time.Now(), stats[0].Value.Uint64()
		p.ms[part] += float64(t1.Sub(t0).Nanoseconds()) / 1e6
		p.allocs[part] += a1 - a0
		part, t0, a0 = part+1, t1, a1
	}
	r, err := abi.DecodeRequest(msg)
	if err != nil {
		b.Fatal(err)
	}
	var a args
	if err := json.Unmarshal(r.Arguments, &a); err != nil {
		b.Fatal(err)
	}
	trees := make([]*tree.Tree, len(r.Files))
	for i, f := range r.Files {
		t, err := tree.Decode(f.Tree, f.Source)
		if err != nil {
			b.Fatal(err)
		}
		if _, deep := nesting.Check(f.Source, t); !deep {
			trees[i] = t
		}
	}
	next()
	// Each file is analyzed, summarized and encoded before the next, as
	// handle does: one file's semantic model is live at a time.
	res := result{Summaries: make([][]byte, len(trees))}
	for i, t := range trees {
		if t == nil {
			continue
		}
		part = 1
		o := optionsFor(r.Files[i].Path, a)
		m := pysem.Analyze(t, pysem.Options{IsPackageInit: o.IsPackageInit, IsStub: o.IsStub, PythonMinor: o.PythonMinor})
		next()
		s := summarize.FromModule(m, a.Platform)
		next()
		res.Summaries[i] = navindex.Encode(s)
		next()
	}
	part = 4
	if _, err := abi.EncodeResult(res); err != nil {
		b.Fatal(err)
	}
	next()
	metrics.Read(stats)
	p.gcMs += (stats[1].Value.Float64() - gc0) * 1000
}

// indexMessages are the index_files requests of a build of the corpus
// (readMessages or, natively, buildMessages): with PYWS_INDEX_MESSAGES
// set, a native run writes them to that file and a wasm run, which has no
// parser, reads them from it.
func indexMessages(b *testing.B) [][]byte {
	name := os.Getenv("PYWS_INDEX_MESSAGES")
	if name != "" {
		if raw, err := os.ReadFile(name); err == nil {
			return splitMessages(b, raw)
		}
	}
	msgs := buildMessages(b)
	if name != "" {
		var raw []byte
		for _, m := range msgs {
			raw = binary.LittleEndian.AppendUint32(raw, uint32(len(m)))
			raw = append(raw, m...)
		}
		if err := os.WriteFile(name, raw, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return msgs
}

// splitMessages undoes indexMessages' file: each message after its
// length, a little-endian u32.
func splitMessages(b *testing.B, raw []byte) (msgs [][]byte) {
	for len(raw) > 0 {
		if len(raw) < 4 || int(binary.LittleEndian.Uint32(raw)) > len(raw)-4 {
			b.Fatal("PYWS_INDEX_MESSAGES: truncated file")
		}
		n := int(binary.LittleEndian.Uint32(raw))
		msgs, raw = append(msgs, raw[4:4+n:4+n]), raw[4+n:]
	}
	return msgs
}
