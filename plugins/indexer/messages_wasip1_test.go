//go:build wasip1

package main

import (
	"testing"
	"time"
)

// buildMessages: a wasm test binary has no parser, so the messages come
// from a native run's PYWS_INDEX_MESSAGES file (indexMessages).
func buildMessages(b *testing.B) [][]byte {
	b.Skip("set PYWS_INDEX_MESSAGES to the file a native run of BenchmarkIndexParts wrote")
	return nil
}

var start = time.Now()

// cpuNow is the wall time in ms: a wasm guest runs on one thread and
// WASI reports no CPU time.
func cpuNow() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
