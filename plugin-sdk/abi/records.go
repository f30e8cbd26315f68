package abi

// Position is 0-based; Character counts UTF-16 code units (see package
// textpos).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is half-open: End is the position just after the last character.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a file named by a file:// URI.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// TextEdit replaces Range with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// CodeAction is the fix of one diagnostic as the diagnostics plugin
// answers get_code_actions; the kernel serves it as a quickfix action.
type CodeAction struct {
	Title       string     `json:"title"`
	Diagnostic  Diagnostic `json:"diagnostic"`
	Edits       []TextEdit `json:"edits"`
	IsPreferred bool       `json:"isPreferred,omitempty"`
}

// Severity levels of a Diagnostic.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// EngineName is the constant in Diagnostic.Source.
const EngineName = "pyws"

// Diagnostic is one finding in a file.
type Diagnostic struct {
	Range    Range  `json:"range"`
	Severity int    `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Source   string `json:"source"`
}
