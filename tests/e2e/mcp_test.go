package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pyws/pyws/host/service"
)

// mcpCall is one tools/call and, once asked over HTTP, its answer there.
type mcpCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// mcpCalls call every tool of the table once on navWorkspace, none of
// them changing a file (apply_workspace_edit applies an empty edit).
func mcpCalls(t *testing.T, ws string) []mcpCall {
	t.Helper()
	app := fileURI(filepath.Join(ws, "app.py"))
	calls := []mcpCall{
		{"get_hover", at(ws, "app.py", 0, 23)},
		{"get_definition", at(ws, "app.py", 0, 23)},
		{"get_type_definition", at(ws, "app.py", 4, 0)},
		{"get_references", at(ws, "app.py", 4, 0)},
		{"rename_symbol", at(ws, "app.py", 0, 23, "newName", "grand_total")},
		{"get_diagnostics", map[string]any{"uri": app}},
		{"get_code_actions", map[string]any{"uri": app, "range": rng(0, 0, 7, 0)}},
		{"format_document", map[string]any{"uri": app}},
		{"apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": map[string]any{}}}},
		{"health_check", map[string]any{"includeWorkspace": true}},
		{"get_completions", at(ws, "app.py", 5, 11, "limit", 5)},
		{"get_signature_help", at(ws, "app.py", 5, 17)},
		{"find_symbols", map[string]any{"query": "total", "limit": 5}},
		{"get_document_symbols", map[string]any{"uri": fileURI(filepath.Join(ws, "shop", "models.py"))}},
		{"get_definition", map[string]any{"symbol": "shop.models.total", "contextLines": 1}},
		{"get_call_hierarchy", map[string]any{"symbol": "shop.models.total", "direction": "incoming"}},
		{"edit_symbol", map[string]any{"symbol": "shop.models.rest", "action": "replace_body", "text": "return x"}},
	}
	covered := map[string]bool{}
	for _, c := range calls {
		covered[c.Tool] = true
	}
	for _, op := range service.Operations() {
		if op.Kind == "tool" && !covered[op.Name] {
			t.Errorf("tool %s has no call in mcpCalls: add one, so its MCP result is compared with its HTTP result", op.Name)
		}
	}
	return calls
}

// comparable drops what differs between two calls of the same tool
// (health_check's uptime and request metrics).
func comparable(tool string, v any) any {
	if m, ok := v.(map[string]any); ok && tool == "health_check" {
		m = maps.Clone(m)
		delete(m, "server")
		delete(m, "metrics")
		return m
	}
	return v
}

func decoded(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

type bearerTransport struct{ key string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

func mcpHTTPSession(t *testing.T, s *server, key string) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{key}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// mcpStdioSession starts `pyws mcp` on ws as an agent does and connects
// to it; the process's stderr (its logs) is returned, stdout being the
// protocol's. It shares the stub summaries of every test server, and the
// compiled plugins of s (compiling them again takes seconds).
func mcpStdioSession(t *testing.T, s *server, ws string) (*mcp.ClientSession, *bytes.Buffer) {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"stubs": filepath.Join(scratchRoot, "stubs"), "compile-cache": filepath.Join(s.state, "compile-cache")} {
		if err := os.Symlink(target, filepath.Join(state, link)); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(binPath, "mcp", "--workspace", ws, "--plugins", pluginsDir, "--state", state, "--workers", "2")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(scratchRoot, "cache"))
	var mu sync.Mutex
	logs := &bytes.Buffer{}
	cmd.Stderr = &lockedWriter{mu: &mu, w: logs}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, logs
}

func callMCP(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return r
}

func resultText(r *mcp.CallToolResult) string {
	if len(r.Content) > 0 {
		if tc, ok := r.Content[0].(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// checkSession compares every tool's MCP result with its HTTP one, and
// checks the listed tools, a tool error and the file resources.
func checkSession(t *testing.T, cs *mcp.ClientSession, calls []mcpCall, want []any) {
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	var tableNames []string
	for _, op := range service.Operations() {
		if op.Kind == "tool" {
			tableNames = append(tableNames, op.Name)
		}
	}
	sort.Strings(tableNames)
	if !slices.Equal(names, tableNames) {
		t.Errorf("tools/list %v, the table %v", names, tableNames)
	}
	for i, c := range calls {
		r := callMCP(t, cs, c.Tool, c.Args)
		got := decoded(t, r.StructuredContent)
		var text any
		json.Unmarshal([]byte(resultText(r)), &text)
		if r.IsError || !reflect.DeepEqual(comparable(c.Tool, got), comparable(c.Tool, want[i])) || !reflect.DeepEqual(text, got) {
			t.Errorf("%s: MCP structuredContent\n%v\nHTTP result\n%v\n(text %s)", c.Tool, got, want[i], resultText(r))
		}
	}
	r := callMCP(t, cs, "get_hover", map[string]any{"uri": "missing.py", "line": 0, "character": 0})
	if !r.IsError || r.StructuredContent != nil || !strings.Contains(resultText(r), `"code":"FILE_NOT_FOUND"`) {
		t.Errorf("a tool error: isError %v, structured %v, text %s", r.IsError, r.StructuredContent, resultText(r))
	}
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	if !slices.Contains(uris, service.FileURIPrefix+"shop/models.py") || !slices.Contains(uris, service.StructureURI) {
		t.Errorf("resources/list: %v", uris)
	}
	read, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: service.FileURIPrefix + "shop/util.py"})
	if err != nil || !strings.Contains(read.Contents[0].Text, `"content":"def money(n)`) {
		t.Errorf("resources/read: %v %v", err, read)
	}
}

// TestMCPClients drives both MCP transports with the Go SDK's client and
// the HTTP one with the TypeScript SDK's, comparing every tool's result
// with the HTTP API's for the same arguments.
func TestMCPClients(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	ws2 := realDir(t, t.TempDir())
	writeTree(t, ws2, map[string]string{"other.py": "OTHER = 1\n"})
	key2 := s.addKeyReady("pro", ws2)
	calls := mcpCalls(t, ws)
	want := make([]any, len(calls))
	for i, c := range calls {
		r := s.tool(key, c.Tool, c.Args)
		mustStatus(t, r, 200, "")
		want[i] = decoded(t, r.Body)
	}

	t.Run("Go SDK over stdio", func(t *testing.T) {
		cs, logs := mcpStdioSession(t, s, ws)
		eventually(t, 60*time.Second, "stdio workspace indexed", func() bool {
			r := callMCP(t, cs, "health_check", map[string]any{"includeWorkspace": true})
			return jget(decoded(t, r.StructuredContent), "workspace", "loaded") == true
		})
		checkSession(t, cs, calls, want)
		cs.Close()
		if text := logs.String(); !strings.Contains(text, `"transport":"mcp-stdio"`) || !strings.Contains(text, `"tool":"get_hover"`) {
			t.Errorf("no request lines on stderr:\n%s", text)
		}
	})

	t.Run("Go SDK over HTTP", func(t *testing.T) {
		checkSession(t, mcpHTTPSession(t, s, key), calls, want)
	})

	t.Run("two keys on two workspaces", func(t *testing.T) {
		cs := mcpHTTPSession(t, s, key2)
		res, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, r := range res.Resources {
			if strings.HasPrefix(r.URI, service.FileURIPrefix) {
				files = append(files, r.URI)
			}
		}
		if !slices.Equal(files, []string{service.FileURIPrefix + "other.py"}) {
			t.Errorf("the second key's files: %v", files)
		}
		r := callMCP(t, cs, "get_hover", at(ws, "app.py", 0, 23))
		if !r.IsError || !strings.Contains(resultText(r), "PERMISSION_DENIED") {
			t.Errorf("the second key reached the first workspace: %s", resultText(r))
		}
	})

	t.Run("TypeScript SDK over HTTP", func(t *testing.T) {
		tsClient(t, s, ws, key, key2, calls, want)
	})

	t.Run("rename, then apply_workspace_edit", func(t *testing.T) {
		cs := mcpHTTPSession(t, s, key)
		r := callMCP(t, cs, "rename_symbol", at(ws, "app.py", 0, 23, "newName", "grand_total"))
		changes := jget(decoded(t, r.StructuredContent), "changes")
		if r.IsError || changes == nil {
			t.Fatalf("rename: %s", resultText(r))
		}
		a := callMCP(t, cs, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": changes}})
		if a.IsError || jget(decoded(t, a.StructuredContent), "applied") != true {
			t.Fatalf("apply: %s", resultText(a))
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "shop", "models.py")); !strings.Contains(string(b), "def grand_total(") {
			t.Fatalf("models.py after the rename:\n%s", b)
		}
	})
}

// tsClient runs tests/e2e/mcpclient/client.mjs (the TypeScript SDK's
// client, pinned in its package.json) against s.
func tsClient(t *testing.T, s *server, ws, key, key2 string, calls []mcpCall, want []any) {
	dir := filepath.Join(repoRoot, "tests", "e2e", "mcpclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tests/e2e/mcpclient/node_modules is missing: .ci/run installs it with npm ci")
		}
		t.Skip("the TypeScript MCP SDK is not installed: run npm ci --prefix tests/e2e/mcpclient (CI does)")
	}
	plan := map[string]any{
		"url": s.base + "/mcp", "key": key, "otherKey": key2, "calls": calls, "sessions": 16,
		"errorCalls": []mcpCall{
			{"get_hover", map[string]any{"uri": "missing.py", "line": 0, "character": 0}},
			{"get_definition", map[string]any{"uri": fileURI(filepath.Join(ws, "app.py")), "line": 99, "character": 0}},
		},
		"read":   service.FileURIPrefix + "shop/util.py",
		"rename": at(ws, "shop/util.py", 0, 4, "newName", "cash"),
	}
	planFile := filepath.Join(t.TempDir(), "plan.json")
	b, _ := json.Marshal(plan)
	if err := os.WriteFile(planFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "client.mjs", planFile)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, stderr.String())
	}
	var got struct {
		NoKey, BadKey, ServerName string
		Tools                     []struct {
			Name                      string
			InputSchema, OutputSchema any
		}
		Calls, Errors []struct {
			Tool              string
			IsError           bool
			StructuredContent any
			Text, Thrown      string
		}
		Resources, Templates, Sessions, OtherResources []string
		Read                                           string
		Rename, Apply                                  struct {
			IsError           bool
			StructuredContent any
			Text, Thrown      string
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	for _, refused := range []string{got.NoKey, got.BadKey} {
		if !strings.Contains(refused, "AUTHENTICATION_FAILED") {
			t.Errorf("a client without a valid key: %q, want AUTHENTICATION_FAILED", refused)
		}
	}
	tools := map[string]bool{}
	for _, c := range calls {
		tools[c.Tool] = true
	}
	if got.ServerName != "pyws" || len(got.Tools) != len(tools) {
		t.Errorf("initialize and tools/list: server %q, %d tools", got.ServerName, len(got.Tools))
	}
	for _, tool := range got.Tools {
		if props, _ := jget(tool.InputSchema, "properties").(map[string]any); props == nil || jget(tool.OutputSchema, "type") != "object" {
			t.Errorf("%s: schemas %v %v", tool.Name, tool.InputSchema, tool.OutputSchema)
		}
	}
	for i, c := range got.Calls {
		if c.Thrown != "" || c.IsError || !reflect.DeepEqual(comparable(c.Tool, c.StructuredContent), comparable(c.Tool, want[i])) {
			t.Errorf("%s over the TypeScript client: %+v\nHTTP: %v", c.Tool, c, want[i])
		}
	}
	for _, e := range got.Errors {
		if e.Thrown != "" || !e.IsError || !strings.Contains(e.Text, `"code":"`) {
			t.Errorf("%s error over the TypeScript client: %+v", e.Tool, e)
		}
	}
	if !slices.Contains(got.Resources, service.FileURIPrefix+"shop/util.py") || !slices.Equal(got.Templates, []string{service.FileURIPrefix + "{+path}"}) ||
		!strings.Contains(got.Read, "def money(n)") {
		t.Errorf("resources: %v, templates %v, read %q", got.Resources, got.Templates, got.Read)
	}
	if !slices.Contains(got.OtherResources, service.FileURIPrefix+"other.py") || slices.Contains(got.OtherResources, service.FileURIPrefix+"app.py") {
		t.Errorf("the second key's resources: %v", got.OtherResources)
	}
	if len(got.Sessions) != 16 || slices.ContainsFunc(got.Sessions, func(s string) bool { return s != "ok" }) {
		t.Errorf("16 concurrent sessions: %v", got.Sessions)
	}
	if got.Rename.Thrown != "" || got.Apply.Thrown != "" || jget(got.Apply.StructuredContent, "applied") != true {
		t.Errorf("rename then apply: %+v %+v", got.Rename, got.Apply)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "shop", "util.py")); !strings.Contains(string(b), "def cash(") {
		t.Errorf("util.py after the TypeScript client's rename:\n%s", b)
	}
}
