package api

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"testing"

	"github.com/pyws/pyws/host/service"
)

var update = flag.Bool("update", false, "rewrite docs/openapi.json and the generated tables of docs/api.md")

// TestOpenAPIDocumentCommitted keeps docs/openapi.json equal to what the
// operation table generates; run with -update after changing the table.
func TestOpenAPIDocumentCommitted(t *testing.T) {
	table := service.NewTable(service.Operations())
	got := OpenAPIDocument(table)
	checkGenerated(t, filepath.Join("..", "docs", "openapi.json"), got, "TestOpenAPIDocumentCommitted")
	var doc map[string]any
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	for _, op := range table.All() {
		for _, r := range op.Routes {
			p := Prefix + r.Path
			if p[len(p)-1] == '*' {
				p = p[:len(p)-1] + "{path}"
			}
			if _, ok := paths[p]; !ok {
				t.Errorf("route %s %s of %s missing from the document", r.Method, p, op.Name)
			}
		}
	}
}

func TestEveryCodeHasAStatus(t *testing.T) {
	codes := []string{"INVALID_NAME", "NAME_CONFLICT", "NO_SYMBOL_FOUND", "CANNOT_RENAME", "WORKSPACE_NOT_INDEXED",
		"WORKSPACE_NOT_LOADED", "FILE_NOT_FOUND", "INVALID_POSITION", "TIMEOUT", "NO_DEFINITION_FOUND",
		"EXTERNAL_DEFINITION", "NO_HOVER_INFO", "INVALID_PYTHON", "PARSE_ERROR", "INVALID_OPTIONS", "FILE_TOO_LARGE",
		"PERMISSION_DENIED", "INVALID_RANGE", "CONFLICTING_EDITS", "FILE_MODIFIED", "READONLY_FILE",
		"SERVER_UNAVAILABLE", "AUTHENTICATION_FAILED", "MAINTENANCE_MODE", "WORKSPACE_NOT_FOUND",
		"INVALID_PARAMETER", "SCAN_TIMEOUT", "ENCODING_ERROR", "INVALID_FILTER", "RATE_LIMIT_EXCEEDED"}
	for _, c := range codes {
		if s := StatusOf(c); s < 400 || s == 500 {
			t.Errorf("%s maps to %d", c, s)
		}
	}
	if StatusOf("SOMETHING_ELSE") != 500 {
		t.Error("unknown codes must be server errors")
	}
}
