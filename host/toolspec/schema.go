package toolspec

import (
	"encoding"
	"encoding/json"
	"path"
	"reflect"
	"strings"
)

// Schema is a JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 and of
// MCP's inputSchema and outputSchema), limited to what the operation table
// needs. A spec's arguments (Spec.ArgumentsSchema) and result
// (Spec.ResultSchema) are described by one; the OpenAPI document and
// the API reference are rendered from them, never written by hand.
type Schema struct {
	Ref  string `json:"$ref,omitempty"`
	Type string `json:"type,omitempty"`
	// Title names a reflected struct: its Go type name.
	Title       string             `json:"title,omitempty"`
	Description string             `json:"description,omitempty"`
	Properties  map[string]*Schema `json:"properties,omitempty"`
	Required    []string           `json:"required,omitempty"`
	// AdditionalProperties is false (argument objects refuse unknown
	// members) or the schema of a map's values; nil says nothing.
	AdditionalProperties any                `json:"additionalProperties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Minimum              *int               `json:"minimum,omitempty"`
	Maximum              *int               `json:"maximum,omitempty"`
	Default              any                `json:"default,omitempty"`
	Defs                 map[string]*Schema `json:"$defs,omitempty"`

	// order lists Properties in declaration order, for the reference
	// docs (JSON objects are unordered).
	order []string
}

// PropertyNames lists the properties in declaration order.
func (s *Schema) PropertyNames() []string { return s.order }

func (s *Schema) addProperty(name string, p *Schema, required bool) {
	if s.Properties == nil {
		s.Properties = map[string]*Schema{}
	}
	s.Properties[name] = p
	s.order = append(s.order, name)
	if required {
		s.Required = append(s.Required, name)
	}
}

// DefsRef is where a standalone schema keeps the definitions its $refs
// name (OpenAPI moves them to #/components/schemas/).
const DefsRef = "#/$defs/"

// SchemaOf reflects t as encoding/json writes it. A struct that
// contains itself (a structure node's children) is written once under
// Defs and named by a $ref starting with refBase; everything else is
// inline. Fields marked omitempty or omitzero are optional; a field's
// `doc` tag is its description.
func SchemaOf(t reflect.Type, refBase string) *Schema {
	r := &reflector{refBase: refBase, building: map[reflect.Type]bool{}, recursive: map[reflect.Type]bool{}, defs: map[string]*Schema{}}
	s := r.schema(t)
	if len(r.defs) > 0 {
		s.Defs = r.defs
	}
	return s
}

type reflector struct {
	refBase   string
	building  map[reflect.Type]bool // structs on the way down
	recursive map[reflect.Type]bool // structs met again on the way down
	defs      map[string]*Schema
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	rawMessage    = reflect.TypeFor[json.RawMessage]()
)

func (r *reflector) schema(t reflect.Type) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == rawMessage:
		return &Schema{} // any JSON value
	case t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler):
		return &Schema{} // its own encoding: nothing to say about it
	case t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler):
		return &Schema{Type: "string"}
	}
	switch t.Kind() {
	case reflect.String:
		return &Schema{Type: "string"}
	case reflect.Bool:
		return &Schema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Schema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return &Schema{Type: "string", Description: "base64"}
		}
		return &Schema{Type: "array", Items: r.schema(t.Elem())}
	case reflect.Map:
		return &Schema{Type: "object", AdditionalProperties: r.schema(t.Elem())}
	case reflect.Struct:
		return r.structSchema(t)
	}
	return &Schema{} // interfaces: any JSON value
}

func (r *reflector) structSchema(t reflect.Type) *Schema {
	name := defName(t)
	if r.building[t] {
		r.recursive[t] = true
		return &Schema{Ref: r.refBase + name}
	}
	r.building[t] = true
	s := &Schema{Type: "object", Title: t.Name()}
	r.addFields(s, t)
	delete(r.building, t)
	if r.recursive[t] {
		r.defs[name] = s
		return &Schema{Ref: r.refBase + name}
	}
	return s
}

// addFields adds t's JSON members to s; embedded structs without a name
// of their own are flattened, as encoding/json does.
func (r *reflector) addFields(s *Schema, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				r.addFields(s, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if !hasTag || name == "" {
			name = f.Name
		}
		p := r.schema(f.Type)
		if doc := f.Tag.Get("doc"); doc != "" {
			p.Description = doc
		}
		optional := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		s.addProperty(name, p, !optional)
	}
}

// defName names a recursive type in Defs: its package and type name.
func defName(t reflect.Type) string {
	if t.Name() == "" {
		return "anonymous"
	}
	return path.Base(t.PkgPath()) + "." + t.Name()
}

// Schema describes the parameter as a JSON Schema.
func (p Param) Schema() *Schema {
	s := &Schema{Description: p.Doc}
	switch p.Type {
	case TypeStringArray:
		s.Type = "array"
		s.Items = &Schema{Type: "string", Enum: p.Enum}
		s.Minimum, s.Maximum = p.Min, p.Max
		return withDefault(s, p)
	case TypeObject:
		if p.Fields != nil {
			o := ParamsSchema(p.Fields)
			o.Description = p.Doc
			return o
		}
		s.Type = "object"
	default:
		s.Type = string(p.Type)
	}
	s.Minimum, s.Maximum = p.Min, p.Max
	s.Enum = p.Enum
	return withDefault(s, p)
}

func withDefault(s *Schema, p Param) *Schema {
	// An object's default is the empty object: nothing worth stating.
	if _, isObject := p.Default.(Args); p.Default != nil && !isObject {
		s.Default = p.Default
	}
	return s
}

// ParamsSchema is the object whose members are params; unknown members
// are refused, as DecodeArgs refuses them.
func ParamsSchema(params []Param) *Schema {
	s := &Schema{Type: "object", AdditionalProperties: false}
	for _, p := range params {
		s.addProperty(p.Name, p.Schema(), p.Required)
	}
	if s.Properties == nil {
		s.Properties = map[string]*Schema{}
	}
	return s
}
