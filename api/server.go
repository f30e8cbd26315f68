// Package api is the thin transport face of pyws: HTTP (fiber v2) and MCP
// (the official Go SDK, at /mcp and on stdio). It authenticates the bearer
// key, finds the operation in the service's one table, turns the body,
// query string or MCP arguments into validated arguments, charges the rate
// limit and renders the result, or the error envelope with the status from
// StatusOf. It knows no Python and touches no files: everything else is
// host/service.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
)

// Prefix is the versioned path every route lives under.
const Prefix = "/v1"

// Defaults of Options; docs/api.md's table of HTTP limits is generated from
// them (go test ./api -update).
const (
	// DefaultBodyLimit caps every body whatever the tier (a tier's own cap,
	// tiers.Limits.MaxRequestBytes, is usually lower).
	DefaultBodyLimit = 32 << 20
	// DefaultMaxHeaderBytes bounds the request line and headers together.
	// Long paths must reach confinement (PERMISSION_DENIED with a reason),
	// so it is well above any path a workspace holds.
	DefaultMaxHeaderBytes = 32 << 10
	// DefaultHeaderTimeout bounds receiving a request line and its headers.
	DefaultHeaderTimeout = 10 * time.Second
	// DefaultBodyTimeout bounds receiving a body once its headers are in.
	DefaultBodyTimeout = 30 * time.Second
	// DefaultRequestTimeout is every operation's deadline from arrival.
	DefaultRequestTimeout = 2 * time.Minute
	// DefaultIdleTimeout is how long a kept-alive connection may wait for
	// its next request.
	DefaultIdleTimeout = 60 * time.Second
)

// Limiter charges one request of a family to a key. It returns a
// RATE_LIMIT_EXCEEDED fault when the budget is spent, and the headers to
// send either way.
type Limiter interface {
	Charge(ctx context.Context, key *tenants.Key, family tiers.Family) (headers map[string]string, err error)
}

// Options configure the app. Zero durations and sizes take the defaults.
type Options struct {
	Service        *service.Service
	Keys           *tenants.Store
	Limiter        Limiter // nil: no rate limiting
	Logger         *slog.Logger
	BodyLimit      int
	MaxHeaderBytes int
	HeaderTimeout  time.Duration
	BodyTimeout    time.Duration
	RequestTimeout time.Duration
	IdleTimeout    time.Duration
	// Metrics, when set, is served at /metrics without authentication.
	Metrics http.Handler
	// OpenAPI, when set, is served at /v1/openapi.json without authentication.
	OpenAPI []byte
}

func (o *Options) setDefaults() {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	setDefault(&o.BodyLimit, DefaultBodyLimit)
	setDefault(&o.MaxHeaderBytes, DefaultMaxHeaderBytes)
	setDefault(&o.HeaderTimeout, DefaultHeaderTimeout)
	setDefault(&o.BodyTimeout, DefaultBodyTimeout)
	setDefault(&o.RequestTimeout, DefaultRequestTimeout)
	setDefault(&o.IdleTimeout, DefaultIdleTimeout)
}

func setDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

type server struct {
	Options
	table *service.Table
	// unreadBodies holds, per request header, the declared length of a
	// body admitBody refused to read for being over the caller's cap, until
	// requireKey answers.
	unreadBodies sync.Map
}

// New builds the fiber app.
func New(o Options) *fiber.App {
	o.setDefaults()
	s := &server{Options: o, table: o.Service.Table()}
	app := fiber.New(fiber.Config{
		AppName:               "pyws",
		BodyLimit:             o.BodyLimit,
		DisableStartupMessage: true,
		// Bodies are read by requireKey, after authentication, as they
		// arrive; fasthttp would otherwise allocate Content-Length bytes
		// up front for anyone who asks.
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
		ReadBufferSize:               o.MaxHeaderBytes,
		ErrorHandler:                 s.renderError,
		ReadTimeout:                  o.HeaderTimeout,
		IdleTimeout:                  o.IdleTimeout,
		WriteTimeout:                 o.RequestTimeout,
	})
	app.Server().HeaderReceived = s.admitBody
	app.Use(s.recoverPanics)
	app.Use(s.logHTTP)

	// Public routes: see RATIONALE.md, "Why are these routes public?".
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.SendString("ok\n") })
	if o.Metrics != nil {
		app.Get("/metrics", adaptHandler(o.Metrics))
	}
	if o.OpenAPI != nil {
		app.Get(Prefix+"/openapi.json", func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			return c.Send(o.OpenAPI)
		})
	}

	// Everything below needs a key, unknown routes included.
	app.Use(s.requireKey)

	// The file resource is matched on the raw request URI: fasthttp would
	// otherwise collapse "..", and an escape attempt must be answered with
	// PERMISSION_DENIED, not a routing 404.
	app.Use(s.fileResourceByRawPath)

	app.All(MCPPath, s.mcpHTTP())

	v1 := app.Group(Prefix)
	v1.Post("/tools/call", s.genericToolCall)
	v1.Post("/resources/read", s.genericResourceRead)
	for _, op := range s.table.All() {
		for _, r := range op.Routes {
			if strings.HasSuffix(r.Path, "/*") {
				continue // served by fileResourceByRawPath
			}
			h := s.dedicated(op, r)
			v1.Add(r.Method, r.Path, h)
		}
	}
	v1.Post("/tools/:name", func(c *fiber.Ctx) error {
		return s.unknownTool(c.Params("name"))
	})
	app.Use(func(c *fiber.Ctx) error {
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "path", "value": c.Path()},
			"no route %s %s; see %s/openapi.json", c.Method(), c.Path(), Prefix)
	})
	return app
}

// call validates, rate-limits and runs op for the caller requireKey admitted.
func (s *server) call(c *fiber.Ctx, op *service.Operation, raw json.RawMessage) error {
	c.Locals(toolLocal{}, op.Name)
	result, headers, err := s.invoke(c.UserContext(), callerKey(c), op, raw)
	for k, v := range headers {
		c.Set(k, v)
	}
	if err != nil {
		return err
	}
	return c.JSON(result)
}

// invoke is the one dispatch of every transport (HTTP routes, MCP over
// HTTP and stdio): it validates raw against op's parameters, charges key's
// rate limit, runs op and records the call in the metrics. headers are the
// rate limiter's, for transports that can send them.
func (s *server) invoke(ctx context.Context, key *tenants.Key, op *service.Operation, raw json.RawMessage) (result any, headers map[string]string, err error) {
	start := time.Now()
	args, err := op.DecodeArgs(raw)
	if err == nil && s.Limiter != nil && op.RateLimited() {
		headers, err = s.Limiter.Charge(ctx, key, op.Family)
	}
	if err == nil {
		result, err = s.Service.Run(ctx, key, op, args)
	}
	code := ""
	if err != nil {
		code = codeForMetrics(err)
	}
	s.Service.Observe(op.Name, code, time.Since(start))
	return result, headers, err
}

func codeForMetrics(err error) string {
	if code := fault.CodeOf(err); code != "" {
		return code
	}
	return "INTERNAL"
}

func (s *server) genericToolCall(c *fiber.Ctx) error {
	var body struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := decodeBody(c.Request().Body(), &body); err != nil {
		return err
	}
	if body.Name == nil {
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "name"}, "missing required parameter \"name\" (the tool to call)")
	}
	op, ok := s.table.Tool(*body.Name)
	if !ok {
		return s.unknownTool(*body.Name)
	}
	return s.call(c, op, body.Arguments)
}

func (s *server) genericResourceRead(c *fiber.Ctx) error {
	var body struct {
		URI    *string         `json:"uri"`
		Params json.RawMessage `json:"params"`
	}
	if err := decodeBody(c.Request().Body(), &body); err != nil {
		return err
	}
	if body.URI == nil {
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "uri"}, "missing required parameter \"uri\" (the resource to read)")
	}
	op, ok := s.table.Resource(*body.URI)
	if !ok {
		return s.unknownResource(*body.URI)
	}
	params, err := withURI(body.Params, *body.URI)
	if err != nil {
		return err
	}
	return s.call(c, op, params)
}

func (s *server) dedicated(op *service.Operation, r toolspec.Route) fiber.Handler {
	return func(c *fiber.Ctx) error {
		raw := json.RawMessage(c.Request().Body()) // as sent: no Content-Encoding is expanded
		if r.Query {
			var err error
			raw, err = toolspec.QueryToJSON(op.Params, queryValues(c))
			if err != nil {
				return err
			}
		}
		if op.Kind == toolspec.KindResource {
			var err error
			if raw, err = withURI(raw, op.URI); err != nil {
				return err
			}
		}
		return s.call(c, op, raw)
	}
}

// fileResourceByRawPath serves GET /v1/resources/file/{path} from the raw
// request line; {path} keeps its percent-encoding until the service
// decodes it once.
func (s *server) fileResourceByRawPath(c *fiber.Ctx) error {
	const route = Prefix + "/resources/file/"
	raw := string(c.Request().Header.RequestURI()) // as received, before fasthttp cleans it
	if !strings.HasPrefix(raw, route) {
		return c.Next()
	}
	if c.Method() != fiber.MethodGet {
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "method", "value": c.Method()}, "%s accepts GET only", route+"{path}")
	}
	path, _, _ := strings.Cut(strings.TrimPrefix(raw, route), "?")
	op, _ := s.table.Resource(service.FileURIPrefix)
	query, err := toolspec.QueryToJSON(op.Params, queryValues(c))
	if err != nil {
		return err
	}
	params, err := withURI(query, service.FileURIPrefix+path)
	if err != nil {
		return err
	}
	return s.call(c, op, params)
}

func (s *server) unknownTool(name string) error {
	return fault.New(fault.InvalidParameter, fault.Details{"parameter": "name", "value": name, "allowed": s.table.ToolNames()},
		"unknown tool %q; tools: %s", name, strings.Join(s.table.ToolNames(), ", "))
}

func (s *server) unknownResource(uri string) error {
	return fault.New(fault.InvalidParameter, fault.Details{"parameter": "uri", "value": uri, "allowed": s.table.ResourceURIs()},
		"unknown resource %q; resources: %s", uri, strings.Join(s.table.ResourceURIs(), ", "))
}

// withURI sets params.uri to uri (the generic shape carries it outside
// params; the operation's parameters list it).
func withURI(params json.RawMessage, uri string) (json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if p := bytes.TrimSpace(params); len(p) > 0 && string(p) != "null" {
		if err := json.Unmarshal(p, &obj); err != nil {
			return nil, fault.New(fault.InvalidParameter, fault.Details{"parameter": "params"}, "params must be a JSON object")
		}
	}
	u, _ := json.Marshal(uri)
	obj["uri"] = u
	return json.Marshal(obj)
}

func decodeBody(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "body"}, "request body is empty; send a JSON object")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fault.New(fault.InvalidParameter, fault.Details{"parameter": "body", "offset": se.Offset}, "request body is not valid JSON: %v (at byte %d)", se, se.Offset)
		case errors.As(err, &te):
			field := te.Field
			if field == "" {
				field = "body"
			}
			return fault.New(fault.InvalidParameter, fault.Details{"parameter": field}, "%s must be of type %s, got %s", field, jsonTypeOf(te.Type.String()), te.Value)
		}
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "body"}, "request body is not valid JSON: %v", err)
	}
	return nil
}

func jsonTypeOf(goType string) string {
	switch {
	case strings.Contains(goType, "string"):
		return "string"
	case strings.Contains(goType, "map"), strings.Contains(goType, "struct"):
		return "object"
	}
	return goType
}

func queryValues(c *fiber.Ctx) map[string][]string {
	out := map[string][]string{}
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		out[string(k)] = append(out[string(k)], string(v))
	})
	return out
}

type envelope struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Details fault.Details `json:"details"`
}

// renderError writes the error envelope with the status StatusOf gives its
// code. fasthttp's own refusals (headers over MaxHeaderBytes, a request not
// received in time) are malformed requests; anything else that is not a
// fault is an internal error: logged in full, shown as SERVER_UNAVAILABLE
// with a request id only.
func (s *server) renderError(c *fiber.Ctx, err error) error {
	fe, ok := fault.As(err)
	if !ok {
		var fiberErr *fiber.Error
		switch {
		case errors.As(err, &fiberErr) && fiberErr.Code == http.StatusRequestHeaderFieldsTooLarge:
			fe = fault.New(fault.InvalidParameter, fault.Details{"parameter": "headers", "limit": s.MaxHeaderBytes},
				"request line and headers exceed the %d-byte limit", s.MaxHeaderBytes)
		case errors.As(err, &fiberErr) && fiberErr.Code == http.StatusRequestTimeout:
			fe = fault.New(fault.InvalidParameter, fault.Details{"parameter": "request"}, "request not received in time")
		case errors.As(err, &fiberErr) && fiberErr.Code < 500:
			fe = fault.New(fault.InvalidParameter, fault.Details{"parameter": "request"}, "%s", fiberErr.Message)
		default:
			fe = s.internalFault(requestID(c), err, "method", c.Method(), "path", c.Path())
		}
	}
	return s.writeEnvelope(c, fe)
}

func (s *server) writeEnvelope(c *fiber.Ctx, fe *fault.Error) error {
	return c.Status(StatusOf(fe.Code)).JSON(errorDocument(fe))
}

// errorDocument is the body an error answers with, on every transport.
func errorDocument(fe *fault.Error) any {
	details := fe.Details
	if details == nil {
		details = fault.Details{}
	}
	body := any(envelope{Error: errorBody{Code: fe.Code, Message: fe.Message, Details: details}})
	// A refused workspace edit is also a result: applied false with the
	// failure reason, so clients reading either shape understand it.
	if r, ok := details["result"].(map[string]any); ok {
		rest := make(fault.Details, len(details))
		for k, v := range details {
			if k != "result" {
				rest[k] = v
			}
		}
		merged := map[string]any{"error": errorBody{Code: fe.Code, Message: fe.Message, Details: rest}}
		for k, v := range r {
			merged[k] = v
		}
		body = merged
	}
	return body
}

// internalFault logs an error that is not a fault in full and returns
// what the caller sees instead: SERVER_UNAVAILABLE with a request id.
func (s *server) internalFault(id string, err error, attrs ...any) *fault.Error {
	s.Logger.Error("internal error", append([]any{"requestId", id, "err", err}, attrs...)...)
	return fault.New(fault.ServerUnavailable, fault.Details{"requestId": id}, "internal error; quote request id %s when reporting it", id)
}

func (s *server) recoverPanics(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.Logger.Error("panic in handler", "panic", fmt.Sprint(r), "path", c.Path(), "stack", string(debug.Stack()))
			err = errors.New("panic in handler")
		}
	}()
	return c.Next()
}

func requestID(c *fiber.Ctx) string {
	if id := c.Get("X-Request-Id"); id != "" && len(id) <= 64 {
		return id
	}
	id := c.Locals("requestId")
	if s, ok := id.(string); ok {
		return s
	}
	return newRequestID()
}

func newRequestID() string {
	return strings.ReplaceAll(time.Now().UTC().Format("20060102T150405.000000000"), ".", "")
}
