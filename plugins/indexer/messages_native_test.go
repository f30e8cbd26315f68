//go:build !wasip1

package main

import (
	"os"
	"syscall"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// buildMessages are the index_files requests of $PYWS_SUMMARIZE_CORPUS
// (Django's package when unset) in the build's batches.
func buildMessages(b *testing.B) [][]byte {
	root := os.Getenv("PYWS_SUMMARIZE_CORPUS")
	if root == "" {
		root = parsertest.DjangoRoot
	}
	return parsertest.IndexRequests(b, root)
}

// cpuNow is the process's user and system CPU time in ms: on a shared
// machine it varies less with the load than the wall time does.
func cpuNow() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}
