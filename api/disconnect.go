package api

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"
)

// requestContext is the context operations run under: it ends at the
// request deadline (RequestTimeout from arrival) or as soon as the client
// closes its connection, whichever is first, so an abandoned plugin call is
// stopped rather than left to finish for nobody. fasthttp notices neither.
func (s *server) requestContext(c *fiber.Ctx) (context.Context, context.CancelFunc) {
	ctx, cancelDeadline := context.WithDeadline(context.Background(), c.Context().Time().Add(s.RequestTimeout))
	ctx, cancel := context.WithCancelCause(ctx)
	stopWatching := watchPeer(c.Context().Conn(), func() {
		s.Service.Metrics().ClientDisconnect()
		cancel(errClientGone)
	})
	return ctx, func() {
		stopWatching()
		cancel(nil)
		cancelDeadline()
	}
}

type clientGoneError struct{}

func (clientGoneError) Error() string { return "client closed the connection" }

var errClientGone = clientGoneError{}

// aLongTimeAgo is a read deadline that wakes a blocked read at once.
var aLongTimeAgo = time.Unix(1, 0)
