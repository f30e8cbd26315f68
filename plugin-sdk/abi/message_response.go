package abi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Response is what pyws_handle returns: a JSON object holding exactly one
// of "result" (any JSON value, null included) or "error". An error here is
// the tool's own answer to the caller (for example NO_SYMBOL_FOUND); traps,
// timeouts and running out of memory are the kernel's errors and never
// travel in a Response.
type Response struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ToolError      `json:"error,omitempty"`
}

// ToolError is a tool's refusal: a code from the service spec's catalogue
// (other codes are reported by the kernel as internal plugin failures), a
// message for humans and a details object.
type ToolError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *ToolError) Error() string { return e.Code + ": " + e.Message }

// EncodeResult returns the response message {"result": v}.
func EncodeResult(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	// Wrap by hand: json.Marshal(Response{Result: raw}) would scan and
	// compact raw again, which costs more than the encoding itself in a
	// wasm guest (raw is already compact, HTML-escaped JSON).
	out := make([]byte, 0, len(resultPrefix)+len(raw)+1)
	out = append(out, resultPrefix...)
	out = append(out, raw...)
	return append(out, '}'), nil
}

const resultPrefix = `{"result":`

// EncodeError returns the response message {"error": e}.
func EncodeError(e *ToolError) ([]byte, error) {
	if e == nil || e.Code == "" {
		return nil, fmt.Errorf("encode error: empty error code")
	}
	return json.Marshal(Response{Error: e})
}

// DecodeResponse parses a response message. It never panics and allocates
// in proportion to len(msg) (encoding/json also caps nesting depth).
func DecodeResponse(msg []byte) (*Response, error) {
	var r Response
	d := json.NewDecoder(bytes.NewReader(msg))
	d.UseNumber()
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("%w: response: %v", ErrMalformed, err)
	}
	if d.More() {
		return nil, fmt.Errorf("%w: response: data after the JSON object", ErrMalformed)
	}
	switch {
	case r.Error != nil && r.Result != nil:
		return nil, fmt.Errorf("%w: response has both result and error", ErrMalformed)
	case r.Error == nil && r.Result == nil:
		return nil, fmt.Errorf("%w: response has neither result nor error", ErrMalformed)
	case r.Error != nil && r.Error.Code == "":
		return nil, fmt.Errorf("%w: response error has no code", ErrMalformed)
	}
	return &r, nil
}
