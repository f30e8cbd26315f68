// Command formatter is the analyzer plugin behind format_document: isort
// (profile black, package isort) then Black (package black), plus the
// checks the kernel needs to trust the result. It never sees the
// filesystem: the kernel sends the source (the worker parses it into a
// tree) and the configuration it resolved (options, pyproject.toml, the
// workspace's first-party names), and turns the final text into edits.
//
// One tool, four phases, chosen by the kernel (host/service/format.go,
// and host/service/codeactions.go for organize imports):
//
//   - "format": the original source. PARSE_ERROR if its tree has errors.
//     Returns the source's equivalence signature, and isort's output; when
//     isort changed nothing, Black runs at once on the original tree and
//     the result is final (needsBlack false), with the digest of the
//     comments of Black's input (comments). Otherwise Black needs the
//     tree of isort's output, which only the worker can parse: needsBlack
//     is true and the kernel sends that text back in phase "black".
//   - "black": isort's output, with its tree: returns Black's output and
//     the digest of its input's comments.
//   - "check": a candidate result, with its tree: returns its signature
//     (the kernel compares it with the original's), its comments' digest
//     (compared with Black's input's: the signature forgets comments, and
//     Black runs without its own token self-check) and whether it parses;
//     with tabSize/insertSpaces other than Black's 4 spaces, also the text
//     re-indented in the requested unit (which the kernel checks again).
//   - "isort": the original source: isort's output alone (get_code_actions'
//     source.organizeImports) and the source's signature, for the kernel
//     to check that output in phase "check"; parseError, not an error,
//     when the source does not parse (then there is nothing to offer).
//
// Black is plugins/formatter/black, reached through formatBlack so tests
// can swap engines.
package main

import (
	"fmt"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"

	"github.com/pyws/pyws/plugins/formatter/equiv"
	"github.com/pyws/pyws/plugins/formatter/isort"
)

func init() { sdk.Serve(handle) }

func main() {}

// Config is what the kernel resolved for this file (request options over
// pyproject.toml over defaults); the wire type is shared with the kernel.
type Config = abi.FormatConfig

// Args is the plugin's argument object.
type Args struct {
	URI    string `json:"uri"`
	Phase  string `json:"phase"`
	Config Config `json:"config"`
}

// Result is every phase's answer; unused fields are omitted.
type Result struct {
	Text       *string    `json:"text,omitempty"`
	NeedsBlack bool       `json:"needsBlack,omitempty"`
	Signature  *equiv.Sig `json:"signature,omitempty"`
	// ParseError is set in phase "check" when the candidate does not parse.
	ParseError *Position `json:"parseError,omitempty"`
	// IsortSkipped explains why isort left the file alone, when it failed.
	IsortSkipped string `json:"isortSkipped,omitempty"`
	// Comments is equiv.Comments of Black's input (phases "format" when
	// Black ran, and "black") or of the candidate (phase "check").
	Comments string `json:"comments,omitempty"`
}

// Position is a 0-based line and UTF-16 character.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

func handle(req *sdk.Request) (any, error) {
	var a Args
	if err := req.DecodeArguments(&a); err != nil {
		return nil, err
	}
	if len(req.Files) != 1 {
		return nil, sdk.Errorf("INVALID_PARAMETER", nil, "format_document takes exactly one file, got %d", len(req.Files))
	}
	f := req.Files[0]
	if f.TooDeep != nil {
		return refuseNesting(a, f.Source, *f.TooDeep)
	}
	return run(a, f.Source, f.Tree)
}

// refuseNesting answers for a file the SDK refused for its nesting
// (sdk.File.TooDeep) as run answers for a syntax error, at CPython's
// position with CPython's message.
func refuseNesting(a Args, src []byte, e nesting.Excess) (*Result, error) {
	line, char := textpos.New(src).Position(e.Start)
	pos := Position{Line: line, Character: char}
	switch a.Phase {
	case "format":
		return nil, sdk.Errorf("PARSE_ERROR", map[string]any{"uri": a.URI, "line": line, "character": char},
			"%s has a syntax error at line %d, character %d: %s; fix it before formatting", a.URI, line+1, char+1, e.Message)
	case "black":
		return nil, unsafe(a, fmt.Sprintf("isort's output is refused (line %d, character %d): %s", line+1, char+1, e.Message))
	case "check", "isort":
		return &Result{ParseError: &pos}, nil
	}
	return nil, sdk.Errorf("INVALID_PARAMETER", map[string]any{"phase": a.Phase}, "unknown formatter phase %q", a.Phase)
}

// run is the plugin's work, separate from the SDK so tests call it
// natively.
func run(a Args, src []byte, t *tree.Tree) (*Result, error) {
	if t == nil {
		return nil, sdk.Errorf("PARSE_ERROR", map[string]any{"uri": a.URI}, "no syntax tree for %s", a.URI)
	}
	switch a.Phase {
	case "format":
		if pos, ok := firstError(t, src); ok {
			return nil, sdk.Errorf("PARSE_ERROR", map[string]any{"uri": a.URI, "line": pos.Line, "character": pos.Character},
				"%s has a syntax error at line %d, character %d; fix it before formatting", a.URI, pos.Line+1, pos.Character+1)
		}
		sig := equiv.Signature(t)
		res := &Result{Signature: &sig}
		sorted, err := isort.Sort(string(src), isortConfig(a.Config))
		if err != nil {
			res.IsortSkipped = err.Error()
		}
		if sorted != string(src) {
			res.Text, res.NeedsBlack = &sorted, true
			return res, nil
		}
		out, err := formatBlack(src, t, a.Config)
		if err != nil {
			return nil, blackFailed(a, err)
		}
		s := string(out)
		res.Text, res.Comments = &s, equiv.Comments(t)
		return res, nil
	case "black":
		if pos, ok := firstError(t, src); ok {
			return nil, unsafe(a, fmt.Sprintf("isort's output does not parse (line %d, character %d)", pos.Line+1, pos.Character+1))
		}
		out, err := formatBlack(src, t, a.Config)
		if err != nil {
			return nil, blackFailed(a, err)
		}
		s := string(out)
		return &Result{Text: &s, Comments: equiv.Comments(t)}, nil
	case "isort":
		if pos, ok := firstError(t, src); ok {
			return &Result{ParseError: &pos}, nil
		}
		sig := equiv.Signature(t)
		sorted, err := isort.Sort(string(src), isortConfig(a.Config))
		res := &Result{Text: &sorted, Signature: &sig}
		if err != nil {
			res.IsortSkipped = err.Error()
		}
		return res, nil
	case "check":
		if pos, ok := firstError(t, src); ok {
			return &Result{ParseError: &pos}, nil
		}
		sig := equiv.Signature(t)
		res := &Result{Signature: &sig, Comments: equiv.Comments(t)}
		if a.Config.TabSize != 4 || !a.Config.InsertSpaces {
			s := reindent(src, t, a.Config.TabSize, a.Config.InsertSpaces)
			res.Text = &s
		}
		return res, nil
	}
	return nil, sdk.Errorf("INVALID_PARAMETER", map[string]any{"phase": a.Phase}, "unknown formatter phase %q", a.Phase)
}

func isortConfig(c Config) isort.Config {
	src := isort.SrcModules(c.SrcDirs)
	for _, n := range c.SrcModules {
		src[n] = true
	}
	return isort.Config{
		LineLength:       c.IsortLineLength,
		KnownFirstParty:  c.KnownFirstParty,
		KnownThirdParty:  c.KnownThirdParty,
		KnownLocalFolder: c.KnownLocalFolder,
		SrcModules:       src,
		Pyi:              c.Pyi,
	}
}

// unsafe is the refusal when the formatter's own output cannot be trusted:
// a formatter bug, not the user's syntax error, so SERVER_UNAVAILABLE.
func unsafe(a Args, reason string) error {
	return sdk.Errorf("SERVER_UNAVAILABLE", map[string]any{"uri": a.URI, "reason": "formatter produced non-equivalent code", "detail": reason},
		"formatting %s was refused: %s; the file was not changed", a.URI, reason)
}

func blackFailed(a Args, err error) error {
	return sdk.Errorf("SERVER_UNAVAILABLE", map[string]any{"uri": a.URI, "reason": "formatter failed", "detail": err.Error()},
		"the formatter could not format %s: %v", a.URI, err)
}

// firstError returns the position of the first ERROR or MISSING node in
// preorder (the start of the first error region).
func firstError(t *tree.Tree, src []byte) (Position, bool) {
	root := t.Root()
	if !root.HasError() {
		return Position{}, false
	}
	var found tree.Node
	root.Walk(func(n tree.Node) bool {
		if !found.IsNull() {
			return false
		}
		if n.IsError() || n.IsMissing() {
			found = n
			return false
		}
		return n.HasError()
	})
	if found.IsNull() {
		found = root
	}
	line, char := textpos.New(src).Position(found.StartByte())
	return Position{Line: line, Character: char}, true
}
