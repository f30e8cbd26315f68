package navigation

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeFindingsFollowTheLink: a file's type findings are kept for the
// link they were checked in (host/index findingsMemo), so a second ask
// answers the same, and an edit to another file the findings depend on
// (a class gaining the attribute read) drops them with the link.
func TestTypeFindingsFollowTheLink(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"box.py": "class Box:\n    x = 1\n",
		"use.py": "from box import Box\n\nb = Box()\nb.x\nb.z\n",
	})
	x := newTestIndex(t, root, "")
	use := filepath.Join(root, "use.py")
	findings := func() string {
		var out []string
		for _, f := range x.TypeFindings(use) {
			out = append(out, itoa(int(f.Span.Line))+" "+f.Message)
		}
		return strings.Join(out, "; ")
	}
	want := `4 Cannot access attribute "z" for class "Box"`
	for i := range 2 {
		if got := findings(); got != want {
			t.Fatalf("ask %d: got %q, want %q", i+1, got, want)
		}
	}
	write(t, root, map[string]string{"box.py": "class Box:\n    x = 1\n    z = 2\n"})
	if err := x.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := findings(); got != "" {
		t.Fatalf("after Box gained z: got %q, want none", got)
	}
}
