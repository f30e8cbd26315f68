// Package e2e runs the real pyws binary as a separate process and talks to
// it over real HTTP: keys made with `pyws keys add`, plugins packed with
// `pyws plugin pack`, files on disk.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/tests/internal/teststubs"
)

var (
	binPath     string // built pyws
	pluginsDir  string // packed plugins
	repoRoot    string
	buildOnce   sync.Once
	buildErr    error
	scratchRoot string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pyws-e2e-")
	if err != nil {
		panic(err)
	}
	scratchRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build compiles the binary and packs every plugin under plugins/ once per
// test run.
func build(t testing.TB) {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		repoRoot = filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
		binPath = filepath.Join(scratchRoot, "pyws")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/pyws")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		if buildErr = teststubs.LinkBeside(repoRoot, binPath); buildErr != nil {
			return
		}
		pluginsDir = filepath.Join(scratchRoot, "plugins")
		srcs, _ := filepath.Glob(filepath.Join(repoRoot, "plugins", "*", "manifest.json"))
		for _, m := range srcs {
			src := filepath.Dir(m)
			cmd := exec.Command(binPath, "plugin", "pack", src, pluginsDir)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("plugin pack %s: %v\n%s", src, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// server is one running pyws process.
type server struct {
	t        testing.TB
	base     string
	keysPath string
	state    string
	cmd      *exec.Cmd
	logs     *bytes.Buffer
	mu       sync.Mutex
}

// startServer serves workspace with a fresh keys file.
func startServer(t testing.TB, workspace string, extraArgs ...string) *server {
	t.Helper()
	return startServerWithKeys(t, workspace, "", extraArgs...)
}

// raceBinary returns the server binary built with the race detector when
// the tests themselves run under -race (binPath otherwise). Only the
// tests that drive concurrency into the kernel (churn, soak) serve with
// it: every end-to-end test on a -race server took the suite past 40
// minutes.
func raceBinary(t testing.TB) string {
	t.Helper()
	build(t)
	if !raceBuild {
		return binPath
	}
	raceOnce.Do(func() {
		raceBinPath = filepath.Join(scratchRoot, "pyws-race")
		cmd := exec.Command("go", "build", "-race", "-o", raceBinPath, "./cmd/pyws")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			raceErr = fmt.Errorf("go build -race: %v\n%s", err, out)
		}
	})
	if raceErr != nil {
		t.Fatal(raceErr)
	}
	return raceBinPath
}

var (
	raceOnce    sync.Once
	raceBinPath string
	raceErr     error
)

// startRaceServer is startServer on the race-detector build of the
// server (under `go test -race`): a data race in the kernel makes it exit
// 66, which fails the test.
func startRaceServer(t testing.TB, workspace string, extraArgs ...string) *server {
	t.Helper()
	return startServerBinary(t, raceBinary(t), workspace, "", extraArgs...)
}

// startServerWithKeys serves workspace with the keys file at keysPath
// (a fresh one when empty), so several servers can share one.
func startServerWithKeys(t testing.TB, workspace, keysPath string, extraArgs ...string) *server {
	t.Helper()
	build(t)
	return startServerBinary(t, binPath, workspace, keysPath, extraArgs...)
}

func startServerBinary(t testing.TB, bin, workspace, keysPath string, extraArgs ...string) *server {
	t.Helper()
	warmStubs(t, bin)
	return launch(t, bin, workspace, keysPath, extraArgs...)
}

var warmOnce sync.Once

// warmStubs starts one server on an empty workspace and waits until it
// has loaded, so that typeshed's stubs are summarized once into the
// cache every server's --state links to (scratchRoot/stubs). Cold, they
// take the indexer plugin seconds, and the tests that ask right after
// start-up would see WORKSPACE_NOT_LOADED; a deployment pays that once,
// as its --state persists.
func warmStubs(t testing.TB, bin string) {
	warmOnce.Do(func() {
		s := launch(t, bin, t.TempDir(), "")
		defer s.stop()
		key := s.addKey("pro", "")
		deadline := time.Now().Add(5 * time.Minute)
		for time.Now().Before(deadline) {
			r := s.tool(key, "health_check", map[string]any{"includeWorkspace": true})
			if jget(r.Body, "workspace", "loaded") == true {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("the stub cache was not warm after 5 minutes:\n%s", s.logText())
	})
}

func launch(t testing.TB, bin, workspace, keysPath string, extraArgs ...string) *server {
	t.Helper()
	return launchWrapped(t, nil, bin, workspace, keysPath, extraArgs...)
}

// launchWrapped is launch with the server run through wrap (a command and
// its arguments, the server's command line appended), as the chaos test
// runs it without the capabilities that let root read any file.
func launchWrapped(t testing.TB, wrap []string, bin, workspace, keysPath string, extraArgs ...string) *server {
	t.Helper()
	dir := t.TempDir()
	s := &server{t: t, keysPath: keysPath, state: filepath.Join(dir, "state"), logs: &bytes.Buffer{}}
	// Every server shares one cache of stub summaries (see warmStubs) and
	// one of compiled plugins: a server built with -race compiles each
	// plugin in 30-45 s on this machine (the compiler runs instrumented),
	// and minutes under the load of a whole `make test`, where a server
	// that compiled its own missed its tests' deadlines. wazero writes
	// each entry to a temporary file and renames it, so servers may share.
	if err := os.MkdirAll(s.state, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"stubs", "compile-cache"} {
		shared := filepath.Join(scratchRoot, dir)
		if err := os.MkdirAll(shared, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(shared, filepath.Join(s.state, dir)); err != nil {
			t.Fatal(err)
		}
	}
	addr := freeAddr(t)
	s.base = "http://" + addr
	if s.keysPath == "" {
		// Create the keys file before the server starts.
		s.keysPath = filepath.Join(dir, "keys.json")
		s.addKey("free", "")
	}
	args := append([]string{"serve", "--workspace", workspace, "--addr", addr, "--keys", s.keysPath,
		"--state", s.state, "--plugins", pluginsDir, "--workers", "2"}, extraArgs...)
	args = append([]string{bin}, args...)
	if len(wrap) > 0 {
		args = append(slices.Clone(wrap), args...)
	}
	s.cmd = exec.Command(args[0], args[1:]...)
	s.cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(scratchRoot, "cache"))
	s.cmd.Stdout = &lockedWriter{mu: &s.mu, w: s.logs}
	s.cmd.Stderr = &lockedWriter{mu: &s.mu, w: s.logs}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	// The first start compiles every plugin (cold wazero cache); under
	// -race the compiler runs instrumented and takes minutes, not seconds.
	wait := 60 * time.Second
	if bin == raceBinPath {
		wait = 5 * time.Minute
	}
	deadline := time.Now().Add(wait)
	for {
		resp, err := http.Get(s.base + "/v1/openapi.json")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) || s.cmd.ProcessState != nil {
			t.Fatalf("server did not start: %v\n%s", err, s.logText())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return s
}

func (s *server) stop() {
	// A shared service never dies: a server that exits other than
	// cleanly on SIGINT (a Go runtime abort exits 2; under `go test
	// -race` the server is built with -race and exits 66 after a data
	// race) fails the test that drove it.
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		select {
		case <-done:
			if code := s.cmd.ProcessState.ExitCode(); code != 0 {
				s.t.Errorf("server exited with status %d", code)
			}
		case <-time.After(15 * time.Second):
			s.cmd.Process.Kill()
			<-done
		}
	}
	logs := s.logText()
	if strings.Contains(logs, "WARNING: DATA RACE") {
		s.t.Errorf("the server reported a data race")
	}
	// The docs and the OpenAPI document promise each operation's codes
	// from its row; an answer outside them is a row to complete.
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, service.UndeclaredFaultLog) {
			s.t.Errorf("add the code to the operation's Faults in host/service/operations.go: %s", line)
		}
	}
	if s.t.Failed() {
		s.t.Logf("server log:\n%s", logs)
	}
}

func (s *server) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// addKey runs `pyws keys add` and returns the key from its last line.
func (s *server) addKey(tier, workspace string) string {
	s.t.Helper()
	args := []string{"keys", "add", "--keys", s.keysPath, "--tier", tier}
	if workspace != "" {
		args = append(args, "--workspace", workspace)
	}
	out, err := exec.Command(binPath, args...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("keys add: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// response is a decoded reply.
type response struct {
	Status int
	Body   map[string]any
	Raw    []byte
	Header http.Header
}

// ErrCode is error.code of an envelope ("" when the reply is a result).
func (r response) ErrCode() string {
	e, _ := r.Body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func (r response) ErrDetails() map[string]any {
	e, _ := r.Body["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	return d
}

// do sends a request and fails the test if it cannot be sent.
func (s *server) do(method, path, key string, body any) response {
	s.t.Helper()
	r, err := s.try(method, path, key, body)
	if err != nil {
		s.t.Fatal(err)
	}
	return r
}

// tool calls a tool through the generic shape.
func (s *server) tool(key, name string, args any) response {
	return s.do("POST", "/v1/tools/call", key, map[string]any{"name": name, "arguments": args})
}

// resource reads a resource through the generic shape.
func (s *server) resource(key, uri string, params any) response {
	return s.do("POST", "/v1/resources/read", key, map[string]any{"uri": uri, "params": params})
}

// writeTree writes files (path -> content) under root.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustStatus(t testing.TB, r response, status int, code string) {
	t.Helper()
	if r.Status != status || r.ErrCode() != code {
		t.Fatalf("status %d code %q, want %d %q; body %s", r.Status, r.ErrCode(), status, code, r.Raw)
	}
	if code != "" {
		e, _ := r.Body["error"].(map[string]any)
		if msg, _ := e["message"].(string); msg == "" {
			t.Fatalf("error without message: %s", r.Raw)
		}
		if _, ok := e["details"].(map[string]any); !ok {
			t.Fatalf("error without details object: %s", r.Raw)
		}
	}
}

// try is do without failing the test, so goroutines can use it.
func (s *server) try(method, path, key string, body any) (response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(j)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		return response{}, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	r := response{Status: resp.StatusCode, Raw: raw, Header: resp.Header}
	_ = json.Unmarshal(raw, &r.Body)
	return r, nil
}

// jget walks decoded JSON: string steps index objects, int steps arrays.
// It returns nil when a step is missing.
func jget(v any, steps ...any) any {
	for _, st := range steps {
		switch k := st.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k < 0 || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// fileURI is the file:// URI of an absolute path.
func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

// realDir is dir with its symbolic links evaluated (what the server
// reports as the workspace root).
func realDir(t *testing.T, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fileBytes records the contents of files (nil for a missing one), to show
// later that a refused request changed nothing.
func fileBytes(t *testing.T, paths ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		out[p] = b
	}
	return out
}

// mustBeUnchanged fails when any file differs from the snapshot.
func mustBeUnchanged(t *testing.T, before map[string][]byte) {
	t.Helper()
	for p, b := range before {
		now, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if (b == nil) != (now == nil) || !bytes.Equal(b, now) {
			t.Errorf("%s changed: before %q, after %q", p, b, now)
		}
	}
}

// eventually polls cond every 20 ms until it holds or timeout passes.
func eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// addKeyReady is addKey, then waits until the running server accepts the
// key (the server rereads the keys file at most every 250 ms).
func (s *server) addKeyReady(tier, workspace string) string {
	s.t.Helper()
	key := s.addKey(tier, workspace)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := s.try("GET", "/v1/tools/health_check?includeWorkspace=false", key, nil)
		if err == nil && r.Status != http.StatusUnauthorized {
			return key
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("key not accepted within 10s: %v %s", err, r.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
