package abi

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRequestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		req  Request
	}{
		{"no files", Request{Tool: "echo", Arguments: json.RawMessage(`{"a":1}`)}},
		{"nil arguments", Request{Tool: "echo"}},
		{"source only", Request{Tool: "t", Files: []File{{URI: "file:///w/a.py", Path: "a.py", Source: []byte("x = 1\n")}}}},
		{"empty source is not absent", Request{Tool: "t", Files: []File{{URI: "u", Path: "p", Source: []byte{}}}}},
		{"absent source", Request{Tool: "t", Files: []File{{URI: "u", Path: "p"}}}},
		{"source and tree", Request{Tool: "t", Files: []File{
			{URI: "u1", Path: "a.py", Source: []byte("abc"), Tree: []byte{1, 2, 3, 4, 5}},
			{URI: "u2", Path: "b.py", Source: []byte("defgh")},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := EncodeRequest(&tt.req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeRequest(msg)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.req) {
				t.Errorf("round trip:\n got %+v\nwant %+v", *got, tt.req)
			}
			// Blobs start 8-aligned so guests can read trees as u32/u64 arrays in place.
			n := binary.LittleEndian.Uint32(msg[12:])
			for i := range n {
				if off := binary.LittleEndian.Uint32(msg[16+8*i:]); off%8 != 0 {
					t.Errorf("blob %d at unaligned offset %d", i, off)
				}
			}
		})
	}
}

func TestDecodeRequestAliasesClipped(t *testing.T) {
	msg, _ := EncodeRequest(&Request{Tool: "t", Files: []File{{Source: []byte("ab"), Tree: []byte("cd")}}})
	r, err := DecodeRequest(msg)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(r.Files[0].Source, 'X') // must not overwrite the tree blob
	if string(r.Files[0].Tree) != "cd" {
		t.Fatalf("append through Source clobbered Tree: %q", r.Files[0].Tree)
	}
}

func TestDecodeRequestErrors(t *testing.T) {
	good, _ := EncodeRequest(&Request{Tool: "t", Files: []File{{Source: []byte("abc")}}})
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	le := binary.LittleEndian
	header := func(h string) []byte {
		b := make([]byte, 16+len(h))
		copy(b, "PYWS")
		le.PutUint32(b[4:], 1)
		le.PutUint32(b[8:], uint32(len(h)))
		copy(b[16:], h)
		return b
	}
	tests := []struct {
		name    string
		msg     []byte
		version bool
		want    string
	}{
		{"empty", nil, false, "shorter than"},
		{"bad magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), false, "does not start"},
		{"newer protocol", mutate(func(b []byte) []byte { le.PutUint32(b[4:], 99); return b }), true, "upgrade pyws"},
		{"protocol zero", mutate(func(b []byte) []byte { le.PutUint32(b[4:], 0); return b }), true, "rebuild the plugin"},
		{"header overrun", mutate(func(b []byte) []byte { le.PutUint32(b[8:], 1<<31); return b }), false, "overrun"},
		{"huge blob count", mutate(func(b []byte) []byte { le.PutUint32(b[12:], 1<<32-1); return b }), false, "overrun"},
		{"blob overrun", mutate(func(b []byte) []byte { le.PutUint32(b[20:], 1<<32-1); return b }), false, "blob 0"},
		{"bad json", header(`{"tool":`), false, "request header"},
		{"no tool", header(`{"files":[]}`), false, "no tool"},
		{"blob index out of range", header(`{"tool":"t","files":[{"source":0}]}`), false, "out of range"},
		{"negative blob index", header(`{"tool":"t","files":[{"tree":-2}]}`), false, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeRequest(tt.msg)
			if err == nil {
				t.Fatal("decoded")
			}
			var ve *VersionError
			if tt.version != errors.As(err, &ve) {
				t.Errorf("VersionError = %v, want %v (%v)", !tt.version, tt.version, err)
			}
			if !tt.version && !errors.Is(err, ErrMalformed) {
				t.Errorf("not ErrMalformed: %v", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func TestResponse(t *testing.T) {
	tests := []struct {
		name    string
		msg     string
		wantErr string
		code    string
		result  string
	}{
		{"result", `{"result":{"n":1}}`, "", "", `{"n":1}`},
		{"null result", `{"result":null}`, "", "", `null`},
		{"tool error", `{"error":{"code":"NO_SYMBOL_FOUND","message":"nothing here","details":{"line":3}}}`, "", "NO_SYMBOL_FOUND", ""},
		{"both", `{"result":1,"error":{"code":"X","message":""}}`, "both", "", ""},
		{"neither", `{}`, "neither", "", ""},
		{"no code", `{"error":{"message":"m"}}`, "no code", "", ""},
		{"trailing", `{"result":1} {}`, "after", "", ""},
		{"not json", `nope`, "response", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := DecodeResponse([]byte(tt.msg))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrMalformed) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.code != "" && (r.Error == nil || r.Error.Code != tt.code) {
				t.Errorf("error = %+v, want code %s", r.Error, tt.code)
			}
			if tt.result != "" && string(r.Result) != tt.result {
				t.Errorf("result = %s, want %s", r.Result, tt.result)
			}
		})
	}
}

func TestEncodeResponse(t *testing.T) {
	b, err := EncodeResult(map[string]int{"n": 2})
	if err != nil || string(b) != `{"result":{"n":2}}` {
		t.Fatalf("EncodeResult = %s, %v", b, err)
	}
	b, err = EncodeResult(nil)
	if err != nil || string(b) != `{"result":null}` {
		t.Fatalf("EncodeResult(nil) = %s, %v", b, err)
	}
	b, err = EncodeError(&ToolError{Code: "NO_SYMBOL_FOUND", Message: "m"})
	if err != nil || string(b) != `{"error":{"code":"NO_SYMBOL_FOUND","message":"m"}}` {
		t.Fatalf("EncodeError = %s, %v", b, err)
	}
	if _, err := EncodeError(&ToolError{}); err == nil {
		t.Fatal("EncodeError accepted an empty code")
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, r := range []Request{
		{Tool: "t"},
		{Tool: "t", Arguments: json.RawMessage(`{"x":[1,2]}`), Files: []File{{URI: "u", Path: "p", Source: []byte("a"), Tree: []byte("bb")}}},
	} {
		b, _ := EncodeRequest(&r)
		f.Add(b)
	}
	f.Add([]byte("PYWS\x01\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		r, err := DecodeRequest(msg)
		if err != nil {
			return
		}
		// Whatever decodes must re-encode and decode to the same request.
		again, err := EncodeRequest(r)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		r2, err := DecodeRequest(again)
		if err != nil {
			t.Fatalf("decode re-encoded: %v", err)
		}
		if r.Tool != r2.Tool || len(r.Files) != len(r2.Files) {
			t.Fatalf("round trip changed the request")
		}
		for i := range r.Files {
			if !bytes.Equal(r.Files[i].Source, r2.Files[i].Source) || !bytes.Equal(r.Files[i].Tree, r2.Files[i].Tree) {
				t.Fatalf("file %d blobs changed", i)
			}
		}
	})
}

func FuzzDecodeResponse(f *testing.F) {
	for _, s := range []string{`{"result":{"a":[1,"x",null]}}`, `{"error":{"code":"C","message":"m","details":{"k":1}}}`, `{"result":null}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		r, err := DecodeResponse(msg)
		if err != nil {
			return
		}
		if (r.Result == nil) == (r.Error == nil) {
			t.Fatalf("decoded response with result=%s error=%v", r.Result, r.Error)
		}
	})
}
