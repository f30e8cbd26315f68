package service

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
)

// Operation is one row of the table: its spec (toolspec.Spec: name,
// arguments, result, family, faults, plugin, routes) and its handler.
// See docs/architecture.md, "Adding a tool".
type Operation struct {
	toolspec.Spec
	// Run executes the validated arguments for the caller's session.
	Run func(ctx context.Context, s *Session, a toolspec.Args) (any, error)
}

var (
	uriParam = toolspec.Param{Name: "uri", Type: toolspec.TypeString, Required: true, Doc: "file URI of the form file://<absolute_path>, or a workspace-relative path"}
	// position addresses a symbol by where it is, or (symbolParam) by name.
	position = []toolspec.Param{
		{Name: "uri", Type: toolspec.TypeString, Doc: uriParam.Doc + "; with symbol: the module a relative name is in"},
		{Name: "line", Type: toolspec.TypeInteger, Min: toolspec.Bound(0), Doc: "0-indexed line"},
		{Name: "character", Type: toolspec.TypeInteger, Min: toolspec.Bound(0), Doc: "0-indexed character, in UTF-16 code units"},
		{Name: "symbol", Type: toolspec.TypeString, Doc: "dotted name instead of a position: package.module.Class.method, a module (package.module), or a name relative to uri's module"},
	}
	// atPosition is a position alone, for the tools whose answer depends
	// on the text around it (what may be written there, the call it is in):
	// a symbol's declaration is not such a place.
	atPosition = []toolspec.Param{
		uriParam,
		{Name: "line", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0), Doc: "0-indexed line"},
		{Name: "character", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0), Doc: "0-indexed character, in UTF-16 code units"},
	}
	positionOrSymbol  = []toolspec.Choice{{Params: []string{"line", "character"}, Needs: []string{"uri"}}, {Params: []string{"symbol"}}}
	contextLinesParam = toolspec.Param{Name: "contextLines", Type: toolspec.TypeInteger, Default: 0, Min: toolspec.Bound(0), Max: toolspec.Bound(maxContextLines),
		Doc: "source lines to return around each location (context: the lines before, the location's own, the lines after)"}
	limitParam = toolspec.Param{Name: "limit", Type: toolspec.TypeInteger, Default: 50, Min: toolspec.Bound(1), Max: toolspec.Bound(1000), Doc: "at most this many results; totalCount and truncated say what was left out"}
)

func withPosition(extra ...toolspec.Param) []toolspec.Param {
	return append(append([]toolspec.Param{}, position...), extra...)
}

// Codes a tool reading one Python file of the workspace can answer
// (readPython), and one reading a position in it (checkPosition).
var (
	fileFaults     = []string{fault.FileNotFound, fault.PermissionDenied, fault.FileTooLarge, fault.EncodingError, fault.InvalidPython}
	positionFaults = append(slices.Clip(fileFaults), fault.InvalidPosition)
)

func faults(groups ...[]string) []string { return slices.Concat(groups...) }

// URIs of the resources.
const (
	StructureURI  = "svc://workspace/structure"
	FilesURI      = "svc://workspace/files"
	FileURIPrefix = "svc://file/"
)

// Operations returns the table.
func Operations() []Operation {
	return []Operation{
		{Spec: toolspec.Spec{
			Name: "rename_symbol", Kind: toolspec.KindTool, Family: tiers.FamilyRename,
			Description: "Rename a symbol across the workspace; returns edits, never writes.",
			Params:      withPosition(toolspec.Param{Name: "newName", Type: toolspec.TypeString, Required: true, Doc: "new identifier"}),
			OneOf:       positionOrSymbol,
			Result:      reflect.TypeFor[RenameResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotIndexed, fault.Timeout,
				fault.NoSymbolFound, fault.InvalidName, fault.NameConflict, fault.CannotRename}),
			Plugin: IndexTool, Health: true,
		}, Run: runRename},
		{Spec: toolspec.Spec{
			Name: "get_references", Kind: toolspec.KindTool, Family: tiers.FamilyReferences,
			Description: "Find every reference to the symbol at a position.",
			Params: withPosition(toolspec.Param{Name: "includeDeclaration", Type: toolspec.TypeBoolean, Default: true, Doc: "include the definition"},
				contextLinesParam),
			OneOf:  positionOrSymbol,
			Result: reflect.TypeFor[LocationsResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotIndexed, fault.Timeout, fault.NoSymbolFound}),
			Plugin: IndexTool, Health: true,
		}, Run: runReferences},
		{Spec: toolspec.Spec{
			Name: "get_definition", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Find where the symbol at a position is defined.",
			Params:      withPosition(contextLinesParam),
			OneOf:       positionOrSymbol,
			Result:      reflect.TypeFor[LocationsResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout,
				fault.NoDefinitionFound, fault.ExternalDefinition, fault.NoSymbolFound}),
			Plugin: IndexTool, Health: true,
		}, Run: runDefinition},
		{Spec: toolspec.Spec{
			Name: "get_type_definition", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Find the class (or classes, for a union) of the value at a position.",
			Params:      withPosition(),
			OneOf:       positionOrSymbol,
			Result:      reflect.TypeFor[TypeDefinitionResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout,
				fault.NoDefinitionFound, fault.ExternalDefinition, fault.NoSymbolFound}),
			Plugin: IndexTool, Health: true,
		}, Run: runTypeDefinition},
		{Spec: toolspec.Spec{
			Name: "get_completions", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Names that may be written at a position, best first: members after `x.`, names in scope, modules after import; works while the file does not parse.",
			Params: append(slices.Clip(atPosition), toolspec.Param{Name: "limit", Type: toolspec.TypeInteger, Default: defaultCompletions,
				Min: toolspec.Bound(1), Max: toolspec.Bound(maxCompletions), Doc: "most items returned"}),
			Result: reflect.TypeFor[CompletionsResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout}),
			Plugin: IndexTool, Health: true,
		}, Run: runCompletions},
		{Spec: toolspec.Spec{
			Name: "get_hover", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Signature and documentation of the symbol at a position.",
			Params:      withPosition(),
			OneOf:       positionOrSymbol,
			Result:      reflect.TypeFor[HoverResult](),
			Faults:      faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.NoHoverInfo, fault.NoSymbolFound}),
			Plugin:      IndexTool, Health: true,
		}, Run: runHover},
		{Spec: toolspec.Spec{
			Name: "get_signature_help", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Signatures of the call whose arguments hold a position, with the active signature and parameter.",
			Params:      atPosition,
			Result:      reflect.TypeFor[SignatureHelpResult](),
			Faults:      faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout}),
			Plugin:      IndexTool, Health: true,
		}, Run: runSignatureHelp},
		{Spec: toolspec.Spec{
			Name: "find_symbols", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Search the workspace's classes, functions, methods and variables by name: prefix, camel/snake-case humps, substring; best first.",
			Params: []toolspec.Param{
				{Name: "query", Type: toolspec.TypeString, Required: true, Doc: "part of a name: a prefix (get_), humps (gcd for get_call_depth, HTTPConn), or a substring"},
				{Name: "kind", Type: toolspec.TypeString, Enum: index.SymbolKinds, Doc: "only symbols of this kind"},
				limitParam,
			},
			Result: reflect.TypeFor[FindSymbolsResult](),
			Faults: []string{fault.WorkspaceNotIndexed, fault.Timeout},
			Plugin: IndexTool, Health: true,
		}, Run: runFindSymbols},
		{Spec: toolspec.Spec{
			Name: "get_document_symbols", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Outline of a file: classes with their methods and attributes, functions, module variables, with one-line signatures.",
			Params: []toolspec.Param{uriParam, {Name: "limit", Type: toolspec.TypeInteger, Default: 1000, Min: toolspec.Bound(1), Max: toolspec.Bound(10000),
				Doc: "at most this many symbols, in document order (parents first); totalCount and truncated say what was left out"}},
			Result: reflect.TypeFor[DocumentSymbolsResult](),
			Faults: faults(fileFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout}),
			Plugin: IndexTool, Health: true,
		}, Run: runDocumentSymbols},
		{Spec: toolspec.Spec{
			Name: "get_call_hierarchy", Kind: toolspec.KindTool, Family: tiers.FamilyReferences,
			Description: "Callers (incoming) or callees (outgoing) of a function, method or class, with the call sites, depth levels deep.",
			Params: withPosition(
				toolspec.Param{Name: "direction", Type: toolspec.TypeString, Required: true, Enum: []string{"incoming", "outgoing"}, Doc: "incoming: who calls it; outgoing: the workspace functions it calls"},
				toolspec.Param{Name: "depth", Type: toolspec.TypeInteger, Default: 1, Min: toolspec.Bound(1), Max: toolspec.Bound(5), Doc: "levels: 2 adds the callers' callers (or the callees' callees)"},
				limitParam),
			OneOf:  positionOrSymbol,
			Result: reflect.TypeFor[CallHierarchyResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotIndexed, fault.Timeout, fault.NoSymbolFound}),
			Plugin: IndexTool, Health: true,
		}, Run: runCallHierarchy},
		{Spec: toolspec.Spec{
			Name: "edit_symbol", Kind: toolspec.KindTool, Family: tiers.FamilyRename,
			Description: "Edits that replace a def, class or assignment (or its body), or insert code before or after it, re-indented and checked to parse; returns edits for apply_workspace_edit, never writes.",
			Params: []toolspec.Param{
				{Name: "symbol", Type: toolspec.TypeString, Required: true, Doc: "dotted name: package.module.Class.method, or a name relative to uri's module"},
				{Name: "uri", Type: toolspec.TypeString, Doc: "the module a relative symbol is in"},
				{Name: "action", Type: toolspec.TypeString, Required: true, Enum: editActions,
					Doc: "replace_body: the def's or class's block; replace: the whole statement, decorators included; insert_before, insert_after: new statements beside it"},
				{Name: "text", Type: toolspec.TypeString, Required: true, Doc: "Python source; its own indentation is removed and the symbol's (or its body's) applied"},
			},
			Result: reflect.TypeFor[EditSymbolResult](),
			Faults: faults(fileFaults, []string{fault.WorkspaceNotIndexed, fault.Timeout, fault.NoSymbolFound, fault.ParseError}),
			Plugin: IndexTool, Health: true,
		}, Run: runEditSymbol},
		{Spec: toolspec.Spec{
			Name: "get_diagnostics", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Errors, warnings and hints for a file.",
			Params: []toolspec.Param{uriParam, {Name: "severity", Type: toolspec.TypeString,
				Enum: []string{"error", "warning", "information", "hint"}, Doc: "only diagnostics of this severity"}},
			Result: reflect.TypeFor[DiagnosticsResult](),
			Faults: faults(fileFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.ParseError}),
			Plugin: "get_diagnostics", Health: true,
		}, Run: runDiagnostics},
		{Spec: toolspec.Spec{
			Name: "get_code_actions", Kind: toolspec.KindTool, Family: tiers.FamilyAnalysis,
			Description: "Quick fixes for the diagnostics in a range, fix-all and organize imports for the file; returns edits, never writes.",
			Params: []toolspec.Param{uriParam, rangeParam, {Name: "only", Type: toolspec.TypeStringArray, Enum: codeActionKinds,
				Doc: "only actions of these kinds or kinds under them (source: both source actions)"}},
			Result: reflect.TypeFor[CodeActionsResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.FileModified}),
			Plugin: "get_code_actions", Health: true,
		}, Run: runCodeActions},
		{Spec: toolspec.Spec{
			Name: "format_document", Kind: toolspec.KindTool, Family: tiers.FamilyFormat,
			Description: "Edits that format a file (Black style, isort imports); never writes.",
			// options is Raw: runFormat validates it (pyproject.ParseFormatRequest)
			// and answers INVALID_OPTIONS.
			Params: []toolspec.Param{uriParam, {Name: "options", Type: toolspec.TypeObject, Default: toolspec.Args{}, Raw: true, Fields: pyproject.FormatOptionParams,
				Doc: "formatting options; request options win over pyproject.toml"}},
			Result: reflect.TypeFor[FormatResult](),
			Faults: faults(fileFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.ParseError,
				fault.InvalidOptions, fault.FileModified}),
			Plugin: "format_document", Health: true,
		}, Run: runFormat},
		{Spec: toolspec.Spec{
			Name: "apply_workspace_edit", Kind: toolspec.KindTool, Family: tiers.FamilyEdit,
			Description: "Apply edits to one or more files, atomically.",
			Params: []toolspec.Param{
				{Name: "edit", Type: toolspec.TypeObject, Required: true, Doc: "{changes: {<file_uri>: [TextEdit]}}, or the changes map itself"},
				{Name: "label", Type: toolspec.TypeString, Doc: "description of the edit"},
			},
			Result: reflect.TypeFor[edits.Result](),
			Faults: []string{fault.FileNotFound, fault.PermissionDenied, fault.InvalidRange, fault.ConflictingEdits,
				fault.FileModified, fault.ReadonlyFile, fault.EncodingError, fault.FileTooLarge},
		}, Run: runApplyEdit},
		{Spec: toolspec.Spec{
			Name: "health_check", Kind: toolspec.KindTool, Family: tiers.FamilyHealthCheck,
			Description: "Server and workspace health; never rate limited.",
			Params: []toolspec.Param{
				{Name: "includeWorkspace", Type: toolspec.TypeBoolean, Default: true},
				{Name: "includeMetrics", Type: toolspec.TypeBoolean, Default: false},
			},
			Result: reflect.TypeFor[HealthReport](),
			Routes: []toolspec.Route{{Method: "GET", Path: "/tools/health_check", Query: true}, {Method: "POST", Path: "/tools/health_check"}},
		}, Run: runHealth},
		{Spec: toolspec.Spec{
			Name: "structure", Kind: toolspec.KindResource, URI: StructureURI, Family: tiers.FamilyStructure,
			Description: "Hierarchical view of the workspace.",
			Params: []toolspec.Param{
				{Name: "uri", Type: toolspec.TypeString, Default: StructureURI},
				{Name: "maxDepth", Type: toolspec.TypeInteger, Default: 10, Min: toolspec.Bound(1), Max: toolspec.Bound(20)},
				{Name: "includeHidden", Type: toolspec.TypeBoolean, Default: false},
				{Name: "excludePatterns", Type: toolspec.TypeStringArray},
				{Name: "includeMetadata", Type: toolspec.TypeBoolean, Default: true},
			},
			Result: reflect.TypeFor[workspace.Structure](),
			Faults: []string{fault.InvalidFilter, fault.ScanTimeout},
			Routes: []toolspec.Route{{Method: "GET", Path: "/resources/structure", Query: true}},
		}, Run: runStructure},
		{Spec: toolspec.Spec{
			Name: "files", Kind: toolspec.KindResource, URI: FilesURI, Family: tiers.FamilyListFiles,
			Description: "Python files of the workspace with metadata.",
			Params: []toolspec.Param{
				{Name: "uri", Type: toolspec.TypeString, Default: FilesURI},
				{Name: "filter", Type: toolspec.TypeString, Doc: "glob; ** crosses directories; a leading ! excludes"},
				{Name: "includeTests", Type: toolspec.TypeBoolean, Default: true},
				{Name: "excludePatterns", Type: toolspec.TypeStringArray},
			},
			Result: reflect.TypeFor[workspace.FileList](),
			Faults: []string{fault.InvalidFilter, fault.ScanTimeout},
			Routes: []toolspec.Route{{Method: "GET", Path: "/resources/files", Query: true}},
		}, Run: runListFiles},
		{Spec: toolspec.Spec{
			Name: "file", Kind: toolspec.KindResource, URI: FileURIPrefix, Family: tiers.FamilyReadFile,
			Description: "Contents of one file.",
			Params: []toolspec.Param{
				{Name: "uri", Type: toolspec.TypeString, Required: true, Doc: "svc://file/{path}, path relative to the workspace root"},
				{Name: "encoding", Type: toolspec.TypeString, Default: "utf-8"},
				{Name: "includeMetadata", Type: toolspec.TypeBoolean, Default: true},
				{Name: "lineRange", Type: toolspec.TypeObject, Fields: []toolspec.Param{
					{Name: "start", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0)},
					{Name: "end", Type: toolspec.TypeInteger, Required: true, Min: toolspec.Bound(0)},
				}, Doc: "inclusive 0-indexed line range"},
			},
			Result: reflect.TypeFor[workspace.FileContent](),
			Faults: []string{fault.FileNotFound, fault.PermissionDenied, fault.EncodingError, fault.FileTooLarge},
			Routes: []toolspec.Route{{Method: "GET", Path: "/resources/file/*", Query: true}},
		}, Run: runReadFile},
	}
}

// Table indexes the operations by tool name and by resource URI.
type Table = toolspec.Table[*Operation]

// NewTable builds the lookup table from ops (toolspec.NewTable). It panics
// on a row that cannot be served, without a handler or with a spec
// toolspec refuses: the table is code, and such a row must fail every test
// rather than a request.
func NewTable(ops []Operation) *Table {
	rows := make([]*Operation, len(ops))
	for i := range ops {
		op := ops[i]
		if op.Run == nil {
			panic(fmt.Sprintf("operation table: %s: no handler (Run)", op.Name))
		}
		rows[i] = &op
	}
	t, err := toolspec.NewTable(rows)
	if err != nil {
		panic("operation table: " + err.Error())
	}
	return t
}
