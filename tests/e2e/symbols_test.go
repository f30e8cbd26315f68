package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSymbolTools drives the agent-facing tools over HTTP on one server:
// symbols by name, find_symbols, get_document_symbols, contextLines,
// get_call_hierarchy, then edit_symbol followed by apply_workspace_edit
// (last: it changes the workspace).
func TestSymbolTools(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	uri := func(rel string) string { return fileURI(filepath.Join(ws, rel)) }

	t.Run("symbol instead of a position", func(t *testing.T) {
		cases := []struct {
			tool string
			args map[string]any
			want string // first location
		}{
			{"get_definition", map[string]any{"symbol": "shop.models.Item.label"}, "shop/models.py:17:8"},
			{"get_definition", map[string]any{"symbol": "shop.Item"}, "shop/models.py:3:6"},
			{"get_definition", map[string]any{"symbol": "Item.label", "uri": uri("shop/models.py")}, "shop/models.py:17:8"},
			{"get_type_definition", map[string]any{"symbol": "app.item"}, "shop/models.py:3:6"},
			{"get_references", map[string]any{"symbol": "shop.util.money"}, "app.py:6:10"},
		}
		for _, c := range cases {
			r := s.tool(key, c.tool, c.args)
			mustStatus(t, r, 200, "")
			if got := locs(t, ws, r); len(got) == 0 || got[0] != c.want {
				t.Errorf("%s %v: %v, want %s first", c.tool, c.args, got, c.want)
			}
		}
		r := s.tool(key, "get_hover", map[string]any{"symbol": "shop.models.total"})
		mustStatus(t, r, 200, "")
		if c, _ := r.Body["contents"].(string); !strings.Contains(c, "def total(items: list") {
			t.Errorf("hover %q", c)
		}
		r = s.tool(key, "rename_symbol", map[string]any{"symbol": "shop.util.money", "newName": "cash"})
		mustStatus(t, r, 200, "")
		if n := jget(r.Body, "totalEdits"); n != float64(2) {
			t.Errorf("rename edits %v: %s", n, r.Raw)
		}
	})

	t.Run("symbol errors", func(t *testing.T) {
		r := s.tool(key, "get_definition", map[string]any{"symbol": "shop.models.Itm"})
		mustStatus(t, r, 404, "NO_SYMBOL_FOUND")
		if c, _ := r.ErrDetails()["candidates"].([]any); !slices.Contains(c, any("shop.models.Item")) {
			t.Errorf("candidates %v", c)
		}
		r = s.tool(key, "get_hover", at(ws, "app.py", 4, 8, "symbol", "shop.Item"))
		mustStatus(t, r, 400, "INVALID_PARAMETER")
		r = s.tool(key, "get_definition", map[string]any{"uri": uri("app.py"), "line": 4})
		mustStatus(t, r, 400, "INVALID_PARAMETER")
		if p := r.ErrDetails()["parameter"]; p != "character" {
			t.Errorf("missing character: parameter %v", p)
		}
		r = s.tool(key, "get_definition", map[string]any{})
		mustStatus(t, r, 400, "INVALID_PARAMETER")
		if p := r.ErrDetails()["parameter"]; p != "uri" {
			t.Errorf("no arguments: parameter %v", p)
		}
	})

	t.Run("find_symbols", func(t *testing.T) {
		r := s.tool(key, "find_symbols", map[string]any{"query": "lab"})
		mustStatus(t, r, 200, "")
		if jget(r.Body, "symbols", 0, "name") != "label" || jget(r.Body, "symbols", 0, "containerName") != "shop.models.Item" || jget(r.Body, "symbols", 0, "kind") != "method" {
			t.Errorf("lab: %s", r.Raw)
		}
		r = s.tool(key, "find_symbols", map[string]any{"query": "t", "limit": 1})
		mustStatus(t, r, 200, "")
		if n, _ := r.Body["totalCount"].(float64); n < 2 || r.Body["truncated"] != true || len(r.Body["symbols"].([]any)) != 1 {
			t.Errorf("limit 1: %s", r.Raw)
		}
		r = s.tool(key, "find_symbols", map[string]any{"query": "x", "kind": "module"})
		mustStatus(t, r, 400, "INVALID_PARAMETER")
	})

	t.Run("get_document_symbols", func(t *testing.T) {
		r := s.tool(key, "get_document_symbols", map[string]any{"uri": uri("shop/models.py")})
		mustStatus(t, r, 200, "")
		var got []string
		for _, sym := range r.Body["symbols"].([]any) {
			line := jget(sym, "kind").(string) + " " + jget(sym, "symbol").(string)
			for _, c := range asSlice(jget(sym, "children")) {
				line += " " + jget(c, "name").(string)
			}
			got = append(got, line)
		}
		want := []string{"class shop.models.Item __init__ price cents label", "function shop.models.total", "function shop.models.rest", "variable shop.models.HOME"}
		if !slices.Equal(got, want) {
			t.Errorf("outline %v, want %v", got, want)
		}
		if start, end := jget(r.Body, "symbols", 0, "range", "start", "line"), jget(r.Body, "symbols", 0, "range", "end", "line"); start != float64(3) || end != float64(29) {
			t.Errorf("Item's range lines %v-%v: %s", start, end, r.Raw)
		}
		if sig := jget(r.Body, "symbols", 1, "signature"); sig != "def total(items: list, tax: float = 0) -> int" { // defaults print as pyright prints them: 0.0 is 0
			t.Errorf("signature %v", sig)
		}
		if r.Body["totalCount"] != 8.0 || r.Body["truncated"] != false {
			t.Errorf("whole outline: totalCount %v truncated %v", r.Body["totalCount"], r.Body["truncated"])
		}
		// limit keeps the first symbols in document order, parents first.
		r = s.tool(key, "get_document_symbols", map[string]any{"uri": uri("shop/models.py"), "limit": 3})
		mustStatus(t, r, 200, "")
		if n := len(asSlice(r.Body["symbols"])); n != 1 || len(asSlice(jget(r.Body, "symbols", 0, "children"))) != 2 ||
			r.Body["totalCount"] != 8.0 || r.Body["truncated"] != true {
			t.Errorf("limit 3: %s", r.Raw)
		}
	})

	t.Run("contextLines", func(t *testing.T) {
		r := s.tool(key, "get_definition", map[string]any{"symbol": "shop.util.money", "contextLines": 1})
		mustStatus(t, r, 200, "")
		if lines := asSlice(jget(r.Body, "locations", 0, "context", "lines")); len(lines) != 2 || lines[0] != "def money(n):" || jget(r.Body, "locations", 0, "context", "startLine") != float64(0) {
			t.Errorf("context %s", r.Raw)
		}
		r = s.tool(key, "get_references", map[string]any{"symbol": "shop.util.money", "contextLines": 11})
		mustStatus(t, r, 400, "INVALID_PARAMETER")
	})

	t.Run("get_call_hierarchy", func(t *testing.T) {
		r := s.tool(key, "get_call_hierarchy", map[string]any{"symbol": "shop.models.total", "direction": "incoming"})
		mustStatus(t, r, 200, "")
		if jget(r.Body, "calls", 0, "symbol") != "app" || len(asSlice(jget(r.Body, "calls", 0, "callSites"))) != 2 || jget(r.Body, "item", "symbol") != "shop.models.total" {
			t.Errorf("incoming: %s", r.Raw)
		}
		r = s.tool(key, "get_call_hierarchy", at(ws, "app.py", 7, 0, "direction", "incoming"))
		mustStatus(t, r, 200, "")
		if jget(r.Body, "item", "symbol") != "shop.models.rest" {
			t.Errorf("by position: %s", r.Raw)
		}
		r = s.tool(key, "get_call_hierarchy", map[string]any{"symbol": "shop.models.HOME", "direction": "outgoing"})
		mustStatus(t, r, 404, "NO_SYMBOL_FOUND")
	})

	t.Run("edit_symbol then apply_workspace_edit", func(t *testing.T) {
		path := filepath.Join(ws, "shop", "util.py")
		r := s.tool(key, "edit_symbol", map[string]any{"symbol": "shop.util.money", "action": "replace_body", "text": "return f\"${n}\""})
		mustStatus(t, r, 200, "")
		before := fileBytes(t, path)
		bad := s.tool(key, "edit_symbol", map[string]any{"symbol": "shop.util.money", "action": "insert_after", "text": "def broken(:\n"})
		mustStatus(t, bad, 422, "PARSE_ERROR")
		mustBeUnchanged(t, before)
		applied := s.tool(key, "apply_workspace_edit", map[string]any{"edit": r.Body})
		mustStatus(t, applied, 200, "")
		text, _ := os.ReadFile(path)
		if string(text) != "def money(n):\n    return f\"${n}\"\n" {
			t.Errorf("after the edit:\n%s", text)
		}
		r = s.tool(key, "edit_symbol", map[string]any{"symbol": "shop.util.money", "action": "insert_after", "text": "def cents(n):\n    return n * 100"})
		mustStatus(t, r, 200, "")
		mustStatus(t, s.tool(key, "apply_workspace_edit", map[string]any{"edit": r.Body}), 200, "")
		r = s.tool(key, "get_definition", map[string]any{"symbol": "shop.util.cents"})
		mustStatus(t, r, 200, "")
		if got := locs(t, ws, r); len(got) != 1 || got[0] != "shop/util.py:4:4" {
			t.Errorf("the inserted function: %v", got)
		}
	})
}

func asSlice(v any) []any { s, _ := v.([]any); return s }
