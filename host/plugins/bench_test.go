package plugins

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Benchmarks behind the figures in RATIONALE.md; run them with
//
//	go test ./host/plugins -run '^$' -bench . -benchtime 2s
var payloads = []struct {
	name string
	size int
}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}}

func echoRequest(size int) *abi.Request {
	src := make([]byte, size)
	for i := range src {
		src[i] = byte('a' + i%26)
	}
	return &abi.Request{Tool: "echo", Files: []abi.File{{URI: "file:///w/a.py", Path: "a.py", Source: src}}}
}

// BenchmarkCallInProcess is the unguarded baseline: the guest runs on the
// calling goroutine and nothing could stop it.
func BenchmarkCallInProcess(b *testing.B) {
	e := testEngine(b, "echo", engineOptions{}, nil)
	for _, p := range payloads {
		b.Run(p.name, func(b *testing.B) {
			req := echoRequest(p.size)
			b.SetBytes(int64(p.size))
			for b.Loop() {
				// Encoding is inside the loop, as Runtime.Call does it.
				msg, _ := abi.EncodeRequest(req)
				if _, ce := e.call(context.Background(), 0, msg, 0); ce != nil {
					b.Fatal(ce.fault)
				}
			}
		})
	}
}

// BenchmarkCallWorker is the same call through Runtime.Call: framing,
// two pipe crossings, the deadline timer and the pool.
func BenchmarkCallWorker(b *testing.B) {
	r := startRuntime(b, 1, "echo")
	ctx := context.Background()
	for _, p := range payloads {
		b.Run(p.name, func(b *testing.B) {
			req := echoRequest(p.size)
			b.SetBytes(int64(p.size))
			for b.Loop() {
				if _, err := r.Call(ctx, "echo", req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGuestCPU runs a CPU-bound guest (10M iterations of an integer
// mix) three ways: in-process unguarded, in-process with wazero's
// WithCloseOnContextDone (its only in-process way to stop a guest), and
// in a worker.
func BenchmarkGuestCPU(b *testing.B) {
	req := &abi.Request{Tool: "spin", Arguments: json.RawMessage(`{"n":10000000}`)}
	msg, _ := abi.EncodeRequest(req)
	for _, mode := range []struct {
		name        string
		closeOnDone bool
	}{{"inprocess", false}, {"inprocess-closeOnDone", true}} {
		b.Run(mode.name, func(b *testing.B) {
			e := testEngine(b, "loop", engineOptions{closeOnDone: mode.closeOnDone}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
			defer cancel()
			for b.Loop() {
				if _, ce := e.call(ctx, 0, msg, 0); ce != nil {
					b.Fatal(ce.fault)
				}
			}
		})
	}
	b.Run("worker", func(b *testing.B) {
		r := startRuntime(b, 1, "loop")
		for b.Loop() {
			if _, err := r.Call(context.Background(), "spin", req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWorkerRestart measures one restart: from the TIMEOUT of a
// looping call (the kill) until the replacement worker has answered.
func BenchmarkWorkerRestart(b *testing.B) {
	r := startRuntime(b, 1, "echo", "loop")
	ctx := context.Background()
	var total time.Duration
	for b.Loop() {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		_, err := r.Call(cctx, "loop", &abi.Request{})
		cancel()
		if fault.CodeOf(err) != fault.Timeout {
			b.Fatalf("loop: %v", err)
		}
		start := time.Now()
		if _, err := r.Call(ctx, "echo", &abi.Request{}); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-serve-again")
	if s := r.Stats(); s.Restarts < uint64(b.N) {
		b.Fatal(fmt.Sprintf("restarts = %d, want >= %d", s.Restarts, b.N))
	}
}
