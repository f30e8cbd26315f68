package typeshed

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeStubsRefusesTamperedTarball runs `make stubs` with an npm that
// hands over a tarball of the pinned name but other bytes: the step must
// fail, say why, and leave the stubs directory as it was.
func TestMakeStubsRefusesTamperedTarball(t *testing.T) {
	for _, tool := range []string{"make", "sha512sum", "base64", "od", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found; the build step needs it", tool)
		}
	}
	fakeBin := t.TempDir()
	// npm pack --pack-destination DIR SPEC prints the tarball's name.
	fakeNpm := `#!/bin/sh
while [ $# -gt 0 ]; do
	case "$1" in --pack-destination) dest=$2; shift;; esac
	shift
done
echo 'not the pinned tarball' > "$dest/pyright-1.1.414.tgz"
echo pyright-1.1.414.tgz
`
	if err := os.WriteFile(filepath.Join(fakeBin, "npm"), []byte(fakeNpm), 0o755); err != nil {
		t.Fatal(err)
	}
	stubsDir := filepath.Join(t.TempDir(), "typeshed")
	kept := filepath.Join(stubsDir, "commit.txt")
	if err := os.MkdirAll(stubsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kept, []byte("an older fetch\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command("make", "--no-print-directory", "-C", filepath.Join("..", ".."), "stubs", "STUBS_DIR="+stubsDir)
	cmd.Env = append(os.Environ(), "PATH="+fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("make stubs accepted a tampered tarball:\n%s", out)
	}
	if !strings.Contains(string(out), "pinned integrity of pyright@1.1.414") || !strings.Contains(string(out), "refusing it") {
		t.Fatalf("make stubs failed without saying the integrity check refused the tarball:\n%s", out)
	}
	if got, err := os.ReadFile(kept); err != nil || string(got) != "an older fetch\n" {
		t.Fatalf("the stubs directory changed: %q, %v", got, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(stubsDir), ".typeshed.*")); len(left) != 0 {
		t.Fatalf("temporary directories left behind: %v", left)
	}
}
