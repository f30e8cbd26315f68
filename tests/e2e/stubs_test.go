package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesMissingStubs: the real binary pointed at an empty stubs
// directory exits 1 at once, naming the file and the build step.
func TestServeRefusesMissingStubs(t *testing.T) {
	build(t)
	empty := t.TempDir()
	cmd := exec.Command(binPath, "serve", "--workspace", t.TempDir(), "--dev-key", "--state", t.TempDir(),
		"--plugins", pluginsDir, "--stubs", empty)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("serve with no stubs: %v, want exit status 1\n%s", err, out)
	}
	for _, want := range []string{filepath.Join(empty, "commit.txt"), "make stubs"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("serve with no stubs said %q, want it to name %q", out, want)
		}
	}
}
