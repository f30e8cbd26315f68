package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/tests/differential/pyright"
)

// pywsServer is one real `pyws serve` process on a workspace.
type pywsServer struct {
	cmd   *exec.Cmd
	base  string
	key   string
	start time.Time
	rss   *rssWatch
	mu    sync.Mutex
	logs  bytes.Buffer
}

const benchKey = "pyws-bench-dev-key-0123456789abcdef"

// startPyws runs bin serve on root with state as its --state directory
// and args; the clock starts when the process is launched.
func startPyws(bin, root, state string, args ...string) (*pywsServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	s := &pywsServer{base: "http://" + addr, key: benchKey}
	s.cmd = exec.Command(bin, append([]string{"serve", "--workspace", root, "--addr", addr, "--state", state, "--dev-key", "--log-level", "info"}, args...)...)
	s.cmd.Env = append(os.Environ(), "PYWS_API_KEY="+benchKey)
	s.cmd.Stdout = io.Discard
	s.cmd.Stderr = &lockedBuffer{mu: &s.mu, b: &s.logs}
	s.start = time.Now()
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.rss = watchRSS(s.cmd.Process.Pid)
	return s, nil
}

type lockedBuffer struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

var client = &http.Client{Timeout: 5 * time.Minute}

// call posts a tool's arguments and decodes the reply.
func (s *pywsServer) call(tool string, args any) (int, map[string]any, error) {
	return s.callAs(s.key, tool, args)
}

// callAs is call with another key (another key's workspace).
func (s *pywsServer) callAs(key, tool string, args any) (int, map[string]any, error) {
	b, _ := json.Marshal(args)
	req, _ := http.NewRequest("POST", s.base+"/v1/tools/"+tool, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var body map[string]any
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	json.Unmarshal(raw, &body)
	return resp.StatusCode, body, nil
}

func position(root, rel string, line, char int) map[string]any {
	return map[string]any{"uri": "file://" + filepath.Join(root, rel), "line": line, "character": char}
}

// firstReferences polls get_references on c's symbol until a complete
// answer (200, not marked incomplete, the declaration and uses) and
// returns the time from the server's launch.
func (s *pywsServer) firstReferences(root string, c pyright.Corpus, limit time.Duration) (time.Duration, int, error) {
	return s.firstReferencesAs(s.key, root, c, limit)
}

// firstReferencesAs is firstReferences with another key, on its workspace.
func (s *pywsServer) firstReferencesAs(key, root string, c pyright.Corpus, limit time.Duration) (time.Duration, int, error) {
	deadline := s.start.Add(limit)
	for time.Now().Before(deadline) {
		status, body, err := s.callAs(key, "get_references", position(root, c.Rel, c.Line, c.Char))
		if err == nil && status == 200 && body["isIncomplete"] != true {
			n, _ := body["totalCount"].(float64)
			if n < 2 {
				return 0, 0, fmt.Errorf("%v references to %s:%d:%d", n, c.Rel, c.Line, c.Char)
			}
			return time.Since(s.start), int(n), nil
		}
		if s.cmd.ProcessState != nil {
			return 0, 0, fmt.Errorf("server exited:\n%s", s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, 0, fmt.Errorf("no complete references answer within %v:\n%s", limit, s.logText())
}

// waitIndexed waits for the server to log its whole index built: a
// complete references answer may come from an early index, during the
// build (index.EarlyComplete), and what is measured after it (queries,
// the logged build) is of the complete index.
func (s *pywsServer) waitIndexed(limit time.Duration) error { return s.waitIndexedN(1, limit) }

// waitIndexedN waits for n workspaces' whole index built.
func (s *pywsServer) waitIndexedN(n int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for strings.Count(s.logText(), "workspace indexed") < n {
		if s.cmd.ProcessState != nil || time.Now().After(deadline) {
			return fmt.Errorf("the index was not built within %v:\n%s", limit, s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// indexBuild is the index build time the server logged ("workspace
// indexed", elapsed), 0 when it has not.
func (s *pywsServer) indexBuild() time.Duration { return loggedIndexBuild(s.logText()) }

// loggedIndexBuild reads the elapsed time of the "workspace indexed" line
// of a server log: JSON lines (elapsed in nanoseconds, slog's encoding
// of a duration), or text (elapsed=1.2s).
func loggedIndexBuild(log string) time.Duration {
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "workspace indexed") {
			continue
		}
		var rec struct {
			Msg     string `json:"msg"`
			Elapsed any    `json:"elapsed"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "workspace indexed" {
			switch e := rec.Elapsed.(type) {
			case float64:
				return time.Duration(e)
			case string:
				d, _ := time.ParseDuration(e)
				return d
			}
		}
		if _, v, ok := strings.Cut(line, " elapsed="); ok {
			d, _ := time.ParseDuration(strings.Fields(v)[0])
			return d
		}
	}
	return 0
}

func (s *pywsServer) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// stop interrupts the server (it persists its index) and waits for it,
// returning the memory peaks of the server and its workers.
func (s *pywsServer) stop() memoryPeaks {
	peak := s.rss.Stop()
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	return peak
}
