package plugins

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// The C example plugin is committed built, so this test needs no clang.
func TestCPlugin(t *testing.T) {
	r := startRuntimeDirs(t, Config{Dirs: []string{"../../plugin-sdk/examples/c-wordcount"}, Workers: 1})
	tests := []struct {
		name string
		req  abi.Request
		want string
	}{
		{"two files", abi.Request{Files: []abi.File{
			{URI: "file:///w/a.py", Path: "a.py", Source: []byte("import os\nprint(os.sep)\n")},
			{URI: "file:///w/b.py", Path: "b.py", Source: []byte("x = 1")},
		}}, `{"files":2,"lines":3,"words":6,"bytes":29}`},
		{"absent source and empty file", abi.Request{Files: []abi.File{{URI: "u", Path: "p"}, {URI: "v", Path: "q", Source: []byte{}}}},
			`{"files":1,"lines":0,"words":0,"bytes":0}`},
		{"arguments that look like files", abi.Request{
			Arguments: json.RawMessage(`{"files":[{"source":0}],"nested":{"a":["]","\"source\":7"]}}`),
			Files:     []abi.File{{URI: "u\"source\":1", Path: "p", Source: []byte("one two\nthree\n")}}},
			`{"files":1,"lines":2,"words":3,"bytes":14}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := r.Call(ctx, "count_lines", &tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if string(res) != tt.want {
				t.Errorf("result = %s, want %s", res, tt.want)
			}
		})
	}
}
