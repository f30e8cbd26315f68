package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/ratelimit"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
)

const (
	otherKey = "pyws_test_key_other_workspace"
	freeKey  = "pyws_test_key_free_tier"
)

// mcpFixture is a server on a real listener with two keys, each bound to
// its own workspace: testKey to one holding pkg/a.py, otherKey to one
// holding b.py.
type mcpFixture struct {
	base   string
	wsA    string
	table  *service.Table
	logs   *lockedBuffer
	client *http.Client
}

// mcpFixtureTimeout is the fixture's request deadline: short, so a
// request the SDK holds open (subscriptions/listen) ends within a test.
const mcpFixtureTimeout = 3 * time.Second

func startMCPFixture(t testing.TB) *mcpFixture {
	t.Helper()
	wsA, wsB := t.TempDir(), t.TempDir()
	writeFiles(t, wsA, map[string]string{"pkg/__init__.py": "", "pkg/a.py": "def f(x):\n    return x\n"})
	writeFiles(t, wsB, map[string]string{"b.py": "B = 1\n"})
	engine, err := edits.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(service.Config{DefaultWorkspace: wsA, Plugins: noPlugins{}, Edits: engine})
	t.Cleanup(svc.Close)
	keys, err := tenants.Open("")
	if err != nil {
		t.Fatal(err)
	}
	keys.AddInMemory(testKey, tenants.Key{ID: "k1", Tenant: "tenant-a", Tier: tiers.Enterprise, Workspace: wsA})
	keys.AddInMemory(otherKey, tenants.Key{ID: "k2", Tenant: "tenant-b", Tier: tiers.Enterprise, Workspace: wsB})
	keys.AddInMemory(freeKey, tenants.Key{ID: "k3", Tenant: "tenant-free", Tier: tiers.Free, Workspace: wsA})
	logs := &lockedBuffer{}
	app := New(Options{Service: svc, Keys: keys, Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Limiter: ratelimit.New(nil, ratelimit.Options{}), RequestTimeout: mcpFixtureTimeout,
		Metrics: promhttp.HandlerFor(svc.Metrics().Registry, promhttp.HandlerOpts{})})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go app.Listener(ln)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	t.Cleanup(func() {
		client.CloseIdleConnections()
		app.ShutdownWithTimeout(time.Second)
	})
	f := &mcpFixture{base: "http://" + ln.Addr().String(), wsA: wsA, table: svc.Table(), logs: logs, client: client}
	for _, key := range []string{testKey, otherKey} {
		f.waitLoaded(t, key)
	}
	return f
}

// waitLoaded waits until key's workspace has loaded, so that answers do
// not depend on how fast it did.
func (f *mcpFixture) waitLoaded(t testing.TB, key string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, body := f.httpPost(t, "/v1/tools/get_diagnostics", key, `{"uri": "nothing-here.py"}`)
		code, _ := errorOf(body.(map[string]any))
		if code != fault.WorkspaceNotLoaded {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the workspace did not load in 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// bearer adds the key to every request the SDK's client sends.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// connect opens an MCP session with the Go SDK's client.
func (f *mcpFixture) connect(t testing.TB, key string) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: f.base + MCPPath,
		HTTPClient: &http.Client{Transport: bearer{key: key, next: f.client.Transport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pyws-test", Version: "1"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// httpTool calls a tool over the HTTP API: status and decoded body.
func (f *mcpFixture) httpPost(t testing.TB, path, key, body string) (int, any) {
	t.Helper()
	req, _ := http.NewRequest("POST", f.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %v: %s", path, err, raw)
	}
	return resp.StatusCode, out
}

// asJSON is v as encoding/json reads it back: what a client compares.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func callText(r *mcp.CallToolResult) string {
	if len(r.Content) == 0 {
		return ""
	}
	if tc, ok := r.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// TestMCPOverHTTP drives /mcp with the Go SDK's client: the key check,
// the schemas generated from the table, results and errors equal to the
// HTTP API's, resources, per-key workspaces, the log and the metrics.
func TestMCPOverHTTP(t *testing.T) {
	f := startMCPFixture(t)

	t.Run("every method needs a key", func(t *testing.T) {
		for _, method := range []string{"POST", "GET", "DELETE"} {
			for _, auth := range []string{"", "Bearer pyws_not_a_key", "Basic " + testKey} {
				req, _ := http.NewRequest(method, f.base+MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				resp, err := f.client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				var body map[string]any
				json.NewDecoder(resp.Body).Decode(&body)
				resp.Body.Close()
				if code, _ := errorOf(body); resp.StatusCode != http.StatusUnauthorized || code != fault.AuthenticationFailed {
					t.Errorf("%s %s with %q: %d %v, want 401 AUTHENTICATION_FAILED", method, MCPPath, auth, resp.StatusCode, body)
				}
			}
		}
	})

	t.Run("the SDK's client without a valid key cannot initialize", func(t *testing.T) {
		transport := &mcp.StreamableClientTransport{Endpoint: f.base + MCPPath,
			HTTPClient: &http.Client{Transport: bearer{key: "pyws_not_a_key", next: f.client.Transport}}, MaxRetries: -1}
		_, err := mcp.NewClient(&mcp.Implementation{Name: "pyws-test", Version: "1"}, nil).Connect(context.Background(), transport, nil)
		if err == nil || !strings.Contains(err.Error(), "Unauthorized") {
			t.Fatalf("connected with a bad key, or failed otherwise: %v", err)
		}
	})

	cs := f.connect(t, testKey)

	t.Run("initialize", func(t *testing.T) {
		init := cs.InitializeResult()
		if init.ServerInfo.Name != "pyws" || init.Capabilities.Tools == nil || init.Capabilities.Resources == nil {
			t.Fatalf("initialize: %+v", init)
		}
	})

	t.Run("tools come from the table", func(t *testing.T) {
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]*mcp.Tool{}
		for _, tool := range list.Tools {
			got[tool.Name] = tool
		}
		names := f.table.ToolNames()
		if len(got) != len(names) {
			t.Errorf("tools/list has %d tools, the table %d", len(got), len(names))
		}
		for _, name := range names {
			op, _ := f.table.Tool(name)
			tool := got[name]
			if tool == nil {
				t.Errorf("tools/list lacks %s", name)
				continue
			}
			if !reflect.DeepEqual(asJSON(t, tool.InputSchema), asJSON(t, op.ArgumentsSchema())) {
				t.Errorf("%s: inputSchema is not the row's arguments schema", name)
			}
			if !reflect.DeepEqual(asJSON(t, tool.OutputSchema), asJSON(t, op.ResultSchema(toolspec.DefsRef))) {
				t.Errorf("%s: outputSchema is not the row's result schema", name)
			}
			if !strings.HasPrefix(tool.Description, op.Description) || !strings.Contains(tool.Description, fault.InvalidParameter) {
				t.Errorf("%s: description %q lacks the row's sentence or its codes", name, tool.Description)
			}
		}
	})

	t.Run("a tool error is an isError result with the HTTP envelope", func(t *testing.T) {
		calls := []struct {
			tool string
			args map[string]any
			code string
		}{
			{"get_diagnostics", map[string]any{"uri": "missing.py"}, fault.FileNotFound},
			{"get_hover", map[string]any{"uri": "pkg/a.py", "line": -1, "character": 0}, fault.InvalidParameter},
			{"format_document", map[string]any{"uri": "../../etc/passwd"}, fault.PermissionDenied},
			{"apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": map[string]any{"pkg/a.py": []any{
				map[string]any{"range": map[string]any{"start": map[string]any{"line": 90, "character": 0}, "end": map[string]any{"line": 90, "character": 0}}, "newText": "x"}}}}}, fault.InvalidRange},
		}
		for _, c := range calls {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatalf("%s: %v", c.tool, err)
			}
			args, _ := json.Marshal(c.args)
			status, httpBody := f.httpPost(t, "/v1/tools/"+c.tool, testKey, string(args))
			var mcpBody any
			json.Unmarshal([]byte(callText(res)), &mcpBody)
			code, _ := errorOf(asJSON(t, mcpBody).(map[string]any))
			if !res.IsError || res.StructuredContent != nil || code != c.code || status != StatusOf(c.code) {
				t.Errorf("%s: isError %v, structured %v, code %s (HTTP %d), want %s", c.tool, res.IsError, res.StructuredContent, code, status, c.code)
			}
			if !reflect.DeepEqual(mcpBody, httpBody) {
				t.Errorf("%s: MCP error text %v, HTTP envelope %v", c.tool, mcpBody, httpBody)
			}
		}
	})

	t.Run("a result is structuredContent equal to the HTTP result, and text", func(t *testing.T) {
		uri := "file://" + filepath.Join(f.wsA, "pkg/a.py")
		edit := func(text string) map[string]any {
			return map[string]any{"edit": map[string]any{"changes": map[string]any{uri: []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}, "newText": text}}}}}
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "apply_workspace_edit", Arguments: edit("# mcp\n")})
		if err != nil || res.IsError {
			t.Fatalf("apply_workspace_edit over MCP: %v %s", err, callText(res))
		}
		args, _ := json.Marshal(edit("# http\n"))
		_, httpBody := f.httpPost(t, "/v1/tools/apply_workspace_edit", testKey, string(args))
		structured := asJSON(t, res.StructuredContent)
		var text any
		json.Unmarshal([]byte(callText(res)), &text)
		if !reflect.DeepEqual(structured, httpBody) || !reflect.DeepEqual(text, structured) {
			t.Errorf("apply_workspace_edit: structured %v, text %v, HTTP %v", structured, text, httpBody)
		}
		if b, _ := os.ReadFile(filepath.Join(f.wsA, "pkg/a.py")); !strings.HasPrefix(string(b), "# http\n# mcp\n") {
			t.Errorf("the edits did not land: %q", b)
		}
	})

	t.Run("resources", func(t *testing.T) {
		list, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		uris := map[string]bool{}
		for _, r := range list.Resources {
			uris[r.URI] = true
		}
		for _, want := range []string{service.StructureURI, service.FilesURI, service.FileURIPrefix + "pkg/a.py"} {
			if !uris[want] {
				t.Errorf("resources/list lacks %s: %v", want, uris)
			}
		}
		templates, err := cs.ListResourceTemplates(context.Background(), nil)
		if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != service.FileURIPrefix+"{+path}" {
			t.Fatalf("templates: %v %+v", err, templates)
		}
		read, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: service.FileURIPrefix + "pkg/a.py"})
		if err != nil {
			t.Fatal(err)
		}
		_, httpBody := f.httpPost(t, "/v1/resources/read", testKey, `{"uri": "svc://file/pkg/a.py"}`)
		var got any
		json.Unmarshal([]byte(read.Contents[0].Text), &got)
		if !reflect.DeepEqual(got, httpBody) {
			t.Errorf("resources/read %v, HTTP %v", got, httpBody)
		}
		_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: service.FileURIPrefix + "../outside.py"})
		if err == nil || !strings.Contains(err.Error(), fault.PermissionDenied) {
			t.Errorf("reading outside the workspace: %v, want %s", err, fault.PermissionDenied)
		}
	})

	t.Run("each key sees its own workspace", func(t *testing.T) {
		req, _ := http.NewRequest("POST", f.base+MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`))
		req.Header.Set("Authorization", "Bearer "+otherKey)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", cs.ID())
		resp, err := f.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("another key on this key's session: %d, want 403", resp.StatusCode)
		}
		other := f.connect(t, otherKey)
		list, err := other.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, r := range list.Resources {
			if strings.HasPrefix(r.URI, service.FileURIPrefix) {
				files = append(files, r.URI)
			}
		}
		if !reflect.DeepEqual(files, []string{service.FileURIPrefix + "b.py"}) {
			t.Errorf("the other key's files: %v", files)
		}
		if _, err := other.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: service.FileURIPrefix + "pkg/a.py"}); err == nil || !strings.Contains(err.Error(), fault.FileNotFound) {
			t.Errorf("another workspace's file: %v, want %s", err, fault.FileNotFound)
		}
	})

	t.Run("one rate-limit budget for both transports", func(t *testing.T) {
		free := f.connect(t, freeKey)
		budget := tiers.For(tiers.Free).Budget(tiers.FamilyRename).PerHour
		rename := map[string]any{"uri": "pkg/a.py", "line": 0, "character": 4, "newName": "g"}
		args, _ := json.Marshal(rename)
		for i := 0; i < budget; i++ {
			if i%2 == 0 {
				f.httpPost(t, "/v1/tools/rename_symbol", freeKey, string(args))
				continue
			}
			if r, err := free.CallTool(context.Background(), &mcp.CallToolParams{Name: "rename_symbol", Arguments: rename}); err != nil || strings.Contains(callText(r), fault.RateLimitExceeded) {
				t.Fatalf("call %d of a budget of %d refused: %v %s", i+1, budget, err, callText(r))
			}
		}
		r, err := free.CallTool(context.Background(), &mcp.CallToolParams{Name: "rename_symbol", Arguments: rename})
		if err != nil || !r.IsError || !strings.Contains(callText(r), `"code":"`+fault.RateLimitExceeded+`"`) {
			t.Errorf("call %d over MCP: %v %s, want %s", budget+1, err, callText(r), fault.RateLimitExceeded)
		}
	})

	t.Run("sessions per key are bounded", func(t *testing.T) {
		var held []*mcp.ClientSession
		for len(held) < MaxMCPSessionsPerKey {
			held = append(held, f.connect(t, freeKey))
		}
		transport := &mcp.StreamableClientTransport{Endpoint: f.base + MCPPath,
			HTTPClient: &http.Client{Transport: bearer{key: freeKey, next: f.client.Transport}}, MaxRetries: -1}
		if _, err := mcp.NewClient(&mcp.Implementation{Name: "pyws-test", Version: "1"}, nil).Connect(context.Background(), transport, nil); err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
			t.Fatalf("session %d of one key: %v, want 429 %s", MaxMCPSessionsPerKey+1, err, fault.RateLimitExceeded)
		}
		f.connect(t, otherKey) // another key is not held back
		held[0].Close()        // DELETE ends the session
		f.connect(t, freeKey)
		for _, cs := range held[1:] {
			cs.Close()
		}
	})

	t.Run("16 concurrent sessions", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make(chan string, 16)
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := f.connect(t, testKey)
				for j := 0; j < 5; j++ {
					res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "health_check", Arguments: map[string]any{"includeWorkspace": false}})
					if err != nil || res.IsError {
						errs <- err.Error()
						return
					}
				}
				if _, err := s.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: service.FileURIPrefix + "pkg/a.py"}); err != nil {
					errs <- err.Error()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})

	t.Run("logged and counted like HTTP calls", func(t *testing.T) {
		logs := f.logs.String()
		if strings.Contains(logs, testKey) || strings.Contains(logs, otherKey) {
			t.Error("a key reached the log")
		}
		var found bool
		for _, line := range strings.Split(logs, "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "request" {
				continue
			}
			if rec["transport"] == "mcp-http" && rec["tool"] == "get_diagnostics" && rec["code"] == fault.FileNotFound &&
				rec["tenant"] == "tenant-a" && rec["status"] == float64(404) && rec["durationMs"] != nil {
				found = true
			}
		}
		if !found {
			t.Errorf("no request line for the MCP get_diagnostics call:\n%s", logs)
		}
		const counter = `pyws_requests_total{code="FILE_NOT_FOUND",operation="get_diagnostics"}`
		before := f.metric(t, counter)
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_diagnostics", Arguments: map[string]any{"uri": "missing.py"}}); err != nil {
			t.Fatal(err)
		}
		if after := f.metric(t, counter); after != before+1 {
			t.Errorf("%s went from %v to %v over one MCP call", counter, before, after)
		}
	})
}

// metric reads one sample of /metrics (0 when absent).
func (f *mcpFixture) metric(t testing.TB, sample string) float64 {
	t.Helper()
	resp, err := f.client.Get(f.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(text), "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return n
		}
	}
	return 0
}

// TestRequestLog: every HTTP request, refused ones included, is one JSON
// line naming the tenant (never the key), the tool or route, the status,
// the code and the duration.
func TestRequestLog(t *testing.T) {
	f := startMCPFixture(t)
	start := len(f.logs.String())
	f.httpPost(t, "/v1/tools/get_diagnostics", testKey, `{"uri": "missing.py"}`)
	f.httpPost(t, "/v1/tools/health_check", testKey, `{}`)
	f.httpPost(t, "/v1/tools/health_check", "pyws_not_a_key", `{}`)
	var lines []map[string]any
	for _, line := range strings.Split(f.logs.String()[start:], "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "request" {
			delete(rec, "time")
			if _, ok := rec["durationMs"].(float64); !ok {
				t.Errorf("no durationMs: %s", line)
			}
			delete(rec, "durationMs")
			lines = append(lines, rec)
		}
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "request", "transport": "http", "tenant": "tenant-a", "tool": "get_diagnostics", "status": 404.0, "code": fault.FileNotFound},
		{"level": "INFO", "msg": "request", "transport": "http", "tenant": "tenant-a", "tool": "health_check", "status": 200.0},
		{"level": "INFO", "msg": "request", "transport": "http", "tenant": "", "route": "POST /v1/tools/health_check", "status": 401.0, "code": fault.AuthenticationFailed},
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("request lines\n%v\nwant\n%v", lines, want)
	}
	if strings.Contains(f.logs.String(), testKey) {
		t.Error("the key reached the log")
	}
}

// FuzzMCPRequest posts untrusted bodies to /mcp in an initialized session:
// whatever the bytes (JSON-RPC of any shape, batches, tool arguments of
// any type, garbage), the answer is never a 5xx and the server survives.
func FuzzMCPRequest(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_hover","arguments":{"uri":"pkg/a.py","line":0,"character":4}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"apply_workspace_edit","arguments":{"edit":{"changes":{"pkg/a.py":[{"range":7}]}}}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":[]}}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"svc://file/%2e%2e/%2e%2e/etc/passwd"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"svc://file/"}}`,
		`[{"jsonrpc":"2.0","id":8,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{}}`,
		"\xff\xfe{",
		``,
	} {
		f.Add(seed)
	}
	fx := startMCPFixture(f)
	post := func(t testing.TB, body, session string) *http.Response {
		ctx, cancel := context.WithTimeout(context.Background(), 2*mcpFixtureTimeout)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "POST", fx.base+MCPPath, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testKey)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		resp, err := fx.client.Do(req)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	init := post(f, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`, "")
	session := init.Header.Get("Mcp-Session-Id")
	if init.StatusCode != 200 || session == "" {
		f.Fatalf("initialize: %d, session %q", init.StatusCode, session)
	}
	post(f, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session)
	f.Fuzz(func(t *testing.T, body string) {
		if resp := post(t, body, session); resp.StatusCode >= 500 {
			t.Fatalf("%q: status %d", body, resp.StatusCode)
		}
	})
}
