// Package nestingtest generates pathological Python sources, each nesting
// one way, for tests that every analyzer refuses them cleanly, and the
// deepest sources each limit still lets through, for tests that every
// analyzer survives those.
package nestingtest

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// Case is one generated source.
type Case struct {
	Name string
	Src  string
	// Message is the nesting message the source must be refused with, or
	// "" when it must be analysed normally.
	Message string
}

// TooDeep returns one source per kind of nesting, depth levels deep
// (at least nesting.MaxTreeDepth+100, so that every operator chain is
// too deep), each refused with its Message, plus two sources as long
// but flat (an elif chain, a long list) that must be analysed normally.
// Indentation is capped at 300 levels, past CPython's limit without a
// source of depth² bytes.
func TooDeep(depth int) []Case {
	n := max(depth, nesting.MaxTreeDepth+100)
	var cs []Case
	for _, k := range kinds(n, n, min(n, 300), n) {
		k.Message = k.limit
		cs = append(cs, k.Case)
	}
	return append(cs, wide(n)...)
}

// AtLimits returns the same kinds at the deepest each limit accepts: 200
// brackets, 99 indentation levels, 149 f-strings, operator chains a few
// levels short of nesting.MaxTreeDepth. None may be refused, and no
// analyzer may fail on them.
func AtLimits() []Case {
	var cs []Case
	for _, k := range kinds(nesting.MaxBrackets, nesting.MaxFStrings, nesting.MaxIndent, nesting.MaxTreeDepth-10) {
		cs = append(cs, k.Case)
	}
	return append(cs, wide(nesting.MaxTreeDepth)...)
}

type kind struct {
	Case
	limit string
}

// kinds makes each kind with its bracket, f-string and indentation
// counts and operator chain length.
func kinds(brackets, fstrings, indents, chain int) []kind {
	r := strings.Repeat
	var indented strings.Builder
	for i := range indents {
		indented.WriteString(r(" ", i) + "if x:\n")
	}
	indented.WriteString(r(" ", indents) + "pass\n")
	ks := []kind{
		{Case{"parentheses", "x = " + r("(", brackets) + "1" + r(")", brackets) + "\n", ""}, nesting.MessageBrackets},
		{Case{"brackets", "x = " + r("[", brackets) + r("]", brackets) + "\n", ""}, nesting.MessageBrackets},
		{Case{"braces", "x = " + r("{", brackets) + r("}", brackets) + "\n", ""}, nesting.MessageBrackets},
		{Case{"unclosed parentheses", "x = " + r("(", brackets) + "\n", ""}, nesting.MessageBrackets},
		{Case{"calls", "x = " + r("f(", brackets) + r(")", brackets) + "\n", ""}, nesting.MessageBrackets},
		{Case{"indentation", indented.String(), ""}, nesting.MessageIndent},
		{Case{"f-strings", "x = " + r(`f"{`, fstrings-1) + `f"x"` + r(`}"`, fstrings-1) + "\n", ""}, nesting.MessageFStrings},
		{Case{"not", "x = " + r("not ", chain) + "x\n", ""}, nesting.MessageTreeDepth},
		{Case{"conditional expressions", "x = " + r("a if b else ", chain) + "c\n", ""}, nesting.MessageTreeDepth},
		{Case{"unary minus", "x = " + r("-", chain) + "x\n", ""}, nesting.MessageTreeDepth},
		{Case{"lambdas", "x = " + r("lambda: ", chain) + "x\n", ""}, nesting.MessageTreeDepth},
		{Case{"subscripts over lines", "x = a" + r("[\n0]", chain) + "\n", ""}, nesting.MessageTreeDepth},
		{Case{"attributes", "x = a" + r(".b", chain) + "\n", ""}, nesting.MessageTreeDepth},
		{Case{"call chain", "x = a" + r("()", chain) + "\n", ""}, nesting.MessageTreeDepth},
		{Case{"additions", "x = a" + r(" + a", chain) + "\n", ""}, nesting.MessageTreeDepth},
		{Case{"powers", "x = a" + r(" ** a", chain) + "\n", ""}, nesting.MessageTreeDepth},
		{Case{"boolean operators", "x = a" + r(" and a", chain) + "\n", ""}, nesting.MessageTreeDepth},
		{Case{"chained assignment", r("a = ", chain) + "1\n", ""}, nesting.MessageTreeDepth},
	}
	return ks
}

func wide(n int) []Case {
	r := strings.Repeat
	return []Case{
		{Name: "elif chain", Src: "if a:\n    pass\n" + r("elif a:\n    pass\n", n)},
		{Name: "long list", Src: "x = [" + r("a, ", n) + "]\n"},
	}
}

// Call runs handler through the SDK as a guest runs it, on one file
// (deep.py) holding src with its tree from the parser module, and returns
// the response; tb fails when the call cannot be made.
func Call(tb testing.TB, handler sdk.Handler, tool string, args json.RawMessage, src []byte) *abi.Response {
	tb.Helper()
	blob, err := parsertest.Blob(src)
	if err != nil {
		tb.Fatal(err)
	}
	msg, err := abi.EncodeRequest(&abi.Request{Tool: tool, Arguments: args,
		Files: []abi.File{{URI: "file:///w/deep.py", Path: "deep.py", Source: src, Tree: blob}}})
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := abi.DecodeResponse(sdk.HandleMessage(handler, msg))
	if err != nil {
		tb.Fatal(err)
	}
	return resp
}
