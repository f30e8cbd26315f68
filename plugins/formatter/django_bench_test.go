package main

import (
	"encoding/json"
	"testing"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// BenchmarkFormatPhaseDjango is the formatter's "format" phase natively,
// behind the SDK's decoding and encoding as the guest runs it, on
// tests/bench's 300 Django files with their trees given: the native
// floor of tests/e2e's BenchmarkGuestDjango/formatter. Profile it with
//
//	go test -run '^$' -bench FormatPhaseDjango -cpuprofile cpu.out ./plugins/formatter/
//
// Sub-benchmarks: "format" alone, and "request", every phase the kernel
// runs for the file (host/service/format.go).
func BenchmarkFormatPhaseDjango(b *testing.B) {
	paths, srcs := parsertest.DjangoSample(b, 300)
	cfg := abi.FormatConfig{LineLength: 88, IsortLineLength: 88, TabSize: 4, InsertSpaces: true}
	message := func(i int, phase string, text []byte) []byte {
		blob, err := parsertest.Blob(text)
		if err != nil {
			b.Fatal(err)
		}
		args, _ := json.Marshal(Args{URI: "file://" + paths[i], Phase: phase, Config: cfg})
		msg, _ := abi.EncodeRequest(&abi.Request{Tool: "format_document", Arguments: args,
			Files: []abi.File{{URI: "file://" + paths[i], Path: paths[i], Source: text, Tree: blob}}})
		return msg
	}
	var formats, all [][]byte
	for i, src := range srcs {
		msg := message(i, "format", src)
		formats, all = append(formats, msg), append(all, msg)
		first, err := run(Args{Phase: "format", Config: cfg}, src, parsertest.Tree(b, src))
		if err != nil {
			b.Fatal(err)
		}
		text := []byte(*first.Text)
		if first.NeedsBlack {
			all = append(all, message(i, "black", text))
			out, err := formatBlack(text, parsertest.Tree(b, text), cfg)
			if err != nil {
				b.Fatal(err)
			}
			text = out
		}
		if string(text) != string(src) {
			all = append(all, message(i, "check", text))
		}
	}
	for _, c := range []struct {
		name string
		msgs [][]byte
	}{{"format", formats}, {"request", all}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, msg := range c.msgs {
					sdk.HandleMessage(handle, msg)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(srcs)), "ms/file")
		})
	}
}
