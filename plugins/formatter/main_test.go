package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/plugins/formatter/equiv"
	"github.com/pyws/pyws/plugins/formatter/isort"
)

var update = flag.Bool("update", false, "re-record testdata/*.golden (isort --profile black - | black -q -) and *.isort (isort only)")

func parse(tb testing.TB, src []byte) *tree.Tree { return parsertest.Tree(tb, src) }

// pipeline runs the phases the way host/service/format.go does, natively.
func pipeline(tb testing.TB, src []byte, cfg Config) ([]byte, error) {
	tb.Helper()
	first, err := run(Args{URI: "t.py", Phase: "format", Config: cfg}, src, parse(tb, src))
	if err != nil {
		return nil, err
	}
	text, comments := []byte(*first.Text), first.Comments
	if first.NeedsBlack {
		r, err := run(Args{URI: "t.py", Phase: "black", Config: cfg}, text, parse(tb, text))
		if err != nil {
			return nil, err
		}
		text, comments = []byte(*r.Text), r.Comments
	}
	chk, err := run(Args{URI: "t.py", Phase: "check", Config: cfg}, text, parse(tb, text))
	if err != nil {
		return nil, err
	}
	if chk.ParseError != nil || *chk.Signature != *first.Signature {
		return nil, errors.New("not equivalent")
	}
	if chk.Comments != comments {
		return nil, errors.New("comments differ")
	}
	if chk.Text != nil {
		text = []byte(*chk.Text)
	}
	return text, nil
}

func defaultConfig(tb testing.TB) Config {
	project, _ := filepath.Abs("testdata/project")
	c := Config{LineLength: 88, IsortLineLength: 88, TabSize: 4, InsertSpaces: true}
	for n := range isort.FindSrcModules(project) {
		c.SrcModules = append(c.SrcModules, n)
	}
	return c
}

// TestGolden formats each fixture and compares with the reference
// recorded from the real tools in testdata/project (mypkg is first
// party): *.golden is isort then black, *.isort is isort alone (checked
// with the identity engine in place of Black). The reference output must
// be equivalent to the input, which tests package equiv against what Black
// really does.
func TestGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/*.py")
	if len(inputs) < 8 {
		t.Fatalf("only %d fixtures", len(inputs))
	}
	cfg := defaultConfig(t)
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				record(t, in, src)
			}
			golden, err1 := os.ReadFile(in + ".golden")
			isorted, err2 := os.ReadFile(in + ".isort")
			if err1 != nil || err2 != nil {
				t.Fatalf("missing golden files (run with -update): %v %v", err1, err2)
			}
			if equiv.Signature(parse(t, src)) != equiv.Signature(parse(t, golden)) {
				t.Errorf("the reference output is not equivalent to the input by package equiv:\n--- input\n%s\n--- reference\n%s",
					equiv.Canonical(parse(t, src)), equiv.Canonical(parse(t, golden)))
			}
			got, err := pipeline(t, src, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(golden) {
				t.Errorf("output differs from isort+black:\n--- got\n%s\n--- want\n%s", got, golden)
			}
			// The isort stage alone, with the identity engine.
			formatBlack = func(src []byte, _ *tree.Tree, _ Config) ([]byte, error) { return src, nil }
			only, err := pipeline(t, src, cfg)
			formatBlack = realBlack
			if err != nil || string(only) != string(isorted) {
				t.Errorf("isort stage differs from isort (%v):\n--- got\n%s\n--- want\n%s", err, only, isorted)
			}
			// Phase "isort" (organize imports) answers isort's output alone.
			if r, err := run(Args{URI: "t.py", Phase: "isort", Config: cfg}, src, parse(t, src)); err != nil || r.Text == nil || *r.Text != string(isorted) || r.Signature == nil {
				t.Errorf("phase isort differs from isort (%v): %+v", err, r)
			}
			again, err := pipeline(t, got, cfg)
			if err != nil || string(again) != string(got) {
				t.Errorf("not idempotent (%v):\n%s", err, again)
			}
		})
	}
}

func record(t *testing.T, in string, src []byte) {
	t.Helper()
	run := func(name string, stdin []byte, args ...string) []byte {
		cmd := exec.Command(name, args...)
		cmd.Dir = "testdata/project"
		cmd.Stdin = strings.NewReader(string(stdin))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out
	}
	isorted := run("isort", src, "--profile", "black", "-")
	golden := run("black", isorted, "-q", "-")
	os.WriteFile(in+".isort", isorted, 0o644)
	os.WriteFile(in+".golden", golden, 0o644)
}

func TestParseError(t *testing.T) {
	cases := []struct {
		src             string
		line, character int
	}{
		{"def f(:\n    pass\n", 0, 6},
		// The start of the first error region: tree-sitter's ERROR node
		// here begins at the statement.
		{"x = 1\ny = (\n", 1, 0},
		{"x = 1\nz = '😀' +\n", 1, 0},
	}
	for _, c := range cases {
		_, err := run(Args{URI: "t.py", Phase: "format", Config: defaultConfig(t)}, []byte(c.src), parse(t, []byte(c.src)))
		var e *sdk.Error
		if !errors.As(err, &e) || e.Code != "PARSE_ERROR" {
			t.Fatalf("%q: err %v, want PARSE_ERROR", c.src, err)
		}
		if e.Details["line"] != c.line || e.Details["character"] != c.character {
			t.Errorf("%q: error at %v:%v, want %d:%d", c.src, e.Details["line"], e.Details["character"], c.line, c.character)
		}
		// Organize imports has nothing to offer for such a file: not an error.
		r, err := run(Args{URI: "t.py", Phase: "isort", Config: defaultConfig(t)}, []byte(c.src), parse(t, []byte(c.src)))
		if err != nil || r.ParseError == nil || *r.ParseError != (Position{c.line, c.character}) || r.Text != nil {
			t.Errorf("%q: phase isort answered %+v, %v; want the parse error", c.src, r, err)
		}
	}
}

// TestUnsafeOutputRefused swaps in a broken engine: the check phase must
// see that its output is not equivalent.
func TestUnsafeOutputRefused(t *testing.T) {
	defer func(old func([]byte, *tree.Tree, Config) ([]byte, error)) { formatBlack = old }(formatBlack)
	cases := map[string]func([]byte, *tree.Tree, Config) ([]byte, error){
		"renames": func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) {
			return []byte(strings.ReplaceAll(string(s), "x", "y")), nil
		},
		"breaks": func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) { return append(s, "def (\n"...), nil },
		"drops a line": func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) {
			return []byte(strings.SplitAfterN(string(s), "\n", 2)[1]), nil
		},
	}
	// Black runs without its token self-check: the comparison of comments
	// (Result.Comments) catches what the signature, which forgets
	// comments, does not.
	cases["drops a comment"] = func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) {
		return []byte(strings.Replace(string(s), "  # note", "", 1)), nil
	}
	cases["rewrites a comment"] = func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) {
		return []byte(strings.Replace(string(s), "# note", "# note!", 1)), nil
	}
	cases["adds a comment"] = func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) {
		return append([]byte("# new\n"), s...), nil
	}
	for name, engine := range cases {
		formatBlack = engine
		if _, err := pipeline(t, []byte("x = 1  # note\nz = x\n"), defaultConfig(t)); err == nil {
			t.Errorf("%s: unsafe output accepted", name)
		}
	}
	// What Black does to comments passes: respacing, moving to a line of
	// their own.
	formatBlack = func(s []byte, _ *tree.Tree, _ Config) ([]byte, error) {
		return []byte(strings.Replace(string(s), "x = 1  # note\n", "#   note  \nx = 1\n", 1)), nil
	}
	if _, err := pipeline(t, []byte("x = 1  # note\nz = x\n"), defaultConfig(t)); err != nil {
		t.Errorf("respaced and moved comment refused: %v", err)
	}
}

func TestReindent(t *testing.T) {
	src := "def f(a):\n    if a:\n        return \"\"\"multi\n    line\"\"\"\n    return [\n        1,\n    ]\n"
	cases := []struct {
		tabSize      int
		insertSpaces bool
		want         string
	}{
		{4, true, src},
		{2, true, "def f(a):\n  if a:\n    return \"\"\"multi\n    line\"\"\"\n  return [\n    1,\n  ]\n"},
		{8, false, "def f(a):\n\tif a:\n\t\treturn \"\"\"multi\n    line\"\"\"\n\treturn [\n\t\t1,\n\t]\n"},
	}
	for _, c := range cases {
		got := reindent([]byte(src), parse(t, []byte(src)), c.tabSize, c.insertSpaces)
		if got != c.want {
			t.Errorf("tabSize %d spaces %v:\n%s\nwant\n%s", c.tabSize, c.insertSpaces, got, c.want)
		}
		if equiv.Signature(parse(t, []byte(got))) != equiv.Signature(parse(t, []byte(src))) {
			t.Errorf("re-indented code is not equivalent")
		}
	}
}
