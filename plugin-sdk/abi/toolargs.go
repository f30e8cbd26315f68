package abi

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
	Pyi                     bool     `json:"pyi,omitempty"`
	TabSize                 int      `json:"tabSize"`
	InsertSpaces            bool     `json:"insertSpaces"`
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
