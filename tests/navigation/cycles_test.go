package navigation

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestStarImportAliasCycle: star imports that bring a module's own import
// back to it make a name an alias of itself (app's `B` is pkg's `B`,
// which pkg's `from app import *` takes from app). Keying such a name
// followed the aliases without end: a stack overflow, fatal to the whole
// server, at the first build of such a workspace. It is now keyed as
// itself, and its references are its own occurrences.
func TestStarImportAliasCycle(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		ask   string   // the file whose `B` at line 0, column 16 is asked
		want  []string // its references
	}{
		{"one star import", map[string]string{
			"pkg/__init__.py": "from app import *\n",
			"app.py":          "from pkg import B\n\nB()\n",
		}, "app.py", []string{"app.py:0:16", "app.py:2:0"}},
		{"rebound by an alias", map[string]string{
			"pkg/__init__.py": "from .a import A\nfrom app import *\n",
			"pkg/a.py":        "class A:\n    pass\n",
			"app.py":          "from pkg import B\nfrom pkg import A as B\n\nB()\n",
		}, "app.py", []string{"app.py:0:16", "app.py:1:21", "app.py:3:0"}},
		{"through two modules", map[string]string{
			"pkg/__init__.py": "from mid import *\n",
			"mid.py":          "from app import *\n",
			"app.py":          "from pkg import B\n\nB()\n",
		}, "app.py", []string{"app.py:0:16", "app.py:2:0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tc.files)
			x := newTestIndex(t, root, t.TempDir())
			if refs := refsAt(t, x, filepath.Join(root, tc.ask), 0, 16); !slices.Equal(refs, tc.want) {
				t.Errorf("references to B: %v, want %v", refs, tc.want)
			}
			// Every other query at every position survives the cycle too.
			for rel, src := range tc.files {
				sweepFile(t, x, filepath.Join(root, rel), []byte(src), 1)
			}
		})
	}
}
