package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

const testKey = "pyws_test_key_0123456789"

// noPlugins answers every plugin call with SERVER_UNAVAILABLE.
type noPlugins struct{}

func (noPlugins) Call(context.Context, string, *abi.Request) (json.RawMessage, error) {
	return nil, fault.New(fault.ServerUnavailable, nil, "no plugins in this test")
}
func (noPlugins) Tools() []string { return nil }
func (noPlugins) Health() service.PluginHealth {
	return service.PluginHealth{WorkersWanted: 1, WorkersAlive: 1}
}

// newTestApp serves a workspace in maintenance mode (so operations answer
// without plugins) to testKey, a free-tier key.
func newTestApp(t *testing.T, o Options) (*fiber.App, *service.Service) {
	t.Helper()
	ws := t.TempDir()
	svc := service.New(service.Config{DefaultWorkspace: ws, Plugins: noPlugins{}})
	t.Cleanup(svc.Close)
	svc.SetMaintenance(true)
	keys, err := tenants.Open("")
	if err != nil {
		t.Fatal(err)
	}
	keys.AddInMemory(testKey, tenants.Key{ID: "k1", Tenant: "acme-secret-tenant", Tier: tiers.Free, Workspace: ws})
	o.Service, o.Keys = svc, keys
	o.Metrics = promhttp.HandlerFor(svc.Metrics().Registry, promhttp.HandlerOpts{})
	o.OpenAPI = OpenAPIDocument(svc.Table())
	return New(o), svc
}

type route struct{ method, path string }

// everyRoute lists the routes a client can hit, generated from the
// operation table, plus paths no operation serves.
func everyRoute(table *service.Table) []route {
	routes := []route{
		{"POST", Prefix + "/tools/call"},
		{"POST", Prefix + "/resources/read"},
		{"GET", Prefix + "/resources/file/../../etc/passwd"},
		{"POST", MCPPath},
		{"GET", MCPPath},
		{"DELETE", MCPPath},
		{"GET", Prefix + "/nothing"},
		{"POST", Prefix + "/tools/get_everything"},
		{"POST", "/metrics"},
	}
	for _, op := range table.All() {
		for _, r := range op.Routes {
			path := Prefix + strings.TrimSuffix(r.Path, "*")
			if strings.HasSuffix(r.Path, "/*") {
				path += "pkg/a.py"
			}
			routes = append(routes, route{r.Method, path})
		}
	}
	return routes
}

// validBody is a well-formed body for the route (valid arguments or not,
// the caller's key decides first).
func validBody(r route) string {
	switch r.path {
	case Prefix + "/tools/call":
		return `{"name": "health_check", "arguments": {}}`
	case Prefix + "/resources/read":
		return `{"uri": "svc://workspace/files"}`
	}
	return `{}`
}

func send(t *testing.T, app *fiber.App, method, path, auth, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := app.Test(req, 10_000)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func errorOf(body map[string]any) (code, parameter string) {
	e, _ := body["error"].(map[string]any)
	code, _ = e["code"].(string)
	d, _ := e["details"].(map[string]any)
	parameter, _ = d["parameter"].(string)
	return code, parameter
}

// TestNothingBeforeAuthentication: without a valid key, every route
// answers 401 whatever the body, before routing, body decoding or tool
// lookup; with one, the body is judged.
func TestNothingBeforeAuthentication(t *testing.T) {
	const bodyLimit = 64 << 10 // below the free tier's cap, so the tests stay light
	var logs lockedBuffer
	app, svc := newTestApp(t, Options{BodyLimit: bodyLimit, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	bodies := []struct {
		name string
		body func(route) string
	}{
		{"valid", validBody},
		{"malformed", func(route) string { return `{"name": "get_hover",` }},
		{"empty object", func(route) string { return `{}` }},
		{"empty", func(route) string { return `` }},
		{"oversized", func(route) string { return `{"x":"` + strings.Repeat("a", bodyLimit) + `"}` }},
	}
	credentials := []struct{ name, header, reason string }{
		{"no key", "", authMissing},
		{"bad key", "Bearer pyws_not_a_key", authUnknownKey},
		{"malformed header", "Basic " + testKey, authMalformed},
	}
	for _, r := range everyRoute(svc.Table()) {
		for _, b := range bodies {
			for _, cred := range credentials {
				t.Run(r.method+" "+r.path+"/"+b.name+"/"+cred.name, func(t *testing.T) {
					status, body := send(t, app, r.method, r.path, cred.header, b.body(r))
					if code, _ := errorOf(body); status != http.StatusUnauthorized || code != fault.AuthenticationFailed {
						t.Fatalf("status %d %v, want 401 AUTHENTICATION_FAILED", status, body)
					}
				})
			}
			t.Run(r.method+" "+r.path+"/"+b.name+"/valid key", func(t *testing.T) {
				status, body := send(t, app, r.method, r.path, "Bearer "+testKey, b.body(r))
				code, parameter := errorOf(body)
				if status == http.StatusUnauthorized {
					t.Fatalf("valid key refused: %v", body)
				}
				if status != StatusOf(code) && code != "" {
					t.Fatalf("status %d for %s: the table says %d", status, code, StatusOf(code))
				}
				if b.name == "oversized" && (code != fault.InvalidParameter || parameter != "body") {
					t.Fatalf("oversized body: %d %v, want INVALID_PARAMETER on body", status, body)
				}
			})
		}
	}
	if text := logs.String(); strings.Contains(text, "pyws_not_a_key") || !strings.Contains(text, "keySHA256Prefix="+tenants.HashKey("pyws_not_a_key")[:8]) {
		t.Error("failed authentications must be logged with a hash prefix of the key, never the key")
	}
	metrics := scrape(t, app, "/metrics")
	for _, reason := range []string{authMissing, authUnknownKey, authMalformed} {
		if !strings.Contains(metrics, `pyws_auth_failures_total{reason="`+reason+`"}`) {
			t.Errorf("/metrics does not count failed authentications for %s", reason)
		}
	}
}

func scrape(t *testing.T, app *fiber.App, path string) string {
	t.Helper()
	resp, err := app.Test(httptest.NewRequest("GET", path, nil), 10_000)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s without a key: status %d", path, resp.StatusCode)
	}
	return string(raw)
}

// TestMalformedRequestsNeedAKeyToBeJudged pins the messages a caller with a
// key gets, which a caller without one must not.
func TestMalformedRequestsNeedAKeyToBeJudged(t *testing.T) {
	app, _ := newTestApp(t, Options{})
	tests := []struct {
		name, method, path, body, parameter, message string
	}{
		{"malformed body", "POST", Prefix + "/tools/call", `{"name":`, "body", "not valid JSON"},
		{"no name", "POST", Prefix + "/tools/call", `{}`, "name", `missing required parameter "name"`},
		{"unknown tool", "POST", Prefix + "/tools/call", `{"name": "nope"}`, "name", "tools: rename_symbol"},
		{"unknown route", "POST", "/v2/tools/call", `{}`, "path", "no route POST /v2/tools/call; see /v1/openapi.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := send(t, app, tt.method, tt.path, "", tt.body)
			if code, _ := errorOf(body); status != 401 || code != fault.AuthenticationFailed {
				t.Fatalf("without a key: %d %v", status, body)
			}
			status, body = send(t, app, tt.method, tt.path, "Bearer "+testKey, tt.body)
			code, parameter := errorOf(body)
			msg, _ := body["error"].(map[string]any)["message"].(string)
			if status != 400 || code != fault.InvalidParameter || parameter != tt.parameter || !strings.Contains(msg, tt.message) {
				t.Fatalf("with a key: %d %v, want 400 INVALID_PARAMETER on %s saying %q", status, body, tt.parameter, tt.message)
			}
		})
	}
}

// TestPublicRoutesRevealNothing: the routes served without a key answer
// and name no tenant, key or workspace path.
func TestPublicRoutesRevealNothing(t *testing.T) {
	app, _ := newTestApp(t, Options{})
	send(t, app, "GET", Prefix+"/tools/health_check", "Bearer "+testKey, "") // something to count
	send(t, app, "GET", Prefix+"/tools/health_check", "Bearer pyws_wrong", "")
	for _, path := range []string{"/healthz", "/metrics", Prefix + "/openapi.json"} {
		body := scrape(t, app, path)
		for _, secret := range []string{"acme-secret-tenant", testKey, "pyws_wrong", os.TempDir()} {
			if strings.Contains(body, secret) {
				t.Errorf("%s reveals %q", path, secret)
			}
		}
	}
}

// TestEveryErrorTakesItsStatusFromTheTable: internal errors and fasthttp's
// own refusals included, the status is StatusOf(code).
func TestEveryErrorTakesItsStatusFromTheTable(t *testing.T) {
	s := &server{Options: Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}}
	s.setDefaults()
	app := fiber.New(fiber.Config{ErrorHandler: s.renderError})
	app.Get("/internal", func(*fiber.Ctx) error { return errors.New("disk on fire") })
	app.Get("/timeout", func(*fiber.Ctx) error { return fiber.ErrRequestTimeout })
	app.Get("/header", func(*fiber.Ctx) error { return fiber.ErrRequestHeaderFieldsTooLarge })
	app.Get("/large", func(*fiber.Ctx) error { return fiber.ErrRequestEntityTooLarge })
	for path, want := range map[string]string{
		"/internal": fault.ServerUnavailable,
		"/timeout":  fault.InvalidParameter,
		"/header":   fault.InvalidParameter,
		"/large":    fault.InvalidParameter,
	} {
		status, body := send(t, app, "GET", path, "", "")
		if code, _ := errorOf(body); code != want || status != StatusOf(code) {
			t.Errorf("%s: %d %s, want %s with status %d", path, status, code, want, StatusOf(want))
		}
		if strings.Contains(fmt.Sprint(body), "fire") {
			t.Errorf("%s shows the internal error: %v", path, body)
		}
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
