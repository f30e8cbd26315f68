// Package rules computes the semantic diagnostics of get_diagnostics for one
// Python file: every code of the service spec's list except syntax-error
// (package syntax). It is pure Go over plugin-sdk/pysem and the syntax
// tree, so it runs inside the wasm plugin and tests natively.
//
// The entry point is Check. What the file alone cannot tell (which modules
// exist in the workspace, what the configured interpreter has installed,
// the signatures of functions imported from other workspace files) comes
// in Env, filled by the kernel (host/service/diagcontext.go). Config is
// the workspace's [tool.pyws] table. Every rule prefers silence to a
// guess: a finding is reported only when the file, Env and the tables in
// this package prove it. Each code is a Rule of the registry (Rules),
// from which docs/diagnostics.md is generated.
package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Env is what the kernel knows about the file's surroundings.
type Env struct {
	// Path is the workspace-relative path (slash-separated).
	Path string
	// ModuleName is the file's dotted module name ("" unknown);
	// IsPackageInit: the file is a package's __init__.py.
	ModuleName    string
	IsPackageInit bool
	// Installed lists the top-level modules importable from the configured
	// interpreter's site-packages (not its standard library); nil when no
	// interpreter is known, and then imports that are neither workspace
	// nor standard-library modules are not reported.
	Installed map[string]bool
	// Imports answers, for the import specs the kernel found in the file
	// (dots for the level, then the dotted module: "os.path", "..pkg.mod",
	// "."), whether the workspace has them: ImportFound, ImportTopOnly or
	// ImportAbsent. An import missing from the map is never reported.
	Imports map[string]int
	// Facts are what is known of the workspace modules the file imports
	// from (ContextModuleFacts), by module name: the signatures of called
	// functions and @deprecated marks.
	Facts map[string]*ModuleFacts
	// TypeFindings are the kernel type evaluator's findings in the file
	// (abi.DiagnosticsContext.TypeFindings), reported under their codes.
	TypeFindings []abi.TypeFinding
}

// Workspace answers for Env.Imports.
const (
	ImportAbsent  = abi.ImportAbsent  // the top-level package is not in the workspace
	ImportTopOnly = abi.ImportTopOnly // the top-level package (or the relative base) is, the module is not
	ImportFound   = abi.ImportFound   // the module is a workspace file or directory
)

// ContextFile is another workspace file, whose facts ContextModuleFacts
// finds.
type ContextFile struct {
	Path          string
	ModuleName    string
	IsPackageInit bool
	Tree          *tree.Tree
}

// finding is one diagnostic before positions are converted.
type finding struct {
	code       string
	start, end int // byte offsets
	msg        string
	// fill are the parameters a missing-argument finding's call leaves
	// unfilled, in order, for its fix; nil when one is positional-only
	// (no keyword can fill it).
	fill []string
	// typeCheck: a type checker's finding whatever its code says (the
	// kernel's type findings), so `# type: ignore` hides it.
	typeCheck bool
}

// checker holds one run.
type checker struct {
	t   *tree.Tree
	src []byte
	m   *pysem.Module
	nk  tree.KindTable // nodeKinds for t
	// blocks is blockKinds for t
	blocks tree.KindTable
	cfg    *Config
	env    *Env
	out    []finding
	// sigs memoizes defSignature for calls, by Binding.Index for m's
	// bindings; ctxSigs the context modules' signatures, by module and
	// name.
	sigs    []memoSig
	ctxSigs map[string]*signature
	// c.on of the codes calls reports, and field ids, set by calls.
	onMissingArgument, onTypeMismatch bool
	fName, fValue                     uint8
	// opaque: string annotations pysem does not tokenize (lazily built)
	opaque []string
}

func (c *checker) on(code string) bool { return c.cfg.Enabled(code) }

func (c *checker) add(code string, start, end int, format string, args ...any) {
	c.addMsg(code, start, end, fmt.Sprintf(format, args...))
}

func (c *checker) addNode(code string, n tree.Node, format string, args ...any) {
	c.add(code, n.StartByte(), n.EndByte(), format, args...)
}

// addMsg is add with the message written: the rules that report the most
// build it by concatenation, cheaper than fmt in the wasm plugin.
func (c *checker) addMsg(code string, start, end int, msg string) {
	if end < start {
		end = start
	}
	c.out = append(c.out, finding{code: code, start: start, end: end, msg: msg})
}

func (c *checker) addNodeMsg(code string, n tree.Node, msg string) {
	c.addMsg(code, n.StartByte(), n.EndByte(), msg)
}

// Check returns the semantic diagnostics of t (whose tree must be free of
// syntax errors: callers report syntax errors instead, see Run), sorted by
// position, with suppression comments applied.
func Check(t *tree.Tree, idx *textpos.Index, cfg Config, env Env) []abi.Diagnostic {
	c := newChecker(t, cfg, env)
	c.runPasses()
	return c.finish(idx, nil)
}

func newChecker(t *tree.Tree, cfg Config, env Env) *checker {
	opts := pysem.Options{
		ModuleName:    env.ModuleName,
		IsPackageInit: env.IsPackageInit,
		IsStub:        strings.HasSuffix(env.Path, ".pyi"),
		PythonMinor:   cfg.PythonMinor,
		// The rules never show a docstring: cleaning each def's and
		// class's was about 5% of a checking call.
		SkipDocstrings: true,
	}
	m := pysem.Analyze(t, opts)
	return &checker{t: t, src: t.Source(), m: m, nk: nodeKinds.Table(t), blocks: blockKinds.Table(t), cfg: &cfg, env: &env}
}

// runPasses runs each pass of the registry that reports an enabled code.
func (c *checker) runPasses() {
	for id := noPass + 1; id < numPasses; id++ {
		if slices.ContainsFunc(passCodes[id], c.on) {
			passRuns[id](c)
		}
	}
}

// finish turns the findings into diagnostics: sorted, deduplicated,
// enabled and not suppressed. When kept is not nil it receives the
// finding of each diagnostic, at the same index.
func (c *checker) finish(idx *textpos.Index, kept *[]finding) []abi.Diagnostic {
	slices.SortStableFunc(c.out, func(a, b finding) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return strings.Compare(a.code, b.code)
	})
	sup := newSuppressions(c.t, idx, c.cfg.IgnoreNoqa)
	res := make([]abi.Diagnostic, 0, len(c.out))
	var prev finding
	for i, f := range c.out {
		if i > 0 && f.code == prev.code && f.start == prev.start && f.end == prev.end && f.msg == prev.msg {
			continue
		}
		prev = f
		if !c.on(f.code) {
			continue
		}
		sl, sc := idx.Position(f.start)
		if sup.active() {
			// A comment on the diagnostic's line, or on the first line of
			// the statement it is in (where flake8 puts import findings).
			if sup.suppressed(sl, f.code, f.typeCheck) {
				continue
			}
			if stl, _ := idx.Position(stmtStart(c.t, f.start)); stl != sl && sup.suppressed(stl, f.code, f.typeCheck) {
				continue
			}
		}
		el, ec := idx.Position(f.end)
		res = append(res, abi.Diagnostic{
			Range:    abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}},
			Severity: Lookup(f.code).Severity,
			Code:     f.code,
			Message:  f.msg,
			Source:   abi.EngineName,
		})
		if kept != nil {
			*kept = append(*kept, f)
		}
	}
	return res
}

// line returns the 1-based line of a byte offset (for messages).
func (c *checker) line(off int) int {
	n := 1
	for _, b := range c.src[:min(off, len(c.src))] {
		if b == '\n' {
			n++
		}
	}
	return n
}

func text(n tree.Node) string { return string(n.Text()) }

// stmtStart returns the start of the innermost simple statement (or the
// header of a compound one) containing off.
func stmtStart(t *tree.Tree, off int) int {
	n := t.Root().DescendantForByteRange(off, off)
	for p := n; !p.IsNull(); p = p.Parent() {
		if pk := p.Parent().Kind(); pk == "block" || pk == "module" {
			return p.StartByte()
		}
		if p.Kind() == "block" {
			break // inside a compound statement's body: its own statements count
		}
	}
	return off
}
