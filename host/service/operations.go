package service

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/workspace"
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

// Operation is one row of the table, and the whole of a tool but its
// handler: routing, argument validation, rate limiting, health_check, the
// OpenAPI document and the API reference (docs/api.md, README.md) are all
// derived from it. See docs/architecture.md, "Adding a tool".
type Operation struct {
	Name string // tool name, or resource name for resources
	Kind Kind
	URI  string // resources: the svc:// URI, a prefix when it ends in "/"
	// Description is one sentence: the OpenAPI summary and the line in
	// the docs.
	Description string
	// Family is the rate-limit budget a call is charged to.
	Family tiers.Family
	// Params are the arguments with their types, bounds and defaults;
	// DecodeArgs validates against them.
	Params []Param
	// Result is the Go type Run returns; its JSON encoding is the result
	// (ResultSchema reflects it).
	Result reflect.Type
	// Faults are the error codes Run can answer with, beyond those every
	// operation can (FaultCodes adds them).
	Faults []string
	// Plugin is the plugin capability (a tool named in a plugin's
	// manifest) whose plugin does the work; "" when the kernel answers
	// alone.
	Plugin string
	// Health makes health_check report the operation unavailable (status
	// degraded) while no plugin serves Plugin.
	Health bool
	// Routes are the dedicated HTTP paths; NewTable gives a tool without
	// any POST /tools/<name>.
	Routes []Route
	// Run executes the validated arguments for the caller's session.
	Run func(ctx context.Context, s *Session, a Args) (any, error)
}

// ArgumentsSchema is the JSON Schema of the arguments object.
func (op *Operation) ArgumentsSchema() *Schema { return paramsSchema(op.Params) }

// ResultSchema is the JSON Schema of the result object; recursive types
// are under $defs and named by $refs beginning with refBase (DefsRef for
// a standalone schema).
func (op *Operation) ResultSchema(refBase string) *Schema { return schemaOfType(op.Result, refBase) }

// RateLimited reports whether a call is charged to the family's budget:
// every operation but health_check, which must answer a client whose
// budget is spent.
func (op *Operation) RateLimited() bool { return op.Family != tiers.FamilyHealthCheck }

// needsWorkspace reports whether the operation refuses when the caller's
// workspace is gone or the server is in maintenance; health_check answers
// both, since it is how a client learns about them.
func (op *Operation) needsWorkspace() bool { return op.Family != tiers.FamilyHealthCheck }

// FaultCodes lists every code a call can answer with: the row's own, then
// those of the layers every call goes through (authentication, argument
// validation, the rate limit, maintenance, the workspace, internal
// failures).
func (op *Operation) FaultCodes() []string {
	codes := append([]string{fault.AuthenticationFailed, fault.InvalidParameter}, op.Faults...)
	if op.RateLimited() {
		codes = append(codes, fault.RateLimitExceeded)
	}
	if op.needsWorkspace() {
		codes = append(codes, fault.MaintenanceMode, fault.WorkspaceNotFound)
	}
	codes = append(codes, fault.ServerUnavailable)
	out := codes[:0]
	for _, c := range codes {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

var (
	uriParam = Param{Name: "uri", Type: TypeString, Required: true, Doc: "file URI of the form file://<absolute_path>, or a workspace-relative path"}
	position = []Param{
		uriParam,
		{Name: "line", Type: TypeInteger, Required: true, Min: bound(0), Doc: "0-indexed line"},
		{Name: "character", Type: TypeInteger, Required: true, Min: bound(0), Doc: "0-indexed character, in UTF-16 code units"},
	}

	// formatOptions are format_document's options: the only statement of
	// their bounds and defaults. They are Raw, so runFormat checks them
	// (ParseFormatOptions, answering INVALID_OPTIONS) from these values.
	formatOptions = []Param{
		{Name: "tabSize", Type: TypeInteger, Default: 4, Min: bound(1), Max: bound(16), Doc: "spaces per indentation level"},
		{Name: "insertSpaces", Type: TypeBoolean, Default: true, Doc: "spaces instead of tabs"},
		{Name: "lineLength", Type: TypeInteger, Default: pyproject.DefaultLineLength, Min: bound(pyproject.MinLineLength), Max: bound(pyproject.MaxLineLength),
			Doc: "maximum line length; when absent, line-length of [tool.black] in pyproject.toml, else the default"},
	}
)

func withPosition(extra ...Param) []Param {
	return append(append([]Param{}, position...), extra...)
}

// formatOption returns the format option named name.
func formatOption(name string) Param {
	i := slices.IndexFunc(formatOptions, func(p Param) bool { return p.Name == name })
	return formatOptions[i]
}

// formatOptionBounds returns the option's minimum and maximum.
func formatOptionBounds(name string) (lo, hi int) {
	p := formatOption(name)
	return *p.Min, *p.Max
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
		{
			Name: "rename_symbol", Kind: KindTool, Family: tiers.FamilyRename,
			Description: "Rename a symbol across the workspace; returns edits, never writes.",
			Params:      withPosition(Param{Name: "newName", Type: TypeString, Required: true, Doc: "new identifier"}),
			Result:      reflect.TypeFor[RenameResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotIndexed, fault.Timeout,
				fault.NoSymbolFound, fault.InvalidName, fault.NameConflict, fault.CannotRename}),
			Plugin: IndexTool, Health: true,
			Run: runRename,
		},
		{
			Name: "get_references", Kind: KindTool, Family: tiers.FamilyReferences,
			Description: "Find every reference to the symbol at a position.",
			Params:      withPosition(Param{Name: "includeDeclaration", Type: TypeBoolean, Default: true, Doc: "include the definition"}),
			Result:      reflect.TypeFor[LocationsResult](),
			Faults:      faults(positionFaults, []string{fault.WorkspaceNotIndexed, fault.Timeout, fault.NoSymbolFound}),
			Plugin:      IndexTool, Health: true,
			Run: runReferences,
		},
		{
			Name: "get_definition", Kind: KindTool, Family: tiers.FamilyAnalysis,
			Description: "Find where the symbol at a position is defined.",
			Params:      withPosition(),
			Result:      reflect.TypeFor[LocationsResult](),
			Faults: faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout,
				fault.NoDefinitionFound, fault.ExternalDefinition, fault.NoSymbolFound}),
			Plugin: IndexTool, Health: true,
			Run: runDefinition,
		},
		{
			Name: "get_hover", Kind: KindTool, Family: tiers.FamilyAnalysis,
			Description: "Signature and documentation of the symbol at a position.",
			Params:      withPosition(),
			Result:      reflect.TypeFor[HoverResult](),
			Faults:      faults(positionFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.NoHoverInfo, fault.NoSymbolFound}),
			Plugin:      IndexTool, Health: true,
			Run: runHover,
		},
		{
			Name: "get_diagnostics", Kind: KindTool, Family: tiers.FamilyAnalysis,
			Description: "Errors, warnings and hints for a file.",
			Params: []Param{uriParam, {Name: "severity", Type: TypeString,
				Enum: []string{"error", "warning", "information", "hint"}, Doc: "only diagnostics of this severity"}},
			Result: reflect.TypeFor[DiagnosticsResult](),
			Faults: faults(fileFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.ParseError}),
			Plugin: "get_diagnostics", Health: true,
			Run: runDiagnostics,
		},
		{
			Name: "format_document", Kind: KindTool, Family: tiers.FamilyFormat,
			Description: "Edits that format a file (Black style, isort imports); never writes.",
			// options is Raw: runFormat validates it and answers INVALID_OPTIONS.
			Params: []Param{uriParam, {Name: "options", Type: TypeObject, Default: Args{}, Raw: true, Fields: formatOptions,
				Doc: "formatting options; request options win over pyproject.toml"}},
			Result: reflect.TypeFor[FormatResult](),
			Faults: faults(fileFaults, []string{fault.WorkspaceNotLoaded, fault.Timeout, fault.ParseError,
				fault.InvalidOptions, fault.FileModified}),
			Plugin: "format_document", Health: true,
			Run: runFormat,
		},
		{
			Name: "apply_workspace_edit", Kind: KindTool, Family: tiers.FamilyEdit,
			Description: "Apply edits to one or more files, atomically.",
			Params: []Param{
				{Name: "edit", Type: TypeObject, Required: true, Doc: "{changes: {<file_uri>: [TextEdit]}}, or the changes map itself"},
				{Name: "label", Type: TypeString, Doc: "description of the edit"},
			},
			Result: reflect.TypeFor[edits.Result](),
			Faults: []string{fault.FileNotFound, fault.PermissionDenied, fault.InvalidRange, fault.ConflictingEdits,
				fault.FileModified, fault.ReadonlyFile, fault.EncodingError},
			Run: runApplyEdit,
		},
		{
			Name: "health_check", Kind: KindTool, Family: tiers.FamilyHealthCheck,
			Description: "Server and workspace health; never rate limited.",
			Params: []Param{
				{Name: "includeWorkspace", Type: TypeBoolean, Default: true},
				{Name: "includeMetrics", Type: TypeBoolean, Default: false},
			},
			Result: reflect.TypeFor[HealthReport](),
			Routes: []Route{{Method: "GET", Path: "/tools/health_check", Query: true}, {Method: "POST", Path: "/tools/health_check"}},
			Run:    runHealth,
		},
		{
			Name: "structure", Kind: KindResource, URI: StructureURI, Family: tiers.FamilyStructure,
			Description: "Hierarchical view of the workspace.",
			Params: []Param{
				{Name: "uri", Type: TypeString, Default: StructureURI},
				{Name: "maxDepth", Type: TypeInteger, Default: 10, Min: bound(1), Max: bound(20)},
				{Name: "includeHidden", Type: TypeBoolean, Default: false},
				{Name: "excludePatterns", Type: TypeStringArray},
				{Name: "includeMetadata", Type: TypeBoolean, Default: true},
			},
			Result: reflect.TypeFor[workspace.Structure](),
			Faults: []string{fault.InvalidFilter, fault.ScanTimeout},
			Routes: []Route{{Method: "GET", Path: "/resources/structure", Query: true}},
			Run:    runStructure,
		},
		{
			Name: "files", Kind: KindResource, URI: FilesURI, Family: tiers.FamilyListFiles,
			Description: "Python files of the workspace with metadata.",
			Params: []Param{
				{Name: "uri", Type: TypeString, Default: FilesURI},
				{Name: "filter", Type: TypeString, Doc: "glob; ** crosses directories; a leading ! excludes"},
				{Name: "includeTests", Type: TypeBoolean, Default: true},
				{Name: "excludePatterns", Type: TypeStringArray},
			},
			Result: reflect.TypeFor[workspace.FileList](),
			Faults: []string{fault.InvalidFilter, fault.ScanTimeout},
			Routes: []Route{{Method: "GET", Path: "/resources/files", Query: true}},
			Run:    runListFiles,
		},
		{
			Name: "file", Kind: KindResource, URI: FileURIPrefix, Family: tiers.FamilyReadFile,
			Description: "Contents of one file.",
			Params: []Param{
				{Name: "uri", Type: TypeString, Required: true, Doc: "svc://file/{path}, path relative to the workspace root"},
				{Name: "encoding", Type: TypeString, Default: "utf-8"},
				{Name: "includeMetadata", Type: TypeBoolean, Default: true},
				{Name: "lineRange", Type: TypeObject, Fields: []Param{
					{Name: "start", Type: TypeInteger, Required: true, Min: bound(0)},
					{Name: "end", Type: TypeInteger, Required: true, Min: bound(0)},
				}, Doc: "inclusive 0-indexed line range"},
			},
			Result: reflect.TypeFor[workspace.FileContent](),
			Faults: []string{fault.FileNotFound, fault.PermissionDenied, fault.EncodingError, fault.FileTooLarge},
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

// NewTable builds the lookup table from ops, giving each tool without
// routes its POST /tools/<name>. It panics on a row that cannot be served
// (see checkRow): the table is code, and such a row must fail every test
// rather than a request.
func NewTable(ops []Operation) *Table {
	t := &Table{ops: slices.Clone(ops), tools: map[string]*Operation{}}
	seen := map[string]bool{}
	for i := range t.ops {
		op := &t.ops[i]
		if op.Kind == KindTool && len(op.Routes) == 0 {
			op.Routes = []Route{{Method: "POST", Path: "/tools/" + op.Name}}
		}
		if err := checkRow(op, seen); err != nil {
			panic(fmt.Sprintf("operation table: %s: %v", op.Name, err))
		}
		if op.Kind == KindTool {
			t.tools[op.Name] = op
		}
	}
	return t
}

// checkRow refuses a row missing what the derivations need, or repeating
// a name, resource URI or route of an earlier row (recorded in seen).
func checkRow(op *Operation, seen map[string]bool) error {
	switch {
	case op.Name == "" || op.Description == "" || op.Family == "":
		return fmt.Errorf("a row needs a name, a description and a rate-limit family")
	case op.Run == nil:
		return fmt.Errorf("no handler (Run)")
	case op.Result == nil:
		return fmt.Errorf("no result type (Result)")
	case op.Health && op.Plugin == "":
		return fmt.Errorf("health can only report a tool served by a plugin (Plugin)")
	case op.Kind == KindResource && op.URI == "":
		return fmt.Errorf("a resource needs its svc:// URI")
	case op.Kind != KindTool && op.Kind != KindResource:
		return fmt.Errorf("kind %q is neither tool nor resource", op.Kind)
	}
	params := map[string]bool{}
	for _, p := range op.Params {
		if params[p.Name] {
			return fmt.Errorf("parameter %q declared twice", p.Name)
		}
		params[p.Name] = true
	}
	keys := []string{string(op.Kind) + " " + op.Name}
	if op.Kind == KindResource {
		keys = append(keys, "uri "+op.URI)
	}
	for _, r := range op.Routes {
		keys = append(keys, "route "+r.Method+" "+r.Path)
	}
	for _, k := range keys {
		if seen[k] {
			return fmt.Errorf("%s already belongs to another row", k)
		}
		seen[k] = true
	}
	return nil
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

// PluginCapability is a plugin capability and the tools health_check
// reports unavailable while no plugin serves it.
type PluginCapability struct {
	Name  string
	Tools []string
}

// HealthCapabilities lists the capabilities of the rows marked Health, in
// table order.
func (t *Table) HealthCapabilities() []PluginCapability {
	var caps []PluginCapability
	for _, op := range t.ops {
		if !op.Health {
			continue
		}
		i := slices.IndexFunc(caps, func(c PluginCapability) bool { return c.Name == op.Plugin })
		if i < 0 {
			caps = append(caps, PluginCapability{Name: op.Plugin})
			i = len(caps) - 1
		}
		caps[i].Tools = append(caps[i].Tools, op.Name)
	}
	return caps
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
