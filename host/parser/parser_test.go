package parser

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

func TestParseShape(t *testing.T) {
	p := newParser(t)
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
			tr := mustParse(t, p, tt.src)
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
	p := newParser(t)
	src := "def grüße(名前):\n    return 名前  # 👋\n"
	tr := mustParse(t, p, src)
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

func TestParseReusesParser(t *testing.T) {
	p := newParser(t)
	ctx := context.Background()
	src := bytes.Repeat([]byte("x = [1, 2, 3]\n"), 2000)
	first, err := p.Parse(ctx, src, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	mem := p.MemorySize()
	for range 20 {
		blob, err := p.Parse(ctx, src, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(blob, first) {
			t.Fatal("same source, different blob")
		}
	}
	// Everything is freed after each call, so memory stays at the first
	// call's high-water mark.
	if got := p.MemorySize(); got != mem {
		t.Errorf("memory grew from %d to %d bytes over identical parses", mem, got)
	}
}

func TestParseTimeout(t *testing.T) {
	p := newParser(t)
	ctx := context.Background()
	huge := bytes.Repeat([]byte("def f(a, b):\n    return [a + b for a in range(10) if a]\n"), 100_000) // ~5.5 MB
	start := time.Now()
	_, err := p.Parse(ctx, huge, time.Millisecond)
	if !errors.Is(err, ErrParseTimeout) {
		t.Fatalf("Parse with 1ms budget: err = %v, want ErrParseTimeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timed-out parse took %v", d)
	}

	// The parser is reset, not resumed: the next parse is a fresh one.
	tr := mustParse(t, p, "x = 1\n")
	if got, want := tr.Root().String(), "(module (expression_statement (assignment left: (identifier) right: (integer))))"; got != want {
		t.Errorf("after timeout: %s, want %s", got, want)
	}

	// A context deadline bounds the parse as well.
	dctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
	defer cancel()
	if _, err := p.Parse(dctx, huge, time.Minute); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Parse under a 5ms context deadline: err = %v, want DeadlineExceeded", err)
	}
}

func TestParseDeepNesting(t *testing.T) {
	p := newParser(t)
	for _, depth := range []int{1_000, 100_000} {
		src := strings.Repeat("(", depth) + "x" + strings.Repeat(")", depth) + "\n"
		blob, err := p.Parse(context.Background(), []byte(src), 10*time.Second)
		switch {
		case err == nil:
			if _, err := tree.Decode(blob, []byte(src)); err != nil {
				t.Fatalf("depth %d: %v", depth, err)
			}
		case errors.Is(err, ErrTrap), errors.Is(err, ErrParseTimeout):
			// Acceptable: the host survives; a trapped instance is closed.
			t.Logf("depth %d: %v", depth, err)
			if errors.Is(err, ErrTrap) {
				if _, err := p.Parse(context.Background(), []byte("x\n"), 0); !errors.Is(err, ErrClosed) {
					t.Fatalf("after trap: err = %v, want ErrClosed", err)
				}
				p = newParser(t)
			}
		default:
			t.Fatalf("depth %d: %v", depth, err)
		}
	}
}

func TestCompileRejectsTamperedModule(t *testing.T) {
	// Compile hashes the embedded bytes; flip one and it must refuse.
	m := newModule(t)
	defer m.Close(context.Background())
	orig := pywasmBytes()
	orig[len(orig)-1] ^= 1
	defer func() { orig[len(orig)-1] ^= 1 }()
	if _, err := Compile(context.Background(), m.rt); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("Compile of a modified module: err = %v", err)
	}
}

// TestParseStdlib parses every .py file of the local CPython stdlib and
// checks that Decode accepts each blob and the root spans the file.
func TestParseStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the whole stdlib (~20 s)")
	}
	files := stdlibFiles(t)
	p := newParser(t)
	ctx := context.Background()
	var bytesTotal, withErrors int
	start := time.Now()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blob, err := p.Parse(ctx, src, time.Minute)
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
