package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

func rng(sl, sc, el, ec int) map[string]any {
	return map[string]any{
		"start": map[string]any{"line": sl, "character": sc},
		"end":   map[string]any{"line": el, "character": ec},
	}
}

func edit(sl, sc, el, ec int, text string) map[string]any {
	return map[string]any{"range": rng(sl, sc, el, ec), "newText": text}
}

// mustRefused checks the refusal shape of apply_workspace_edit: the error
// envelope, and at the top level applied false with failureReason naming
// the code.
func mustRefused(t *testing.T, r response, code string) {
	t.Helper()
	if r.ErrCode() != code {
		t.Errorf("error.code %q, want %s: %s", r.ErrCode(), code, r.Raw)
	}
	if applied, ok := r.Body["applied"].(bool); !ok || applied {
		t.Errorf("top-level applied %v, want false: %s", r.Body["applied"], r.Raw)
	}
	if fr, _ := r.Body["failureReason"].(string); !strings.Contains(fr, code) {
		t.Errorf("failureReason %q does not name %s", r.Body["failureReason"], code)
	}
	for _, k := range []string{"filesModified", "totalEdits"} {
		if v, ok := r.Body[k]; ok && v != 0.0 {
			t.Errorf("%s %v on a refusal", k, v)
		}
	}
}

func mustApplied(t *testing.T, r response, files, edits int) {
	t.Helper()
	mustStatus(t, r, 200, "")
	if r.Body["applied"] != true || num(r.Body["filesModified"]) != float64(files) || num(r.Body["totalEdits"]) != float64(edits) {
		t.Fatalf("result %s, want applied, filesModified %d, totalEdits %d", r.Raw, files, edits)
	}
	if _, ok := r.Body["failureReason"]; ok {
		t.Fatalf("failureReason on success: %s", r.Raw)
	}
}

func mustContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Fatalf("%s:\n%q\nwant\n%q", filepath.Base(path), b, want)
	}
}

// treeFiles lists every regular file under root.
func treeFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestApplyWorkspaceEdit(t *testing.T) {
	parent := realDir(t, t.TempDir())
	ws := filepath.Join(parent, "ws")
	writeTree(t, ws, map[string]string{"main.py": "x = 1\n"})
	writeTree(t, parent, map[string]string{"outside.py": "outside = 1\n"})
	s := startServer(t, ws)
	pro := s.addKeyReady("pro", ws)
	free := s.addKeyReady("free", ws)
	p := func(rel string) string { return filepath.Join(ws, filepath.FromSlash(rel)) }
	u := func(rel string) string { return fileURI(p(rel)) }
	apply := func(key string, changes map[string]any) response {
		return s.tool(key, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": changes}})
	}

	t.Run("multi-file, wrapped", func(t *testing.T) {
		writeTree(t, ws, map[string]string{"w/m1.py": "a = 1\nb = 2\n", "w/pkg/m2.py": "x = 1\n"})
		r := s.tool(pro, "apply_workspace_edit", map[string]any{
			"label": "bump constants",
			"edit": map[string]any{"changes": map[string]any{
				u("w/m1.py"):     []any{edit(0, 4, 0, 5, "10"), edit(1, 5, 1, 5, "\nc = 3")},
				u("w/pkg/m2.py"): []any{edit(0, 0, 0, 1, "y")},
			}},
		})
		mustApplied(t, r, 2, 3)
		mustContent(t, p("w/m1.py"), "a = 10\nb = 2\nc = 3\n")
		mustContent(t, p("w/pkg/m2.py"), "y = 1\n")
	})

	t.Run("changes map as edit, dedicated route", func(t *testing.T) {
		writeTree(t, ws, map[string]string{"u/m1.py": "a = 1\n", "u/m2.py": "b = 2\n"})
		r := s.do("POST", "/v1/tools/apply_workspace_edit", pro, map[string]any{"edit": map[string]any{
			u("u/m1.py"): []any{edit(0, 0, 0, 1, "alpha")},
			"u/m2.py":    []any{edit(0, 0, 0, 1, "beta")}, // a workspace-relative path works too
		}})
		mustApplied(t, r, 2, 2)
		mustContent(t, p("u/m1.py"), "alpha = 1\n")
		mustContent(t, p("u/m2.py"), "beta = 2\n")
		// The same map through the generic shape.
		r = s.tool(pro, "apply_workspace_edit", map[string]any{"edit": map[string]any{u("u/m1.py"): []any{edit(0, 0, 0, 5, "a")}}})
		mustApplied(t, r, 1, 1)
		mustContent(t, p("u/m1.py"), "a = 1\n")
	})

	t.Run("several edits in one file apply bottom to top", func(t *testing.T) {
		const orig = "line0\nline1\nline2\nline3\n"
		// Positions all refer to the original text, as a client computes them.
		edits := []any{
			edit(0, 0, 0, 5, "FIRST LINE"),
			edit(1, 0, 1, 0, "inserted\n"),
			edit(2, 0, 3, 0, ""),
			edit(3, 4, 3, 5, "THREE"),
			edit(3, 5, 3, 5, "!"),
		}
		const want = "FIRST LINE\ninserted\nline1\nlineTHREE!\n"
		orders := map[string][]int{"top to bottom": {0, 1, 2, 3, 4}, "bottom to top": {4, 3, 2, 1, 0}, "shuffled": {2, 4, 0, 3, 1}}
		for name, order := range orders {
			t.Run(name, func(t *testing.T) {
				rel := "order/" + strings.ReplaceAll(name, " ", "_") + ".py"
				writeTree(t, ws, map[string]string{rel: orig})
				var list []any
				for _, i := range order {
					list = append(list, edits[i])
				}
				mustApplied(t, apply(pro, map[string]any{u(rel): list}), 1, len(edits))
				mustContent(t, p(rel), want)
			})
		}
		t.Run("insertions at one point keep array order", func(t *testing.T) {
			writeTree(t, ws, map[string]string{"order/same.py": "x\n"})
			mustApplied(t, apply(pro, map[string]any{u("order/same.py"): []any{
				edit(0, 0, 0, 0, "a"), edit(0, 0, 0, 0, "b"), edit(0, 0, 0, 0, "c"),
			}}), 1, 3)
			mustContent(t, p("order/same.py"), "abcx\n")
		})
		t.Run("edit at the end of the document", func(t *testing.T) {
			writeTree(t, ws, map[string]string{"order/end.py": "a = 1\n"})
			mustApplied(t, apply(pro, map[string]any{u("order/end.py"): []any{edit(1, 0, 1, 0, "b = 2\n")}}), 1, 1)
			mustContent(t, p("order/end.py"), "a = 1\nb = 2\n")
		})
		t.Run("no-op edit modifies no file", func(t *testing.T) {
			writeTree(t, ws, map[string]string{"order/noop.py": "a = 1\n"})
			mustApplied(t, apply(pro, map[string]any{u("order/noop.py"): []any{edit(0, 0, 0, 1, "a")}}), 0, 1)
			mustContent(t, p("order/noop.py"), "a = 1\n")
		})
		t.Run("empty changes", func(t *testing.T) {
			mustApplied(t, apply(pro, map[string]any{}), 0, 0)
		})
	})

	t.Run("positions count UTF-16 units", func(t *testing.T) {
		// s = '😀é' + x : the emoji is two UTF-16 units, é one; x is at 12
		// (11 runes, 16 bytes).
		writeTree(t, ws, map[string]string{"nonascii/e.py": "s = '😀é' + x\nt = '𝄞' + z  # 𝄞\n"})
		mustApplied(t, apply(pro, map[string]any{u("nonascii/e.py"): []any{
			edit(0, 12, 0, 13, "y"),
			edit(1, 5, 1, 7, "G"), // the clef, two units
			edit(1, 11, 1, 12, "w"),
		}}), 1, 3)
		mustContent(t, p("nonascii/e.py"), "s = '😀é' + y\nt = 'G' + w  # 𝄞\n")
		// A UTF-8 BOM is kept and not addressable.
		if err := os.WriteFile(p("nonascii/bom.py"), []byte("\xEF\xBB\xBFa = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mustApplied(t, apply(pro, map[string]any{u("nonascii/bom.py"): []any{edit(0, 0, 0, 1, "b")}}), 1, 1)
		mustContent(t, p("nonascii/bom.py"), "\xEF\xBB\xBFb = 1\n")
	})

	t.Run("refusals", func(t *testing.T) {
		writeTree(t, ws, map[string]string{
			"f/good.py":  "good = 1\n",
			"f/emoji.py": "e = '😀'\n",
			"f/two.py":   "one\ntwo\n",
			"f/ro.py":    "ro = 1\n",
		})
		if err := os.Chmod(p("f/ro.py"), 0o444); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p("f/u16.py"), append([]byte{0xFF, 0xFE}, utf16Bytes("u = 1\n", false)...), 0o644); err != nil {
			t.Fatal(err)
		}
		writeTree(t, ws, map[string]string{"f/latin.py": "# coding: latin-1\nl = 1\n", "f/hard.py": "h = 1\n"})
		if err := os.Link(p("f/hard.py"), p("f/hard_twin.py")); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p("f/ro.py"), 0o644) })
		good := []any{edit(0, 0, 0, 4, "GOOD")}
		tests := []struct {
			name   string
			uri    string
			edits  []any
			status int
			code   string
		}{
			{"missing file", u("f/missing.py"), []any{edit(0, 0, 0, 0, "x")}, 404, "FILE_NOT_FOUND"},
			{"missing directory", u("f/nodir/x.py"), []any{edit(0, 0, 0, 0, "x")}, 404, "FILE_NOT_FOUND"},
			{"a directory", u("f"), []any{edit(0, 0, 0, 0, "x")}, 404, "FILE_NOT_FOUND"},
			{"outside the workspace", fileURI(filepath.Join(parent, "outside.py")), []any{edit(0, 0, 0, 0, "x")}, 403, "PERMISSION_DENIED"},
			{"dotdot out of the workspace", u("f") + "/../../outside.py", []any{edit(0, 0, 0, 0, "x")}, 403, "PERMISSION_DENIED"},
			{"line past the end", u("f/two.py"), []any{edit(9, 0, 9, 0, "x")}, 400, "INVALID_RANGE"},
			{"character past the line", u("f/two.py"), []any{edit(0, 4, 0, 4, "x")}, 400, "INVALID_RANGE"},
			{"end past the end", u("f/two.py"), []any{edit(0, 0, 7, 0, "x")}, 400, "INVALID_RANGE"},
			{"start after end", u("f/two.py"), []any{edit(1, 2, 0, 1, "x")}, 400, "INVALID_RANGE"},
			{"negative line", u("f/two.py"), []any{edit(-1, 0, 0, 0, "x")}, 400, "INVALID_RANGE"},
			{"negative character", u("f/two.py"), []any{edit(0, -2, 0, 0, "x")}, 400, "INVALID_RANGE"},
			{"inside a surrogate pair", u("f/emoji.py"), []any{edit(0, 6, 0, 6, "x")}, 400, "INVALID_RANGE"},
			{"one bad edit among good ones", u("f/two.py"), []any{edit(0, 0, 0, 1, "O"), edit(1, 0, 1, 9, "x")}, 400, "INVALID_RANGE"},
			{"overlapping", u("f/two.py"), []any{edit(0, 0, 0, 2, "a"), edit(0, 1, 0, 3, "b")}, 400, "CONFLICTING_EDITS"},
			{"overlapping across lines", u("f/two.py"), []any{edit(0, 1, 1, 1, "a"), edit(1, 0, 1, 2, "b")}, 400, "CONFLICTING_EDITS"},
			{"insertion inside a replaced range", u("f/two.py"), []any{edit(0, 0, 0, 3, "a"), edit(0, 1, 0, 1, "b")}, 400, "CONFLICTING_EDITS"},
			{"identical ranges", u("f/two.py"), []any{edit(1, 0, 1, 3, "a"), edit(1, 0, 1, 3, "b")}, 400, "CONFLICTING_EDITS"},
			{"read-only file", u("f/ro.py"), []any{edit(0, 0, 0, 2, "rw")}, 403, "READONLY_FILE"},
			{"hard-linked file", u("f/hard.py"), []any{edit(0, 0, 0, 1, "H")}, 403, "PERMISSION_DENIED"},
			{"UTF-16 file", u("f/u16.py"), []any{edit(0, 0, 0, 1, "U")}, 422, "ENCODING_ERROR"},
			{"non-ASCII text into a latin-1 file", u("f/latin.py"), []any{edit(1, 0, 1, 1, "é")}, 422, "ENCODING_ERROR"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				all := treeFiles(t, ws)
				before := fileBytes(t, append(all, filepath.Join(parent, "outside.py"))...)
				changes := map[string]any{tt.uri: tt.edits, u("f/good.py"): good}
				for shape, r := range map[string]response{
					"generic":   apply(pro, changes),
					"dedicated": s.do("POST", "/v1/tools/apply_workspace_edit", pro, map[string]any{"edit": changes}),
				} {
					if r.Status != tt.status {
						t.Errorf("%s: status %d, want %d: %s", shape, r.Status, tt.status, r.Raw)
					}
					mustRefused(t, r, tt.code)
				}
				mustBeUnchanged(t, before)
				if got := treeFiles(t, ws); !reflect.DeepEqual(got, all) {
					t.Errorf("files appeared or vanished: %v, before %v", got, all)
				}
			})
		}
		t.Run("two URIs naming one file", func(t *testing.T) {
			before := fileBytes(t, treeFiles(t, ws)...)
			r := apply(pro, map[string]any{
				u("f/two.py"): []any{edit(0, 0, 0, 1, "O")},
				"f/two.py":    []any{edit(1, 0, 1, 1, "T")},
			})
			mustStatus(t, r, 400, "CONFLICTING_EDITS")
			mustRefused(t, r, "CONFLICTING_EDITS")
			mustBeUnchanged(t, before)
		})
	})

	t.Run("malformed edits", func(t *testing.T) {
		writeTree(t, ws, map[string]string{"bad/a.py": "a = 1\n"})
		tests := []struct {
			name  string
			args  any
			param string
		}{
			{"edit missing", map[string]any{}, "edit"},
			{"edit not an object", map[string]any{"edit": []any{}}, "edit"},
			{"changes not an object", map[string]any{"edit": map[string]any{"changes": []any{}}}, "edit.changes"},
			{"edits not an array", map[string]any{"edit": map[string]any{"changes": map[string]any{u("bad/a.py"): edit(0, 0, 0, 0, "x")}}}, fmt.Sprintf("edit.changes[%q]", u("bad/a.py"))},
			{"newText missing", map[string]any{"edit": map[string]any{"changes": map[string]any{u("bad/a.py"): []any{map[string]any{"range": rng(0, 0, 0, 0)}}}}}, fmt.Sprintf("edit.changes[%q][0].newText", u("bad/a.py"))},
			{"range missing", map[string]any{"edit": map[string]any{"changes": map[string]any{u("bad/a.py"): []any{map[string]any{"newText": "x"}}}}}, fmt.Sprintf("edit.changes[%q][0].range", u("bad/a.py"))},
			{"line not a number", map[string]any{"edit": map[string]any{"changes": map[string]any{u("bad/a.py"): []any{map[string]any{"newText": "x", "range": map[string]any{
				"start": map[string]any{"line": "0", "character": 0}, "end": map[string]any{"line": 0, "character": 0}}}}}}}, ""},
			{"unknown argument", map[string]any{"edit": map[string]any{}, "dryRun": true}, "dryRun"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := fileBytes(t, p("bad/a.py"))
				r := s.tool(pro, "apply_workspace_edit", tt.args)
				mustStatus(t, r, 400, "INVALID_PARAMETER")
				if tt.param != "" && r.ErrDetails()["parameter"] != tt.param {
					t.Errorf("details.parameter %v, want %s", r.ErrDetails()["parameter"], tt.param)
				}
				mustBeUnchanged(t, before)
			})
		}
	})

	t.Run("tier caps", func(t *testing.T) {
		var six []string
		for i := range 6 {
			rel := fmt.Sprintf("caps/f%d.py", i)
			writeTree(t, ws, map[string]string{rel: fmt.Sprintf("v%d = 0\n", i)})
			six = append(six, rel)
		}
		var hundredLines strings.Builder
		for i := range 101 {
			fmt.Fprintf(&hundredLines, "l%d = %d\n", i, i)
		}
		writeTree(t, ws, map[string]string{"caps/many.py": hundredLines.String()})
		changesFor := func(files []string) map[string]any {
			c := map[string]any{}
			for _, rel := range files {
				c[u(rel)] = []any{edit(0, 0, 0, 0, "# capped\n")}
			}
			return c
		}
		manyEdits := func(n int) map[string]any {
			var list []any
			for i := range n {
				list = append(list, edit(i, 0, i, 0, "#"))
			}
			return map[string]any{u("caps/many.py"): list}
		}
		t.Run("free: 6 files refused", func(t *testing.T) {
			before := fileBytes(t, treeFiles(t, ws)...)
			r := apply(free, changesFor(six))
			mustStatus(t, r, 400, "INVALID_PARAMETER")
			mustRefused(t, r, "INVALID_PARAMETER")
			if d := r.ErrDetails(); num(d["limit"]) != 5 || num(d["value"]) != 6 {
				t.Errorf("details %v, want limit 5 value 6", d)
			}
			mustBeUnchanged(t, before)
		})
		t.Run("free: 101 edits in one file refused", func(t *testing.T) {
			before := fileBytes(t, treeFiles(t, ws)...)
			r := apply(free, manyEdits(101))
			mustStatus(t, r, 400, "INVALID_PARAMETER")
			mustRefused(t, r, "INVALID_PARAMETER")
			if d := r.ErrDetails(); num(d["limit"]) != 100 || num(d["value"]) != 101 {
				t.Errorf("details %v, want limit 100 value 101", d)
			}
			mustBeUnchanged(t, before)
		})
		t.Run("free: 5 files and 100 edits allowed", func(t *testing.T) {
			mustApplied(t, apply(free, changesFor(six[:5])), 5, 5)
			mustContent(t, p(six[0]), "# capped\nv0 = 0\n")
			mustContent(t, p(six[5]), "v5 = 0\n")
			mustApplied(t, apply(free, manyEdits(100)), 1, 100)
			b, _ := os.ReadFile(p("caps/many.py"))
			if n := strings.Count(string(b), "\n#"); n != 99 || !strings.HasPrefix(string(b), "#l0") || !strings.HasSuffix(string(b), "\nl100 = 100\n") {
				t.Errorf("after 100 edits:\n%s", b)
			}
		})
		t.Run("pro: 6 files and 101 edits allowed", func(t *testing.T) {
			mustApplied(t, apply(pro, changesFor(six)), 6, 6)
			mustApplied(t, apply(pro, manyEdits(101)), 1, 101)
		})
	})

	t.Run("concurrent applies to one file", func(t *testing.T) {
		writeTree(t, ws, map[string]string{"conc/c.py": "base = 0\n"})
		const n = 8
		var wg sync.WaitGroup
		results := make([]response, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				path := "/v1/tools/call"
				body := any(map[string]any{"name": "apply_workspace_edit", "arguments": map[string]any{"edit": map[string]any{"changes": map[string]any{
					u("conc/c.py"): []any{edit(0, 0, 0, 0, fmt.Sprintf("g%d = %d\n", i, i))},
				}}}})
				if i%2 == 1 {
					path = "/v1/tools/apply_workspace_edit"
					body = map[string]any{"edit": map[string]any{u("conc/c.py"): []any{edit(0, 0, 0, 0, fmt.Sprintf("g%d = %d\n", i, i))}}}
				}
				results[i], errs[i] = s.try("POST", path, pro, body)
			}()
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("request %d: %v", i, errs[i])
			}
			if results[i].Status != 200 || results[i].Body["applied"] != true {
				t.Errorf("request %d: %s", i, results[i].Raw)
			}
		}
		b, err := os.ReadFile(p("conc/c.py"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		sort.Strings(lines)
		want := []string{"base = 0"}
		for i := range n {
			want = append(want, fmt.Sprintf("g%d = %d", i, i))
		}
		sort.Strings(want)
		if !reflect.DeepEqual(lines, want) {
			t.Fatalf("after %d concurrent applies:\n%s", n, b)
		}
	})
}
