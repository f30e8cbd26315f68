package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tenants"
)

// Reasons for a refused key: the label of pyws_auth_failures_total.
const (
	authMissing    = "missing"
	authMalformed  = "malformed"
	authUnknownKey = "unknown_key"
)

var authMessages = map[string]string{
	authMissing:    "missing Authorization header: send Authorization: Bearer <API_KEY>",
	authMalformed:  "malformed Authorization header: expected Bearer <API_KEY>",
	authUnknownKey: "invalid or revoked API key",
}

// keyFrom finds the key an Authorization header presents. On failure it
// returns the reason and the token as presented ("" when there was none).
func (s *server) keyFrom(header string) (key *tenants.Key, reason, token string) {
	if header == "" {
		return nil, authMissing, ""
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, authMalformed, ""
	}
	key, found := s.Keys.Lookup(token)
	if !found {
		return nil, authUnknownKey, token
	}
	return key, "", ""
}

// admitBody runs when a request's headers are in and before fasthttp reads
// a byte of its body. A body is only read for a caller with a valid key, up
// to the tier's cap and within BodyTimeout. Anyone else's body, and one
// declared over the caller's cap, is not read at all: the request goes on
// as if it had none (requireKey answers 401, or 400 for the size), and the
// connection closes after the answer since the unread bytes cannot be
// skipped.
func (s *server) admitBody(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	s.unreadBodies.Delete(h) // left by an earlier request on this pooled header
	cfg := fasthttp.RequestConfig{ReadTimeout: s.BodyTimeout, MaxRequestBodySize: s.BodyLimit}
	declared := h.ContentLength()
	if declared == 0 || declared == -2 { // no body (-2: none declared, ignored by fasthttp)
		return cfg
	}
	key, _, _ := s.keyFrom(string(h.Peek(fiber.HeaderAuthorization)))
	if key == nil {
		skipBody(h)
		return cfg
	}
	cfg.MaxRequestBodySize = s.bodyCap(key)
	if declared > cfg.MaxRequestBodySize {
		s.unreadBodies.Store(h, declared)
		skipBody(h)
	}
	return cfg
}

func skipBody(h *fasthttp.RequestHeader) {
	h.SetContentLength(0) // also drops Transfer-Encoding
	h.Del(fiber.HeaderExpect)
	h.SetConnectionClose()
}

// requireKey is the gate every route but the public ones passes, before
// routing, body, tool or resource lookup: it refuses a request without a
// valid key, then reads the body within the tier's cap and gives the rest
// of the chain a context that ends at the request deadline or when the
// client goes away.
func (s *server) requireKey(c *fiber.Ctx) error {
	key, reason, token := s.keyFrom(c.Get(fiber.HeaderAuthorization))
	if key == nil {
		s.Service.Metrics().AuthFailure(reason)
		attrs := []any{"reason", reason, "method", c.Method(), "path", c.Path(), "remote", c.IP()}
		if token != "" {
			// Enough to correlate attempts in logs, never the key.
			attrs = append(attrs, "keySHA256Prefix", tenants.HashKey(token)[:8])
		}
		s.Logger.Warn("authentication failed", attrs...)
		return fault.New(fault.AuthenticationFailed, nil, "%s", authMessages[reason])
	}
	c.Locals(keyLocal{}, key)
	body, err := s.readBody(c, s.bodyCap(key))
	if err != nil {
		c.Context().SetConnectionClose() // the rest of the body is unread
		return err
	}
	c.Request().SetBodyRaw(body)

	ctx, cancel := s.requestContext(c)
	defer cancel()
	c.SetUserContext(ctx)
	return c.Next()
}

type keyLocal struct{}

// callerKey is the key requireKey admitted.
func callerKey(c *fiber.Ctx) *tenants.Key {
	k, _ := c.Locals(keyLocal{}).(*tenants.Key)
	return k
}
