// Package black is a Python code formatter whose output is byte-identical
// to Black 23.1's default (stable) style. It works on the source bytes
// and the tree-sitter-python syntax tree the host hands to plugins, and
// uses only the standard library and plugin-sdk, so it compiles to wasm.
package black

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Options mirror Black's mode settings.
type Options struct {
	LineLength              int // 0 means 88
	SkipStringNormalization bool
	SkipMagicTrailingComma  bool
	Preview                 bool // accepted and ignored: only the stable style is implemented
	IsPyi                   bool
	// SkipSelfCheck skips the token self-check (verify) for a caller that
	// checks the result itself: the formatter plugin's kernel compares
	// the result's syntax tree (package equiv's Signature) and comments
	// (equiv.Comments) with the input's, which covers what the self-check
	// does; the self-check was a tenth of the plugin's time in wasm.
	SkipSelfCheck bool
}

// ErrRefused wraps every error Format returns for input it will not
// format (syntax errors, constructs outside what the engine supports).
var ErrRefused = errors.New("black: input refused")

type formatter struct {
	o      *Options
	feat   features
	elt    emptyLineTracker
	blocks []*linesBlock
	// splitWork is the leaves the split transforms have handled for the
	// logical line being emitted, splitBudget their bound (see spend).
	splitWork, splitBudget int
}

// Format returns the whole file formatted as Black would format it.
func Format(src []byte, t *tree.Tree, o Options) (out []byte, err error) {
	if o.LineLength <= 0 {
		o.LineLength = 88
	}
	if t == nil || t.Root().IsNull() {
		return nil, fmt.Errorf("%w: no syntax tree", ErrRefused)
	}
	root := t.Root()
	if root.HasError() {
		return nil, fmt.Errorf("%w: the file has syntax errors", ErrRefused)
	}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *refuseError:
				err = fmt.Errorf("%w: %s", ErrRefused, e.msg)
			case bracketError:
				err = fmt.Errorf("%w: unbalanced brackets", ErrRefused)
			default:
				panic(r)
			}
			out = nil
		}
	}()
	f := &formatter{o: &o}
	f.elt.o = f.o
	f.feat = detectFeatures(root)
	g := &gen{f: f, src: src, text: string(src), parenMode: map[int]int{}, annParenNodes: map[int]bool{}, complexCache: map[int]bool{}}
	g.lineStarts = []int{0}
	for i, b := range src {
		if b == '\n' {
			g.lineStarts = append(g.lineStarts, i+1)
		}
	}
	g.collect(root)
	g.computePrefixes()
	g.line = newLine(f.o, 0, false)
	g.visitModule(root)
	if g.cur != len(g.toks) {
		return nil, fmt.Errorf("%w: %d tokens not visited", ErrRefused, len(g.toks)-g.cur)
	}

	newline := "\n"
	if i := strings.IndexByte(string(src), '\n'); i > 0 && src[i-1] == '\r' {
		newline = "\r\n"
	}
	if len(f.blocks) == 0 {
		if strings.ContainsAny(string(src), "\n\r") {
			return []byte(newline), nil
		}
		return []byte{}, nil
	}
	f.blocks[len(f.blocks)-1].after = 0
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	for _, blk := range f.blocks {
		for i := 0; i < blk.before; i++ {
			b.WriteString("\n")
		}
		for _, c := range blk.content {
			b.WriteString(c)
		}
		for i := 0; i < blk.after; i++ {
			b.WriteString("\n")
		}
	}
	res := b.String()
	// Identical text has identical tokens: most files Black leaves alone
	// skip the self-check's two scans.
	if !o.SkipSelfCheck && res != g.text && !verify(g.text, res) {
		return nil, fmt.Errorf("%w: self-check failed: the output's tokens differ from the input's", ErrRefused)
	}
	if newline != "\n" {
		res = strings.ReplaceAll(res, "\n", newline)
	}
	return []byte(res), nil
}

// emit takes one logical line from the generator.
func (f *formatter) emit(ln *line) {
	blk := f.elt.maybeEmptyLines(ln)
	f.blocks = append(f.blocks, blk)
	f.splitWork, f.splitBudget = 0, splitBudgetBase+splitBudgetPerLeaf*len(ln.leaves)
	for _, l := range f.transformLine(ln, f.feat) {
		blk.content = append(blk.content, l.String())
	}
}

// detectFeatures finds the syntax that restricts the target versions
// Black infers, which decides whether it may add trailing commas after
// *args and **kwargs.
func detectFeatures(root tree.Node) features {
	any := false
	onlyCallComma := true
	mark := func(callComma bool) {
		any = true
		if !callComma {
			onlyCallComma = false
		}
	}
	root.Walk(func(n tree.Node) bool {
		switch n.Kind() {
		case "string":
			v := string(n.Text())
			if len(v) >= 2 {
				switch v[:2] {
				case `f"`, `F"`, `f'`, `F'`, "rf", "fr", "RF", "FR":
					mark(false)
				}
			}
			return false
		case "integer", "float":
			if strings.Contains(string(n.Text()), "_") {
				mark(false)
			}
		case "positional_separator":
			mark(false)
		case ":=":
			mark(false)
		case "match_statement":
			mark(false)
		case "decorator":
			if !simpleDecorator(n) {
				mark(false)
			}
		case "argument_list", "parameters":
			cs := kids(n)
			if len(cs) >= 2 && cs[len(cs)-2].Kind() == "," {
				star := false
				for _, c := range cs {
					switch c.Kind() {
					case "list_splat", "dictionary_splat", "list_splat_pattern", "dictionary_splat_pattern", "keyword_separator":
						star = true
					}
				}
				if star {
					mark(n.Kind() == "argument_list")
				}
			}
		case "return_statement", "yield":
			for _, c := range kids(n) {
				if c.Kind() == "expression_list" {
					for _, x := range kids(c) {
						if x.Kind() == "list_splat" {
							mark(false)
						}
					}
				}
			}
		case "assignment":
			if !n.ChildByField("type").IsNull() && n.ChildByField("right").Kind() == "expression_list" {
				mark(false)
			}
		case "except_clause", "except_group_clause":
			for _, c := range kids(n) {
				if c.Kind() == "*" {
					mark(false)
				}
			}
		case "with_clause":
			cs := kids(n)
			if len(cs) > 0 && cs[0].Kind() == "(" {
				mark(false)
			}
		case "subscript":
			for _, c := range kids(n) {
				if c.Kind() == "list_splat" {
					mark(false)
				}
			}
		case "future_import_statement":
			for d := range n.Descendants() {
				if d.Kind() == "identifier" && string(d.Text()) == "annotations" {
					mark(false)
				}
			}
		}
		return true
	})
	return features{commaInCall: any, commaInDef: any && !onlyCallComma}
}

func simpleDecorator(d tree.Node) bool {
	cs := kids(d)
	if len(cs) < 2 {
		return true
	}
	e := cs[1]
	if e.Kind() == "call" {
		e = e.ChildByField("function")
	}
	for {
		switch e.Kind() {
		case "identifier":
			return true
		case "attribute":
			if e.ChildByField("attribute").Kind() != "identifier" {
				return false
			}
			e = e.ChildByField("object")
		default:
			return false
		}
	}
}
