package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDiagnosticsContextFacts: the signatures and deprecation marks of an
// imported workspace module reach every importer, whether the module
// travels as a file (first call) or as the facts the plugin reported
// about it (later calls), and an edit of the module is seen at once.
func TestDiagnosticsContextFacts(t *testing.T) {
	ws := t.TempDir()
	helpers := "from typing_extensions import deprecated\n\n\ndef scale(value: float, factor: float = 2.0) -> float:\n    return value * factor\n\n\n" +
		"@deprecated(\"use scale\")\ndef old(value: float) -> float:\n    return value\n"
	user := "from app.helpers import scale, old\n\n\ndef run() -> None:\n    scale()\n    scale(\"a\")\n    old(1.0)\n"
	writeTree(t, ws, map[string]string{
		"app/__init__.py": "",
		"app/helpers.py":  helpers,
		"app/one.py":      user,
		"app/two.py":      user,
		"app/three.py":    user,
		"app/shapes.py":   "class Box:\n    size = 1\n",
		"app/attrs.py":    "from app.shapes import Box\n\nBox().size\nBox().missing\nBox().missing  # type: ignore\n",
	})
	s := startServer(t, ws)
	key := s.addKey("pro", "")
	waitLoaded(t, s, key, "app/one.py")
	want := "5:missing-argument 6:type-mismatch 7:deprecated"
	for _, f := range []string{"app/one.py", "app/two.py", "app/three.py", "app/one.py"} {
		got, r := diagCodes(t, s, key, f, nil)
		if strings.Join(got, " ") != want {
			t.Fatalf("%s: got %v, want %s\n%s", f, got, want, r.Raw)
		}
	}
	// The type evaluator's findings, through another module's class:
	// an attribute Box lacks, and the same hidden by # type: ignore.
	if got, r := diagCodes(t, s, key, "app/attrs.py", nil); strings.Join(got, " ") != "4:undefined-variable" ||
		!strings.Contains(string(r.Raw), `Cannot access attribute \"missing\" for class \"Box\"`) {
		t.Fatalf("app/attrs.py: %v\n%s", got, r.Raw)
	}
	// The module changes: a default for value, no more deprecation.
	changed := strings.Replace(strings.Replace(helpers, "value: float, factor", "value: float = 1.0, factor", 1), "@deprecated(\"use scale\")\n", "", 1)
	if err := os.WriteFile(filepath.Join(ws, "app/helpers.py"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"app/two.py", "app/one.py"} {
		var got []string
		eventually(t, 60*time.Second, f+" sees the edited module", func() bool {
			got, _ = diagCodes(t, s, key, f, nil)
			return strings.Join(got, " ") == "6:type-mismatch"
		})
	}
	if strings.Contains(s.logText(), "unusable context facts") {
		t.Fatalf("the kernel refused the plugin's facts:\n%s", s.logText())
	}
}
