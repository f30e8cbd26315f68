package main

import (
	"strings"
	"testing"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// BenchmarkDiagnosticsDjango is get_diagnostics natively, behind the
// SDK's decoding and encoding as the guest runs it, on tests/bench's 300
// Django files with their trees given and no context files: the native
// floor of tests/e2e's BenchmarkGuestDjango/diagnostics. Profile it with
//
//	go test -run '^$' -bench DiagnosticsDjango -cpuprofile cpu.out ./plugins/diagnostics/
func BenchmarkDiagnosticsDjango(b *testing.B) {
	paths, srcs := parsertest.DjangoSample(b, 300)
	msgs := make([][]byte, len(srcs))
	for i, src := range srcs {
		mod := strings.TrimSuffix(strings.TrimPrefix(paths[i], "/usr/lib/python3/dist-packages/"), ".py")
		pyws := abi.DiagnosticsContext{Config: map[string]any{}, PythonVersion: "3.11", Module: strings.ReplaceAll(mod, "/", "."),
			Installed: []string{}, Imports: map[string]int{}, Context: []abi.DiagnosticsContextFile{}}
		msgs[i] = parsertest.Message(b, "get_diagnostics", map[string]any{"uri": "file://" + paths[i], "pyws": pyws}, paths[i], src)
	}
	runDiagnostics(b, msgs)
}

// BenchmarkContextDjango is BenchmarkDiagnosticsDjango with the context
// modules of a first pass (parsertest.DjangoDiagnosticsRequests): the
// difference is what deriving the context modules' facts costs natively.
func BenchmarkContextDjango(b *testing.B) {
	reqs, context := parsertest.DjangoDiagnosticsRequests(b, 300)
	msgs := make([][]byte, len(reqs))
	for i, r := range reqs {
		var err error
		if msgs[i], err = abi.EncodeRequest(r); err != nil {
			b.Fatal(err)
		}
	}
	runDiagnostics(b, msgs)
	b.ReportMetric(float64(context), "context-files")
}

func runDiagnostics(b *testing.B, msgs [][]byte) {
	parsertest.RunMessages(b, func(msg []byte) []byte { return sdk.HandleMessage(handle, msg) }, msgs, len(msgs))
}
