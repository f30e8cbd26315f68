package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tenants"
)

// toolLocal holds the name of the operation a request ran, for its log line.
type toolLocal struct{}

// requestLine is the one log line of a request, whatever its transport:
// who (the tenant, never the key), what (the tool, or the route when no
// tool ran), how it ended (status, error code) and how long it took.
type requestLine struct {
	Transport string // http, mcp-http, mcp-stdio
	Tenant    string
	Tool      string
	Route     string
	Status    int
	Code      string
	Duration  time.Duration
}

func (s *server) logRequest(ctx context.Context, l requestLine) {
	level := slog.LevelInfo
	if l.Status >= 500 {
		level = slog.LevelError
	}
	attrs := []slog.Attr{
		slog.String("transport", l.Transport),
		slog.String("tenant", l.Tenant),
	}
	if l.Tool != "" {
		attrs = append(attrs, slog.String("tool", l.Tool))
	}
	if l.Route != "" {
		attrs = append(attrs, slog.String("route", l.Route))
	}
	attrs = append(attrs, slog.Int("status", l.Status))
	if l.Code != "" {
		attrs = append(attrs, slog.String("code", l.Code))
	}
	attrs = append(attrs, slog.Float64("durationMs", float64(l.Duration.Microseconds())/1000))
	s.Logger.LogAttrs(ctx, level, "request", attrs...)
}

// tenantOf names the caller in logs: the key's tenant, or its id when it
// names none; never the key.
func tenantOf(key *tenants.Key) string {
	switch {
	case key == nil:
		return ""
	case key.Tenant != "":
		return key.Tenant
	}
	return key.ID
}

// logHTTP logs every HTTP request once it is answered. MCP requests that
// passed authentication are logged per tool call or resource read by the
// MCP layer instead (mcpLog), so a tools/call is one line, not two; its
// protocol traffic (initialize, lists) is logged at debug level here.
func (s *server) logHTTP(c *fiber.Ctx) error {
	start := time.Now()
	err := c.Next()
	status := c.Response().StatusCode()
	code := ""
	if err != nil {
		code = codeForMetrics(err)
		if fe, ok := fault.As(err); ok {
			status = StatusOf(fe.Code)
		} else {
			status = StatusOf(fault.ServerUnavailable)
		}
	}
	key := callerKey(c)
	if c.Path() == MCPPath && key != nil {
		if s.Logger.Enabled(c.UserContext(), slog.LevelDebug) {
			s.Logger.Debug("mcp request", "tenant", tenantOf(key), "method", c.Method(), "status", status, "durationMs", float64(time.Since(start).Microseconds())/1000)
		}
		return err
	}
	tool, _ := c.Locals(toolLocal{}).(string)
	route := ""
	if tool == "" {
		route = c.Method() + " " + c.Path()
	}
	s.logRequest(c.UserContext(), requestLine{Transport: "http", Tenant: tenantOf(key), Tool: tool, Route: route,
		Status: status, Code: code, Duration: time.Since(start)})
	return err
}
