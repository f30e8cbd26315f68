package main

import (
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
		return parsertest.Message(b, "format_document", Args{URI: "file://" + paths[i], Phase: phase, Config: cfg}, paths[i], text)
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
			parsertest.RunMessages(b, func(msg []byte) []byte { return sdk.HandleMessage(handle, msg) }, c.msgs, len(srcs))
		})
	}
}
