package e2e

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/host/interpreter"
)

// navWorkspace is a small package exercising the four navigation tools.
var navWorkspace = map[string]string{
	"shop/__init__.py": `"""The shop package."""
from .models import Item, total
from . import util

__all__ = ["Item", "total", "util"]
`,
	"shop/models.py": `import os


class Item:
    """An item for sale.

    Attributes:
        price: the price in cents.
    """

    def __init__(self, price: int):
        self.price = price

    @property
    def cents(self) -> int:
        return self.price

    def label(self, prefix: str = "") -> str:
        """Render the item.

        Args:
            prefix (str): put before the label.

        Returns:
            str: the label.

        Raises:
            ValueError: never.
        """
        return prefix + str(self.price)


def total(items: list, tax: float = 0.0) -> int:
    """Sum prices.

    Parameters
    ----------
    items : list
        The items.

    Returns
    -------
    int
        The sum.
    """
    # total of the items, not "total" the string
    s = sum(i.price for i in items)
    return s + int(tax)


def rest(x):
    """Do nothing.

    :param x: anything.
    :returns: x itself.
    :raises KeyError: sometimes.
    """
    return x


HOME = os.getcwd()
`,
	"shop/util.py": `def money(n):
    return "$%d" % n
`,
	"app.py": `from shop import Item, total
from shop.models import rest
import shop.util

item = Item(3)
print(item.label("x"), item.cents, total([item]), "Item")  # Item in a comment
shop.util.money(total([item]))
rest(item)
`,
}

func navSetup(t *testing.T, files map[string]string, extra ...string) (*server, string, string) {
	t.Helper()
	ws := realDir(t, t.TempDir())
	writeTree(t, ws, files)
	s := startServer(t, ws, extra...)
	key := s.addKey("pro", "")
	waitIndexed(t, s, key)
	return s, ws, key
}

func waitIndexed(t *testing.T, s *server, key string) {
	t.Helper()
	eventually(t, 60*time.Second, "workspace indexed", func() bool {
		r := s.tool(key, "health_check", map[string]any{"includeWorkspace": true})
		return jget(r.Body, "workspace", "loaded") == true
	})
}

func at(ws, rel string, line, char int, extra ...any) map[string]any {
	a := map[string]any{"uri": fileURI(filepath.Join(ws, rel)), "line": line, "character": char}
	for i := 0; i+1 < len(extra); i += 2 {
		a[extra[i].(string)] = extra[i+1]
	}
	return a
}

// locs renders locations as "rel:line:character".
func locs(t *testing.T, ws string, r response) []string {
	t.Helper()
	var out []string
	arr, _ := r.Body["locations"].([]any)
	for _, l := range arr {
		uri := jget(l, "uri").(string)
		rel := strings.TrimPrefix(strings.TrimPrefix(uri, "file://"), ws+"/")
		out = append(out, fmt.Sprintf("%s:%v:%v", rel, jget(l, "range", "start", "line"), jget(l, "range", "start", "character")))
	}
	return out
}

func TestNavigationDefinition(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	cases := []struct {
		name       string
		rel        string
		line, char int
		want       string // first location, or error code
	}{
		{"class through a package re-export", "app.py", 4, 8, "shop/models.py:3:6"},
		{"function imported", "app.py", 0, 23, "shop/models.py:32:4"},
		{"method through an instance", "app.py", 5, 12, "shop/models.py:17:8"},
		{"property", "app.py", 5, 30, "shop/models.py:14:8"},
		{"variable: first assignment", "app.py", 5, 6, "app.py:4:0"},
		{"module", "app.py", 6, 5, "shop/util.py:0:0"},
		{"function through a module attribute", "app.py", 6, 10, "shop/util.py:0:4"},
		{"instance attribute through self", "shop/models.py", 15, 21, "shop/models.py:11:13"},
		{"parameter", "shop/models.py", 11, 22, "shop/models.py:10:23"},
		{"standard library", "shop/models.py", 60, 7, "EXTERNAL_DEFINITION"},
		{"builtin", "shop/models.py", 29, 24, "EXTERNAL_DEFINITION"},
		{"keyword", "shop/models.py", 3, 1, "NO_DEFINITION_FOUND"},
		{"string literal", "app.py", 5, 54, "NO_DEFINITION_FOUND"},
		{"comment", "app.py", 5, 63, "NO_DEFINITION_FOUND"},
		{"whitespace", "shop/models.py", 2, 0, "NO_DEFINITION_FOUND"},
		{"line past the end", "app.py", 99, 0, "INVALID_POSITION"},
		{"character past the end", "app.py", 0, 200, "INVALID_POSITION"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.tool(key, "get_definition", at(ws, c.rel, c.line, c.char))
			if strings.ToUpper(c.want) == c.want {
				status := map[string]int{"EXTERNAL_DEFINITION": 422, "NO_DEFINITION_FOUND": 404, "INVALID_POSITION": 400}[c.want]
				mustStatus(t, r, status, c.want)
				return
			}
			mustStatus(t, r, 200, "")
			if got := locs(t, ws, r); len(got) == 0 || got[0] != c.want {
				t.Fatalf("definition %v, want %s first", got, c.want)
			}
		})
	}
	t.Run("external details name the module", func(t *testing.T) {
		r := s.tool(key, "get_definition", at(ws, "shop/models.py", 60, 10))
		mustStatus(t, r, 422, "EXTERNAL_DEFINITION")
		if d := r.ErrDetails(); d["module"] != "os" {
			t.Fatalf("details %v", d)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		r := s.tool(key, "get_definition", at(ws, "nope.py", 0, 0))
		mustStatus(t, r, 404, "FILE_NOT_FOUND")
	})
	t.Run("dedicated route", func(t *testing.T) {
		r := s.do("POST", "/v1/tools/get_definition", key, at(ws, "app.py", 4, 8))
		mustStatus(t, r, 200, "")
	})
}

func TestNavigationReferences(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	t.Run("across files, ordered, strings and comments excluded", func(t *testing.T) {
		r := s.tool(key, "get_references", at(ws, "shop/models.py", 3, 6))
		mustStatus(t, r, 200, "")
		want := []string{"app.py:0:17", "app.py:4:7", "shop/__init__.py:1:20", "shop/__init__.py:4:12", "shop/models.py:3:6"}
		if got := locs(t, ws, r); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("references %v, want %v", got, want)
		}
		if r.Body["totalCount"] != float64(len(want)) {
			t.Fatalf("totalCount %v", r.Body["totalCount"])
		}
	})
	t.Run("includeDeclaration false", func(t *testing.T) {
		// Only the definition goes: the imports naming the symbol stay,
		// and totalCount counts what is left, from any position.
		cases := []struct {
			name       string
			rel        string
			line, char int
			want       []string
		}{
			{"class from its definition", "shop/models.py", 3, 6, []string{"app.py:0:17", "app.py:4:7", "shop/__init__.py:1:20", "shop/__init__.py:4:12"}},
			{"class from an import", "app.py", 0, 17, []string{"app.py:0:17", "app.py:4:7", "shop/__init__.py:1:20", "shop/__init__.py:4:12"}},
			{"function from a use", "app.py", 7, 0, []string{"app.py:1:24", "app.py:7:0"}},
			{"variable", "app.py", 4, 0, []string{"app.py:5:6", "app.py:5:23", "app.py:5:42", "app.py:6:23", "app.py:7:5"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := s.tool(key, "get_references", at(ws, c.rel, c.line, c.char, "includeDeclaration", false))
				mustStatus(t, r, 200, "")
				if got := locs(t, ws, r); strings.Join(got, " ") != strings.Join(c.want, " ") {
					t.Fatalf("references without declaration %v, want %v", got, c.want)
				}
				if r.Body["totalCount"] != float64(len(c.want)) {
					t.Fatalf("totalCount %v, want %d", r.Body["totalCount"], len(c.want))
				}
			})
		}
	})
	t.Run("no symbol", func(t *testing.T) {
		mustStatus(t, s.tool(key, "get_references", at(ws, "shop/models.py", 3, 0)), 404, "NO_SYMBOL_FOUND")
		mustStatus(t, s.tool(key, "get_references", at(ws, "app.py", 40, 0)), 400, "INVALID_POSITION")
		mustStatus(t, s.tool(key, "get_references", at(ws, "missing.py", 0, 0)), 404, "FILE_NOT_FOUND")
	})
	t.Run("tier cap with totalCount", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("def f():\n    pass\n\n")
		for i := 0; i < 150; i++ {
			b.WriteString("f()\n")
		}
		ws2 := realDir(t, t.TempDir())
		writeTree(t, ws2, map[string]string{"many.py": b.String()})
		s2 := startServer(t, ws2)
		free := s2.addKey("free", "")
		waitIndexed(t, s2, free)
		r := s2.tool(free, "get_references", at(ws2, "many.py", 0, 4))
		mustStatus(t, r, 200, "")
		if n := len(r.Body["locations"].([]any)); n != 100 || r.Body["totalCount"] != 151.0 {
			t.Fatalf("free tier: %d locations, totalCount %v; want 100 of 151", n, r.Body["totalCount"])
		}
	})
}

func TestNavigationRename(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	t.Run("definition, references, imports and __all__, never strings or comments", func(t *testing.T) {
		r := s.tool(key, "rename_symbol", at(ws, "app.py", 0, 23, "newName", "grand_total"))
		mustStatus(t, r, 200, "")
		changes := r.Body["changes"].(map[string]any)
		count := map[string]int{}
		for uri, edits := range changes {
			rel := strings.TrimPrefix(strings.TrimPrefix(uri, "file://"), ws+"/")
			for _, e := range edits.([]any) {
				if jget(e, "newText") != "grand_total" {
					t.Fatalf("edit %v", e)
				}
				count[rel]++
			}
		}
		want := map[string]int{"app.py": 3, "shop/__init__.py": 2, "shop/models.py": 1}
		if fmt.Sprint(count) != fmt.Sprint(want) {
			t.Fatalf("edits per file %v, want %v", count, want)
		}
		if r.Body["totalEdits"] != 6.0 || r.Body["filesAffected"] != 3.0 {
			t.Fatalf("totals: %s", r.Raw)
		}
		// Applying the edits keeps the program consistent.
		a := s.tool(key, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": changes}})
		mustStatus(t, a, 200, "")
		b, _ := os.ReadFile(filepath.Join(ws, "shop", "models.py"))
		if !strings.Contains(string(b), "def grand_total(") || !strings.Contains(string(b), `not "total" the string`) {
			t.Fatalf("models.py after rename:\n%s", b)
		}
		// The index sees the applied edit at once.
		d := s.tool(key, "get_definition", at(ws, "app.py", 0, 23))
		mustStatus(t, d, 200, "")
		if got := locs(t, ws, d); got[0] != "shop/models.py:32:4" {
			t.Fatalf("definition after rename: %v", got)
		}
	})
	errs := []struct {
		name       string
		rel        string
		line, char int
		newName    string
		status     int
		code       string
	}{
		{"not an identifier", "app.py", 4, 0, "1item", 400, "INVALID_NAME"},
		{"a keyword", "app.py", 4, 0, "class", 400, "INVALID_NAME"},
		{"with a dash", "app.py", 4, 0, "my-item", 400, "INVALID_NAME"},
		{"already bound in the scope", "app.py", 4, 0, "Item", 409, "NAME_CONFLICT"},
		{"would shadow a builtin used in the scope", "app.py", 4, 0, "print", 409, "NAME_CONFLICT"},
		{"a builtin", "app.py", 5, 0, "echo", 422, "CANNOT_RENAME"},
		{"an external symbol", "shop/models.py", 60, 10, "cwd", 422, "CANNOT_RENAME"},
		{"a keyword position", "shop/models.py", 3, 0, "x", 422, "CANNOT_RENAME"},
		{"a blank line", "shop/models.py", 2, 0, "x", 404, "NO_SYMBOL_FOUND"},
		{"a string", "app.py", 5, 54, "x", 404, "NO_SYMBOL_FOUND"},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			mustStatus(t, s.tool(key, "rename_symbol", at(ws, c.rel, c.line, c.char, "newName", c.newName)), c.status, c.code)
		})
	}
	t.Run("unicode identifier accepted", func(t *testing.T) {
		mustStatus(t, s.tool(key, "rename_symbol", at(ws, "app.py", 4, 0, "newName", "élément")), 200, "")
	})
	t.Run("stale apply is FILE_MODIFIED", func(t *testing.T) {
		r := s.tool(key, "rename_symbol", at(ws, "shop/util.py", 0, 4, "newName", "cash"))
		mustStatus(t, r, 200, "")
		p := filepath.Join(ws, "shop", "util.py")
		b, _ := os.ReadFile(p)
		if err := os.WriteFile(p, append(b, []byte("# edited meanwhile\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		a := s.tool(key, "apply_workspace_edit", map[string]any{"edit": map[string]any{"changes": r.Body["changes"]}})
		mustStatus(t, a, 409, "FILE_MODIFIED")
	})
}

// TestNavigationRenameScopesAndKeywords: NAME_CONFLICT when the new name
// is bound in a scope visible from the symbol, with details naming that
// declaration; CANNOT_RENAME on keywords; NO_SYMBOL_FOUND on blank lines,
// comments and strings.
func TestNavigationRenameScopesAndKeywords(t *testing.T) {
	s, ws, key := navSetup(t, map[string]string{"conf.py": `import json


def helper(x):
    return x


def main(items):
    for item in items:
        print(item)
    flag = None or True
    f = lambda: 0
    return f


def other():
    # return value
    s = "return"
    result = 2

    return result
`})
	conf := filepath.Join(ws, "conf.py")
	conflicts := []struct {
		name     string
		newName  string
		kind     string
		declLine float64
	}{
		{"loop variable to a module-level function", "helper", "function", 3},
		{"loop variable to an import", "json", "import", 0},
		{"loop variable to the function's own parameter", "items", "parameter", 7},
	}
	for _, c := range conflicts {
		t.Run(c.name, func(t *testing.T) {
			r := s.tool(key, "rename_symbol", at(ws, "conf.py", 8, 8, "newName", c.newName))
			mustStatus(t, r, 409, "NAME_CONFLICT")
			d := r.ErrDetails()
			if d["kind"] != c.kind || d["line"] != c.declLine || d["path"] != conf || d["newName"] != c.newName {
				t.Fatalf("details %v, want the %s declared on line %v of %s", d, c.kind, c.declLine, conf)
			}
		})
	}
	t.Run("a name of a sibling function's scope is free", func(t *testing.T) {
		r := s.tool(key, "rename_symbol", at(ws, "conf.py", 8, 8, "newName", "result"))
		mustStatus(t, r, 200, "")
		if r.Body["totalEdits"] != 2.0 {
			t.Fatalf("edits: %s", r.Raw)
		}
	})
	positions := []struct {
		name       string
		line, char int
		status     int
		code, kw   string
	}{
		{"return", 4, 4, 422, "CANNOT_RENAME", "return"},
		{"def", 3, 0, 422, "CANNOT_RENAME", "def"},
		{"None", 10, 11, 422, "CANNOT_RENAME", "None"},
		{"True", 10, 19, 422, "CANNOT_RENAME", "True"},
		{"lambda", 11, 8, 422, "CANNOT_RENAME", "lambda"},
		{"for", 8, 5, 422, "CANNOT_RENAME", "for"},
		{"blank line", 5, 0, 404, "NO_SYMBOL_FOUND", ""},
		{"keyword in a comment", 16, 7, 404, "NO_SYMBOL_FOUND", ""},
		{"keyword in a string", 17, 10, 404, "NO_SYMBOL_FOUND", ""},
	}
	for _, c := range positions {
		t.Run(c.name, func(t *testing.T) {
			r := s.tool(key, "rename_symbol", at(ws, "conf.py", c.line, c.char, "newName", "renamed"))
			mustStatus(t, r, c.status, c.code)
			if c.kw == "" {
				return
			}
			d := r.ErrDetails()
			msg, _ := jget(r.Body, "error", "message").(string)
			if d["reason"] != "keyword" || d["name"] != c.kw || !strings.Contains(msg, "keyword") {
				t.Fatalf("keyword refusal: %s", r.Raw)
			}
		})
	}
}

func TestNavigationHover(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	cases := []struct {
		name       string
		rel        string
		line, char int
		want       []string
	}{
		{"method with a Google docstring", "app.py", 5, 12, []string{"```python\n(method) def label(prefix: str = \"\") -> str\n```", "**Args:**", "`prefix` (`str`): put before the label.", "**Returns:**", "**Raises:**", "`ValueError`"}},
		{"function with a NumPy docstring", "app.py", 0, 23, []string{"(function) def total(items: list[Unknown], tax: float = 0) -> int", "**Args:**", "`items` (`list`): The items.", "**Returns:**"}},
		{"function with a reST docstring", "app.py", 7, 0, []string{"(function) def rest(x: Unknown) -> Unknown", "`x`: anything.", "**Returns:**", "x itself.", "`KeyError`: sometimes."}},
		{"class", "app.py", 4, 8, []string{"(class) Item", "An item for sale."}},
		{"variable", "app.py", 5, 6, []string{"(variable) item: Item"}},
		{"parameter", "shop/models.py", 11, 22, []string{"(parameter) price: int"}},
		{"property", "app.py", 5, 30, []string{"(property) cents: int"}},
		{"module", "app.py", 6, 5, []string{"(module) util"}},
		{"module docstring", "app.py", 6, 0, []string{"(module) shop", "The shop package."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.tool(key, "get_hover", at(ws, c.rel, c.line, c.char))
			mustStatus(t, r, 200, "")
			contents, _ := r.Body["contents"].(string)
			if !strings.HasPrefix(contents, "```python\n(") {
				t.Fatalf("contents do not start with a fenced kind: %q", contents)
			}
			for _, w := range c.want {
				if !strings.Contains(contents, w) {
					t.Fatalf("hover lacks %q:\n%s", w, contents)
				}
			}
			if jget(r.Body, "range", "start", "line") != float64(c.line) {
				t.Fatalf("range %v", r.Body["range"])
			}
		})
	}
	mustStatus(t, s.tool(key, "get_hover", at(ws, "app.py", 5, 63)), 404, "NO_HOVER_INFO")
	mustStatus(t, s.tool(key, "get_hover", at(ws, "app.py", 50, 0)), 400, "INVALID_POSITION")
}

// TestNavigationTypeDefinition: get_type_definition over HTTP, from a
// value to its class, and its refusals.
func TestNavigationTypeDefinition(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	r := s.tool(key, "get_type_definition", at(ws, "app.py", 5, 6))
	mustStatus(t, r, 200, "")
	if got := locs(t, ws, r); len(got) != 1 || got[0] != "shop/models.py:3:6" {
		t.Fatalf("type of item: %v", got)
	}
	fn := s.tool(key, "get_type_definition", at(ws, "app.py", 7, 0))
	mustStatus(t, fn, 200, "")
	if got := locs(t, ws, fn); len(got) != 1 || got[0] != "shop/models.py:50:4" {
		t.Fatalf("type of a function: %v", got)
	}
	ext := s.tool(key, "get_type_definition", at(ws, "app.py", 5, 0))
	mustStatus(t, ext, 422, "EXTERNAL_DEFINITION")
	if d := ext.ErrDetails(); d["symbol"] != "builtins.print" || d["module"] != "builtins" {
		t.Fatalf("external details: %s", ext.Raw)
	}
	mustStatus(t, s.tool(key, "get_type_definition", at(ws, "app.py", 50, 0)), 400, "INVALID_POSITION")
	mustStatus(t, s.tool(key, "get_type_definition", at(ws, "app.py", 3, 0)), 404, "NO_DEFINITION_FOUND")
}

// TestNavigationFreshness edits files behind the server's back and asks
// at once: the answer reflects the disk.
func TestNavigationFreshness(t *testing.T) {
	s, ws, key := navSetup(t, navWorkspace)
	p := filepath.Join(ws, "app.py")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, []byte("total([])\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r := s.tool(key, "get_references", at(ws, "shop/models.py", 32, 4))
	mustStatus(t, r, 200, "")
	if got := locs(t, ws, r); !strings.Contains(strings.Join(got, " "), "app.py:8:0") {
		t.Fatalf("a reference added behind the server's back is missing: %v", got)
	}
	// A new file, queried at once.
	writeTree(t, ws, map[string]string{"extra.py": "from shop.util import money\nmoney(1)\n"})
	d := s.tool(key, "get_definition", at(ws, "extra.py", 1, 0))
	mustStatus(t, d, 200, "")
	if got := locs(t, ws, d); got[0] != "shop/util.py:0:4" {
		t.Fatalf("definition from a new file: %v", got)
	}
}

// TestNavigationWhileIndexing holds the first index build back
// (--index-delay) to observe the lifecycle codes and progress: tools
// that need every file refuse, definition and hover answer from the
// queried file and what it imports (index.Early), references and rename
// at a position from the files holding the name (index.EarlyComplete),
// the same answers as after the build.
func TestNavigationWhileIndexing(t *testing.T) {
	ws := realDir(t, t.TempDir())
	writeTree(t, ws, navWorkspace)
	s := startServer(t, ws, "--index-delay", "4s")
	key := s.addKey("pro", "")
	h := s.tool(key, "health_check", map[string]any{"includeWorkspace": true})
	if jget(h.Body, "workspace", "loaded") != false || jget(h.Body, "workspace", "indexingProgress").(float64) >= 100 || h.Body["status"] != "degraded" {
		t.Fatalf("health while indexing: %s", h.Raw)
	}
	for tool, args := range map[string]map[string]any{"get_references": {"symbol": "shop.models.Item"}, "get_diagnostics": {"uri": "app.py"}} {
		code := "WORKSPACE_NOT_INDEXED"
		if tool == "get_diagnostics" {
			code = "WORKSPACE_NOT_LOADED"
		}
		r := s.tool(key, tool, args)
		mustStatus(t, r, http.StatusServiceUnavailable, code)
		if _, ok := r.ErrDetails()["indexingProgress"]; !ok {
			t.Fatalf("%s: no indexingProgress in details: %s", tool, r.Raw)
		}
	}
	// Asked after the refusals, which are instant: if the build has begun
	// by now, the whole index answers the same.
	// total, through shop/__init__.py's re-export: two imports deep.
	d := s.tool(key, "get_definition", at(ws, "app.py", 5, 35))
	mustStatus(t, d, 200, "")
	if got := locs(t, ws, d); len(got) != 1 || got[0] != "shop/models.py:32:4" {
		t.Fatalf("definition while indexing: %v", got)
	}
	hv := s.tool(key, "get_hover", at(ws, "app.py", 5, 11))
	mustStatus(t, hv, 200, "")
	if c, _ := hv.Body["contents"].(string); !strings.Contains(c, "def label(prefix: str = \"\") -> str") || !strings.Contains(c, "Render the item.") {
		t.Fatalf("hover while indexing: %s", c)
	}
	// Item (a re-export: its references are in three files), label (an
	// attribute through item's type), and a rename of each.
	asks := []map[string]any{at(ws, "app.py", 4, 8), at(ws, "app.py", 5, 11), at(ws, "app.py", 4, 8, "newName", "Article"), at(ws, "app.py", 5, 11, "newName", "title")}
	ask := func(args map[string]any) string {
		tool := "get_references"
		if args["newName"] != nil {
			tool = "rename_symbol"
		}
		r := s.tool(key, tool, args)
		mustStatus(t, r, 200, "")
		return string(r.Raw)
	}
	during := make([]string, len(asks))
	for i, args := range asks {
		during[i] = ask(args)
	}
	if s.tool(key, "health_check", map[string]any{"includeWorkspace": true}).Body["status"] != "degraded" {
		t.Log("the build ended before the references were asked: the early answers were not exercised")
	}
	waitIndexed(t, s, key)
	h = s.tool(key, "health_check", map[string]any{"includeWorkspace": true})
	if jget(h.Body, "workspace", "indexingProgress") != 100.0 || jget(h.Body, "workspace", "fileCount") != 4.0 {
		t.Fatalf("health after indexing: %s", h.Raw)
	}
	for i, args := range asks {
		if after := ask(args); after != during[i] {
			t.Errorf("%v during the build:\n%s\nafter it:\n%s", args, during[i], after)
		}
	}
}

// TestNavigationIndexOnDisk: summaries are cached under the state
// directory, for a restart to reuse.
func TestNavigationIndexOnDisk(t *testing.T) {
	ws := realDir(t, t.TempDir())
	writeTree(t, ws, navWorkspace)
	s := startServer(t, ws)
	key := s.addKey("pro", "")
	waitIndexed(t, s, key)
	entries, _ := filepath.Glob(filepath.Join(s.state, "index", "*", "*", "*"))
	if len(entries) < 4 {
		t.Fatalf("summaries on disk: %v", entries)
	}
	// typeshed's stubs the workspace links into (builtins' closure at
	// least), summarized by the indexer plugin for the workspace's Python.
	stubs, _ := filepath.Glob(filepath.Join(s.state, "stubs", "*", "*", "*"))
	if len(stubs) < 40 {
		t.Fatalf("%d stub summaries on disk", len(stubs))
	}
}

// TestNavigationHoverStdlibDocstring: a standard-library function hovers
// with the docstring of the interpreter's own source (typeshed's stub
// has none), through the indexer plugin; the first hover that needs
// os.py and a warm one are logged.
func TestNavigationHoverStdlibDocstring(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	info, err := interpreter.Ask(py, interpreter.DefaultTimeout)
	if err != nil || info.Stdlib == "" {
		t.Skipf("python3 reports no stdlib directory (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(info.Stdlib, "json", "__init__.py")); err != nil {
		t.Skipf("python3's stdlib %s has no sources", info.Stdlib)
	}
	s, ws, key := navSetup(t, map[string]string{"main.py": "import json\nimport os\n\njson.dumps(1)\nos.makedirs(\"d\")\nlen(\"a\")\n"})
	r := s.tool(key, "get_hover", at(ws, "main.py", 3, 5))
	mustStatus(t, r, 200, "")
	contents, _ := r.Body["contents"].(string)
	for _, w := range []string{"(function) def dumps(", "\n---\n", "to a JSON formatted"} {
		if !strings.Contains(contents, w) {
			t.Fatalf("hover lacks %q:\n%s", w, contents)
		}
	}
	r = s.tool(key, "get_hover", at(ws, "main.py", 5, 0))
	mustStatus(t, r, 200, "")
	if contents, _ := r.Body["contents"].(string); strings.Contains(contents, "\n---\n") {
		t.Fatalf("len (no source) hovers with a doc:\n%s", contents)
	}
	start := time.Now()
	r = s.tool(key, "get_hover", at(ws, "main.py", 4, 3))
	cold := time.Since(start)
	mustStatus(t, r, 200, "")
	if contents, _ := r.Body["contents"].(string); !strings.Contains(contents, "Super-mkdir") {
		t.Fatalf("os.makedirs hovers without its docstring:\n%s", contents)
	}
	start = time.Now()
	mustStatus(t, s.tool(key, "get_hover", at(ws, "main.py", 4, 3)), 200, "")
	t.Logf("hover os.makedirs over HTTP: first (summarize %s/os.py through the indexer plugin, or its --state cache) %v, warm %v", info.Stdlib, cold, time.Since(start))
}
