package e2e

import "testing"

// TestCompletions: get_completions over HTTP on a file being typed (it
// ends in `it.`, so it does not parse), with the limit, a comment,
// refusals.
func TestCompletions(t *testing.T) {
	files := map[string]string{"typing_now.py": "from shop import Item\n\nit = Item(3)\nname = it.label()  # it.\nit."}
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
	mustStatus(t, s.tool(key, "get_completions", at(ws, "typing_now.py", 4, 3, "limit", 501)), 400, "INVALID_PARAMETER")
}
