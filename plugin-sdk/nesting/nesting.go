// Package nesting finds where a Python file nests deeper than CPython
// accepts, or deeper than analyzers may safely walk, so that a guest
// refuses such a file before any recursive analysis touches its tree.
//
// Two checks, both linear and without recursion:
//
//   - Lexical mirrors the limits of CPython's tokenizer: more than 200
//     open brackets, more than 99 indentation levels, more than 149
//     nested f-strings. It answers with CPython's message at CPython's
//     position, the most useful answer a user can get (it is what
//     `python -c "compile(...)"` says).
//   - Tree bounds the depth of the syntax tree at MaxTreeDepth, for the
//     inputs that pass the tokenizer but nest through operators instead
//     (`not not ... x`, `a if b else ...` chains, `- - - x`, lambdas,
//     `a.b.c...`, long `+` chains, chained subscripts over many lines).
//     CPython refuses those too, from its parser or compiler (recursion
//     limits at a few thousand levels).
//
// The SDK runs Check on every file it decodes a tree for (see
// File.TooDeep in package sdk) and withholds the tree of a file that
// fails, so every recursive walk in a Go guest only ever sees trees at
// most MaxTreeDepth deep.
package nesting

import "github.com/pyws/pyws/plugin-sdk/tree"

// CPython's tokenizer limits (Parser/tokenizer.h, CPython 3.12).
const (
	// MaxBrackets is MAXLEVEL: the 201st open bracket is refused.
	MaxBrackets = 200
	// MaxIndent is how many indentation levels CPython accepts: its
	// MAXINDENT is 100 and it refuses the level that would reach it.
	MaxIndent = 99
	// MaxFStrings is how many f-strings may be open inside each other
	// (MAXFSTRINGLEVEL 150, refused at 150 as for indentation).
	MaxFStrings = 149
)

// MaxTreeDepth is the deepest syntax tree a guest analyses, counted in
// nodes from the root (the module is depth 1). Black and pyflakes, the
// tools our formatter and rules follow, recurse once or more per level in
// Python, whose default recursion limit is 1,000, so they fail on deeper
// trees; code within CPython's tokenizer limits stays far below it (200
// brackets and 99 indentation levels make well under 1,000 levels).
const MaxTreeDepth = 1000

// CPython's messages for the same limits.
const (
	MessageBrackets  = "too many nested parentheses"
	MessageIndent    = "too many levels of indentation"
	MessageFStrings  = "too many nested f-strings"
	MessageTreeDepth = "source too complex to analyze: syntax nested more than 1000 levels deep"
)

// Excess is the first place where a file goes past a limit.
type Excess struct {
	// Start and End are byte offsets in the source: the bracket or
	// f-string start that opens one level too many, the indentation of
	// the line that is one level too deep, or the first token of the
	// first node too deep in the tree.
	Start, End int
	Message    string
}

// lexicalGate is the tree depth from which Check runs Lexical on a tree
// without errors. In such a tree every pair of brackets is a node holding
// the pairs inside it (40 bracket forms checked: parentheses, calls,
// subscripts, comprehensions, f-string fields, patterns, parameters...),
// each indentation level a block in a statement and each f-string a
// string holding an interpolation, so a tree shallower than 100 is within
// all three tokenizer limits, with a margin of two brackets per node.
// Lexical costs about 4 ms for a 5,000-line file in a wasm guest (Go
// compiled to wasm reads bytes ten times slower than natively), a tenth
// of a diagnostics call, while the tree's depth comes free with decoding;
// real trees are about 30 deep, so Lexical rarely runs on valid code. It
// always runs on trees with errors, where error recovery may flatten
// brackets.
const lexicalGate = MaxBrackets / 2

// Check reports the first place where a file goes past a limit: CPython's
// tokenizer limits (Lexical), then MaxTreeDepth (Tree). Without a tree it
// runs Lexical alone.
func Check(src []byte, t *tree.Tree) (Excess, bool) {
	if t == nil {
		return Lexical(src)
	}
	depth, e, deep := treeDepth(t)
	if deep || depth >= lexicalGate || t.Root().HasError() {
		if le, over := Lexical(src); over {
			return le, true
		}
	}
	return e, deep
}

// treeDepth returns the depth of t and reports its first node deeper
// than MaxTreeDepth.
func treeDepth(t *tree.Tree) (int, Excess, bool) {
	node := t.FirstDeeperThan(MaxTreeDepth)
	if node.IsNull() {
		return t.Depth(), Excess{}, false
	}
	leaf := node
	for c := leaf.FirstChild(); !c.IsNull(); c = c.FirstChild() {
		leaf = c
	}
	return t.Depth(), Excess{Start: node.StartByte(), End: leaf.EndByte(), Message: MessageTreeDepth}, true
}
