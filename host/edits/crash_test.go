package edits

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

const (
	crashEnvPoint = "PYWS_EDITS_CRASH_POINT"
	crashEnvHow   = "PYWS_EDITS_CRASH_HOW" // "kill" (SIGKILL, default) or "exit"
	crashEnvRoot  = "PYWS_EDITS_CRASH_ROOT"
	crashEnvState = "PYWS_EDITS_CRASH_STATE"
)

// The crash scenario: three files in two directories, all edited by one
// apply. old and new are the whole-set states recovery may leave.
var (
	crashOld = map[string]string{
		"a.py":     "import b\nb.run()\n",
		"pkg/b.py": "def run():\n    pass\n",
		"pkg/c.py": "from b import run\nrun()\n",
	}
	crashNew = map[string]string{
		"a.py":     "import b\nb.go()\n",
		"pkg/b.py": "def go():\n    pass\n",
		"pkg/c.py": "from b import go\ngo()\n",
	}
)

func crashChanges(root string) map[string][]abi.TextEdit {
	return map[string][]abi.TextEdit{
		uriOf(root, "a.py"):     {ed(1, 2, 1, 5, "go")},
		uriOf(root, "pkg/b.py"): {ed(0, 4, 0, 7, "go")},
		uriOf(root, "pkg/c.py"): {ed(1, 0, 1, 3, "go"), ed(0, 14, 0, 17, "go")},
	}
}

// crashChild runs in the re-executed test binary: it applies the scenario
// and dies at the requested point.
func crashChild() {
	point, root, state := os.Getenv(crashEnvPoint), os.Getenv(crashEnvRoot), os.Getenv(crashEnvState)
	e, err := Open(state)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open:", err)
		os.Exit(2)
	}
	crashHook = func(p string) {
		if p != point {
			return
		}
		if os.Getenv(crashEnvHow) == "exit" {
			os.Exit(3)
		}
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
	if _, err := e.Apply(context.Background(), dirResolver{root}, crashChanges(root), Limits{}); err != nil {
		fmt.Fprintln(os.Stderr, "child: apply:", err)
		os.Exit(2)
	}
	os.Exit(0) // the point was never reached
}

// runCrash sets up the scenario and runs a child that dies at point.
func runCrash(t *testing.T, point, how string) (root, state string) {
	t.Helper()
	root, state = t.TempDir(), t.TempDir()
	for rel, c := range crashOld {
		writeFile(t, filepath.Join(root, rel), c, 0o644)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnvPoint+"="+point, crashEnvHow+"="+how, crashEnvRoot+"="+root, crashEnvState+"="+state)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("child did not die at %s: err %v, output %s", point, err, out)
	}
	ws := exit.Sys().(syscall.WaitStatus)
	switch how {
	case "exit":
		if ws.ExitStatus() != 3 {
			t.Fatalf("child exit status %d, output %s", ws.ExitStatus(), out)
		}
	default:
		if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("child not killed: %v, output %s", ws, out)
		}
	}
	return root, state
}

// workspaceState reads the scenario's files and any stray names.
func workspaceState(t *testing.T, root string) (files map[string]string, strays []string) {
	t.Helper()
	files = map[string]string{}
	for rel := range crashOld {
		files[rel] = readFile(t, filepath.Join(root, rel))
	}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		if !d.IsDir() {
			if _, ok := crashOld[rel]; !ok {
				strays = append(strays, rel)
			}
		}
		return nil
	})
	return files, strays
}

func equalSet(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCrashRecovery kills an apply at every injectable point and checks
// that Open leaves the set all old (before commit) or all new (after).
func TestCrashRecovery(t *testing.T) {
	tests := []struct {
		point   string
		how     string
		wantNew bool
	}{
		{"journal-written", "kill", false},
		{"temps-written", "kill", false},
		{"temps-written", "exit", false},
		{"committed", "kill", true},
		{"renamed-1", "kill", true},
		{"renamed-2", "kill", true},
		{"renamed-2", "exit", true},
		{"renamed-3", "kill", true},
		{"done", "kill", true},
	}
	for _, tt := range tests {
		t.Run(tt.point+"/"+tt.how, func(t *testing.T) {
			root, state := runCrash(t, tt.point, tt.how)

			// Before recovery: each file is whole (old or new), never torn.
			mid, _ := workspaceState(t, root)
			for rel, c := range mid {
				if c != crashOld[rel] && c != crashNew[rel] {
					t.Fatalf("%s torn before recovery: %q", rel, c)
				}
			}

			e, err := Open(state)
			if err != nil {
				t.Fatal(err)
			}
			got, strays := workspaceState(t, root)
			want := crashOld
			if tt.wantNew {
				want = crashNew
			}
			if !equalSet(got, want) {
				t.Errorf("after recovery: %q\nwant %q", got, want)
			}
			if len(strays) != 0 {
				t.Errorf("stray files in the workspace: %v", strays)
			}
			if names := journalNames(t, state); len(names) != 0 {
				t.Errorf("journal dir holds %v", names)
			}
			if tt.point != "done" && len(e.Recovered()) != 1 {
				t.Errorf("recovered = %+v", e.Recovered())
			}
			// A second Open finds nothing to do, and the engine works.
			e2, err := Open(state)
			if err != nil || len(e2.Recovered()) != 0 {
				t.Fatalf("second open: %v, %+v", err, e2.Recovered())
			}
			if _, err := e2.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), ins(0, 0, "#\n")), Limits{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRecoveryLeavesLaterChanges: a file changed by someone after the
// crash is neither old nor new; recovery must not overwrite it.
func TestRecoveryLeavesLaterChanges(t *testing.T) {
	root, state := runCrash(t, "committed", "kill")
	edited := filepath.Join(root, "pkg/b.py")
	writeFile(t, edited, "# edited by hand\n", 0o644)

	e, err := Open(state)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := workspaceState(t, root)
	if got["a.py"] != crashNew["a.py"] || got["pkg/c.py"] != crashNew["pkg/c.py"] || got["pkg/b.py"] != "# edited by hand\n" {
		t.Errorf("after recovery: %q", got)
	}
	recs := e.Recovered()
	if len(recs) != 1 || !recs[0].Committed || !slices.Equal(recs[0].Conflicts, []string{edited}) || len(recs[0].Rewritten) != 2 {
		t.Errorf("recovered = %+v", recs)
	}
}

// TestRecoveryHostileReplacements: a file of a committed journal replaced
// after the crash by a FIFO (whose read blocked the start forever), a
// sparse giant or a link is a conflict, left as it is.
func TestRecoveryHostileReplacements(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace func(t *testing.T, p string)
	}{
		{"FIFO", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"sparse 8 GiB", func(t *testing.T, p string) {
			writeFile(t, p, "", 0o644)
			if err := os.Truncate(p, 8<<30); err != nil {
				t.Fatal(err)
			}
		}},
		{"link", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, state := runCrash(t, "committed", "kill")
			edited := filepath.Join(root, "pkg/b.py")
			if err := os.Remove(edited); err != nil {
				t.Fatal(err)
			}
			tc.replace(t, edited)
			opened := make(chan error, 1)
			var e *Engine
			go func() {
				var err error
				e, err = Open(state)
				opened <- err
			}()
			select {
			case err := <-opened:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("recovery blocks")
			}
			recs := e.Recovered()
			if len(recs) != 1 || !slices.Equal(recs[0].Conflicts, []string{edited}) {
				t.Errorf("recovered = %+v", recs)
			}
			if fi, err := os.Lstat(edited); err != nil || fi.Mode().IsRegular() && fi.Size() != 8<<30 {
				t.Errorf("the replacement was touched: %v %v", fi, err)
			}
		})
	}
}

// TestCorruptCommittedJournal: a committed journal that fails its checksum
// cannot be rolled forward; it is kept aside and reported, files untouched.
func TestCorruptCommittedJournal(t *testing.T) {
	root, state := runCrash(t, "committed", "kill")
	names := journalNames(t, state)
	if len(names) != 1 || !strings.HasSuffix(names[0], ".journal") {
		t.Fatalf("journal dir holds %v", names)
	}
	path := filepath.Join(state, "journal", names[0])
	data, _ := os.ReadFile(path)
	data[len(data)-2] ^= 1
	os.WriteFile(path, data, 0o600)

	e, err := Open(state)
	if err != nil {
		t.Fatal(err)
	}
	if recs := e.Recovered(); len(recs) != 1 || !recs[0].Corrupt {
		t.Errorf("recovered = %+v", recs)
	}
	if names := journalNames(t, state); len(names) != 1 || !strings.HasSuffix(names[0], ".corrupt") {
		t.Errorf("journal dir holds %v", names)
	}
	got, _ := workspaceState(t, root)
	if !equalSet(got, crashOld) {
		t.Errorf("files changed: %q", got)
	}
}

// TestLiveJournalSkipped: recovery must not touch a journal whose apply is
// still running (it holds the journal's flock).
func TestLiveJournalSkipped(t *testing.T) {
	root, e := newWorkspace(t, map[string]string{"a.py": "x\n"})
	inside := make(chan struct{})
	resume := make(chan struct{})
	crashHook = func(p string) {
		if p == "committed" {
			close(inside)
			<-resume
		}
	}
	defer func() { crashHook = nil }()
	done := make(chan error)
	go func() {
		_, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), ins(0, 0, "y")), Limits{})
		done <- err
	}()
	<-inside
	other, err := Open(e.stateDir) // runs recovery while the apply is live
	if err != nil {
		t.Fatal(err)
	}
	if len(other.Recovered()) != 0 || len(journalNames(t, e.stateDir)) != 1 {
		t.Errorf("live journal touched: %+v", other.Recovered())
	}
	close(resume)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(root, "a.py")); got != "yx\n" {
		t.Errorf("content %q", got)
	}
}

// TestRecoveryDirectoryLinkedOut: a directory of a committed journal
// replaced after the crash by a link out of the workspace, to a copy
// holding the old bytes, is a conflict: recovery writes nothing there.
func TestRecoveryDirectoryLinkedOut(t *testing.T) {
	root, state := runCrash(t, "committed", "kill")
	pkg := filepath.Join(root, "pkg")
	outside := filepath.Join(t.TempDir(), "pkg")
	if err := os.Rename(pkg, outside); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(outside, "b.py"), crashOld["pkg/b.py"], 0o644)
	writeFile(t, filepath.Join(outside, "c.py"), crashOld["pkg/c.py"], 0o644)
	if err := os.Symlink(outside, pkg); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(outside) // the apply's temporary files came along
	e, err := Open(state)
	if err != nil {
		t.Fatal(err)
	}
	recs := e.Recovered()
	want := []string{filepath.Join(pkg, "b.py"), filepath.Join(pkg, "c.py")}
	if len(recs) != 1 || !slices.Equal(recs[0].Conflicts, want) {
		t.Errorf("recovered = %+v, want conflicts %v", recs, want)
	}
	for _, rel := range []string{"b.py", "c.py"} {
		if b, _ := os.ReadFile(filepath.Join(outside, rel)); string(b) != crashOld["pkg/"+rel] {
			t.Errorf("recovery wrote outside the workspace: %s = %q", rel, b)
		}
	}
	if after, _ := os.ReadDir(outside); len(after) != len(before) {
		t.Errorf("recovery changed the files outside the workspace: %v, was %v", after, before)
	}
}
