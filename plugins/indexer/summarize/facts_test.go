package summarize

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/markertest"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestTypeFacts summarizes each fixture of testdata (Python 3.13 on
// linux, or the target a `# target: 3.11 win32` first line names) and
// compares the version-5 facts of its definitions, rendered as text,
// with its golden file: the contract the type evaluator reads.
func TestTypeFacts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.py*")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			for _, tg := range targets(src) {
				o := Options{IsStub: strings.HasSuffix(f, ".pyi"), PythonMinor: tg.minor, Platform: tg.platform}
				s := Summarize(parsertest.Tree(t, src), o)
				roundTrip(t, s)
				fmt.Fprintf(&out, "== 3.%d %s\n%s", tg.minor, tg.platform, dumpFacts(s))
			}
			markertest.Golden(t, f+".golden", []byte(out.String()), *update)
		})
	}
}

type target struct {
	minor    int
	platform string
}

// targets reads `# targets: 3.11/linux 3.13/win32` on the first line.
func targets(src []byte) []target {
	line, _, _ := strings.Cut(string(src), "\n")
	spec, ok := strings.CutPrefix(line, "# targets:")
	if !ok {
		return []target{{13, "linux"}}
	}
	var out []target
	for _, f := range strings.Fields(spec) {
		var tg target
		fmt.Sscanf(strings.Replace(f, "/", " ", 1), "3.%d %s", &tg.minor, &tg.platform)
		out = append(out, tg)
	}
	return out
}

// roundTrip checks that s encodes and decodes to the same facts.
func roundTrip(t *testing.T, s *navindex.Summary) {
	t.Helper()
	d, err := navindex.Decode(navindex.Encode(s))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpFacts(d), dumpFacts(s); got != want {
		t.Fatalf("round trip changed the facts:\n%s\nwant:\n%s", got, want)
	}
}

var flagNames = []string{"async", "generator", "returns-none", "never-returns", "overload", "classmethod", "staticmethod",
	"abstract", "final", "type-alias", "static-false", "type-checking", "deprecated", "classvar", "raises-not-implemented"}

var paramKinds = []string{"", "posonly ", "*", "kwonly ", "**"}

// dumpFacts renders each definition's v5 facts, one per line, with its
// parameters, return values and decorators indented below.
func dumpFacts(s *navindex.Summary) string {
	var sb strings.Builder
	for _, d := range s.Defs {
		y := s.Syms[d.Sym]
		fmt.Fprintf(&sb, "%d:%d %s %s", d.Name.Line+1, d.Name.Col, y.Name, d.Kind)
		for i, n := range flagNames {
			if d.Flags&(1<<i) != 0 {
				sb.WriteString(" " + n)
			}
		}
		if d.Annot >= 0 {
			sb.WriteString(" : " + renderExpr(s, d.Annot))
		}
		if d.Value >= 0 {
			sb.WriteString(" = " + renderExpr(s, d.Value))
		}
		sb.WriteByte('\n')
		for _, p := range d.Params {
			fmt.Fprintf(&sb, "    param %s%s", paramKinds[p.Kind], p.Name)
			if p.Annot >= 0 {
				sb.WriteString(" : " + renderExpr(s, p.Annot))
			}
			if p.HasDefault {
				fmt.Fprintf(&sb, " = %s  (%s)", renderExpr(s, p.Default), p.DefaultText)
			}
			sb.WriteByte('\n')
		}
		for _, v := range d.ReturnValues {
			fmt.Fprintf(&sb, "    return %s\n", renderExpr(s, v))
		}
		for _, v := range d.YieldValues {
			fmt.Fprintf(&sb, "    yield %s\n", renderExpr(s, v))
		}
		for _, v := range d.Decorators {
			fmt.Fprintf(&sb, "    @%s\n", renderExpr(s, v))
		}
	}
	return sb.String()
}

// renderExpr writes expression e back as text: sym NAME, A.name,
// call(A, args), lit TYPE VALUE, A[args], oper(OP, A, B), displays,
// comp/iter/unpack/enter/await/if/lambda(...), text "...", ? unknown.
func renderExpr(s *navindex.Summary, e int32) string {
	if e < 0 || int(e) >= len(s.Exprs) {
		return "?"
	}
	x := s.Exprs[e]
	r := func(v int32) string { return renderExpr(s, v) }
	args := func() string {
		var parts []string
		off := len(x.Args) - len(x.Keys)
		for i, a := range x.Args {
			p := r(a)
			if i >= off {
				switch k := x.Keys[i-off]; k {
				case "":
				case "*", "**":
					p = k + p
				default:
					p = k + "=" + p
				}
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, ", ")
	}
	switch x.Op {
	case navindex.ExprSym:
		y := s.Syms[x.A]
		switch y.Kind {
		case navindex.SymBuiltin:
			return "builtin " + y.Name
		case navindex.SymImport:
			return "import " + strings.Repeat(".", int(y.Level)) + y.Module + ":" + y.Name
		case navindex.SymUnresolved:
			return "unresolved " + y.Name
		}
		return "sym " + y.Name
	case navindex.ExprAttr:
		return r(x.A) + "." + x.Name
	case navindex.ExprCall:
		return "call(" + r(x.A) + ", [" + args() + "])"
	case navindex.ExprSuper:
		return "super(" + s.Syms[x.A].Name + ")"
	case navindex.ExprLit:
		return "lit " + x.Name + " " + x.Text
	case navindex.ExprSubscript:
		return r(x.A) + "[" + args() + "]"
	case navindex.ExprOper:
		if x.B < 0 {
			return "(" + x.Name + " " + r(x.A) + ")"
		}
		return "(" + r(x.A) + " " + x.Name + " " + r(x.B) + ")"
	case navindex.ExprDisplay:
		return x.Name + "{" + args() + "}"
	case navindex.ExprComp:
		if x.B >= 0 {
			return "comp " + x.Name + "(" + r(x.A) + ": " + r(x.B) + ")"
		}
		return "comp " + x.Name + "(" + r(x.A) + ")"
	case navindex.ExprIter:
		return strings.TrimSpace("iter "+x.Name) + "(" + r(x.A) + ")"
	case navindex.ExprUnpack:
		return fmt.Sprintf("unpack%s(%s, %d of %s)", x.Name, r(x.A), x.B, x.Text)
	case navindex.ExprEnter:
		return strings.TrimSpace("enter "+x.Name) + "(" + r(x.A) + ")"
	case navindex.ExprAwait:
		return "await(" + r(x.A) + ")"
	case navindex.ExprIf:
		return "if(" + r(x.A) + ", " + r(x.B) + ")"
	case navindex.ExprLambda:
		if x.B >= 0 {
			return "lambda(" + strings.Join(x.Lists().Keys, ", ") + ": " + r(x.A) + ")"
		}
		return "lambda(" + r(x.A) + ")"
	case navindex.ExprText:
		return fmt.Sprintf("text %q", x.Text)
	}
	return "op?"
}

// TestStaticSymValue: a symbol's value (v4, what navigation follows)
// comes from its first binding in a branch that runs for the target.
func TestStaticSymValue(t *testing.T) {
	src, err := os.ReadFile("testdata/static.pyi")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		minor int
		want  string
	}{{11, "builtin str"}, {13, "builtin int"}} {
		s := Summarize(parsertest.Tree(t, src), Options{IsStub: true, PythonMinor: c.minor})
		got := ""
		for _, y := range s.Syms {
			if y.Kind == navindex.SymLocal && y.Name == "V" {
				got = renderExpr(s, y.Value)
			}
		}
		if got != c.want {
			t.Errorf("3.%d: V's value is %s, want %s", c.minor, got, c.want)
		}
	}
}
