package service

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
)

// validRow is a row NewTable accepts; the cases below break one thing each.
func validRow(name string) Operation {
	return Operation{Spec: toolspec.Spec{
		Name: name, Kind: toolspec.KindTool, Description: "a tool for the test", Family: tiers.FamilyAnalysis,
		Params: withPosition(), Result: reflect.TypeFor[HoverResult](),
	}, Run: func(context.Context, *Session, toolspec.Args) (any, error) { return HoverResult{}, nil }}
}

// TestNewTableRefusesRowsItCannotServe: a row without a handler, or whose
// spec toolspec refuses (TestSpecCheck has every case), or that repeats
// another row's name or route.
func TestNewTableRefusesRowsItCannotServe(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(*Operation)
		want  string
	}{
		{"no handler", func(op *Operation) { op.Run = nil }, "no handler"},
		{"no result type", func(op *Operation) { op.Result = nil }, "no result type"},
		{"name of another tool", func(op *Operation) { op.Name = "get_hover" }, "tool get_hover already belongs to another row"},
		{"route of another tool", func(op *Operation) { op.Routes = []toolspec.Route{{Method: "POST", Path: "/tools/get_hover"}} },
			"route POST /tools/get_hover already belongs to another row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := validRow("get_test_tool")
			tt.spoil(&row)
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tt.want) {
					t.Fatalf("panic %q, want one saying %q", msg, tt.want)
				}
			}()
			NewTable(append(Operations(), row))
		})
	}
}

func TestNewTableRoutesEveryTool(t *testing.T) {
	table := NewTable(append(Operations(), validRow("get_test_tool")))
	for _, op := range table.All() {
		if op.Kind == toolspec.KindTool && !slices.Contains(op.Routes, toolspec.Route{Method: "POST", Path: "/tools/" + op.Name}) {
			t.Errorf("%s: routes %v lack POST /tools/%s", op.Name, op.Routes, op.Name)
		}
	}
	if op, ok := table.Tool("health_check"); !ok || len(op.Routes) != 2 {
		t.Errorf("health_check keeps its declared GET and POST routes, got %v", op.Routes)
	}
}

func TestFaultCodes(t *testing.T) {
	table := NewTable(Operations())
	tests := []struct {
		op         string
		want, lack []string
	}{
		{"rename_symbol", []string{fault.InvalidName, fault.NameConflict, fault.CannotRename, fault.WorkspaceNotIndexed,
			fault.AuthenticationFailed, fault.InvalidParameter, fault.RateLimitExceeded, fault.MaintenanceMode, fault.ServerUnavailable},
			[]string{fault.WorkspaceNotLoaded}},
		{"format_document", []string{fault.InvalidOptions, fault.ParseError, fault.FileTooLarge}, []string{fault.InvalidName}},
		// health_check is never charged and answers in maintenance and
		// without a workspace.
		{"health_check", []string{fault.AuthenticationFailed, fault.ServerUnavailable},
			[]string{fault.RateLimitExceeded, fault.MaintenanceMode, fault.WorkspaceNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			op, _ := table.Tool(tt.op)
			codes := op.FaultCodes()
			for _, c := range tt.want {
				if !slices.Contains(codes, c) {
					t.Errorf("lacks %s: %v", c, codes)
				}
			}
			for _, c := range tt.lack {
				if slices.Contains(codes, c) {
					t.Errorf("has %s: %v", c, codes)
				}
			}
			if len(slices.Compact(slices.Sorted(slices.Values(codes)))) != len(codes) {
				t.Errorf("codes repeat: %v", codes)
			}
		})
	}
}

func TestUnservedCapabilities(t *testing.T) {
	table := NewTable(Operations())
	tests := []struct {
		name   string
		served []string
		want   []string
	}{
		{"all served", []string{IndexTool, "get_diagnostics", "get_code_actions", "format_document"}, nil},
		{"indexer missing", []string{"get_diagnostics", "get_code_actions", "format_document"},
			[]string{"no plugin serves index_files: rename_symbol, get_references, get_definition, get_type_definition, get_completions, get_hover, get_signature_help, find_symbols, get_document_symbols, get_call_hierarchy and edit_symbol are unavailable"}},
		{"none served", nil, []string{
			"no plugin serves index_files: rename_symbol, get_references, get_definition, get_type_definition, get_completions, get_hover, get_signature_help, find_symbols, get_document_symbols, get_call_hierarchy and edit_symbol are unavailable",
			"no plugin serves get_diagnostics", "no plugin serves get_code_actions", "no plugin serves format_document"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unservedCapabilities(table, tt.served); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestKernelOperationsReturnTheirDeclaredResult runs each operation the
// kernel answers alone and checks its answer is of the row's Result type,
// so the documented schema is the one sent.
func TestKernelOperationsReturnTheirDeclaredResult(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	engine, err := edits.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := New(Config{DefaultWorkspace: ws, Edits: engine})
	t.Cleanup(svc.Close)
	key := &tenants.Key{ID: "k", Tier: tiers.Pro}
	fileURI := "file://" + filepath.Join(ws, "a.py")
	args := map[string]string{
		"health_check":         `{}`,
		"structure":            `{}`,
		"files":                `{}`,
		"file":                 `{"uri": "svc://file/a.py"}`,
		"apply_workspace_edit": `{"edit": {"changes": {"` + fileURI + `": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "newText": "y"}]}}}`,
	}
	for _, op := range svc.Table().All() {
		if op.Plugin != "" {
			continue
		}
		t.Run(op.Name, func(t *testing.T) {
			raw, ok := args[op.Name]
			if !ok {
				t.Fatalf("no arguments for %s in this test", op.Name)
			}
			a, err := toolspec.DecodeArgs(op.Params, json.RawMessage(raw))
			if err != nil {
				t.Fatal(err)
			}
			res, err := svc.Run(context.Background(), key, op, a)
			if err != nil {
				t.Fatal(err)
			}
			got := reflect.TypeOf(res)
			if got != op.Result && got != reflect.PointerTo(op.Result) {
				t.Fatalf("answered a %v, row declares %v", got, op.Result)
			}
		})
	}
}

func TestArgumentsSchema(t *testing.T) {
	op, _ := NewTable(Operations()).Tool("format_document")
	s := op.ArgumentsSchema()
	if s.AdditionalProperties != false || !reflect.DeepEqual(s.Required, []string{"uri"}) {
		t.Fatalf("arguments schema %+v: unknown members are refused and uri is required", s)
	}
	tab := s.Properties["options"].Properties["tabSize"]
	if *tab.Minimum != 1 || *tab.Maximum != 16 || tab.Default != 4 {
		t.Fatalf("options.tabSize %+v: want the row's bounds and default", tab)
	}
}

// TestPanicInOperationFailsOnlyItsCall: an operation that panics (a bug
// tripped by someone's Python) answers an error with its stack logged,
// and the service goes on answering; before, a panic under MCP, whose
// SDK runs each request in its own goroutine, ended the process.
func TestPanicInOperationFailsOnlyItsCall(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	svc := New(Config{DefaultWorkspace: ws, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	t.Cleanup(svc.Close)
	key := &tenants.Key{ID: "k", Tier: tiers.Pro}
	boom := &Operation{Spec: toolspec.Spec{Name: "boom", Family: tiers.FamilyAnalysis}, Run: func(context.Context, *Session, toolspec.Args) (any, error) {
		var m map[string]int
		m["x"]++ // a nil map write, as a bug would
		return nil, nil
	}}
	done := make(chan error, 1)
	go func() { // as the MCP SDK calls it: a goroutine nobody else recovers
		_, err := svc.Run(context.Background(), key, boom, nil)
		done <- err
	}()
	err := <-done
	if err == nil || fault.CodeOf(err) != "" || !strings.Contains(err.Error(), "panic in boom") {
		t.Fatalf("got %v, want a non-fault error naming the panic", err)
	}
	if !strings.Contains(logs.String(), PanicLog) || !strings.Contains(logs.String(), "operations_test.go") {
		t.Errorf("log %q lacks the panic line with its stack", logs.String())
	}
	health, _ := svc.Table().Tool("health_check")
	if _, err := svc.Run(context.Background(), key, health, toolspec.Args{}); err != nil {
		t.Errorf("health_check after the panic: %v", err)
	}
}
