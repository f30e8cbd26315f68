package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawRequest opens a connection and writes head (request line and
// headers, without the blank line), the blank line, then body.
func (s *server) rawRequest(t *testing.T, head, body string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+"\r\n\r\n"+body); err != nil {
		t.Fatal(err)
	}
	return conn
}

// readAnswer reads one response from conn within timeout.
func readAnswer(conn net.Conn, timeout time.Duration) (status int, code, parameter string, err error) {
	conn.SetReadDeadline(time.Now().Add(timeout))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	code = regexp.MustCompile(`"code":"([A-Z_]+)"`).FindStringSubmatch(string(raw) + `"code":""`)[1]
	if m := regexp.MustCompile(`"parameter":"([a-z]+)"`).FindStringSubmatch(string(raw)); m != nil {
		parameter = m[1]
	}
	return resp.StatusCode, code, parameter, nil
}

// rssMiB is the resident set of the server process.
func (s *server) rssMiB(t *testing.T) float64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	m := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(status)
	kb, _ := strconv.Atoi(string(m[1]))
	return float64(kb) / 1024
}

// TestLyingContentLengthsCostNothing: sockets that declare huge bodies and
// send one byte commit no memory. Without a key they get 401 at once (the
// body is never read); with a key, within its tier's cap, memory follows
// the bytes that arrive and the stalled bodies time out.
func TestLyingContentLengthsCostNothing(t *testing.T) {
	ws := t.TempDir()
	s := startServer(t, ws, "--body-timeout", "1s")
	key := s.addKey("free", "")
	// The plugin runtime starts in the background (compiling or loading
	// the plugins in the server): measure once it has.
	eventually(t, 2*time.Minute, "plugin workers started", func() bool {
		r := s.tool(key, "health_check", map[string]any{})
		problems, _ := r.Body["problems"].([]any)
		return r.Status == 200 && !slices.Contains(problems, any("plugin workers starting"))
	})
	const sockets = 40
	tests := []struct {
		name     string
		auth     string
		declared int
		within   time.Duration
		status   int
		code     string
	}{
		{"no key", "", 33_000_000, 5 * time.Second, 401, "AUTHENTICATION_FAILED"},
		{"bad key", "Authorization: Bearer pyws_not_a_key\r\n", 33_000_000, 5 * time.Second, 401, "AUTHENTICATION_FAILED"},
		{"key, under its cap", "Authorization: Bearer " + key + "\r\n", 2_000_000, 15 * time.Second, 400, "INVALID_PARAMETER"},
		{"key, over its cap", "Authorization: Bearer " + key + "\r\n", 33_000_000, 5 * time.Second, 400, "INVALID_PARAMETER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.rssMiB(t)
			start := time.Now()
			conns := make([]net.Conn, sockets)
			for i := range conns {
				conns[i] = s.rawRequest(t, fmt.Sprintf("POST /v1/tools/call HTTP/1.1\r\nHost: x\r\n%sContent-Type: application/json\r\nContent-Length: %d", tt.auth, tt.declared), "{")
			}
			peak := before
			for _, c := range conns {
				status, code, _, err := readAnswer(c, tt.within)
				if err != nil || status != tt.status || code != tt.code {
					t.Fatalf("answer %d %s %v, want %d %s", status, code, err, tt.status, tt.code)
				}
				peak = max(peak, s.rssMiB(t))
			}
			elapsed := time.Since(start)
			t.Logf("%d sockets declaring %d bytes: answered in %v, server RSS %.1f MiB -> peak %.1f MiB (+%.1f)",
				sockets, tt.declared, elapsed.Round(time.Millisecond), before, peak, peak-before)
			if peak-before > 100 {
				t.Fatalf("RSS grew by %.1f MiB", peak-before)
			}
		})
	}
}

// TestSlowBodyTimesOut: a body that stops arriving is answered at the body
// timeout, not held open.
func TestSlowBodyTimesOut(t *testing.T) {
	ws := t.TempDir()
	s := startServer(t, ws, "--body-timeout", "1s")
	key := s.addKey("free", "")
	start := time.Now()
	conn := s.rawRequest(t, "POST /v1/tools/call HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+key+"\r\nContent-Length: 20000", strings.Repeat(" ", 9000))
	status, code, parameter, err := readAnswer(conn, 20*time.Second)
	if err != nil || status != 400 || code != "INVALID_PARAMETER" || parameter != "body" {
		t.Fatalf("answer %d %s %s %v, want 400 INVALID_PARAMETER on body", status, code, parameter, err)
	}
	t.Logf("stalled body answered after %v", time.Since(start).Round(time.Millisecond))
}

// TestHugeHeaderIsAnswered: a 1 MB Authorization header gets the envelope,
// not a connection reset, from a client that writes it all before reading.
func TestHugeHeaderIsAnswered(t *testing.T) {
	ws := t.TempDir()
	s := startServer(t, ws)
	req, _ := http.NewRequest("GET", s.base+"/v1/tools/health_check", nil)
	req.Header.Set("Authorization", "Bearer "+strings.Repeat("k", 1<<20))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("net/http client: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for i := 0; i < 3; i++ {
		conn := s.rawRequest(t, "GET /v1/tools/health_check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+strings.Repeat("k", 1<<20), "")
		status, code, parameter, err := readAnswer(conn, 10*time.Second)
		if err != nil || status != 400 || code != "INVALID_PARAMETER" || parameter != "headers" {
			t.Fatalf("raw client: %d %s %s %v", status, code, parameter, err)
		}
	}
}

// TestClientDisconnectStopsPluginCall: a client that gives up on a
// format_document that never finishes (tests/plugins/stall) frees the
// plugin worker at once, not at the plugin's 60 s timeout.
func TestClientDisconnectStopsPluginCall(t *testing.T) {
	build(t)
	stallDir := filepath.Join(t.TempDir(), "plugins")
	if out, err := exec.Command(binPath, "plugin", "pack", filepath.Join(repoRoot, "tests", "plugins", "stall"), stallDir).CombinedOutput(); err != nil {
		t.Fatalf("pack stall: %v\n%s", err, out)
	}
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"a.py": "x = 1\n", "b.py": "import os\n", "c.py": "import sys\n"})
	s := startServer(t, ws, "--workers", "1", "--plugins", stallDir)
	key := s.addKey("pro", "")
	waitIndexed(t, s, key)
	mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": "b.py"}), 200, "")

	body := `{"uri": "a.py"}`
	conn := s.rawRequest(t, fmt.Sprintf("POST /v1/tools/format_document HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d", key, len(body)), body)
	time.Sleep(300 * time.Millisecond)
	gaveUp := time.Now()
	conn.Close()

	// The only worker must serve the next call (a file not analyzed yet,
	// so no cache answers it) long before the stalled guest's own 60 s
	// timeout.
	r, err := s.try("POST", "/v1/tools/get_diagnostics", key, map[string]any{"uri": "c.py"})
	if err != nil || r.Status != 200 {
		t.Fatalf("call after the disconnect: %v %d %s", err, r.Status, r.Raw)
	}
	freed := time.Since(gaveUp)
	t.Logf("worker served the next call %v after the client gave up", freed.Round(time.Millisecond))
	if freed > 15*time.Second {
		t.Fatalf("worker freed only after %v", freed)
	}
	var metrics []byte
	eventually(t, 10*time.Second, "the canceled call in /metrics", func() bool {
		metrics = s.do("GET", "/metrics", "", nil).Raw
		return bytes.Contains(metrics, []byte(`outcome="TIMEOUT",tool="format_document"`))
	})
	for _, want := range []string{
		"pyws_client_disconnects_total 1",
		`pyws_plugin_call_duration_seconds_count{outcome="TIMEOUT",tool="format_document"} 1`,
		"pyws_plugin_workers_busy 0",
	} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("/metrics lacks %s:\n%s", want, grepLines(metrics, "pyws_client_disconnects_total", "pyws_plugin"))
		}
	}
}

func grepLines(text []byte, prefixes ...string) string {
	var out []string
	for _, l := range strings.Split(string(text), "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}
