package sdk

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestHandle(t *testing.T) {
	var nilMap map[string]int
	tests := []struct {
		name    string
		h       Handler
		req     abi.Request
		code    string // expected error code, or "" for a result
		result  string
		message string
	}{
		{"result", func(r *Request) (any, error) { return map[string]any{"tool": r.Tool, "n": len(r.Files)}, nil },
			abi.Request{Tool: "t", Files: []abi.File{{Source: []byte("x")}}}, "", `{"n":1,"tool":"t"}`, ""},
		{"nil result", func(*Request) (any, error) { return nil, nil }, abi.Request{Tool: "t"}, "", `null`, ""},
		{"tool error", func(*Request) (any, error) {
			return nil, Errorf("NO_SYMBOL_FOUND", map[string]any{"line": 3}, "no symbol at %d:%d", 3, 4)
		}, abi.Request{Tool: "t"}, "NO_SYMBOL_FOUND", "", "no symbol at 3:4"},
		{"wrapped tool error", func(*Request) (any, error) {
			return nil, errors.Join(errors.New("ctx"), Errorf("INVALID_POSITION", nil, "past the end"))
		}, abi.Request{Tool: "t"}, "INVALID_POSITION", "", "past the end"},
		{"plain error", func(*Request) (any, error) { return nil, errors.New("disk on fire") }, abi.Request{Tool: "t"}, CodeInternal, "", "disk on fire"},
		{"panic", func(*Request) (any, error) { panic("boom") }, abi.Request{Tool: "t"}, CodePanic, "", "plugin panicked: boom"},
		{"nil map write", func(*Request) (any, error) { nilMap["x"] = 1; return nil, nil }, abi.Request{Tool: "t"}, CodePanic, "", "assignment to entry in nil map"},
		{"unencodable result", func(*Request) (any, error) { return func() {}, nil }, abi.Request{Tool: "t"}, CodeInternal, "", "unsupported type"},
		{"no handler", nil, abi.Request{Tool: "t"}, CodeInternal, "", "sdk.Serve"},
		{"bad tree", func(*Request) (any, error) { return nil, nil },
			abi.Request{Tool: "t", Files: []abi.File{{Path: "a.py", Source: []byte("x"), Tree: []byte("junk")}}}, CodeInternal, "", "decode tree of a.py"},
		{"arguments", func(r *Request) (any, error) {
			var a struct{ Name string }
			if err := r.DecodeArguments(&a); err != nil {
				return nil, err
			}
			return a.Name, nil
		}, abi.Request{Tool: "t", Arguments: json.RawMessage(`{"Name":"n"}`)}, "", `"n"`, ""},
		{"unknown argument", func(r *Request) (any, error) {
			var a struct{ Name string }
			return nil, r.DecodeArguments(&a)
		}, abi.Request{Tool: "t", Arguments: json.RawMessage(`{"Nom":"n"}`)}, "INVALID_PARAMETER", "", "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := abi.EncodeRequest(&tt.req)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := abi.DecodeResponse(handle(tt.h, msg))
			if err != nil {
				t.Fatal(err)
			}
			if tt.code == "" {
				if resp.Error != nil || string(resp.Result) != tt.result {
					t.Fatalf("response = %s / %+v, want result %s", resp.Result, resp.Error, tt.result)
				}
				return
			}
			if resp.Error == nil || resp.Error.Code != tt.code || !strings.Contains(resp.Error.Message, tt.message) {
				t.Fatalf("response = %s / %+v, want %s containing %q", resp.Result, resp.Error, tt.code, tt.message)
			}
		})
	}
}

func TestHandleMalformedRequest(t *testing.T) {
	resp, err := abi.DecodeResponse(handle(func(*Request) (any, error) { return 1, nil }, []byte("nope")))
	if err != nil || resp.Error == nil || resp.Error.Code != CodeInternal {
		t.Fatalf("got %+v, %v", resp, err)
	}
}
