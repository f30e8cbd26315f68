package api

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/toolspec"
)

// componentsRef is where the document keeps named schemas.
const componentsRef = "#/components/schemas/"

// OpenAPIDocument renders the operation table as an OpenAPI 3.1 document,
// so the served document and docs/openapi.json can never drift from what
// the router accepts: each route's arguments, result schema and error
// responses come from its row.
func OpenAPIDocument(t *service.Table) []byte {
	paths := map[string]any{}
	schemas := map[string]any{"ErrorEnvelope": errorEnvelopeSchema}
	addOp := func(path, method string, op map[string]any) {
		item, _ := paths[path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[path] = item
		}
		item[strings.ToLower(method)] = op
	}
	codesOf := map[toolspec.Kind][]string{}
	for _, op := range t.All() {
		codesOf[op.Kind] = append(codesOf[op.Kind], op.FaultCodes()...)
		result := op.ResultSchema(componentsRef)
		for name, def := range result.Defs {
			schemas[name] = def
		}
		result.Defs = nil
		for _, r := range op.Routes {
			o := map[string]any{
				"operationId": op.Name + "_" + strings.ToLower(r.Method),
				"summary":     op.Description,
				"tags":        []string{string(op.Kind)},
				"security":    []any{map[string]any{"bearer": []string{}}},
				"responses":   responses("the "+string(op.Kind)+"'s result object", result, op.FaultCodes()),
			}
			path := Prefix + r.Path
			if strings.HasSuffix(path, "/*") {
				path = strings.TrimSuffix(path, "*") + "{path}"
			}
			if r.Query {
				var params []any
				if strings.Contains(path, "{path}") {
					params = append(params, map[string]any{"name": "path", "in": "path", "required": true,
						"description": "file path relative to the workspace root", "schema": map[string]any{"type": "string"}})
				}
				for _, p := range op.Params {
					if p.Name == "uri" && op.Kind == toolspec.KindResource {
						continue
					}
					params = append(params, map[string]any{"name": p.Name, "in": "query", "required": p.Required,
						"description": queryDoc(p), "schema": p.Schema()})
				}
				o["parameters"] = params
			} else {
				o["requestBody"] = jsonBody(op.ArgumentsSchema())
			}
			addOp(path, r.Method, o)
		}
	}
	addOp(Prefix+"/tools/call", "POST", map[string]any{
		"operationId": "tools_call", "summary": "Generic tool call: {name, arguments}.",
		"security": []any{map[string]any{"bearer": []string{}}},
		"requestBody": jsonBody(map[string]any{
			"type": "object", "required": []string{"name"},
			"properties": map[string]any{
				"name":      map[string]any{"type": "string", "enum": t.ToolNames()},
				"arguments": map[string]any{"type": "object"},
			}}),
		"responses": responses("the tool's result object", nil, codesOf[toolspec.KindTool]),
	})
	addOp(Prefix+"/resources/read", "POST", map[string]any{
		"operationId": "resources_read", "summary": "Generic resource read: {uri, params}.",
		"security": []any{map[string]any{"bearer": []string{}}},
		"requestBody": jsonBody(map[string]any{
			"type": "object", "required": []string{"uri"},
			"properties": map[string]any{
				"uri":    map[string]any{"type": "string", "description": "one of " + strings.Join(t.ResourceURIs(), ", ")},
				"params": map[string]any{"type": "object"},
			}}),
		"responses": responses("the resource's result object", nil, codesOf[toolspec.KindResource]),
	})
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "pyws", "version": "v1",
			"description": "Python workspace code intelligence. Generated from the operation table; see docs/api.md."},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}},
			"schemas":         schemas,
		},
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n')
}

var errorEnvelopeSchema = map[string]any{
	"type": "object", "required": []string{"error"},
	"properties": map[string]any{"error": map[string]any{
		"type": "object", "required": []string{"code", "message", "details"},
		"properties": map[string]any{
			"code":    map[string]any{"type": "string"},
			"message": map[string]any{"type": "string"},
			"details": map[string]any{"type": "object"},
		}}}}

func jsonBody(schema any) map[string]any {
	return map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
}

// responses are the 200 answer (result, when known) and, per HTTP status,
// the error codes among codes that answer with it.
func responses(what string, result *toolspec.Schema, codes []string) map[string]any {
	ok := map[string]any{"description": what}
	if result != nil {
		ok["content"] = map[string]any{"application/json": map[string]any{"schema": result}}
	}
	out := map[string]any{"200": ok}
	byStatus := map[int][]string{}
	for _, code := range codes {
		status := StatusOf(code)
		if !slices.Contains(byStatus[status], code) {
			byStatus[status] = append(byStatus[status], code)
		}
	}
	for status, list := range byStatus {
		sort.Strings(list)
		out[strconv.Itoa(status)] = map[string]any{
			"description": "error codes: " + strings.Join(list, ", "),
			"content":     map[string]any{"application/json": map[string]any{"schema": ref("ErrorEnvelope")}},
		}
	}
	return out
}

func queryDoc(p toolspec.Param) string {
	switch p.Type {
	case toolspec.TypeStringArray:
		return strings.TrimSpace(p.Doc + " (repeat the key, or pass a JSON array)")
	case toolspec.TypeObject:
		return strings.TrimSpace(p.Doc + " (JSON text, e.g. {\"start\":0,\"end\":10})")
	}
	return p.Doc
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
