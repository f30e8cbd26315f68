package rules

import (
	_ "embed" // the rules' documentation

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The codes, as the spec's code list names them.
const (
	UndefinedVariable   = "undefined-variable"
	TypeMismatch        = "type-mismatch"
	ImportNotFound      = "import-not-found"
	SyntaxError         = "syntax-error"
	MissingArgument     = "missing-argument"
	UnusedImport        = "unused-import"
	UnusedVariable      = "unused-variable"
	DuplicateImport     = "duplicate-import"
	UnreachableCode     = "unreachable-code"
	Deprecated          = "deprecated"
	MissingTypeHint     = "missing-type-hint"
	ConventionViolation = "convention-violation"
)

// Rule is one diagnostic code as a value: its name and severity, what it
// means (docs/diagnostics.md is generated from the rules), the analysis
// that reports it and, when there is an obvious one, its fix.
type Rule struct {
	Code     string
	Severity int
	// DefaultOn: reported unless disabled in [tool.pyws].
	DefaultOn bool
	// Aliases are pyflakes/ruff/flake8 codes a `# noqa: X` comment may
	// name to suppress this code (a prefix: N8 covers N802).
	Aliases []string
	// TypeCheck: suppressed by `# type: ignore` (what a type checker
	// reports).
	TypeCheck bool
	// ComparedWith names the tool and check that the differential tests
	// (tests/differential/diagnostics) hold the rule to.
	ComparedWith string
	// Doc is the rule's documentation in Markdown, from doc/<code>.md:
	// when it triggers and when it deliberately does not.
	Doc string
	// Bad is Python the rule reports; Good the same intent written so
	// that it does not. TestRuleExamples checks both, and that the rule's
	// fix turns Bad into Good.
	Bad, Good string
	// Fix repairs one finding; nil when no edit is obviously right.
	Fix *Fix
	// pass is the analysis that reports the code; noPass for
	// syntax-error, which package syntax reports before any pass runs
	// (see Run) and which configuration does not turn off.
	pass passID
}

// Fix is a rule's repair of a finding: what get_code_actions will offer as
// a quick fix.
type Fix struct {
	// Title says what the edits do, as a code action names itself.
	Title string
	// Preferred marks a fix a client may apply without asking (LSP's
	// isPreferred): one that cannot change what the code does.
	Preferred bool
	// edits returns the byte edits that repair f, or nil when this
	// finding's surroundings make the repair unsafe.
	edits func(c *checker, f finding) []edit
	// Manual: left out of the fix-all edit, its result still needs the
	// user (placeholders to fill).
	Manual bool
	// importName, when set, names the one import name clause edits
	// removes, so that the fix-all edit can remove all the names of one
	// statement together (fixAll).
	importName func(c *checker, f finding) (name, stmt tree.Node)
}

// passID names one analysis over the semantic model. Some passes report
// more than one code (one walk over the bindings finds unused imports and
// unused variables alike); a pass runs when any of its codes is enabled.
type passID uint8

// The passes, in the order they run. Findings are sorted afterwards, so
// the order only matters for cost: the name passes first, as they ran
// when the rules were an if-chain.
const (
	noPass passID = iota // syntax-error: package syntax, before any pass
	undefinedNames
	unusedBindings
	redefinedImports
	unreachableBlocks
	missingImports
	checkedCalls
	deprecatedUses
	untypedDefs
	badNames
	numPasses
)

// passRuns are the functions of the passes. (Rules names passes by id:
// the functions consult the configuration, which consults Rules, and a
// package variable may not depend on itself.)
var passRuns = [numPasses]func(*checker){
	undefinedNames:    func(c *checker) { c.undefined(); c.typeFindings(UndefinedVariable) },
	unusedBindings:    (*checker).unused,
	redefinedImports:  func(c *checker) { c.duplicates(); c.shadowedImports() },
	unreachableBlocks: (*checker).unreachable,
	missingImports:    (*checker).imports,
	checkedCalls:      func(c *checker) { c.calls(); c.typeFindings(TypeMismatch) },
	deprecatedUses:    (*checker).deprecated,
	untypedDefs:       (*checker).typeHints,
	badNames:          (*checker).naming,
}

// passCodes are the codes each pass reports (from Rules, by init).
var passCodes [numPasses][]string

// The documentation of each rule, in doc/<code>.md (Markdown needs
// backticks, which Go's raw strings cannot hold).
var (
	//go:embed doc/undefined-variable.md
	docUndefinedVariable string
	//go:embed doc/type-mismatch.md
	docTypeMismatch string
	//go:embed doc/import-not-found.md
	docImportNotFound string
	//go:embed doc/syntax-error.md
	docSyntaxError string
	//go:embed doc/missing-argument.md
	docMissingArgument string
	//go:embed doc/unused-import.md
	docUnusedImport string
	//go:embed doc/unused-variable.md
	docUnusedVariable string
	//go:embed doc/duplicate-import.md
	docDuplicateImport string
	//go:embed doc/unreachable-code.md
	docUnreachableCode string
	//go:embed doc/deprecated.md
	docDeprecated string
	//go:embed doc/missing-type-hint.md
	docMissingTypeHint string
	//go:embed doc/convention-violation.md
	docConventionViolation string
)

// Rules is the registry, in the spec's order of the code list (by
// severity). The diagnostics plugin runs it; docs/diagnostics.md is
// generated from it (TestDiagnosticsDoc).
var Rules = []Rule{
	{
		Code: UndefinedVariable, Severity: abi.SeverityError, DefaultOn: true,
		Aliases: []string{"F821", "F822", "F823"}, ComparedWith: "pyflakes F821/F822/F823",
		Doc: docUndefinedVariable,
		Bad: `def size(items):
    return lenght(items)
`,
		Good: `def size(items):
    return len(items)
`,
		pass: undefinedNames,
	},
	{
		Code: TypeMismatch, Severity: abi.SeverityError, DefaultOn: true,
		TypeCheck: true, ComparedWith: "pyright reportArgumentType, reportAssignmentType, reportReturnType",
		Doc: docTypeMismatch,
		Bad: `def repeat(text: str, times: int) -> str:
    return text * times


repeat("a", "3")
`,
		Good: `def repeat(text: str, times: int) -> str:
    return text * times


repeat("a", 3)
`,
		pass: checkedCalls,
	},
	{
		Code: ImportNotFound, Severity: abi.SeverityError, DefaultOn: true,
		TypeCheck: true, ComparedWith: "pyright reportMissingImports",
		Doc: docImportNotFound,
		Bad: `import reqeusts
`,
		Good: `import requests
`,
		pass: missingImports,
	},
	{
		Code: SyntaxError, Severity: abi.SeverityError, DefaultOn: true,
		Aliases: []string{"E999"}, ComparedWith: "CPython",
		Doc: docSyntaxError,
		Bad: `def greet(name:
    print("hello", name)
`,
		Good: `def greet(name):
    print("hello", name)
`,
	},
	{
		Code: MissingArgument, Severity: abi.SeverityError, DefaultOn: true,
		TypeCheck: true, ComparedWith: "pyright reportCallIssue",
		Doc: docMissingArgument,
		Bad: `def area(w: float, h: float) -> float:
    return w * h


area(3)
`,
		Good: `def area(w: float, h: float) -> float:
    return w * h


area(3, h=...)
`,
		Fix:  addMissingArguments,
		pass: checkedCalls,
	},
	{
		Code: UnusedImport, Severity: abi.SeverityWarning, DefaultOn: true,
		Aliases: []string{"F401"}, ComparedWith: "pyflakes F401",
		Doc: docUnusedImport,
		Bad: `import os
import sys

print(sys.argv)
`,
		Good: `import sys

print(sys.argv)
`,
		Fix:  removeUnusedImport,
		pass: unusedBindings,
	},
	{
		Code: UnusedVariable, Severity: abi.SeverityWarning, DefaultOn: true,
		Aliases: []string{"F841"}, ComparedWith: "pyflakes F841",
		Doc: docUnusedVariable,
		Bad: `def compute():
    return 42


def main():
    result = compute()
    print("done")
`,
		Good: `def compute():
    return 42


def main():
    _ = compute()
    print("done")
`,
		Fix:  renameUnusedVariable,
		pass: unusedBindings,
	},
	{
		Code: DuplicateImport, Severity: abi.SeverityWarning, DefaultOn: true,
		Aliases: []string{"F811"}, ComparedWith: "pyflakes F811",
		Doc: docDuplicateImport,
		Bad: `import os
import os

print(os.getcwd())
`,
		Good: `import os

print(os.getcwd())
`,
		Fix:  removeDuplicateImport,
		pass: redefinedImports,
	},
	{
		Code: UnreachableCode, Severity: abi.SeverityWarning, DefaultOn: true,
		ComparedWith: "pyright (unreachable)",
		Doc:          docUnreachableCode,
		Bad: `def double(x):
    return x * 2
    print(x)
`,
		Good: `def double(x):
    print(x)
    return x * 2
`,
		pass: unreachableBlocks,
	},
	{
		Code: Deprecated, Severity: abi.SeverityWarning, DefaultOn: true,
		TypeCheck: true, ComparedWith: "pyright reportDeprecated",
		Doc: docDeprecated,
		Bad: `from datetime import datetime

started = datetime.utcnow()
`,
		Good: `from datetime import datetime, timezone

started = datetime.now(timezone.utc)
`,
		pass: deprecatedUses,
	},
	{
		Code: MissingTypeHint, Severity: abi.SeverityInformation, DefaultOn: true,
		Aliases: []string{"ANN"}, ComparedWith: "mypy `disallow-untyped-defs`, ruff ANN",
		Doc: docMissingTypeHint,
		Bad: `def load(path, strict: bool = False):
    return open(path, "rb").read()
`,
		Good: `def load(path: str, strict: bool = False) -> bytes:
    return open(path, "rb").read()
`,
		pass: untypedDefs,
	},
	{
		Code: ConventionViolation, Severity: abi.SeverityInformation, DefaultOn: true,
		Aliases: []string{"N8"}, ComparedWith: "pep8-naming N8",
		Doc: docConventionViolation,
		Bad: `class http_client:
    def getData(self):
        return None
`,
		Good: `class HttpClient:
    def get_data(self):
        return None
`,
		pass: badNames,
	},
}

func init() {
	for _, r := range Rules {
		if r.pass != noPass {
			passCodes[r.pass] = append(passCodes[r.pass], r.Code)
		}
	}
}

// Lookup returns the rule of code, nil for an unknown code.
func Lookup(code string) *Rule {
	for i := range Rules {
		if Rules[i].Code == code {
			return &Rules[i]
		}
	}
	return nil
}
