package api

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// exampleRow is a tool the table does not have, declared the way
// the next ones will be: its row and its handler, nothing else.
func exampleRow() service.Operation {
	position := []toolspec.Param{
		{Name: "uri", Type: toolspec.TypeString, Required: true, Doc: "file URI"},
		{Name: "line", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0), Doc: "0-indexed line"},
		{Name: "character", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0), Doc: "0-indexed character"},
	}
	return service.Operation{Spec: toolspec.Spec{
		Name: "get_example_location", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
		Description: "Find where the type of the symbol at a position is defined.",
		Params:      position,
		Result:      reflect.TypeFor[service.LocationsResult](),
		Faults:      []string{fault.NoDefinitionFound, fault.WorkspaceNotLoaded},
		Plugin:      "get_example_location", Health: true,
	}, Run: func(_ context.Context, _ *service.Session, a toolspec.Args) (any, error) {
		at := abi.Position{Line: a.Int("line"), Character: a.Int("character")}
		return service.LocationsResult{Locations: []service.ContextLocation{{Location: abi.Location{URI: a.String("uri"), Range: abi.Range{Start: at, End: at}}}}}, nil
	}}
}

// TestAddingAToolIsARowAndAHandler: a table with one more row serves it
// on its route and the generic call with validated arguments, and the
// OpenAPI document, health_check and the docs all know it.
func TestAddingAToolIsARowAndAHandler(t *testing.T) {
	ws := t.TempDir()
	svc := service.New(service.Config{DefaultWorkspace: ws, Plugins: noPlugins{},
		Operations: append(service.Operations(), exampleRow())})
	t.Cleanup(svc.Close)
	keys, err := tenants.Open("")
	if err != nil {
		t.Fatal(err)
	}
	keys.AddInMemory(testKey, tenants.Key{ID: "k1", Tier: tiers.Free, Workspace: ws})
	doc := OpenAPIDocument(svc.Table())
	app := New(Options{Service: svc, Keys: keys, OpenAPI: doc})
	auth := "Bearer " + testKey

	t.Run("routing and validation", func(t *testing.T) {
		calls := []struct {
			name, path, body string
			status           int
			parameter        string
		}{
			{"dedicated route", "/v1/tools/get_example_location", `{"uri": "a.py", "line": 3, "character": 4}`, 200, ""},
			{"generic call", "/v1/tools/call", `{"name": "get_example_location", "arguments": {"uri": "a.py", "line": 3, "character": 4}}`, 200, ""},
			{"below a bound", "/v1/tools/get_example_location", `{"uri": "a.py", "line": -1, "character": 4}`, 400, "line"},
			{"missing argument", "/v1/tools/call", `{"name": "get_example_location", "arguments": {"uri": "a.py", "line": 3}}`, 400, "character"},
			{"unknown argument", "/v1/tools/get_example_location", `{"uri": "a.py", "line": 3, "character": 4, "col": 1}`, 400, "col"},
		}
		for _, c := range calls {
			t.Run(c.name, func(t *testing.T) {
				status, body := send(t, app, "POST", c.path, auth, c.body)
				code, parameter := errorOf(body)
				if status != c.status || parameter != c.parameter {
					t.Fatalf("status %d %s on %q, want %d on %q: %v", status, code, parameter, c.status, c.parameter, body)
				}
				if status == 200 {
					locs, _ := body["locations"].([]any)
					loc, _ := locs[0].(map[string]any)
					if len(locs) != 1 || loc["uri"] != "a.py" {
						t.Fatalf("result %v is not the handler's", body)
					}
				}
			})
		}
	})

	t.Run("health", func(t *testing.T) {
		status, body := send(t, app, "GET", "/v1/tools/health_check", auth, "")
		problems, _ := body["problems"].([]any)
		if status != 200 || body["status"] != service.Degraded || !slices.Contains(problems, any("no plugin serves get_example_location")) {
			t.Fatalf("status %d %v: health must report the tool's missing plugin", status, body)
		}
	})

	t.Run("openapi", func(t *testing.T) {
		var d struct {
			Paths map[string]map[string]struct {
				RequestBody struct {
					Content map[string]struct{ Schema toolspec.Schema }
				}
				Responses map[string]struct {
					Description string
					Content     map[string]struct{ Schema toolspec.Schema }
				}
			}
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatal(err)
		}
		post, ok := d.Paths["/v1/tools/get_example_location"]["post"]
		if !ok {
			t.Fatal("no POST /v1/tools/get_example_location in the document")
		}
		args := post.RequestBody.Content["application/json"].Schema
		if !reflect.DeepEqual(args.Required, []string{"uri", "line", "character"}) || *args.Properties["line"].Minimum != 0 {
			t.Errorf("arguments schema %+v is not the row's", args)
		}
		result := post.Responses["200"].Content["application/json"].Schema
		if result.Properties["locations"] == nil || result.Properties["locations"].Type != "array" {
			t.Errorf("result schema %+v is not LocationsResult's", result)
		}
		if !strings.Contains(post.Responses["404"].Description, fault.NoDefinitionFound) {
			t.Errorf("404 response %q lacks the row's NO_DEFINITION_FOUND", post.Responses["404"].Description)
		}
		if _, ok := post.Responses["422"]; ok {
			t.Error("the document promises a 422 the row never declared")
		}
		if !strings.Contains(string(doc), `"get_example_location"`) {
			t.Error("tools/call does not list the tool")
		}
	})

	t.Run("docs", func(t *testing.T) {
		ref := OperationsReference(svc.Table())
		for _, want := range []string{
			"### `get_example_location` (tool)\nFind where the type of the symbol at a position is defined.",
			"`POST /v1/tools/get_example_location` (body)",
			"| `line` | integer | yes |  | minimum 0 | 0-indexed line |",
			"| `locations` | array of `ContextLocation` | yes |",
			"`NO_DEFINITION_FOUND` 404",
		} {
			if !strings.Contains(ref, want) {
				t.Errorf("reference lacks %q", want)
			}
		}
		if !strings.Contains(OperationsSummary(svc.Table()), "| `get_example_location` | Find where the type") {
			t.Error("the README's list lacks the tool")
		}
	})
}

// TestEveryDeclaredCodeHasAStatus: a row may only promise codes the
// status table knows.
func TestEveryDeclaredCodeHasAStatus(t *testing.T) {
	for _, op := range service.NewTable(service.Operations()).All() {
		for _, code := range op.FaultCodes() {
			if StatusOf(code) == http.StatusInternalServerError {
				t.Errorf("%s declares %s, which has no status", op.Name, code)
			}
		}
	}
}
