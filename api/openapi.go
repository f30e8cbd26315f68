package api

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/pyws/pyws/host/service"
)

// OpenAPIDocument renders the operation table as an OpenAPI 3.1 document,
// so the served document and docs/openapi.json can never drift from what
// the router accepts.
func OpenAPIDocument(t *service.Table) []byte {
	paths := map[string]any{}
	addOp := func(path, method string, op map[string]any) {
		item, _ := paths[path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[path] = item
		}
		item[strings.ToLower(method)] = op
	}
	errorResponses := func() map[string]any {
		codes := map[int][]string{}
		for code, status := range StatusTable() {
			codes[status] = append(codes[status], code)
		}
		out := map[string]any{}
		for status, list := range codes {
			sort.Strings(list)
			out[itoa(status)] = map[string]any{
				"description": "error codes: " + strings.Join(list, ", "),
				"content":     map[string]any{"application/json": map[string]any{"schema": ref("ErrorEnvelope")}},
			}
		}
		return out
	}
	for _, op := range t.All() {
		for _, r := range op.Routes {
			o := map[string]any{
				"operationId": op.Name + "_" + strings.ToLower(r.Method),
				"summary":     op.Summary,
				"tags":        []string{string(op.Kind)},
				"security":    []any{map[string]any{"bearer": []string{}}},
				"responses": merge(map[string]any{"200": map[string]any{
					"description": "the " + string(op.Kind) + "'s result object",
					"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object"}}},
				}}, errorResponses()),
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
					if p.Name == "uri" && op.Kind == service.KindResource {
						continue
					}
					params = append(params, map[string]any{"name": p.Name, "in": "query", "required": p.Required,
						"description": queryDoc(p), "schema": schemaOf(p)})
				}
				o["parameters"] = params
			} else {
				o["requestBody"] = map[string]any{"required": true, "content": map[string]any{
					"application/json": map[string]any{"schema": objectSchema(op.Params)}}}
			}
			addOp(path, r.Method, o)
		}
	}
	var toolNames, resourceURIs []string
	toolNames = t.ToolNames()
	resourceURIs = t.ResourceURIs()
	addOp(Prefix+"/tools/call", "POST", map[string]any{
		"operationId": "tools_call", "summary": "Generic tool call: {name, arguments}.",
		"security": []any{map[string]any{"bearer": []string{}}},
		"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"type": "object", "required": []string{"name"},
			"properties": map[string]any{
				"name":      map[string]any{"type": "string", "enum": toolNames},
				"arguments": map[string]any{"type": "object"},
			}}}}},
		"responses": merge(map[string]any{"200": map[string]any{"description": "the tool's result object"}}, errorResponses()),
	})
	addOp(Prefix+"/resources/read", "POST", map[string]any{
		"operationId": "resources_read", "summary": "Generic resource read: {uri, params}.",
		"security": []any{map[string]any{"bearer": []string{}}},
		"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"type": "object", "required": []string{"uri"},
			"properties": map[string]any{
				"uri":    map[string]any{"type": "string", "description": "one of " + strings.Join(resourceURIs, ", ")},
				"params": map[string]any{"type": "object"},
			}}}}},
		"responses": merge(map[string]any{"200": map[string]any{"description": "the resource's result object"}}, errorResponses()),
	})
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "pyws", "version": "v1",
			"description": "Python workspace code intelligence. Generated from the operation table; see docs/api.md."},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}},
			"schemas": map[string]any{"ErrorEnvelope": map[string]any{
				"type": "object", "required": []string{"error"},
				"properties": map[string]any{"error": map[string]any{
					"type": "object", "required": []string{"code", "message", "details"},
					"properties": map[string]any{
						"code":    map[string]any{"type": "string"},
						"message": map[string]any{"type": "string"},
						"details": map[string]any{"type": "object"},
					}}}}},
		},
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n')
}

func schemaOf(p service.Param) map[string]any {
	s := map[string]any{}
	switch p.Type {
	case service.TypeStringArray:
		s["type"] = "array"
		s["items"] = map[string]any{"type": "string"}
	case service.TypeObject:
		if p.Fields != nil {
			return objectSchema(p.Fields)
		}
		s["type"] = "object"
	default:
		s["type"] = string(p.Type)
	}
	if p.Min != nil {
		s["minimum"] = *p.Min
	}
	if p.Max != nil {
		s["maximum"] = *p.Max
	}
	if len(p.Enum) > 0 {
		s["enum"] = p.Enum
	}
	if p.Default != nil {
		if _, isObj := p.Default.(service.Args); !isObj {
			s["default"] = p.Default
		}
	}
	if p.Doc != "" {
		s["description"] = p.Doc
	}
	return s
}

func objectSchema(params []service.Param) map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range params {
		props[p.Name] = schemaOf(p)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func queryDoc(p service.Param) string {
	switch p.Type {
	case service.TypeStringArray:
		return strings.TrimSpace(p.Doc + " (repeat the key, or pass a JSON array)")
	case service.TypeObject:
		return strings.TrimSpace(p.Doc + " (JSON text, e.g. {\"start\":0,\"end\":10})")
	}
	return p.Doc
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

func merge(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
