// Package api is the thin HTTP face of pyws (fiber v2). It authenticates
// the bearer key, finds the operation in the service's one table, turns the
// body or query string into validated arguments, charges the rate limit and
// renders the result, or the error envelope with the status from StatusOf.
// It knows no Python and touches no files: everything else is host/service.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// Prefix is the versioned path every route lives under.
const Prefix = "/v1"

// DefaultBodyLimit bounds request bodies; a workspace edit is one request,
// so it is generous.
const DefaultBodyLimit = 32 << 20

// Limiter charges one request of a family to a key. It returns a
// RATE_LIMIT_EXCEEDED fault when the budget is spent, and the headers to
// send either way.
type Limiter interface {
	Charge(ctx context.Context, key *tenants.Key, family tiers.Family) (headers map[string]string, err error)
}

// Options configure the app.
type Options struct {
	Service   *service.Service
	Keys      *tenants.Store
	Limiter   Limiter // nil: no rate limiting
	Logger    *slog.Logger
	BodyLimit int
	// Metrics, when set, is served at /metrics without authentication.
	Metrics http.Handler
	// OpenAPI, when set, is served at /v1/openapi.json without authentication.
	OpenAPI []byte
}

type server struct {
	Options
	table *service.Table
}

// New builds the fiber app.
func New(o Options) *fiber.App {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.BodyLimit == 0 {
		o.BodyLimit = DefaultBodyLimit
	}
	s := &server{Options: o, table: o.Service.Table()}
	app := fiber.New(fiber.Config{
		AppName:               "pyws",
		BodyLimit:             o.BodyLimit,
		DisableStartupMessage: true,
		// Long paths must reach confinement (PERMISSION_DENIED with a
		// reason), not die as a 431 in the header parser.
		ReadBufferSize: 32 << 10,
		ErrorHandler:   s.renderError,
		ReadTimeout:    2 * time.Minute,
		WriteTimeout:   2 * time.Minute,
	})
	app.Use(s.recoverPanics)
	if o.Metrics != nil {
		app.Get("/metrics", adaptHandler(o.Metrics))
	}
	if o.OpenAPI != nil {
		app.Get(Prefix+"/openapi.json", func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			return c.Send(o.OpenAPI)
		})
	}
	// The file resource is matched on the raw request URI: fasthttp would
	// otherwise collapse "..", and an escape attempt must be answered with
	// PERMISSION_DENIED, not a routing 404.
	app.Use(s.fileResourceByRawPath)

	v1 := app.Group(Prefix)
	v1.Post("/tools/call", s.genericToolCall)
	v1.Post("/resources/read", s.genericResourceRead)
	for i := range s.table.All() {
		op := &s.table.All()[i]
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

// call authenticates, validates, rate-limits and runs op.
func (s *server) call(c *fiber.Ctx, op *service.Operation, raw json.RawMessage) error {
	start := time.Now()
	key, err := s.authenticate(c)
	if err == nil {
		var args service.Args
		args, err = service.DecodeArgs(op.Params, raw)
		if err == nil && s.Limiter != nil && op.Family != tiers.FamilyHealthCheck {
			var headers map[string]string
			headers, err = s.Limiter.Charge(c.UserContext(), key, op.Family)
			for k, v := range headers {
				c.Set(k, v)
			}
		}
		if err == nil {
			var result any
			result, err = s.Service.Run(c.UserContext(), key, op, args)
			if err == nil {
				s.Service.Observe(op.Name, "", time.Since(start))
				return c.JSON(result)
			}
		}
	}
	s.Service.Observe(op.Name, codeForMetrics(err), time.Since(start))
	return err
}

func codeForMetrics(err error) string {
	if code := fault.CodeOf(err); code != "" {
		return code
	}
	return "INTERNAL"
}

func (s *server) authenticate(c *fiber.Ctx) (*tenants.Key, error) {
	h := c.Get(fiber.HeaderAuthorization)
	if h == "" {
		return nil, fault.New(fault.AuthenticationFailed, nil, "missing Authorization header: send Authorization: Bearer <API_KEY>")
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, fault.New(fault.AuthenticationFailed, nil, "malformed Authorization header: expected Bearer <API_KEY>")
	}
	key, found := s.Keys.Lookup(strings.TrimSpace(token))
	if !found {
		return nil, fault.New(fault.AuthenticationFailed, nil, "invalid or revoked API key")
	}
	return key, nil
}

func (s *server) genericToolCall(c *fiber.Ctx) error {
	var body struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := decodeBody(c.Body(), &body); err != nil {
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
	if err := decodeBody(c.Body(), &body); err != nil {
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

func (s *server) dedicated(op *service.Operation, r service.Route) fiber.Handler {
	return func(c *fiber.Ctx) error {
		raw := json.RawMessage(c.Body())
		if r.Query {
			var err error
			raw, err = service.QueryToJSON(op.Params, queryValues(c))
			if err != nil {
				return err
			}
		}
		if op.Kind == service.KindResource {
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
	query, err := service.QueryToJSON(op.Params, queryValues(c))
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

// renderError writes the error envelope. Anything that is not a fault is an
// internal error: logged in full, shown as SERVER_UNAVAILABLE with a request
// id only.
func (s *server) renderError(c *fiber.Ctx, err error) error {
	fe, ok := fault.As(err)
	if !ok {
		var fiberErr *fiber.Error
		switch {
		case errors.As(err, &fiberErr) && fiberErr.Code == http.StatusRequestEntityTooLarge:
			fe = fault.New(fault.InvalidParameter, fault.Details{"parameter": "body", "limit": s.BodyLimit},
				"request body exceeds the %d-byte limit", s.BodyLimit)
			return s.writeEnvelope(c, http.StatusRequestEntityTooLarge, fe)
		case errors.As(err, &fiberErr) && fiberErr.Code < 500:
			fe = fault.New(fault.InvalidParameter, fault.Details{"parameter": "request"}, "%s", fiberErr.Message)
			return s.writeEnvelope(c, fiberErr.Code, fe)
		}
		id := requestID(c)
		s.Logger.Error("internal error", "requestId", id, "method", c.Method(), "path", c.Path(), "err", err)
		fe = fault.New(fault.ServerUnavailable, fault.Details{"requestId": id}, "internal error; quote request id %s when reporting it", id)
		return s.writeEnvelope(c, http.StatusInternalServerError, fe)
	}
	return s.writeEnvelope(c, StatusOf(fe.Code), fe)
}

func (s *server) writeEnvelope(c *fiber.Ctx, status int, fe *fault.Error) error {
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
	return c.Status(status).JSON(body)
}

func (s *server) recoverPanics(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.Logger.Error("panic in handler", "panic", r, "path", c.Path())
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
	return strings.ReplaceAll(time.Now().UTC().Format("20060102T150405.000000000"), ".", "")
}
