package abi

import "encoding/json"

// Arguments the kernel resolves for the built-in analyzers, beyond the
// spec's own tool arguments. Both sides import these types, so the wire
// contract between host/service and a plugin is written once.

// FormatConfig is the formatter plugin's configuration for one file:
// request options over pyproject.toml ([tool.black], [tool.isort]) over
// defaults, resolved by the kernel.
type FormatConfig struct {
	LineLength              int      `json:"lineLength"`
	IsortLineLength         int      `json:"isortLineLength"`
	SkipStringNormalization bool     `json:"skipStringNormalization,omitempty"`
	SkipMagicTrailingComma  bool     `json:"skipMagicTrailingComma,omitempty"`
	KnownFirstParty         []string `json:"knownFirstParty,omitempty"`
	KnownThirdParty         []string `json:"knownThirdParty,omitempty"`
	KnownLocalFolder        []string `json:"knownLocalFolder,omitempty"`
	SrcModules              []string `json:"srcModules,omitempty"`
	// SrcDirs are the directories isort's default src_paths name (the
	// workspace's src/, then its root) as the kernel's confined reader
	// lists them; the formatter adds the first-party names isort derives
	// from them to SrcModules.
	SrcDirs      []DirListing `json:"srcDirs,omitempty"`
	Pyi          bool         `json:"pyi,omitempty"`
	TabSize      int          `json:"tabSize"`
	InsertSpaces bool         `json:"insertSpaces"`
}

// DirListing is one directory's entries: Name is the directory's own
// base name.
type DirListing struct {
	Name    string     `json:"name"`
	Entries []DirEntry `json:"entries"`
}

// DirEntry is one entry of a DirListing.
type DirEntry struct {
	Name string `json:"name"`
	Dir  bool   `json:"dir,omitempty"`
}

// DiagnosticsContext is the "pyws" argument of get_diagnostics: what the
// kernel knows that one file's tree cannot tell ([tool.pyws] config, the
// target version, the file's module name, importable modules, and which of
// the file's imports the workspace has).
type DiagnosticsContext struct {
	Config        map[string]any `json:"config"`
	PythonVersion string         `json:"pythonVersion,omitempty"`
	Module        string         `json:"module"`
	IsPackageInit bool           `json:"isPackageInit"`
	Installed     []string       `json:"installed"`
	// Imports answers, per imported module spec, ImportAbsent,
	// ImportTopOnly or ImportFound.
	Imports map[string]int `json:"imports"`
	// Context describes the extra files sent with the request (workspace
	// modules the file imports), in request order after the file itself.
	Context []DiagnosticsContextFile `json:"context"`
	// Facts stand in for context modules whose files are not sent: what
	// the plugin reported about them (DiagnosticsResultFacts) on an
	// earlier call, returned verbatim.
	Facts []ContextFacts `json:"facts,omitempty"`
	// TypeFindings are errors the kernel's type evaluator is sure of in
	// the file (an attribute its receiver's class does not have); the
	// plugin reports them under their codes, with its configuration and
	// suppression comments applied.
	TypeFindings []TypeFinding `json:"typeFindings,omitempty"`
	// FactsOnly asks for the facts of the files sent and nothing else:
	// every file, the first included, is a context module described in
	// Context, nothing is checked, and the answer has no diagnostics,
	// only ContextFacts. The kernel asks a module's facts this way so the
	// call goes to the worker that parsed the module (the runtime's
	// affinity follows a call's first file), not to the checked file's.
	FactsOnly bool `json:"factsOnly,omitempty"`
}

// TypeFinding is one error of DiagnosticsContext.TypeFindings, on one
// line; columns in UTF-16 code units.
type TypeFinding struct {
	Line         int    `json:"line"`
	Character    int    `json:"character"`
	EndCharacter int    `json:"endCharacter"`
	Code         string `json:"code"`
	Message      string `json:"message"`
}

// ContextFacts is what the diagnostics plugin keeps of one context module
// (the signatures and deprecation marks of its top-level definitions), in
// the plugin's own JSON format. The plugin returns one for each context
// file it was sent, under "contextFacts" in its result; the kernel keeps
// them by the module's content and sends them back in
// DiagnosticsContext.Facts instead of the file, so a module imported by
// many files is analysed once, not on every call.
type ContextFacts struct {
	Module string          `json:"module"`
	Facts  json.RawMessage `json:"facts"`
}

// DiagnosticsContextFile describes one extra file of a get_diagnostics
// request.
type DiagnosticsContextFile struct {
	Path          string `json:"path"`
	Module        string `json:"module"`
	IsPackageInit bool   `json:"isPackageInit"`
}

// Answers in DiagnosticsContext.Imports.
const (
	ImportAbsent  = 0 // the top-level package is not in the workspace
	ImportTopOnly = 1 // the top-level package is, the module is not
	ImportFound   = 2 // the module is in the workspace
)
