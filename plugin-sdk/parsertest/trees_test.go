package parsertest

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The parser module's trees as plugin-sdk/tree decodes them: the shape
// every analyzer relies on. The runner's own behaviour (budgets, traps,
// slots) is tested in wasm/parser, which cannot import the decoder.

func TestParseShape(t *testing.T) {
	tests := []struct {
		name, src string
		sexpr     string // Root().String()
		hasError  bool
	}{
		{
			name:  "def",
			src:   "def f(a, b=1):\n    return a\n",
			sexpr: "(module (function_definition name: (identifier) parameters: (parameters (identifier) (default_parameter name: (identifier) value: (integer))) body: (block (return_statement (identifier)))))",
		},
		{
			name:  "decorated async def",
			src:   "@dec\nasync def f(): await g()\n",
			sexpr: "(module (decorated_definition (decorator (identifier)) definition: (function_definition name: (identifier) parameters: (parameters) body: (block (expression_statement (await (call function: (identifier) arguments: (argument_list))))))))",
		},
		{
			name:  "comments are extras",
			src:   "\n\n# c\nx = 1\n\n\n",
			sexpr: "(module (comment) (expression_statement (assignment left: (identifier) right: (integer))))",
		},
		{
			name:     "missing close paren",
			src:      "def f(:\n  pass\n",
			sexpr:    `(module (function_definition name: (identifier) parameters: (parameters (MISSING ")")) body: (block (pass_statement))))`,
			hasError: true,
		},
		{
			name:     "missing colon",
			src:      "if x\n    pass\n",
			sexpr:    "(module (ERROR (identifier) (identifier)))",
			hasError: true,
		},
		{
			name:     "unclosed call",
			src:      "f(1, 2\n",
			sexpr:    "(module (ERROR (identifier) (integer) (integer)))",
			hasError: true,
		},
		{
			name:  "empty",
			src:   "",
			sexpr: "(module)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := Tree(t, []byte(tt.src))
			root := tr.Root()
			if got := root.String(); got != tt.sexpr {
				t.Errorf("tree:\n got %s\nwant %s", got, tt.sexpr)
			}
			if root.HasError() != tt.hasError {
				t.Errorf("root HasError = %v, want %v", root.HasError(), tt.hasError)
			}
			if root.EndByte() != len(tt.src) {
				t.Errorf("root ends at %d, source has %d bytes", root.EndByte(), len(tt.src))
			}
		})
	}
}

func TestParseNodeDetails(t *testing.T) {
	src := "def grüße(名前):\n    return 名前  # 👋\n"
	tr := Tree(t, []byte(src))
	fn := tr.Root().NamedChild(0)
	if fn.Kind() != "function_definition" {
		t.Fatalf("first statement is %s", fn.Kind())
	}
	tests := []struct {
		name  string
		node  tree.Node
		kind  string
		text  string
		named bool
		field string
	}{
		{"name field", fn.ChildByField("name"), "identifier", "grüße", true, "name"},
		{"def keyword", fn.Child(0), "def", "def", false, ""},
		{"colon", fn.Child(3), ":", ":", false, ""},
		{"parameter", fn.ChildByField("parameters").NamedChild(0), "identifier", "名前", true, ""},
		{"body", fn.ChildByField("body"), "block", "return 名前  # 👋", true, "body"},
		{"comment in body", fn.ChildByField("body").Child(1), "comment", "# 👋", true, ""},
		{"at byte of 前", tr.NamedDescendantForByteRange(strings.Index(src, "前"), strings.Index(src, "前")), "identifier", "名前", true, ""},
		{"at boundary picks next token", tr.DescendantForByteRange(strings.Index(src, "("), strings.Index(src, "(")), "(", "(", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.node
			if n.IsNull() {
				t.Fatal("null node")
			}
			if n.Kind() != tt.kind || string(n.Text()) != tt.text || n.IsNamed() != tt.named || n.FieldName() != tt.field {
				t.Errorf("got kind %q text %q named %v field %q, want %q %q %v %q",
					n.Kind(), n.Text(), n.IsNamed(), n.FieldName(), tt.kind, tt.text, tt.named, tt.field)
			}
			if want := []byte(src)[n.StartByte():n.EndByte()]; !bytes.Equal(want, n.Text()) {
				t.Errorf("Text disagrees with byte range")
			}
		})
	}
}

// TestParseStdlib parses every .py file of the local CPython stdlib and
// checks that Decode accepts each blob and the root spans the file.
func TestParseStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the whole stdlib (~20 s)")
	}
	files := StdlibFiles(t)
	var bytesTotal, withErrors int
	start := time.Now()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blob, err := Blob(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tr, err := tree.Decode(blob, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		root := tr.Root()
		lead := bytes.TrimPrefix(src[:root.StartByte()], []byte("\uFEFF"))
		if root.EndByte() != len(src) || len(bytes.TrimLeft(lead, " \t\f\r\n\\")) != 0 {
			t.Errorf("%s: root spans [%d,%d) of %d bytes", f, root.StartByte(), root.EndByte(), len(src))
		}
		if root.HasError() {
			withErrors++
			t.Logf("has errors: %s", f)
		}
		bytesTotal += len(src)
	}
	d := time.Since(start)
	t.Logf("%d files, %.1f MB in %v (%.2f MB/s); %d trees have errors",
		len(files), float64(bytesTotal)/1e6, d.Round(time.Millisecond), float64(bytesTotal)/1e6/d.Seconds(), withErrors)
}
