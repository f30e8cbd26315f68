package service

import (
	"context"
	"encoding/json"
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
)

// validRow is a row NewTable accepts; the cases below break one thing each.
func validRow(name string) Operation {
	return Operation{
		Name: name, Kind: KindTool, Description: "a tool for the test", Family: tiers.FamilyAnalysis,
		Params: withPosition(), Result: reflect.TypeFor[HoverResult](),
		Run: func(context.Context, *Session, Args) (any, error) { return HoverResult{}, nil },
	}
}

func TestNewTableRefusesRowsItCannotServe(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(*Operation)
		want  string
	}{
		{"no handler", func(op *Operation) { op.Run = nil }, "no handler"},
		{"no result type", func(op *Operation) { op.Result = nil }, "no result type"},
		{"no description", func(op *Operation) { op.Description = "" }, "description"},
		{"health without a plugin", func(op *Operation) { op.Health = true }, "served by a plugin"},
		{"parameter twice", func(op *Operation) { op.Params = append(op.Params, uriParam) }, `parameter "uri" declared twice`},
		{"name of another tool", func(op *Operation) { op.Name = "get_hover" }, "tool get_hover already belongs to another row"},
		{"route of another tool", func(op *Operation) { op.Routes = []Route{{Method: "POST", Path: "/tools/get_hover"}} },
			"route POST /tools/get_hover already belongs to another row"},
		{"resource without a URI", func(op *Operation) { op.Kind = KindResource }, "svc:// URI"},
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
		if op.Kind == KindTool && !slices.Contains(op.Routes, Route{Method: "POST", Path: "/tools/" + op.Name}) {
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
		{"all served", []string{IndexTool, "get_diagnostics", "format_document"}, nil},
		{"indexer missing", []string{"get_diagnostics", "format_document"},
			[]string{"no plugin serves index_files: rename_symbol, get_references, get_definition and get_hover are unavailable"}},
		{"none served", nil, []string{
			"no plugin serves index_files: rename_symbol, get_references, get_definition and get_hover are unavailable",
			"no plugin serves get_diagnostics", "no plugin serves format_document"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unservedCapabilities(table, tt.served); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFormatOptionBoundsAreTheRows: ParseFormatOptions refuses exactly
// outside the bounds the row declares (and documents).
func TestFormatOptionBoundsAreTheRows(t *testing.T) {
	for _, name := range []string{"tabSize", "lineLength"} {
		lo, hi := formatOptionBounds(name)
		for _, n := range []int{lo - 1, lo, hi, hi + 1} {
			raw, _ := json.Marshal(map[string]int{name: n})
			_, err := ParseFormatOptions(json.RawMessage(raw))
			fe, refused := fault.As(err)
			if wantRefused := n < lo || n > hi; refused != wantRefused {
				t.Errorf("%s=%d: err %v, want refused %v", name, n, err, wantRefused)
			}
			if refused && (fe.Details["min"] != lo || fe.Details["max"] != hi) {
				t.Errorf("%s=%d: details %v, want min %d max %d", name, n, fe.Details, lo, hi)
			}
		}
	}
	if o, _ := ParseFormatOptions(nil); o.TabSize != formatOption("tabSize").Default || o.InsertSpaces != formatOption("insertSpaces").Default {
		t.Errorf("defaults %+v are not the row's", o)
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
			a, err := DecodeArgs(op.Params, json.RawMessage(raw))
			if err != nil {
				t.Fatal(err)
			}
			res, err := svc.Run(context.Background(), key, &op, a)
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

type schemaNode struct {
	Name     string          `json:"name" doc:"what it is called"`
	Children []*schemaNode   `json:"children,omitzero"`
	Size     *int64          `json:"size,omitempty"`
	Tags     map[string]int  `json:"tags"`
	Extra    json.RawMessage `json:"extra"`
	Hidden   int             `json:"-"`
	schemaEmbedded
}

type schemaEmbedded struct {
	Depth int `json:"depth"`
}

func TestResultSchemaReflectsTheJSONEncoding(t *testing.T) {
	s := schemaOfType(reflect.TypeFor[*schemaNode](), DefsRef)
	if s.Ref != DefsRef+"service.schemaNode" {
		t.Fatalf("a recursive type is named by a $ref, got %+v", s)
	}
	def := s.Defs["service.schemaNode"]
	if def == nil {
		t.Fatalf("no $defs entry: %+v", s.Defs)
	}
	if got, want := def.PropertyNames(), []string{"name", "children", "size", "tags", "extra", "depth"}; !reflect.DeepEqual(got, want) {
		t.Errorf("properties %v, want %v (json:\"-\" left out, embedded fields flattened)", got, want)
	}
	if got, want := def.Required, []string{"name", "tags", "extra", "depth"}; !reflect.DeepEqual(got, want) {
		t.Errorf("required %v, want %v (omitempty and omitzero are optional)", got, want)
	}
	checks := []struct {
		field string
		got   any
		want  any
	}{
		{"name doc", def.Properties["name"].Description, "what it is called"},
		{"children items", def.Properties["children"].Items.Ref, DefsRef + "service.schemaNode"},
		{"pointer", def.Properties["size"].Type, "integer"},
		{"map values", def.Properties["tags"].AdditionalProperties.(*Schema).Type, "integer"},
		{"raw JSON is any", def.Properties["extra"].Type, ""},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.field, c.got, c.want)
		}
	}
	// A standalone schema is valid JSON with its definitions inside.
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"$defs":{"service.schemaNode"`) {
		t.Fatalf("marshal: %s %v", b, err)
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
