package api

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/toolspec"
)

// OperationsReference renders the operation table as the API reference
// of docs/api.md: per operation its routes, budget, arguments with bounds
// and defaults, result fields and error codes with their statuses. Like the
// OpenAPI document it is generated, so it cannot drift from the code
// (go test ./api -update rewrites it).
func OperationsReference(t *service.Table) string {
	var b strings.Builder
	for i, op := range t.All() {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### `%s` (%s)\n%s\n\n", op.Name, op.Kind, op.Description)
		fmt.Fprintf(&b, "%s; budget `%s`%s; served by %s.\n\n", routesText(&op.Spec), op.Family, rateLimitText(&op.Spec), servedBy(&op.Spec))
		writeArguments(&b, &op.Spec)
		writeResult(&b, op.ResultSchema(toolspec.DefsRef))
		fmt.Fprintf(&b, "Errors: %s.\n", errorsText(op.FaultCodes()))
	}
	return b.String()
}

// OperationsSummary is the README's list: one line per operation.
func OperationsSummary(t *service.Table) string {
	var b strings.Builder
	b.WriteString("| tool / resource | what | served by |\n|---|---|---|\n")
	for _, op := range t.All() {
		name := "`" + op.Name + "`"
		if op.Kind == toolspec.KindResource {
			name = "`" + strings.TrimSuffix(op.URI, "/") + "`"
			if strings.HasSuffix(op.URI, "/") {
				name = "`" + op.URI + "{path}`"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, op.Description, servedBy(&op.Spec))
	}
	return b.String()
}

func routesText(op *toolspec.Spec) string {
	var routes []string
	for _, r := range op.Routes {
		path := Prefix + r.Path
		if strings.HasSuffix(path, "/*") {
			path = strings.TrimSuffix(path, "*") + "{path}"
		}
		how := "body"
		if r.Query {
			how = "query string"
		}
		routes = append(routes, fmt.Sprintf("`%s %s` (%s)", r.Method, path, how))
	}
	if op.Kind == toolspec.KindTool {
		routes = append(routes, fmt.Sprintf("`POST %s/tools/call` with `\"name\": \"%s\"`", Prefix, op.Name))
	} else {
		routes = append(routes, fmt.Sprintf("`POST %s/resources/read` with `\"uri\": \"%s\"`", Prefix, op.URI))
	}
	return strings.Join(routes, ", ")
}

func rateLimitText(op *toolspec.Spec) string {
	if op.RateLimited() {
		return ""
	}
	return " (never charged)"
}

func servedBy(op *toolspec.Spec) string {
	switch {
	case op.Plugin == "":
		return "the kernel"
	case op.Health:
		return fmt.Sprintf("plugin capability `%s` (health_check reports it missing)", op.Plugin)
	}
	return fmt.Sprintf("plugin capability `%s`", op.Plugin)
}

func writeArguments(b *strings.Builder, spec *toolspec.Spec) {
	params := spec.Params
	if len(params) == 0 {
		b.WriteString("No arguments.\n\n")
		return
	}
	b.WriteString("| argument | type | required | default | allowed | description |\n|---|---|---|---|---|---|\n")
	var rows func(prefix string, params []toolspec.Param)
	rows = func(prefix string, params []toolspec.Param) {
		for _, p := range params {
			s := p.Schema()
			required := yesNo(p.Required)
			if prefix == "" {
				required = spec.RequiredText(p)
			}
			fmt.Fprintf(b, "| `%s%s` | %s | %s | %s | %s | %s |\n", prefix, p.Name, typeText(s), required,
				defaultText(s.Default), allowedText(s), cell(p.Doc))
			rows(prefix+p.Name+".", p.Fields)
		}
	}
	rows("", params)
	if text := spec.OneOfText(); text != "" {
		b.WriteString("\n" + text + "\n")
	}
	b.WriteString("\n")
}

// writeResult lists the result's fields, two levels deep (deeper ones are
// in the OpenAPI document).
func writeResult(b *strings.Builder, s *toolspec.Schema) {
	b.WriteString("| result field | type | always present |\n|---|---|---|\n")
	var rows func(prefix string, s *toolspec.Schema, depth int)
	rows = func(prefix string, s *toolspec.Schema, depth int) {
		for _, name := range s.PropertyNames() {
			p := s.Properties[name]
			fmt.Fprintf(b, "| `%s%s` | %s | %s |\n", prefix, name, typeText(p), yesNo(slices.Contains(s.Required, name)))
			if depth > 1 {
				continue
			}
			switch {
			case p.Type == "object":
				rows(prefix+name+".", p, depth+1)
			case p.Type == "array" && p.Items.Type == "object":
				rows(prefix+name+"[].", p.Items, depth+1)
			}
		}
	}
	rows("", s, 1)
	b.WriteString("\n")
}

func typeText(s *toolspec.Schema) string {
	switch {
	case s.Ref != "":
		return "`" + strings.TrimPrefix(s.Ref, toolspec.DefsRef) + "`"
	case s.Type == "array":
		return "array of " + typeText(s.Items)
	case s.Type == "object" && s.AdditionalProperties != nil:
		if v, ok := s.AdditionalProperties.(*toolspec.Schema); ok {
			return "map of " + typeText(v)
		}
	case s.Type == "":
		return "any"
	case s.Title != "":
		return "`" + s.Title + "`"
	}
	return s.Type
}

func allowedText(s *toolspec.Schema) string {
	switch {
	case len(s.Enum) > 0:
		return "`" + strings.Join(s.Enum, "`, `") + "`"
	case s.Type == "array" && s.Items != nil && len(s.Items.Enum) > 0:
		return "items: `" + strings.Join(s.Items.Enum, "`, `") + "`"
	}
	return toolspec.BoundsText(s.Minimum, s.Maximum)
}

func defaultText(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("`%v`", v)
}

func errorsText(codes []string) string {
	codes = slices.Clone(codes)
	slices.SortStableFunc(codes, func(a, b string) int { return cmp.Compare(StatusOf(a), StatusOf(b)) })
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("`%s` %d", c, StatusOf(c))
	}
	return strings.Join(parts, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// cell keeps a table cell on one row.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
