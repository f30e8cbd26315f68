package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestAuthentication(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"a.py": "x = 1\n"})
	s := startServer(t, ws)
	key := s.addKey("pro", "")

	tests := []struct {
		name   string
		header string
	}{
		{"missing header", ""},
		{"wrong scheme", "Basic " + key},
		{"no token", "Bearer "},
		{"wrong key", "Bearer pyws_0000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", s.base+"/v1/tools/health_check", nil)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401", resp.StatusCode)
			}
		})
	}
	// Every operation is behind auth, both shapes.
	mustStatus(t, s.tool("", "get_diagnostics", map[string]any{"uri": "a.py"}), 401, "AUTHENTICATION_FAILED")
	mustStatus(t, s.resource("nope", "svc://workspace/files", nil), 401, "AUTHENTICATION_FAILED")
	mustStatus(t, s.do("GET", "/v1/resources/file/a.py", "nope", nil), 401, "AUTHENTICATION_FAILED")
	// The right key works, and a key added while the server runs works at once.
	mustStatus(t, s.do("GET", "/v1/tools/health_check", key, nil), 200, "")
}

func TestBadRequests(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"a.py": "x = 1\n"})
	s := startServer(t, ws)
	key := s.addKey("pro", "")

	tests := []struct {
		name      string
		method    string
		path      string
		body      any
		status    int
		code      string
		parameter string
	}{
		{"malformed JSON", "POST", "/v1/tools/call", `{"name": "get_hover",`, 400, "INVALID_PARAMETER", "body"},
		{"empty body", "POST", "/v1/tools/call", ``, 400, "INVALID_PARAMETER", "body"},
		{"name missing", "POST", "/v1/tools/call", `{"arguments": {}}`, 400, "INVALID_PARAMETER", "name"},
		{"name wrong type", "POST", "/v1/tools/call", `{"name": 3}`, 400, "INVALID_PARAMETER", "name"},
		{"unknown tool", "POST", "/v1/tools/call", `{"name": "get_everything"}`, 400, "INVALID_PARAMETER", "name"},
		{"unknown tool dedicated", "POST", "/v1/tools/get_everything", `{}`, 400, "INVALID_PARAMETER", "name"},
		{"arguments not object", "POST", "/v1/tools/call", `{"name": "get_hover", "arguments": [1]}`, 400, "INVALID_PARAMETER", "arguments"},
		{"missing required", "POST", "/v1/tools/get_hover", `{"uri": "a.py", "line": 0}`, 400, "INVALID_PARAMETER", "character"},
		{"wrong type", "POST", "/v1/tools/get_hover", `{"uri": "a.py", "line": "0", "character": 0}`, 400, "INVALID_PARAMETER", "line"},
		{"unknown argument", "POST", "/v1/tools/get_diagnostics", `{"uri": "a.py", "severty": "error"}`, 400, "INVALID_PARAMETER", "severty"},
		{"unknown resource", "POST", "/v1/resources/read", `{"uri": "svc://workspace/everything"}`, 400, "INVALID_PARAMETER", "uri"},
		{"resource uri missing", "POST", "/v1/resources/read", `{"params": {}}`, 400, "INVALID_PARAMETER", "uri"},
		{"params not object", "POST", "/v1/resources/read", `{"uri": "svc://workspace/files", "params": "x"}`, 400, "INVALID_PARAMETER", "params"},
		{"query wrong type", "GET", "/v1/resources/structure?maxDepth=deep", nil, 400, "INVALID_PARAMETER", "maxDepth"},
		{"unknown route", "GET", "/v1/nothing", nil, 400, "INVALID_PARAMETER", "path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(tt.method, tt.path, key, tt.body)
			mustStatus(t, r, tt.status, tt.code)
			if got := r.ErrDetails()["parameter"]; got != tt.parameter {
				t.Fatalf("details.parameter = %v, want %q (%s)", got, tt.parameter, r.Raw)
			}
		})
	}
}

// TestOversizedBody sends a body over the key's cap on a raw connection:
// the server answers from the Content-Length alone, without waiting for the
// body, with the status the code's table gives (400).
func TestOversizedBody(t *testing.T) {
	ws := t.TempDir()
	s := startServer(t, ws)
	key := s.addKey("pro", "")
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/tools/call HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"name\":", key, 64<<20)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // well before the 30 s body timeout
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 400 || body.Error.Code != "INVALID_PARAMETER" || body.Error.Details["parameter"] != "body" || body.Error.Details["limit"] == nil {
		t.Fatalf("status %d, error %+v", resp.StatusCode, body.Error)
	}
}

func TestOpenAPIServed(t *testing.T) {
	ws := t.TempDir()
	s := startServer(t, ws)
	r := s.do("GET", "/v1/openapi.json", "", nil)
	if r.Status != 200 {
		t.Fatalf("status %d", r.Status)
	}
	paths, _ := r.Body["paths"].(map[string]any)
	for _, p := range []string{"/v1/tools/call", "/v1/resources/read", "/v1/tools/rename_symbol", "/v1/resources/file/{path}", "/v1/tools/health_check"} {
		if _, ok := paths[p]; !ok {
			t.Errorf("openapi lacks %s", p)
		}
	}
}
