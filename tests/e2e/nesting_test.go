package e2e

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/nesting/nestingtest"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// guest is one packed plugin instantiated the way a worker runs it (its
// manifest's memory cap, the worker's imports), re-instantiated after a
// failed call so one failure does not hide the next.
type guest struct {
	t          testing.TB
	wasm       []byte
	limitPages uint32
	rt         wazero.Runtime
	mod        api.Module
}

func newGuest(t testing.TB, plugin string) *guest {
	build(t)
	dir := filepath.Join(pluginsDir, plugin)
	wasm, err := os.ReadFile(filepath.Join(dir, "plugin.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		MemoryLimitMiB uint32 `json:"memoryLimitMiB"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.MemoryLimitMiB == 0 {
		m.MemoryLimitMiB = 256 // the kernel's default
	}
	g := &guest{t: t, wasm: wasm, limitPages: m.MemoryLimitMiB * 16}
	t.Cleanup(func() { g.close() })
	return g
}

func (g *guest) close() {
	if g.rt != nil {
		g.rt.Close(context.Background())
		g.rt, g.mod = nil, nil
	}
}

func (g *guest) start() {
	ctx := context.Background()
	g.rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithMemoryLimitPages(g.limitPages))
	wasi_snapshot_preview1.MustInstantiate(ctx, g.rt)
	if _, err := g.rt.NewHostModuleBuilder(abi.ModuleName).NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {}), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, nil).
		Export(abi.ImportLog).Instantiate(ctx); err != nil {
		g.t.Fatal(err)
	}
	mod, err := g.rt.InstantiateWithConfig(ctx, g.wasm, wazero.NewModuleConfig().WithStartFunctions().WithRandSource(rand.Reader))
	if err != nil {
		g.t.Fatal(err)
	}
	if _, err := mod.ExportedFunction(abi.ExportInitialize).Call(ctx); err != nil {
		g.t.Fatal(err)
	}
	g.mod = mod
}

// call makes one pyws_alloc + pyws_handle call; a trap is an error.
func (g *guest) call(req *abi.Request) (*abi.Response, error) {
	msg, err := abi.EncodeRequest(req)
	if err != nil {
		g.t.Fatal(err)
	}
	if g.mod == nil {
		g.start()
	}
	ctx := context.Background()
	res, err := g.mod.ExportedFunction(abi.ExportAlloc).Call(ctx, uint64(len(msg)))
	if err == nil {
		g.mod.Memory().Write(uint32(res[0]), msg)
		res, err = g.mod.ExportedFunction(abi.ExportHandle).Call(ctx, res[0], uint64(len(msg)))
	}
	if err != nil {
		g.close()
		return nil, err
	}
	out, _ := g.mod.Memory().Read(uint32(res[0]>>32), uint32(res[0]))
	return abi.DecodeResponse(out)
}

// TestGuestsRefuseDeepNesting runs each generated source through the
// packed diagnostics, formatter and indexer plugins under wazero, with
// the tree the parser module makes of it: no call may trap or run out of
// memory. A source past a limit gets the syntax-error diagnostic, a
// PARSE_ERROR from the formatter and an empty summary from the indexer;
// one at the limits is analysed like any other file.
func TestGuestsRefuseDeepNesting(t *testing.T) {
	diag, format, index := newGuest(t, "diagnostics"), newGuest(t, "formatter"), newGuest(t, "indexer")
	empty := navindex.Encode(&navindex.Summary{})
	for _, set := range []struct {
		name  string
		cases []nestingtest.Case
	}{{"too deep", nestingtest.TooDeep(10000)}, {"at limits", nestingtest.AtLimits()}} {
		for _, c := range set.cases {
			t.Run(set.name+"/"+c.Name, func(t *testing.T) {
				src := []byte(c.Src)
				blob, err := parsertest.Blob(src)
				if err != nil {
					t.Fatal(err)
				}
				file := []abi.File{{URI: "file:///w/deep.py", Path: "deep.py", Source: src, Tree: blob}}

				resp, err := diag.call(&abi.Request{Tool: "get_diagnostics", Arguments: json.RawMessage(`{"pyws":{"module":"deep","pythonVersion":"3.12"}}`), Files: file})
				if err != nil {
					t.Fatalf("get_diagnostics: %v", err)
				}
				if resp.Error != nil {
					t.Fatalf("get_diagnostics: %s %s", resp.Error.Code, resp.Error.Message)
				}
				var d struct{ Diagnostics []abi.Diagnostic }
				if err := json.Unmarshal(resp.Result, &d); err != nil {
					t.Fatal(err)
				}
				refused := len(d.Diagnostics) == 1 && d.Diagnostics[0].Code == "syntax-error" && d.Diagnostics[0].Message == c.Message
				if c.Message != "" && !refused {
					t.Errorf("get_diagnostics answered %.300s, want one syntax-error %q", resp.Result, c.Message)
				}
				if c.Message == "" && strings.Contains(string(resp.Result), "nested") {
					t.Errorf("get_diagnostics refused a source at the limits: %.300s", resp.Result)
				}

				resp, err = format.call(&abi.Request{Tool: "format_document", Files: file, Arguments: json.RawMessage(
					`{"uri":"file:///w/deep.py","phase":"format","config":{"lineLength":88,"isortLineLength":88,"tabSize":4,"insertSpaces":true}}`)})
				if err != nil {
					t.Fatalf("format_document: %v", err)
				}
				switch {
				case c.Message != "":
					if resp.Error == nil || resp.Error.Code != "PARSE_ERROR" || !strings.Contains(resp.Error.Message, c.Message) {
						t.Errorf("format_document answered %+v %.200s, want PARSE_ERROR %q", resp.Error, resp.Result, c.Message)
					}
				case resp.Error != nil && resp.Error.Code != "PARSE_ERROR":
					// At the limits: formatted, or a PARSE_ERROR for the
					// sources that are not valid Python (unclosed brackets).
					t.Errorf("format_document: %s %s", resp.Error.Code, resp.Error.Message)
				}

				resp, err = index.call(&abi.Request{Tool: "index_files", Arguments: json.RawMessage(`{}`), Files: file})
				if err != nil {
					t.Fatalf("index_files: %v", err)
				}
				if resp.Error != nil {
					t.Fatalf("index_files: %s %s", resp.Error.Code, resp.Error.Message)
				}
				var s struct{ Summaries [][]byte }
				if err := json.Unmarshal(resp.Result, &s); err != nil || len(s.Summaries) != 1 {
					t.Fatalf("index_files answered %.200s (%v)", resp.Result, err)
				}
				if isEmpty := string(s.Summaries[0]) == string(empty); isEmpty != (c.Message != "") {
					t.Errorf("index_files: empty summary %v for a source refused %v", isEmpty, c.Message != "")
				}
			})
		}
	}
}

// TestDeepNestingOverHTTP: the inputs against the real binary. A
// 20 KB file of 10,000 nested parentheses gets PARSE_ERROR from
// format_document and CPython's syntax error from get_diagnostics, as do
// 100,000 nested brackets and a 10,000-deep `not` chain; the workspace
// indexes, no guest traps, and the service keeps answering.
func TestDeepNestingOverHTTP(t *testing.T) {
	build(t)
	ws := realDir(t, t.TempDir())
	parens := "x = " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + "\n"
	writeTree(t, ws, map[string]string{
		"parens.py":   parens,
		"brackets.py": "x = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n",
		"nots.py":     "y = 1\nx = " + strings.Repeat("not ", 10000) + "x\n",
		"ok.py":       "def f():\n    return 1\n\n\nf()\n",
	})
	if len(parens) < 20000 || len(parens) > 21000 {
		t.Fatalf("parens.py is %d bytes", len(parens))
	}
	s := startServer(t, ws)
	key := s.addKeyReady("pro", "")
	waitIndexed(t, s, key)
	uri := func(name string) string { return fileURI(filepath.Join(ws, name)) }

	for _, c := range []struct {
		file            string
		line, character int
		message         string
	}{
		{"parens.py", 0, 204, "too many nested parentheses"},
		{"brackets.py", 0, 204, "too many nested parentheses"},
		{"nots.py", 1, 4 + 4*996, "source too complex to analyze"},
	} {
		r := s.tool(key, "format_document", map[string]any{"uri": uri(c.file)})
		mustStatus(t, r, 422, "PARSE_ERROR")
		if d := r.ErrDetails(); d["line"] != float64(c.line) || d["character"] != float64(c.character) ||
			!strings.Contains(jget(r.Body, "error", "message").(string), c.message) {
			t.Errorf("format_document %s: %s", c.file, r.Raw)
		}
		r = s.tool(key, "get_diagnostics", map[string]any{"uri": uri(c.file)})
		mustStatus(t, r, 200, "")
		ds, _ := r.Body["diagnostics"].([]any)
		if len(ds) != 1 || jget(ds[0], "code") != "syntax-error" || !strings.HasPrefix(jget(ds[0], "message").(string), c.message) ||
			jget(ds[0], "range", "start", "line") != float64(c.line) || jget(ds[0], "range", "start", "character") != float64(c.character) {
			t.Errorf("get_diagnostics %s: %s", c.file, r.Raw)
		}
	}

	// The service still answers, with the same workers.
	mustStatus(t, s.tool(key, "get_diagnostics", map[string]any{"uri": uri("ok.py")}), 200, "")
	mustStatus(t, s.tool(key, "format_document", map[string]any{"uri": uri("ok.py")}), 200, "")
	r := s.tool(key, "get_references", map[string]any{"uri": uri("ok.py"), "line": 0, "character": 4})
	mustStatus(t, r, 200, "")
	if logs := s.logText(); strings.Contains(logs, "guest failed") || strings.Contains(logs, "not indexed") {
		t.Fatalf("a guest failed:\n%s", logs)
	}
}
