package service

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

const editSource = `import os


@decorator
def f(a):
    """Doc."""
    return a


class C:
    def m(self):
        return 1

    def one(self): return 2
`

// Extents as the indexer reports them (tests/navigation checks those).
var (
	extentF   = navindex.Extent{Line: 3, Col: 0, EndLine: 6, EndCol: 12, BodyLine: 5, BodyCol: 4}
	extentM   = navindex.Extent{Line: 10, Col: 4, EndLine: 11, EndCol: 16, BodyLine: 11, BodyCol: 8}
	extentOne = navindex.Extent{Line: 13, Col: 4, EndLine: 13, EndCol: 27, BodyLine: 13, BodyCol: 19}
	extentVar = navindex.Extent{Line: 0, Col: 0, EndLine: 0, EndCol: 9}
)

// TestSymbolEdit: the text is dedented and takes the symbol's
// indentation (its body's for replace_body), whatever indentation it
// came with; inserted code is a blank line away (two at top level).
func TestSymbolEdit(t *testing.T) {
	tests := []struct {
		name   string
		x      navindex.Extent
		action string
		text   string
		want   string // the lines of the file that change, joined
	}{
		{"replace a decorated def", extentF, "replace", "def f(a, b):\n    return a + b\n",
			"import os\n\n\ndef f(a, b):\n    return a + b\n\n\nclass C:"},
		{"replace a method, text indented deeper", extentM, "replace", "        def m(self):\n            return 2",
			"class C:\n    def m(self):\n        return 2\n\n    def one"},
		{"replace_body", extentF, "replace_body", "x = a\nreturn x", "def f(a):\n    x = a\n    return x\n\n\nclass C:"},
		{"replace_body of a method", extentM, "replace_body", "  return 3", "    def m(self):\n        return 3\n\n    def one"},
		{"replace_body of a one-liner", extentOne, "replace_body", "return 4", "    def one(self):\n        return 4\n"},
		{"empty body is pass", extentM, "replace_body", "", "    def m(self):\n        pass\n"},
		{"insert_before at top level", extentF, "insert_before", "def g():\n    pass",
			"import os\n\n\ndef g():\n    pass\n\n\n@decorator\ndef f(a):"},
		{"insert_after a method", extentM, "insert_after", "def n(self):\n    return 0",
			"        return 1\n\n    def n(self):\n        return 0\n\n    def one"},
		{"insert_after a variable", extentVar, "insert_after", "import sys", "import os\n\n\nimport sys\n\n\n@decorator"},
	}
	src := []byte(editSource)
	ix := textpos.New(src)
	for _, tt := range tests {
		e, err := symbolEdit(src, ix, tt.x, tt.action, tt.text)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		start, _ := ix.Offset(e.Range.Start.Line, e.Range.Start.Character)
		end, _ := ix.Offset(e.Range.End.Line, e.Range.End.Character)
		got := editSource[:start] + e.NewText + editSource[end:]
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: the file became\n%s\nwithout\n%s", tt.name, got, tt.want)
		}
	}
	for _, bad := range []struct {
		x              navindex.Extent
		action, reason string
	}{
		{extentVar, "replace_body", "variable"},
		{extentF, "replace", "empty"},
	} {
		if _, err := symbolEdit(src, ix, bad.x, bad.action, "  \n"); err == nil || !strings.Contains(err.Error(), bad.reason) {
			t.Errorf("%s: %v, want an error saying %s", bad.action, err, bad.reason)
		}
	}
}

// TestSymbolEditCRLF: a file with CRLF line breaks gets them in the text.
func TestSymbolEditCRLF(t *testing.T) {
	src := []byte(strings.ReplaceAll(editSource, "\n", "\r\n"))
	e, err := symbolEdit(src, textpos.New(src), extentM, "replace_body", "a = 1\nreturn a")
	if err != nil || e.NewText != "a = 1\r\n        return a" {
		t.Errorf("%q %v", e.NewText, err)
	}
}

// FuzzSymbolEdit: any text (an agent's, untrusted) gives an edit inside
// the file or an error, never a panic, and what it inserts carries the
// symbol's indentation on every line it starts.
func FuzzSymbolEdit(f *testing.F) {
	for _, seed := range []string{"return 1", "  a\n\tb\n", "\r\n\r\nx = 1\r\n", "", "é\n  ü", "\n\n  \n"} {
		f.Add(seed, uint8(0))
	}
	src := []byte(editSource)
	ix := textpos.New(src)
	extents := []navindex.Extent{extentF, extentM, extentOne, extentVar}
	f.Fuzz(func(t *testing.T, text string, pick uint8) {
		x := extents[int(pick)%len(extents)]
		action := editActions[int(pick/4)%len(editActions)]
		e, err := symbolEdit(src, ix, x, action, text)
		if err != nil {
			return
		}
		if _, err := ix.Offset(e.Range.Start.Line, e.Range.Start.Character); err != nil {
			t.Fatalf("start outside the file: %v", e.Range)
		}
		if _, err := ix.Offset(e.Range.End.Line, e.Range.End.Character); err != nil {
			t.Fatalf("end outside the file: %v", e.Range)
		}
		if action == "insert_before" || action == "insert_after" {
			indent := leadingSpace(strings.Split(editSource, "\n")[x.Line])
			for _, l := range strings.Split(e.NewText, "\n") {
				if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, indent) {
					t.Fatalf("line %q lacks the indentation %q", l, indent)
				}
			}
		}
	})
}
