package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
)

// MCPPath is where the MCP streamable HTTP transport is served, on the same
// listener as the HTTP API and behind the same key check.
const MCPPath = "/mcp"

// MCP over stdio and over HTTP is transport only: every tool and resource
// of the table becomes an MCP tool or resource whose handler is invoke, the
// dispatch the HTTP routes use (validation, rate limit, service, metrics).

// NewMCPServer returns the MCP server of the table for one local caller,
// local (stdio: `pyws mcp`, where no key is presented).
func NewMCPServer(o Options, local *tenants.Key) *mcp.Server {
	o.setDefaults()
	s := &server{Options: o, table: o.Service.Table()}
	return s.mcpServer("mcp-stdio", func(*mcp.RequestExtra) *tenants.Key { return local })
}

// mcpServer builds the MCP server of the table; keyOf finds the caller of
// a request.
func (s *server) mcpServer(transport string, keyOf func(*mcp.RequestExtra) *tenants.Key) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "pyws", Version: s.Service.Version()}, &mcp.ServerOptions{
		Instructions: "Python code intelligence over one workspace: navigation, diagnostics, formatting, " +
			"code actions and refactoring. Positions are 0-indexed lines and UTF-16 characters; edits are " +
			"returned, never written, until apply_workspace_edit applies them.",
		Capabilities: &mcp.ServerCapabilities{},
	})
	m := &mcpAdapter{s: s, transport: transport, keyOf: keyOf}
	for _, op := range s.table.All() {
		switch {
		case op.Kind == toolspec.KindTool:
			srv.AddTool(mcpTool(&op.Spec), m.toolHandler(op))
		case strings.HasSuffix(op.URI, "/"):
			// RFC 6570: {+path} keeps the slashes of nested paths.
			srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: op.Name, URITemplate: op.URI + "{+path}",
				Description: op.Description, MIMEType: "application/json"}, m.resourceHandler())
		default:
			srv.AddResource(&mcp.Resource{Name: op.Name, URI: op.URI, Description: op.Description,
				MIMEType: "application/json"}, m.resourceHandler())
		}
	}
	srv.AddReceivingMiddleware(m.listWorkspaceFiles)
	return srv
}

// mcpTool is a row as an MCP tool: its arguments and result schemas are
// the ones the OpenAPI document shows for its HTTP route.
func mcpTool(spec *toolspec.Spec) *mcp.Tool {
	return &mcp.Tool{
		Name:         spec.Name,
		Description:  mcpDescription(spec),
		InputSchema:  spec.ArgumentsSchema(),
		OutputSchema: spec.ResultSchema(toolspec.DefsRef),
	}
}

// mcpDescription is the row's sentence plus what an agent needs to act on
// a failure: the codes it can answer with.
func mcpDescription(spec *toolspec.Spec) string {
	return spec.Description + " On failure the result has isError true and its text is the error envelope " +
		`{"error":{"code","message","details"}}; codes: ` + strings.Join(spec.FaultCodes(), ", ") + "."
}

type mcpAdapter struct {
	s         *server
	transport string
	keyOf     func(*mcp.RequestExtra) *tenants.Key
}

// call runs op for the request's caller and logs it as the HTTP routes do.
func (m *mcpAdapter) call(ctx context.Context, extra *mcp.RequestExtra, op *service.Operation, raw json.RawMessage) (any, *fault.Error) {
	start := time.Now()
	key := m.keyOf(extra)
	if key == nil { // not reachable through requireKey; refuse rather than guess
		return nil, fault.New(fault.AuthenticationFailed, nil, "%s", authMessages[authMissing])
	}
	ctx, cancel := context.WithTimeout(ctx, m.s.RequestTimeout)
	defer cancel()
	result, _, err := m.s.invoke(ctx, key, op, raw)
	var fe *fault.Error
	line := requestLine{Transport: m.transport, Tenant: tenantOf(key), Tool: op.Name, Status: http.StatusOK}
	if err != nil {
		var ok bool
		if fe, ok = fault.As(err); !ok {
			fe = m.s.internalFault(newRequestID(), err, "transport", m.transport, "tool", op.Name)
		}
		line.Status, line.Code = StatusOf(fe.Code), fe.Code
	}
	line.Duration = time.Since(start)
	m.s.logRequest(ctx, line)
	return result, fe
}

func (m *mcpAdapter) toolHandler(op *service.Operation) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		result, fe := m.call(ctx, req.Extra, op, req.Params.Arguments)
		if fe != nil {
			// No structuredContent: clients validate it against the
			// outputSchema, which describes results, not errors. The code
			// travels in the text, as the HTTP error envelope.
			text, _ := json.Marshal(errorDocument(fe))
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
		}
		body, err := json.Marshal(result)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
			StructuredContent: json.RawMessage(body),
		}, nil
	}
}

func (m *mcpAdapter) resourceHandler() mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		op, ok := m.s.table.Resource(uri)
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		raw, _ := json.Marshal(map[string]string{"uri": uri})
		result, fe := m.call(ctx, req.Extra, op, raw)
		if fe != nil {
			return nil, mcpError(fe)
		}
		body, err := json.Marshal(result)
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(body)}}}, nil
	}
}

// mcpError is a fault as a JSON-RPC error (resources have no error
// result): the message starts with the code, the data is the envelope.
func mcpError(fe *fault.Error) error {
	data, _ := json.Marshal(errorDocument(fe))
	code := int64(jsonrpc.CodeInvalidParams)
	if StatusOf(fe.Code) >= 500 {
		code = jsonrpc.CodeInternalError
	}
	return &jsonrpc.Error{Code: code, Message: fe.Code + ": " + fe.Message, Data: data}
}

// listWorkspaceFiles adds the caller's Python files to resources/list as
// svc://file/ resources (the first page only: the files resource caps
// the list as the HTTP route does).
func (m *mcpAdapter) listWorkspaceFiles(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "resources/list" || err != nil {
			return res, err
		}
		list, ok := res.(*mcp.ListResourcesResult)
		if p, isList := req.GetParams().(*mcp.ListResourcesParams); !ok || !isList || p.Cursor != "" {
			return res, err
		}
		op, _ := m.s.table.Resource(service.FilesURI)
		result, fe := m.call(ctx, req.GetExtra(), op, json.RawMessage(`{}`))
		if fe != nil {
			return nil, mcpError(fe)
		}
		files, ok := result.(*workspace.FileList)
		if !ok {
			return res, nil
		}
		for _, f := range files.Files {
			list.Resources = append(list.Resources, &mcp.Resource{Name: f.RelativePath, URI: service.FileURIPrefix + f.RelativePath,
				MIMEType: "application/json", Size: f.Size, Description: "Python file (read: content and metadata as JSON)"})
		}
		return list, nil
	}
}

// mcpHTTP serves MCP's streamable HTTP transport through fiber. requireKey
// has admitted the caller (401 before any MCP processing, body within the
// tier's cap); the SDK sees the same key as its TokenInfo, so a session
// is bound to the key that opened it. Responses are JSON, not event
// streams: the fasthttp bridge buffers a response, so the optional GET
// stream is answered 405, as the transport allows.
func (s *server) mcpHTTP() fiber.Handler {
	srv := s.mcpServer("mcp-http", func(extra *mcp.RequestExtra) *tenants.Key {
		if extra == nil || extra.TokenInfo == nil {
			return nil
		}
		key, _ := extra.TokenInfo.Extra["key"].(*tenants.Key)
		return key
	})
	verify := func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		key, ok := s.Keys.Lookup(token)
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: key.ID, Extra: map[string]any{"key": key}}, nil
	}
	handler := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
			JSONResponse:   true,
			SessionTimeout: s.IdleTimeout * 10,
			// The Host check guards a server bound to localhost from DNS
			// rebinding; here every request carries a bearer key already.
			DisableLocalhostProtection: true,
		}))
	bridged := adaptHandler(withRequestContext(handler))
	sessions := &mcpSessions{server: srv, owner: map[string]string{}}
	return func(c *fiber.Ctx) error {
		if c.Method() == fiber.MethodGet {
			c.Set(fiber.HeaderAllow, "POST, DELETE")
			return c.SendStatus(fiber.StatusMethodNotAllowed)
		}
		key := callerKey(c)
		// A POST without a session id asks for a new session.
		opening := c.Method() == fiber.MethodPost && c.Get(mcpSessionHeader) == ""
		if opening {
			if open := sessions.count(key.ID); open >= MaxMCPSessionsPerKey {
				return fault.New(fault.RateLimitExceeded, fault.Details{"limit": MaxMCPSessionsPerKey, "open": open},
					"this key has %d MCP sessions open, the most it may; end one (DELETE %s with its Mcp-Session-Id) or let one idle out", open, MCPPath)
			}
		}
		c.Context().SetUserValue(requestContextKey{}, c.UserContext())
		err := bridged(c)
		if id := string(c.Response().Header.Peek(mcpSessionHeader)); opening && id != "" {
			sessions.add(id, key.ID)
		}
		return err
	}
}

// MaxMCPSessionsPerKey bounds the MCP sessions one key holds open over
// HTTP: each keeps goroutines and state until it ends or idles out, and
// opening one costs no rate-limit budget.
const MaxMCPSessionsPerKey = 64

const mcpSessionHeader = "Mcp-Session-Id"

// mcpSessions knows which key opened each live session.
type mcpSessions struct {
	server *mcp.Server
	mu     sync.Mutex
	owner  map[string]string // session id -> key id
}

// count forgets the sessions the SDK has closed (ended, idled out) and
// returns how many keyID still has. Concurrent opens may pass the bound by
// the number of requests racing.
func (m *mcpSessions) count(keyID string) int {
	live := map[string]bool{}
	for ss := range m.server.Sessions() {
		live[ss.ID()] = true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, owner := range m.owner {
		switch {
		case !live[id]:
			delete(m.owner, id)
		case owner == keyID:
			n++
		}
	}
	return n
}

func (m *mcpSessions) add(id, keyID string) {
	m.mu.Lock()
	m.owner[id] = keyID
	m.mu.Unlock()
}

type requestContextKey struct{}

// withRequestContext hands h the request's context (requireKey's: it ends
// at the request deadline or when the client goes away) in place of the
// bridge's, fasthttp's RequestCtx, which ends only at shutdown: the SDK
// holds a response open until its request's context ends (a
// subscriptions/listen stream never completes otherwise).
func withRequestContext(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ctx, ok := r.Context().Value(requestContextKey{}).(context.Context); ok {
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	})
}
