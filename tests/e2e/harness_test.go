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
	"strings"
	"sync"
	"testing"
	"time"
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
func build(t *testing.T) {
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
		pluginsDir = filepath.Join(scratchRoot, "plugins")
		srcs, _ := filepath.Glob(filepath.Join(repoRoot, "plugins", "*", "manifest.json"))
		for _, m := range srcs {
			src := filepath.Dir(m)
			cmd := exec.Command(binPath, "plugin", "pack", src, filepath.Join(pluginsDir, filepath.Base(src)))
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
	t        *testing.T
	base     string
	keysPath string
	state    string
	cmd      *exec.Cmd
	logs     *bytes.Buffer
	mu       sync.Mutex
}

// startServer serves workspace with a fresh keys file.
func startServer(t *testing.T, workspace string, extraArgs ...string) *server {
	t.Helper()
	build(t)
	dir := t.TempDir()
	s := &server{t: t, keysPath: filepath.Join(dir, "keys.json"), state: filepath.Join(dir, "state"), logs: &bytes.Buffer{}}
	addr := freeAddr(t)
	s.base = "http://" + addr
	// Create the keys file before the server starts.
	s.addKey("free", "")
	args := append([]string{"serve", "--workspace", workspace, "--addr", addr, "--keys", s.keysPath,
		"--state", s.state, "--plugins", pluginsDir, "--workers", "2"}, extraArgs...)
	s.cmd = exec.Command(binPath, args...)
	s.cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(scratchRoot, "cache"))
	s.cmd.Stdout = &lockedWriter{mu: &s.mu, w: s.logs}
	s.cmd.Stderr = &lockedWriter{mu: &s.mu, w: s.logs}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	deadline := time.Now().Add(60 * time.Second)
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
	if s.cmd.Process != nil {
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
	if s.t.Failed() {
		s.t.Logf("server log:\n%s", s.logText())
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

func freeAddr(t *testing.T) string {
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

func (s *server) do(method, path, key string, body any) response {
	s.t.Helper()
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
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := response{Status: resp.StatusCode, Raw: raw, Header: resp.Header}
	_ = json.Unmarshal(raw, &r.Body)
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
func writeTree(t *testing.T, root string, files map[string]string) {
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

func mustStatus(t *testing.T, r response, status int, code string) {
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
