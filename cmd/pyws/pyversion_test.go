package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPythonVersionAskedAgainAfterFailure: an interpreter that does not
// answer in time gives the target version, and is asked again later, so
// a slow start does not pin the wrong version for the process.
func TestPythonVersionAskedAgainAfterFailure(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "python")
	marker := filepath.Join(dir, "fast")
	// Slow until the marker exists, then a version.
	if err := os.WriteFile(script, []byte("#!/bin/sh\n[ -e "+marker+" ] || sleep 5\necho 3.9.18\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newPythonVersion(script, 200*time.Millisecond)
	if got := p.get(); got != targetPython {
		t.Fatalf("slow interpreter: got %q, want the target %q", got, targetPython)
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := p.get(); got != "3.9.18" {
		t.Fatalf("asked again: got %q, want 3.9.18", got)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	if got := p.get(); got != "3.9.18" {
		t.Fatalf("an answer is kept: got %q", got)
	}
}
