package nesting_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/nesting/nestingtest"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

var r = strings.Repeat

// lexicalCases are sources with the byte offset Lexical must report (-1:
// none) and its message.
var lexicalCases = []struct {
	name  string
	src   string
	start int
	msg   string
}{
	{"200 parentheses", "x = " + r("(", 200) + "1" + r(")", 200) + "\n", -1, ""},
	{"201 parentheses", "x = " + r("(", 201) + "1" + r(")", 201) + "\n", 204, nesting.MessageBrackets},
	{"mixed brackets", "x = " + r("([{", 67) + "\n", 4 + 200, nesting.MessageBrackets},
	{"closed brackets do not count", r("x = "+r("(", 150)+r(")", 150)+"\n", 3), -1, ""},
	{"brackets over lines", "x = " + r("(\n", 201), 4 + 400, nesting.MessageBrackets},
	{"stray closers do not go below zero", ")))\nx = " + r("(", 200) + "\n", -1, ""},
	{"string", "x = '" + r("(", 300) + "'\n", -1, ""},
	{"triple-quoted string", "x = '''\n" + r("(", 300) + "\n'''\n", -1, ""},
	{"escaped quote", `x = "\"` + r("(", 300) + "\"\n", -1, ""},
	{"raw string keeps the quote", `x = r"\"` + r("(", 300) + "\"\n", -1, ""},
	{"bytes", "x = rb'" + r("[", 300) + "'\n", -1, ""},
	{"unterminated string ends with its line", "x = '" + r("(", 300) + "\ny = " + r("(", 201) + "\n", 306 + 4 + 200, nesting.MessageBrackets},
	{"comment", "# " + r("(", 300) + "\nx = 1\n", -1, ""},
	{"prefix-like name", "rf = 1\nx = rf" + r("(", 201), 13 + 200, nesting.MessageBrackets},
	{"99 indentation levels", indent(99), -1, ""},
	{"100 indentation levels", indent(100), len(indent(99)) - len(r(" ", 99)+"pass\n") + len(r(" ", 99)+"if x:\n"), nesting.MessageIndent},
	{"tabs", indentWith("\t", 100), len(indentWith("\t", 99)) - len(r("\t", 99)+"pass\n") + len(r("\t", 99)+"if x:\n"), nesting.MessageIndent},
	{"blank and comment lines do not indent", "if x:\n" + r(" ", 500) + "\n" + r(" ", 500) + "# c\n pass\n", -1, ""},
	{"indentation inside brackets does not count", "x = (\n" + indentBody(150) + ")\n", -1, ""},
	{"continued lines do not count", "x = 1 + \\\n" + r(" ", 300) + "2\n", -1, ""},
	{"f-string field brackets count", `x = f"{` + r("(", 199) + "1" + r(")", 199) + `}"` + "\n", -1, ""},
	{"f-string field brackets count past the limit", `x = f"{` + r("(", 200) + "1" + r(")", 200) + `}"` + "\n", 6 + 200, nesting.MessageBrackets},
	{"doubled braces are text", `x = f"{{` + r("(", 300) + `}}"` + "\n", -1, ""},
	{"format spec fields close", r(`f"{x:{w}.{p}}" `, 3) + "\nx = " + r("(", 200) + "\n", -1, ""},
	{"f-string ends the field", `x = f"{a}"` + r("(", 200) + "\n", -1, ""},
	{"strings in fields", `x = f"{'}' + "{" + d["}"]}"` + r("(", 200) + "\n", -1, ""},
	{"named escape", `x = f"\N{BULLET}"` + r("(", 200) + "\n", -1, ""},
	{"raw f-string braces", `x = rf"\{a}"` + r("(", 200) + "\n", -1, ""},
	{"unterminated f-string field", `x = f"{a` + "\ny = " + r("(", 200) + "\n", -1, ""},
	{"149 f-strings", "x = " + r(`f"{`, 148) + `f""` + r(`}"`, 148) + "\n", -1, ""},
	{"150 f-strings", "x = " + r(`f"{`, 149) + `f""` + r(`}"`, 149) + "\n", 4 + 149*3, nesting.MessageFStrings},
	{"byte order mark", "\xef\xbb\xbfx = " + r("(", 201), 7 + 200, nesting.MessageBrackets},
	{"carriage returns", "if x:\r\n if y:\r pass\r\nx = " + r("(", 201), 25 + 200, nesting.MessageBrackets},
}

func indentWith(unit string, levels int) string {
	var b strings.Builder
	for i := range levels {
		b.WriteString(r(unit, i) + "if x:\n")
	}
	b.WriteString(r(unit, levels) + "pass\n")
	return b.String()
}

func indent(levels int) string { return indentWith(" ", levels) }

func indentBody(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(r(" ", i) + "1,\n")
	}
	return b.String()
}

func TestLexical(t *testing.T) {
	for _, c := range lexicalCases {
		t.Run(c.name, func(t *testing.T) {
			e, over := nesting.Lexical([]byte(c.src))
			if c.start < 0 {
				if over {
					t.Fatalf("refused at %d (%q): %s", e.Start, c.src[e.Start:e.End], e.Message)
				}
				return
			}
			if !over {
				t.Fatalf("accepted, want %q at %d", c.msg, c.start)
			}
			if e.Start != c.start || e.Message != c.msg || e.End < e.Start || e.End > len(c.src) {
				t.Fatalf("refused [%d,%d) %q, want %q at %d", e.Start, e.End, e.Message, c.msg, c.start)
			}
		})
	}
}

// TestLexicalMatchesCPython compiles the cases CPython 3.11 reads like
// 3.12 (no f-strings: 3.11 parses their fields apart) with python3, when
// there is one: refusal, message, line and column must agree.
func TestLexicalMatchesCPython(t *testing.T) {
	var srcs []string
	for _, c := range lexicalCases {
		if !strings.Contains(c.src, `f"`) && !strings.Contains(c.src, "\xef\xbb\xbf") {
			srcs = append(srcs, c.src)
		}
	}
	in, _ := json.Marshal(srcs)
	cmd := exec.Command("python3", "-c", `
import json, sys
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, "t.py", "exec")
        out.append(None)
    except SyntaxError as e:
        out.append([e.msg, e.lineno, e.offset])
print(json.dumps(out))
`)
	cmd.Stdin = bytes.NewReader(in)
	raw, err := cmd.Output()
	if err != nil {
		t.Skipf("no python3: %v", err)
	}
	var got [][]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for i, src := range srcs {
		e, over := nesting.Lexical([]byte(src))
		py := got[i]
		if py != nil && py[0] != nesting.MessageBrackets && py[0] != nesting.MessageIndent {
			continue // CPython stopped at another error first
		}
		pyOver := py != nil && (py[0] == nesting.MessageBrackets || py[0] == nesting.MessageIndent)
		if over != pyOver {
			t.Errorf("%.60q: refused %v (%s), CPython %v", src, over, e.Message, py)
			continue
		}
		if !over {
			continue
		}
		line := strings.Count(strings.ReplaceAll(src[:e.Start], "\r\n", "\n"), "\n") + strings.Count(src[:e.Start], "\r") - strings.Count(src[:e.Start], "\r\n") + 1
		col := e.Start - max(strings.LastIndexAny(src[:e.Start], "\r\n")+1, 0)
		if e.Message == nesting.MessageBrackets {
			col++ // CPython's offset is 1-based
		} else {
			col = 1 // CPython reports the start of the line for indentation
		}
		if e.Message != py[0] || float64(line) != py[1] || float64(col) != py[2] {
			t.Errorf("%.60q: %s at %d:%d, CPython %v", src, e.Message, line, col, py)
		}
	}
}

// TestCheckTrees runs Check on the trees of the generated sources: every
// deep one is refused with its message, in one linear pass; every one at
// the limits passes.
func TestCheckTrees(t *testing.T) {
	for _, set := range []struct {
		name  string
		cases []nestingtest.Case
	}{{"too deep", nestingtest.TooDeep(10000)}, {"at limits", nestingtest.AtLimits()}} {
		for _, c := range set.cases {
			t.Run(set.name+"/"+c.Name, func(t *testing.T) {
				src := []byte(c.Src)
				tr := parsertest.Tree(t, src)
				e, over := nesting.Check(src, tr)
				if c.Message == "" && over {
					t.Fatalf("refused at %d: %s", e.Start, e.Message)
				}
				if c.Message != "" && (!over || e.Message != c.Message) {
					t.Fatalf("got %v %q, want %q", over, e.Message, c.Message)
				}
			})
		}
	}
}

// FuzzLexical: Lexical never panics, reports a range inside the source,
// a bracket refusal points at an opening bracket, and a refusal moves
// with text put in front of the source.
func FuzzLexical(f *testing.F) {
	for _, c := range lexicalCases {
		f.Add([]byte(c.src))
	}
	for _, c := range nestingtest.TooDeep(1200) {
		f.Add([]byte(c.Src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		e, over := nesting.Lexical(src)
		if !over {
			return
		}
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			t.Fatalf("range [%d,%d) outside %d bytes", e.Start, e.End, len(src))
		}
		if e.Message == nesting.MessageBrackets && !bytes.ContainsAny(src[e.Start:e.Start+1], "([{") {
			t.Fatalf("bracket refusal at %q", src[e.Start:e.End])
		}
		if !bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
			e2, over2 := nesting.Lexical(append([]byte("pass\n"), src...))
			if !over2 || e2.Start != e.Start+5 || e2.Message != e.Message {
				t.Fatalf("after a first line: %v %+v, want %+v moved by 5", over2, e2, e)
			}
		}
	})
}

// benchModule is a 5,000-line module shaped like real code.
var benchModule = []byte(strings.Repeat("class C(Base):\n    \"\"\"Doc (with parens).\"\"\"\n\n    def m(self, a, b=[1, 2], *args, **kw):\n"+
	"        # a comment (\n        x = {'k': f\"{a!r:>{b}}\", \"v\": (a + b) * 2}\n        return self.g(x[0], [y for y in args if y])\n\n", 5000/8))

func BenchmarkLexical(b *testing.B) {
	src := benchModule
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, over := nesting.Lexical(src); over {
			b.Fatal("refused")
		}
	}
}

// BenchmarkCheck is what the SDK adds to each call on that module: the
// tree pass, and no lexical pass (the tree is shallow and clean).
func BenchmarkCheck(b *testing.B) {
	tr := parsertest.Tree(b, benchModule)
	b.SetBytes(int64(len(benchModule)))
	for b.Loop() {
		if _, over := nesting.Check(benchModule, tr); over {
			b.Fatal("refused")
		}
	}
}
