package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Request is one tool call.
type Request struct {
	Tool      string
	Arguments json.RawMessage // a JSON object; nil when none was sent
	Files     []File
}

// DecodeArguments unmarshals the call's arguments into v, rejecting
// unknown fields. The kernel validates arguments before calling, so an
// error here usually means the plugin and the host disagree on a schema.
func (r *Request) DecodeArguments(v any) error {
	if len(r.Arguments) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(r.Arguments))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return Errorf("INVALID_PARAMETER", map[string]any{"tool": r.Tool}, "arguments of %s: %v", r.Tool, err)
	}
	return nil
}

// Handler answers a tool call. See the package comment for how its results
// and errors are reported.
type Handler func(*Request) (any, error)

// Error is a tool's answer that something cannot be done, for example
// NO_SYMBOL_FOUND. Code should come from the service spec's catalogue.
type Error struct {
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with code, details (nil is fine) and a formatted
// message.
func Errorf(code string, details map[string]any, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Details: details}
}

// Internal error codes the SDK puts in responses. They are not in the
// service spec's catalogue, so the kernel logs them and answers the caller
// SERVER_UNAVAILABLE.
const (
	CodePanic    = "PLUGIN_PANIC"
	CodeInternal = "PLUGIN_ERROR"
)

// Level is a log level for Log; the values match log/slog.
type Level int32

const (
	LevelDebug Level = abi.LogDebug
	LevelInfo  Level = abi.LogInfo
	LevelWarn  Level = abi.LogWarn
	LevelError Level = abi.LogError
)

var handler Handler

// Serve registers the plugin's handler. Call it once, from init.
func Serve(h Handler) {
	if handler != nil {
		panic("sdk.Serve called twice")
	}
	handler = h
}

// HandleMessage runs one call as the pyws_handle export does: msg is a
// request message (abi.EncodeRequest), the result a response message.
// Plugins' native tests use it to run their handler behind the SDK's own
// decoding and checks.
func HandleMessage(h Handler, msg []byte) []byte { return handle(h, msg) }

// handle runs one call: decode msg, run h, encode the response. It never
// panics and never returns nil.
func handle(h Handler, msg []byte) (resp []byte) {
	defer func() {
		if p := recover(); p != nil {
			resp = errorResponse(&Error{Code: CodePanic, Message: fmt.Sprintf("plugin panicked: %v", p),
				Details: map[string]any{"stack": string(debug.Stack())}})
		}
	}()
	if h == nil {
		return errorResponse(&Error{Code: CodeInternal, Message: "plugin did not call sdk.Serve"})
	}
	beforeCall()
	defer noteAllocs()
	ar, err := abi.DecodeRequest(msg)
	if err != nil {
		return errorResponse(&Error{Code: CodeInternal, Message: "decode request: " + err.Error()})
	}
	req := &Request{Tool: ar.Tool, Arguments: ar.Arguments, Files: make([]File, len(ar.Files))}
	for i, f := range ar.Files {
		req.Files[i] = File{URI: f.URI, Path: f.Path, Source: f.Source}
		if f.Tree != nil {
			if err := decodeTree(&req.Files[i], f.Tree); err != nil {
				return errorResponse(&Error{Code: CodeInternal, Message: fmt.Sprintf("decode tree of %s: %v", f.Path, err)})
			}
		}
	}
	v, err := h(req)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeInternal, Message: err.Error()}
		}
		return errorResponse(e)
	}
	out, err := abi.EncodeResult(v)
	if err != nil {
		return errorResponse(&Error{Code: CodeInternal, Message: err.Error()})
	}
	return out
}

func errorResponse(e *Error) []byte {
	out, err := abi.EncodeError(&abi.ToolError{Code: e.Code, Message: e.Message, Details: e.Details})
	if err != nil { // unencodable details or empty code: keep the message
		out, _ = abi.EncodeError(&abi.ToolError{Code: CodeInternal, Message: fmt.Sprintf("%s: %s (%v)", e.Code, e.Message, err)})
	}
	return out
}
