package service

import (
	"context"
	"strings"

	"github.com/pyws/pyws/host/tiers"
)

// Kind separates the two families of the spec.
type Kind string

const (
	KindTool     Kind = "tool"
	KindResource Kind = "resource"
)

// Route is an operation's dedicated HTTP path (under /v1).
type Route struct {
	Method string // GET or POST
	Path   string // e.g. /tools/get_hover, /resources/file/*
	// Query means arguments come from the query string (GET routes).
	Query bool
}

// Operation is one row of the table that drives routing, validation,
// rate limiting and the OpenAPI document. Adding a tool is adding a row.
type Operation struct {
	Name    string // tool name, or resource name for resources
	Kind    Kind
	URI     string // resources: the svc:// URI, a prefix when it ends in "/"
	Summary string
	Family  tiers.Family
	Params  []Param
	Routes  []Route
	// Run executes the validated arguments for the caller's session.
	Run func(ctx context.Context, s *Session, a Args) (any, error)
}

var (
	uriParam = Param{Name: "uri", Type: TypeString, Required: true, Doc: "file URI of the form file://<absolute_path>, or a workspace-relative path"}
	position = []Param{
		uriParam,
		{Name: "line", Type: TypeInteger, Required: true, Min: bound(0), Doc: "0-indexed line"},
		{Name: "character", Type: TypeInteger, Required: true, Min: bound(0), Doc: "0-indexed character, in UTF-16 code units"},
	}
)

func withPosition(extra ...Param) []Param {
	return append(append([]Param{}, position...), extra...)
}

// URIs of the resources.
const (
	StructureURI  = "svc://workspace/structure"
	FilesURI      = "svc://workspace/files"
	FileURIPrefix = "svc://file/"
)

// Operations returns the table. Analyzer tools are served by whichever
// plugin claims them, so their Run is the same dispatch.
func Operations() []Operation {
	return []Operation{
		{
			Name: "rename_symbol", Kind: KindTool, Family: tiers.FamilyRename,
			Summary: "Rename a symbol across the workspace; returns edits, never writes.",
			Params:  withPosition(Param{Name: "newName", Type: TypeString, Required: true, Doc: "new identifier"}),
			Routes:  []Route{{Method: "POST", Path: "/tools/rename_symbol"}},
			Run:     runRename,
		},
		{
			Name: "get_references", Kind: KindTool, Family: tiers.FamilyReferences,
			Summary: "Find every reference to the symbol at a position.",
			Params:  withPosition(Param{Name: "includeDeclaration", Type: TypeBoolean, Default: true, Doc: "include the definition"}),
			Routes:  []Route{{Method: "POST", Path: "/tools/get_references"}},
			Run:     runReferences,
		},
		{
			Name: "get_definition", Kind: KindTool, Family: tiers.FamilyAnalysis,
			Summary: "Find where the symbol at a position is defined.",
			Params:  withPosition(),
			Routes:  []Route{{Method: "POST", Path: "/tools/get_definition"}},
			Run:     runDefinition,
		},
		{
			Name: "get_hover", Kind: KindTool, Family: tiers.FamilyAnalysis,
			Summary: "Signature and documentation of the symbol at a position.",
			Params:  withPosition(),
			Routes:  []Route{{Method: "POST", Path: "/tools/get_hover"}},
			Run:     runHover,
		},
		{
			Name: "get_diagnostics", Kind: KindTool, Family: tiers.FamilyAnalysis,
			Summary: "Errors, warnings and hints for a file.",
			Params: []Param{uriParam, {Name: "severity", Type: TypeString,
				Enum: []string{"error", "warning", "information", "hint"}, Doc: "only diagnostics of this severity"}},
			Routes: []Route{{Method: "POST", Path: "/tools/get_diagnostics"}},
			Run:    runDiagnostics,
		},
		{
			Name: "format_document", Kind: KindTool, Family: tiers.FamilyFormat,
			Summary: "Edits that format a file (Black style, isort imports); never writes.",
			// options is Raw: runFormat validates it and answers INVALID_OPTIONS.
			Params: []Param{uriParam, {Name: "options", Type: TypeObject, Default: Args{}, Raw: true, Fields: []Param{
				{Name: "tabSize", Type: TypeInteger, Min: bound(1), Max: bound(16), Doc: "spaces per indentation level (default 4)"},
				{Name: "insertSpaces", Type: TypeBoolean, Doc: "spaces instead of tabs (default true)"},
				{Name: "lineLength", Type: TypeInteger, Min: bound(1), Max: bound(1000), Doc: "maximum line length (default 88)"},
			}}},
			Routes: []Route{{Method: "POST", Path: "/tools/format_document"}},
			Run:    runFormat,
		},
		{
			Name: "apply_workspace_edit", Kind: KindTool, Family: tiers.FamilyEdit,
			Summary: "Apply edits to one or more files, atomically.",
			Params: []Param{
				{Name: "edit", Type: TypeObject, Required: true, Doc: "{changes: {<file_uri>: [TextEdit]}}, or the changes map itself"},
				{Name: "label", Type: TypeString, Doc: "description of the edit"},
			},
			Routes: []Route{{Method: "POST", Path: "/tools/apply_workspace_edit"}},
			Run:    runApplyEdit,
		},
		{
			Name: "health_check", Kind: KindTool, Family: tiers.FamilyHealthCheck,
			Summary: "Server and workspace health; never rate limited.",
			Params: []Param{
				{Name: "includeWorkspace", Type: TypeBoolean, Default: true},
				{Name: "includeMetrics", Type: TypeBoolean, Default: false},
			},
			Routes: []Route{{Method: "GET", Path: "/tools/health_check", Query: true}, {Method: "POST", Path: "/tools/health_check"}},
			Run:    runHealth,
		},
		{
			Name: "structure", Kind: KindResource, URI: StructureURI, Family: tiers.FamilyStructure,
			Summary: "Hierarchical view of the workspace.",
			Params: []Param{
				{Name: "uri", Type: TypeString, Default: StructureURI},
				{Name: "maxDepth", Type: TypeInteger, Default: 10, Min: bound(1), Max: bound(20)},
				{Name: "includeHidden", Type: TypeBoolean, Default: false},
				{Name: "excludePatterns", Type: TypeStringArray},
				{Name: "includeMetadata", Type: TypeBoolean, Default: true},
			},
			Routes: []Route{{Method: "GET", Path: "/resources/structure", Query: true}},
			Run:    runStructure,
		},
		{
			Name: "files", Kind: KindResource, URI: FilesURI, Family: tiers.FamilyListFiles,
			Summary: "Python files of the workspace with metadata.",
			Params: []Param{
				{Name: "uri", Type: TypeString, Default: FilesURI},
				{Name: "filter", Type: TypeString, Doc: "glob; ** crosses directories; a leading ! excludes"},
				{Name: "includeTests", Type: TypeBoolean, Default: true},
				{Name: "excludePatterns", Type: TypeStringArray},
			},
			Routes: []Route{{Method: "GET", Path: "/resources/files", Query: true}},
			Run:    runListFiles,
		},
		{
			Name: "file", Kind: KindResource, URI: FileURIPrefix, Family: tiers.FamilyReadFile,
			Summary: "Contents of one file.",
			Params: []Param{
				{Name: "uri", Type: TypeString, Required: true, Doc: "svc://file/{path}, path relative to the workspace root"},
				{Name: "encoding", Type: TypeString, Default: "utf-8"},
				{Name: "includeMetadata", Type: TypeBoolean, Default: true},
				{Name: "lineRange", Type: TypeObject, Fields: []Param{
					{Name: "start", Type: TypeInteger, Required: true, Min: bound(0)},
					{Name: "end", Type: TypeInteger, Required: true, Min: bound(0)},
				}, Doc: "inclusive 0-indexed line range"},
			},
			Routes: []Route{{Method: "GET", Path: "/resources/file/*", Query: true}},
			Run:    runReadFile,
		},
	}
}

// Table indexes the operations by tool name and by resource URI.
type Table struct {
	ops   []Operation
	tools map[string]*Operation
}

// NewTable builds the lookup table from ops.
func NewTable(ops []Operation) *Table {
	t := &Table{ops: ops, tools: map[string]*Operation{}}
	for i := range t.ops {
		if t.ops[i].Kind == KindTool {
			t.tools[t.ops[i].Name] = &t.ops[i]
		}
	}
	return t
}

// All returns the operations in table order.
func (t *Table) All() []Operation { return t.ops }

// Tool returns the tool named name.
func (t *Table) Tool(name string) (*Operation, bool) {
	op, ok := t.tools[name]
	return op, ok
}

// ToolNames lists the tools in table order.
func (t *Table) ToolNames() []string {
	var names []string
	for _, op := range t.ops {
		if op.Kind == KindTool {
			names = append(names, op.Name)
		}
	}
	return names
}

// Resource returns the resource serving uri.
func (t *Table) Resource(uri string) (*Operation, bool) {
	for i := range t.ops {
		op := &t.ops[i]
		if op.Kind != KindResource {
			continue
		}
		if op.URI == uri || (strings.HasSuffix(op.URI, "/") && strings.HasPrefix(uri, op.URI) && len(uri) > len(op.URI)) {
			return op, true
		}
	}
	return nil, false
}

// ResourceURIs lists the resource URIs (templates shown with {path}).
func (t *Table) ResourceURIs() []string {
	var uris []string
	for _, op := range t.ops {
		if op.Kind == KindResource {
			u := op.URI
			if strings.HasSuffix(u, "/") {
				u += "{path}"
			}
			uris = append(uris, u)
		}
	}
	return uris
}
