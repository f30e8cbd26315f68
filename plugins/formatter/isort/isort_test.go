package isort

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "re-record the golden files with the installed isort (isort --profile black -), and the corpus lists of known differences")

// TestGolden compares Sort with outputs recorded from isort 5.6.4
// (`isort --profile black -`, run in testdata/project so mypkg, srcpkg
// and localmod are first party).
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/cases/*.py*")
	if err != nil {
		t.Fatal(err)
	}
	project, _ := filepath.Abs("testdata/project")
	cfg := Config{SrcModules: FindSrcModules(project)}
	n := 0
	for _, in := range inputs {
		if strings.HasSuffix(in, ".golden") {
			continue
		}
		n++
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			golden := in + ".golden"
			if *update {
				record(t, project, in, src, golden)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to record)", err)
			}
			c := cfg
			c.Pyi = strings.HasSuffix(in, ".pyi")
			got, err := Sort(string(src), c)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("Sort(%s) differs from isort:\n--- got\n%s\n--- want\n%s", in, got, want)
			}
			again, _ := Sort(got, c)
			if again != got {
				t.Errorf("not idempotent:\n%s\n---\n%s", got, again)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d cases found", n)
	}
}

// record runs the real isort on a copy of the input inside the project
// directory (file mode: the extension decides .pyi handling, and
// skip_file leaves the file as it is).
func record(t *testing.T, project, in string, src []byte, golden string) {
	t.Helper()
	tmp := filepath.Join(project, "golden_input"+filepath.Ext(in))
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(tmp)
	cmd := exec.Command("isort", "--profile", "black", "-q", filepath.Base(tmp))
	cmd.Dir = project
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("isort: %v\n%s", err, out)
	}
	out, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(golden, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
