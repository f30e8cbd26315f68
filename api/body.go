package api

import (
	"errors"
	"io"
	"net"
	"os"

	"github.com/gofiber/fiber/v2"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

// bodyCap is the largest body key may send: its tier's cap, never above the
// server's BodyLimit.
func (s *server) bodyCap(key *tenants.Key) int {
	limit := int64(s.BodyLimit)
	if t := tiers.For(key.Tier).MaxRequestBytes; t > 0 && t < limit {
		limit = t
	}
	return int(limit)
}

// readBody reads the streamed body as its bytes arrive (memory grows with
// what was received, not with what Content-Length promises), refusing it
// once it passes limit.
func (s *server) readBody(c *fiber.Ctx, limit int) ([]byte, error) {
	if declared, ok := s.unreadBodies.LoadAndDelete(&c.Request().Header); ok {
		return nil, bodyTooLarge(limit, declared.(int))
	}
	stream := c.Context().RequestBodyStream()
	if stream == nil { // nothing declared, or a server without streaming (tests)
		return c.Request().Body(), nil
	}
	body, err := io.ReadAll(io.LimitReader(stream, int64(limit)+1))
	var ne net.Error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return nil, fault.New(fault.InvalidParameter, fault.Details{"parameter": "body", "timeoutMs": s.BodyTimeout.Milliseconds(), "received": len(body)},
			"request body not received within %s", s.BodyTimeout)
	case err != nil:
		return nil, fault.New(fault.InvalidParameter, fault.Details{"parameter": "body", "received": len(body)}, "request body unreadable: %v", err)
	case len(body) > limit:
		return nil, bodyTooLarge(limit, len(body))
	}
	return body, nil
}

func bodyTooLarge(limit, size int) error {
	return fault.New(fault.InvalidParameter, fault.Details{"parameter": "body", "limit": limit, "value": size},
		"request body exceeds the %d-byte limit of this key's tier", limit)
}
