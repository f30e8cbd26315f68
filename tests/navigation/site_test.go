package navigation

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// TestSitePackages: imports the workspace does not define resolve
// through the interpreter's search directories: an installed package's
// types reach hover and attribute resolution, a `-stubs` package wins
// over the package's own code, the workspace's own module wins over an
// installed one, and definitions outside the workspace stay
// EXTERNAL_DEFINITION.
func TestSitePackages(t *testing.T) {
	root, site, site2 := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, site, map[string]string{
		"fetchlib/__init__.py": "from .models import Response\nfrom .api import get\n",
		"fetchlib/models.py":   "class Response:\n    def json(self) -> dict:\n        return {}\n",
		"fetchlib/api.py":      "from .models import Response\n\n\ndef get(url: str) -> Response:\n    return Response()\n",
		"typedlib/__init__.py": "def size():\n    return 'not typed'\n",
		"mine.py":              "def shadowed() -> int:\n    return 1\n",
	})
	write(t, site2, map[string]string{
		"typedlib-stubs/__init__.pyi": "def size() -> int: ...\n",
	})
	write(t, root, map[string]string{
		"app.py":  "import fetchlib\nimport typedlib\nimport mine\n\nr = fetchlib.get('u')\nr.json()\nn = typedlib.size()\nmine.shadowed()\n",
		"mine.py": "def shadowed():\n    return 'the workspace one'\n",
	})
	stubs, err := nativeindex.StubSets(native(t))
	if err != nil {
		t.Fatal(err)
	}
	x := index.New(index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: native(t),
		Parallel: 1, Stubs: stubs, Site: []string{site2, site}})
	if err := x.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "app.py")
	hover := func(line, char int) string {
		h := x.At(app, line, char)
		if h == nil {
			t.Fatalf("nothing at %d:%d", line, char)
		}
		s, err := x.Hover(context.Background(), h)
		if err != nil {
			t.Fatalf("hover at %d:%d: %v", line, char, err)
		}
		return s
	}
	for _, c := range []struct {
		line, char int
		want       string
	}{
		{4, 0, "(variable) r: Response"},
		{5, 2, "(method) def json() -> dict"},
		{6, 0, "(variable) n: int"}, // the -stubs package, not the code
	} {
		if got := hover(c.line, c.char); !strings.Contains(got, c.want) {
			t.Errorf("hover at %d:%d = %q, want %q", c.line, c.char, got, c.want)
		}
	}
	_, err = x.Definition(x.At(app, 5, 2))
	if fe, ok := fault.As(err); !ok || fe.Code != fault.ExternalDefinition || fe.Details["module"] != "fetchlib.models" {
		t.Errorf("definition of r.json: %v", err)
	}
	locs, err := x.Definition(x.At(app, 7, 5))
	if err != nil || len(locs) != 1 || locs[0].Rel != "mine.py" {
		t.Errorf("mine.shadowed resolves to %v, %v: the workspace's module comes first", locs, err)
	}
}
