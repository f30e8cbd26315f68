package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCompletions: get_completions over HTTP on a file being typed (it
// ends in `it.`, so it does not parse), with the limit, a comment,
// refusals.
func TestCompletions(t *testing.T) {
	files := map[string]string{
		"typing_now.py": "from shop import Item\n\nit = Item(3)\nname = it.label()  # it.\nit.",
		"adding.py":     "\"\"\"Doc.\"\"\"\n\nimport os\n\nprint(os)\nx = mon",
		"fixme.py":      "import os\n\nprint(os, money(1))\n",
	}
	for k, v := range navWorkspace {
		files[k] = v
	}
	s, ws, key := navSetup(t, files)
	labels := func(r response) map[string]string {
		kinds := map[string]string{}
		items, _ := r.Body["items"].([]any)
		for _, it := range items {
			kinds[jget(it, "label").(string)], _ = jget(it, "kind").(string)
		}
		return kinds
	}
	r := s.tool(key, "get_completions", at(ws, "typing_now.py", 4, 3))
	mustStatus(t, r, 200, "")
	got := labels(r)
	for label, kind := range map[string]string{"label": "method", "cents": "property", "price": "field"} {
		if got[label] != kind {
			t.Errorf("%s: kind %q, want %q (items %v)", label, got[label], kind, got)
		}
	}
	if first := jget(r.Body, "items", 0, "label"); first != "label" {
		t.Errorf("first item %v, want label (the member this workspace uses most)", first)
	}
	two := s.tool(key, "get_completions", at(ws, "typing_now.py", 4, 3, "limit", 2))
	mustStatus(t, two, 200, "")
	if n := len(two.Body["items"].([]any)); n != 2 || two.Body["isIncomplete"] != true {
		t.Errorf("limit 2: %d items, isIncomplete %v", n, two.Body["isIncomplete"])
	}
	comment := s.tool(key, "get_completions", at(ws, "typing_now.py", 3, 24))
	mustStatus(t, comment, 200, "")
	if n := len(comment.Body["items"].([]any)); n != 0 {
		t.Errorf("in a comment: %d items, want none", n)
	}
	mustStatus(t, s.tool(key, "get_completions", at(ws, "typing_now.py", 9, 0)), 400, "INVALID_POSITION")

	// A name another module defines: its item adds the import, placed by
	// isort, and applies through apply_workspace_edit as it is.
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(ws, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	add := s.tool(key, "get_completions", at(ws, "adding.py", 5, 7))
	mustStatus(t, add, 200, "")
	var money map[string]any
	for _, it := range add.Body["items"].([]any) {
		if jget(it, "label") == "money" {
			money = it.(map[string]any)
		}
	}
	if money == nil || money["additionalEdits"] == nil || money["detail"] != "from shop.util import money" {
		t.Fatalf("money: %v (items %s)", money, add.Raw)
	}
	edit := map[string]any{"changes": map[string]any{fileURI(filepath.Join(ws, "adding.py")): money["additionalEdits"]}}
	applied := s.tool(key, "apply_workspace_edit", map[string]any{"edit": edit})
	mustStatus(t, applied, 200, "")
	if got := read("adding.py"); got != "\"\"\"Doc.\"\"\"\n\nimport os\n\nfrom shop.util import money\n\nprint(os)\nx = mon" {
		t.Errorf("after the completion's import:\n%s", got)
	}

	// The quick fix for an undefined name one module defines.
	acts := s.tool(key, "get_code_actions", map[string]any{"uri": fileURI(filepath.Join(ws, "fixme.py")),
		"range": map[string]any{"start": map[string]any{"line": 2, "character": 12}, "end": map[string]any{"line": 2, "character": 12}}})
	mustStatus(t, acts, 200, "")
	var fix map[string]any
	for _, a := range acts.Body["actions"].([]any) {
		if jget(a, "title") == "Import money from shop.util" {
			fix = a.(map[string]any)
		}
	}
	if fix == nil {
		t.Fatalf("no import quick fix: %s", acts.Raw)
	}
	mustStatus(t, s.tool(key, "apply_workspace_edit", map[string]any{"edit": fix["edit"]}), 200, "")
	if got := read("fixme.py"); got != "import os\n\nfrom shop.util import money\n\nprint(os, money(1))\n" {
		t.Errorf("after the quick fix:\n%s", got)
	}
	mustStatus(t, s.tool(key, "get_completions", at(ws, "typing_now.py", 4, 3, "limit", 501)), 400, "INVALID_PARAMETER")
}
