package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHealthPython: --python reaches the prober as an absolute path (the
// prober runs interpreters in the temporary directory).
func TestHealthPython(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	rel, _ := filepath.Abs(filepath.Join("venv", "bin", "python"))
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"sh", sh},
		{sh, sh},
		{filepath.Join("venv", "bin", "python"), rel}, // not there: made absolute all the same
	} {
		if got := healthPython(c.in); got != c.want {
			t.Errorf("healthPython(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
