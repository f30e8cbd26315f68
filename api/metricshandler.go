package api

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

func adaptHandler(h http.Handler) fiber.Handler {
	fh := fasthttpadaptor.NewFastHTTPHandler(h)
	return func(c *fiber.Ctx) error {
		fh(c.Context())
		return nil
	}
}
