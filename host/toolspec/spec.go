// Package toolspec is the vocabulary of the operation table: what a tool or
// resource accepts, returns, costs and can fail with, without the code that
// runs it. A Spec is a row of the table minus its handler; Param and Args
// are its arguments (DecodeArgs validates a request against them, QueryToJSON
// reads a query string for them); Schema is the JSON Schema of arguments and
// results. host/service declares the rows and runs them; the api routes,
// validates and documents (OpenAPI, the API reference) from the specs alone,
// as MCP's tools/list will.
package toolspec

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/pyws/pyws/host/fault"
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

// Spec is everything a row of the operation table declares but its
// handler: routing, argument validation, rate limiting, health_check, the
// OpenAPI document and the API reference (docs/api.md, README.md) are all
// derived from it. See docs/architecture.md, "Adding a tool".
type Spec struct {
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
	// OneOf are alternative ways of addressing the operation's subject
	// (a position or a symbol): their parameters are not Required, and
	// Spec.DecodeArgs requires the alternative a call chose.
	OneOf []Choice
	// Result is the Go type the handler returns; its JSON encoding is the
	// result (ResultSchema reflects it).
	Result reflect.Type
	// Faults are the error codes the handler can answer with, beyond those
	// every operation can (FaultCodes adds them).
	Faults []string
	// Plugin is the plugin capability (a tool named in a plugin's
	// manifest) whose plugin does the work; "" when the kernel answers
	// alone.
	Plugin string
	// Health makes health_check report the operation unavailable (status
	// degraded) while no plugin serves Plugin.
	Health bool
	// Routes are the dedicated HTTP paths; a tool without any gets
	// POST /tools/<name> when its table is built.
	Routes []Route
}

// ArgumentsSchema is the JSON Schema of the arguments object.
func (s *Spec) ArgumentsSchema() *Schema {
	a := ParamsSchema(s.Params)
	a.Description = s.OneOfText()
	return a
}

// ResultSchema is the JSON Schema of the result object; recursive types
// are under $defs and named by $refs beginning with refBase (DefsRef for
// a standalone schema).
func (s *Spec) ResultSchema(refBase string) *Schema { return SchemaOf(s.Result, refBase) }

// RateLimited reports whether a call is charged to the family's budget:
// every operation but health_check, which must answer a client whose
// budget is spent.
func (s *Spec) RateLimited() bool { return s.Family != tiers.FamilyHealthCheck }

// NeedsWorkspace reports whether the operation refuses when the caller's
// workspace is gone or the server is in maintenance; health_check answers
// both, since it is how a client learns about them.
func (s *Spec) NeedsWorkspace() bool { return s.Family != tiers.FamilyHealthCheck }

// FaultCodes lists every code a call can answer with: the row's own, then
// those of the layers every call goes through (authentication, argument
// validation, the rate limit, maintenance, the workspace, internal
// failures).
func (s *Spec) FaultCodes() []string {
	codes := append([]string{fault.AuthenticationFailed, fault.InvalidParameter}, s.Faults...)
	if s.RateLimited() {
		codes = append(codes, fault.RateLimitExceeded)
	}
	if s.NeedsWorkspace() {
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

// Check refuses a spec missing what the derivations need, or repeating a
// name, resource URI or route of an earlier row (recorded in seen).
func (s *Spec) Check(seen map[string]bool) error {
	switch {
	case s.Name == "" || s.Description == "" || s.Family == "":
		return fmt.Errorf("a row needs a name, a description and a rate-limit family")
	case s.Result == nil:
		return fmt.Errorf("no result type (Result)")
	case s.Health && s.Plugin == "":
		return fmt.Errorf("health can only report a tool served by a plugin (Plugin)")
	case s.Kind == KindResource && s.URI == "":
		return fmt.Errorf("a resource needs its svc:// URI")
	case s.Kind != KindTool && s.Kind != KindResource:
		return fmt.Errorf("kind %q is neither tool nor resource", s.Kind)
	}
	if err := s.checkChoices(); err != nil {
		return err
	}
	params := map[string]bool{}
	for _, p := range s.Params {
		if params[p.Name] {
			return fmt.Errorf("parameter %q declared twice", p.Name)
		}
		params[p.Name] = true
	}
	keys := []string{string(s.Kind) + " " + s.Name}
	if s.Kind == KindResource {
		keys = append(keys, "uri "+s.URI)
	}
	for _, r := range s.Routes {
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
