// Package format is the differential test of format_document against the
// reference tools. It runs only with PYWS_DIFF_FORMAT=1 (it needs Debian's
// isort 5.6 and black 23.1 and the python3-{requests,flask,django}
// packages, and takes minutes):
//
//	PYWS_DIFF_FORMAT=1 go test -count=1 -timeout 60m -v ./tests/differential/format/
//
// For each project it copies /usr/lib/python3/dist-packages/<project> into
// a fresh workspace root, runs `isort --profile black .` then `black .` on
// a second copy (timed, and `black .` alone on a third), serves the first
// copy with the real pyws binary and plugins, calls format_document on
// every .py/.pyi file over HTTP (timed, two concurrent clients as the
// server has two workers), applies the edits, and compares each result
// with the reference. The files that differ or are refused (with the
// refusal's code and reason) must be exactly those recorded in
// testdata/<project>.known; re-record with -update. The same server then
// answers get_code_actions' source.organizeImports for every file, compared
// with `isort --profile black` alone on a fourth copy (the differences
// recorded in testdata/<project>.organize.known). It logs the share per
// project, the refusals by error code and reason, a sample of differing
// lines and the speeds; PYWS_DIFF_REPORT=<file> writes every difference,
// PYWS_DIFF_FORMAT_PROJECTS=requests,flask picks projects.
package format

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/knowndiff"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/tests/internal/teststubs"
)

var update = flag.Bool("update", false, "re-record testdata/<project>.known")

var projects = []string{"requests", "flask", "django"}

func TestDifferential(t *testing.T) {
	if os.Getenv("PYWS_DIFF_FORMAT") == "" {
		t.Skip("set PYWS_DIFF_FORMAT=1 to run the differential test")
	}
	for _, tool := range []string{"isort", "black"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not installed: %v", tool, err)
		}
	}
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	scratch := t.TempDir()
	bin, plugins := buildPyws(t, repo, scratch)

	if p := os.Getenv("PYWS_DIFF_FORMAT_PROJECTS"); p != "" {
		projects = strings.Split(p, ",")
	}
	var report strings.Builder
	for _, p := range projects {
		src := filepath.Join("/usr/lib/python3/dist-packages", p)
		if _, err := os.Stat(src); err != nil {
			t.Errorf("%s: not installed (apt-get install python3-%s)", p, p)
			continue
		}
		t.Run(p, func(t *testing.T) { differential(t, p, src, filepath.Join(scratch, p), bin, plugins, &report) })
	}
	if out := os.Getenv("PYWS_DIFF_REPORT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// differential formats project p (installed at src) through pyws and with
// isort and black, in copies under root, and checks the differences with
// the recorded list.
func differential(t *testing.T, p, src, root, bin, plugins string, report *strings.Builder) {
	ws, ref, blk, srt := filepath.Join(root, "ws"), filepath.Join(root, "ref"), filepath.Join(root, "black"), filepath.Join(root, "isort")
	for _, d := range []string{ws, ref, blk, srt} {
		copyTree(t, src, filepath.Join(d, p))
	}
	files := pythonFiles(t, filepath.Join(ws, p))

	isortTime := timeCmd(t, ref, "isort", "--profile", "black", "-q", ".")
	blackAfterIsort := timeCmd(t, ref, "black", "-q", ".")
	blackTime := timeCmd(t, blk, "black", "-q", ".")
	timeCmd(t, srt, "isort", "--profile", "black", "-q", ".")

	s := serve(t, bin, plugins, ws, filepath.Join(root, "state"))
	results, pywsTime := formatAll(t, s, ws, files)
	organized, organizeTime := organizeAll(t, s, ws, files)
	s.stop()
	compareOrganized(t, p, srt, organized, organizeTime)

	same := 0
	known := map[string]string{} // "differs rel" or "refused rel: reason" -> what shows it
	causes := map[string]int{}
	var samples []string
	for _, r := range results {
		want, err := os.ReadFile(filepath.Join(ref, r.rel))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r.err != "":
			known["refused "+r.rel+": "+r.err] = ""
			causes["refused: "+r.err]++
			fmt.Fprintf(report, "%s/%s: refused: %s\n", p, r.rel, r.err)
		case bytes.Equal(r.out, want):
			same++
		default:
			line, got, exp := firstDiff(r.out, want)
			known["differs "+r.rel] = fmt.Sprintf("line %d:\n  got:  %q\n  want: %q", line, got, exp)
			causes["differs"]++
			fmt.Fprintf(report, "%s/%s:%d:\n  got:  %q\n  want: %q\n", p, r.rel, line, got, exp)
			if len(samples) < 8 {
				samples = append(samples, fmt.Sprintf("%s:%d got %q want %q", r.rel, line, clip(got), clip(exp)))
			}
		}
	}
	n := len(results)
	if n == 0 {
		t.Fatalf("%s: no files formatted", p)
	}
	t.Logf("%s: %d/%d files identical to isort --profile black + black (%.1f%%)", p, same, n, 100*float64(same)/float64(n))
	keys := make([]string, 0, len(causes))
	for k := range causes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return causes[keys[i]] > causes[keys[j]] })
	for _, k := range keys {
		t.Logf("  %4d  %s", causes[k], k)
	}
	for _, s := range samples {
		t.Logf("  e.g. %s", s)
	}
	fps := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
	t.Logf("%s speed, %d files: pyws %.1f files/s (%v); black %.1f files/s (%v); isort+black %.1f files/s (%v); pyws/black %.1fx, pyws/(isort+black) %.1fx",
		p, n, fps(pywsTime), pywsTime.Round(time.Millisecond), fps(blackTime), blackTime.Round(time.Millisecond),
		fps(isortTime+blackAfterIsort), (isortTime + blackAfterIsort).Round(time.Millisecond),
		blackTime.Seconds()/pywsTime.Seconds(), (isortTime+blackAfterIsort).Seconds()/pywsTime.Seconds())
	knowndiff.List{
		Path:   filepath.Join("testdata", p+".known"),
		Header: "Files of Debian's python3-" + p + " on which format_document differs from isort 5.6 --profile black then black 23.1, or refuses.\nRecorded by TestDifferential -update.",
		Record: "PYWS_DIFF_FORMAT=1 PYWS_DIFF_FORMAT_PROJECTS=" + p + " go test ./tests/differential/format -update",
	}.Check(t, known, *update)
}

// compareOrganized checks get_code_actions' source.organizeImports, applied
// to each file, against `isort --profile black` alone (the copy under
// isortRoot): the files that differ or are refused must be those of
// testdata/<project>.organize.known.
func compareOrganized(t *testing.T, p, isortRoot string, results []result, took time.Duration) {
	same := 0
	known := map[string]string{}
	for _, r := range results {
		want, err := os.ReadFile(filepath.Join(isortRoot, r.rel))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r.err != "":
			known["refused "+r.rel+": "+r.err] = ""
		case bytes.Equal(r.out, want):
			same++
		default:
			line, got, exp := firstDiff(r.out, want)
			known["differs "+r.rel] = fmt.Sprintf("line %d:\n  got:  %q\n  want: %q", line, got, exp)
		}
	}
	n := len(results)
	t.Logf("%s: organize imports: %d/%d files identical to isort --profile black (%.1f%%), %.1f files/s", p, same, n,
		100*float64(same)/float64(n), float64(n)/took.Seconds())
	knowndiff.List{
		Path:   filepath.Join("testdata", p+".organize.known"),
		Header: "Files of Debian's python3-" + p + " on which get_code_actions' source.organizeImports differs from isort 5.6 --profile black, or refuses.\nRecorded by TestDifferential -update.",
		Record: "PYWS_DIFF_FORMAT=1 PYWS_DIFF_FORMAT_PROJECTS=" + p + " go test ./tests/differential/format -update",
	}.Check(t, known, *update)
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

func firstDiff(a, b []byte) (int, string, string) {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

func buildPyws(t *testing.T, repo, scratch string) (bin, plugins string) {
	t.Helper()
	bin = filepath.Join(scratch, "pyws")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/pyws")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := teststubs.LinkBeside(repo, bin); err != nil {
		t.Fatal(err)
	}
	plugins = filepath.Join(scratch, "plugins")
	manifests, _ := filepath.Glob(filepath.Join(repo, "plugins", "*", "manifest.json"))
	for _, m := range manifests {
		if out, err := exec.Command(bin, "plugin", "pack", filepath.Dir(m), plugins).CombinedOutput(); err != nil {
			t.Fatalf("plugin pack: %v\n%s", err, out)
		}
	}
	return bin, plugins
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("mkdir", "-p", filepath.Dir(to)).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if out, err := exec.Command("cp", "-rL", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	filepath.WalkDir(to, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "__pycache__" {
			os.RemoveAll(p)
			return filepath.SkipDir
		}
		return nil
	})
}

func pythonFiles(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func timeCmd(t *testing.T, dir, name string, args ...string) time.Duration {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	// A fresh cache: black skips files its cache says are formatted.
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		// black exits 123 when it fails on some files; the others are formatted.
		t.Logf("%s in %s: %v %s", name, dir, err, clip(string(out)))
	}
	return d
}

type server struct {
	base, key string
	cmd       *exec.Cmd
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

func serve(t *testing.T, bin, plugins, ws, state string) *server {
	t.Helper()
	keys := filepath.Join(state, "keys.json")
	os.MkdirAll(state, 0o700)
	out, err := exec.Command(bin, "keys", "add", "--keys", keys, "--tier", "enterprise").CombinedOutput()
	if err != nil {
		t.Fatalf("keys add: %v %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "serve", "--workspace", ws, "--addr", addr, "--keys", keys, "--state", state,
		"--plugins", plugins, "--workers", "2")
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{base: "http://" + addr, key: lines[len(lines)-1], cmd: cmd}
	deadline := time.Now().Add(120 * time.Second)
	for {
		r, err := s.format(filepath.Join(ws, "nonexistent.py"))
		if err == nil && r.Error.Code != "WORKSPACE_NOT_LOADED" {
			return s
		}
		if time.Now().After(deadline) {
			s.stop()
			t.Fatalf("server not ready: %v %+v", err, r)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

type formatReply struct {
	Edits []abi.TextEdit `json:"edits"`
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func (s *server) format(path string) (formatReply, error) {
	var r formatReply
	err := s.call("format_document", map[string]any{"uri": "file://" + path}, &r)
	return r, err
}

// organizeReply is get_code_actions' answer, or an error.
type organizeReply struct {
	Actions []struct {
		Kind string `json:"kind"`
		Edit struct {
			Changes map[string][]abi.TextEdit `json:"changes"`
		} `json:"edit"`
	} `json:"actions"`
	Error struct {
		Code    string         `json:"code"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// organizeImports asks for the organize-imports action of a file.
func (s *server) organizeImports(path string) (organizeReply, error) {
	var r organizeReply
	cursor := map[string]any{"line": 0, "character": 0}
	err := s.call("get_code_actions", map[string]any{"uri": "file://" + path,
		"range": map[string]any{"start": cursor, "end": cursor}, "only": []string{"source.organizeImports"}}, &r)
	return r, err
}

func (s *server) call(tool string, args map[string]any, reply any) error {
	body, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.base+"/v1/tools/call", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(reply)
}

type result struct {
	rel string
	out []byte
	err string
}

// formatAll formats every file with two concurrent clients and applies
// the edits in memory (tests/e2e checks apply_workspace_edit itself).
func formatAll(t *testing.T, s *server, ws string, files []string) ([]result, time.Duration) {
	return forEachFile(t, ws, files, func(path string) (edits []abi.TextEdit, refused string, err error) {
		r, err := s.format(path)
		if err != nil || r.Error.Code == "" {
			return r.Edits, "", err
		}
		reason, _ := r.Error.Details["reason"].(string)
		return nil, strings.TrimSpace(r.Error.Code + " " + reason), nil
	})
}

// organizeAll applies each file's organize-imports action (none: the file
// stays as it is).
func organizeAll(t *testing.T, s *server, ws string, files []string) ([]result, time.Duration) {
	return forEachFile(t, ws, files, func(path string) (edits []abi.TextEdit, refused string, err error) {
		r, err := s.organizeImports(path)
		if err != nil || r.Error.Code != "" {
			return nil, r.Error.Code, err
		}
		for _, a := range r.Actions {
			edits = append(edits, a.Edit.Changes["file://"+path]...)
		}
		return edits, "", nil
	})
}

// forEachFile asks edits for every file with two concurrent clients (the
// server has two workers) and applies them in memory.
func forEachFile(t *testing.T, ws string, files []string, ask func(path string) ([]abi.TextEdit, string, error)) ([]result, time.Duration) {
	t.Helper()
	results := make([]result, len(files))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(files) {
					return
				}
				rel, _ := filepath.Rel(ws, files[i])
				edits, refused, err := ask(files[i])
				res := result{rel: rel}
				switch {
				case err != nil:
					res.err = "transport: " + err.Error()
				case refused != "":
					res.err = refused
				default:
					src, _ := os.ReadFile(files[i])
					res.out = apply(src, edits)
				}
				results[i] = res
			}
		}()
	}
	wg.Wait()
	return results, time.Since(start)
}

func apply(src []byte, edits []abi.TextEdit) []byte {
	idx := textpos.New(src)
	out := append([]byte(nil), src...)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		s, _ := idx.Offset(e.Range.Start.Line, e.Range.Start.Character)
		en, _ := idx.Offset(e.Range.End.Line, e.Range.End.Character)
		out = append(out[:s:s], append([]byte(e.NewText), out[en:]...)...)
	}
	return out
}
