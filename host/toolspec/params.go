package toolspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pyws/pyws/host/fault"
)

// ParamType is the JSON type a parameter accepts.
type ParamType string

const (
	TypeString      ParamType = "string"
	TypeInteger     ParamType = "integer"
	TypeBoolean     ParamType = "boolean"
	TypeObject      ParamType = "object"
	TypeStringArray ParamType = "array<string>"
)

// Param describes one argument of an operation. The table of operations is
// the single source for validation, routing and the OpenAPI document.
type Param struct {
	Name     string
	Type     ParamType
	Required bool
	Default  any
	Min, Max *int     // bounds for integers
	Enum     []string // allowed values for strings, and for the items of string arrays
	Doc      string
	// Fields lists the members of an object parameter, validated the same way.
	Fields []Param
	// Raw hands the value to the handler as undecoded JSON
	// (json.RawMessage), once it is known to be valid JSON: the handler
	// validates it and answers with its own error code (format_document's
	// options answer INVALID_OPTIONS). Fields and bounds then only
	// document the parameter.
	Raw bool
}

// Bound is a parameter's minimum or maximum, for Param.Min and Param.Max.
func Bound(v int) *int { return &v }

// Names lists the names of params, in order.
func Names(params []Param) []string {
	names := make([]string, 0, len(params))
	for _, p := range params {
		names = append(names, p.Name)
	}
	return names
}

// Args are validated arguments: every declared parameter is present with its
// Go type (string, int, bool, []string, Args for objects) or its default;
// an optional parameter without a default is absent.
type Args map[string]any

func (a Args) String(name string) string { s, _ := a[name].(string); return s }
func (a Args) Int(name string) int       { n, _ := a[name].(int); return n }
func (a Args) Bool(name string) bool     { b, _ := a[name].(bool); return b }
func (a Args) Strings(name string) []string {
	s, _ := a[name].([]string)
	return s
}
func (a Args) Object(name string) (Args, bool) {
	o, ok := a[name].(Args)
	return o, ok
}
func (a Args) Has(name string) bool { _, ok := a[name]; return ok }

// Invalid builds the INVALID_PARAMETER fault used for every malformed
// argument: the spec has no generic bad-request code, and this one already
// carries details.parameter.
func Invalid(param string, value any, format string, args ...any) *fault.Error {
	d := fault.Details{"parameter": param}
	if value != nil {
		d["value"] = value
	}
	return fault.New(fault.InvalidParameter, d, format, args...)
}

// DecodeArgs validates a JSON object against params. Unknown members are
// refused, so a misspelt option never silently falls back to its default,
// and so is a string anywhere in it that is not valid Unicode (badText),
// which decoding would silently alter.
func DecodeArgs(params []Param, raw json.RawMessage) (Args, error) {
	if json.Valid(raw) {
		if path, what, bad := badText(raw); bad {
			if path == "" {
				path = "arguments"
			}
			return nil, Invalid(path, nil, "parameter %q is not valid Unicode: it holds %s; nothing was done", path, what)
		}
	}
	return decodeObject(params, raw, "")
}

func decodeObject(params []Param, raw json.RawMessage, prefix string) (Args, error) {
	members := map[string]json.RawMessage{}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		trimmed = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&members); err != nil {
		name := strings.TrimSuffix(prefix, ".")
		if name == "" {
			name = "arguments"
		}
		return nil, Invalid(name, nil, "%s must be a JSON object: %s", name, jsonReason(err))
	}
	known := map[string]bool{}
	out := Args{}
	for _, p := range params {
		known[p.Name] = true
		v, ok := members[p.Name]
		if !ok || string(bytes.TrimSpace(v)) == "null" {
			if p.Required {
				return nil, Invalid(prefix+p.Name, nil, "missing required parameter %q", prefix+p.Name)
			}
			if p.Default != nil {
				out[p.Name] = p.Default
			}
			continue
		}
		val, err := decodeValue(p, v, prefix)
		if err != nil {
			return nil, err
		}
		out[p.Name] = val
	}
	var unknown []string
	for name := range members {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		allowed := Names(params)
		f := Invalid(prefix+unknown[0], nil, "unknown parameter %q; allowed: %s", prefix+unknown[0], strings.Join(allowed, ", "))
		f.Details["allowed"] = allowed
		return nil, f
	}
	return out, nil
}

func decodeValue(p Param, raw json.RawMessage, prefix string) (any, error) {
	name := prefix + p.Name
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Invalid(name, nil, "parameter %q is not valid JSON: %s", name, jsonReason(err))
	}
	if p.Raw {
		return json.RawMessage(raw), nil
	}
	wrongType := func() error {
		return withBounds(Invalid(name, v, "parameter %q must be of type %s, got %s", name, p.Type, JSONTypeName(v)), p)
	}
	switch p.Type {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType()
		}
		if len(p.Enum) > 0 && !contains(p.Enum, s) {
			f := Invalid(name, s, "parameter %q must be one of %s", name, strings.Join(p.Enum, ", "))
			f.Details["allowed"] = p.Enum
			return nil, f
		}
		return s, nil
	case TypeInteger:
		num, ok := v.(json.Number)
		if !ok {
			return nil, wrongType()
		}
		return checkInt(p, name, num.String())
	case TypeBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, wrongType()
		}
		return b, nil
	case TypeStringArray:
		items, ok := v.([]any)
		if !ok {
			return nil, wrongType()
		}
		out := make([]string, 0, len(items))
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				return nil, Invalid(fmt.Sprintf("%s[%d]", name, i), it, "parameter %q must contain only strings", name)
			}
			if len(p.Enum) > 0 && !contains(p.Enum, s) {
				f := Invalid(fmt.Sprintf("%s[%d]", name, i), s, "parameter %q may only contain %s; got %q", name, strings.Join(p.Enum, ", "), s)
				f.Details["allowed"] = p.Enum
				return nil, f
			}
			out = append(out, s)
		}
		return out, nil
	case TypeObject:
		if _, ok := v.(map[string]any); !ok {
			return nil, wrongType()
		}
		if p.Fields == nil {
			return json.RawMessage(raw), nil
		}
		return decodeObject(p.Fields, raw, name+".")
	}
	return nil, fmt.Errorf("parameter %q: unsupported type %q", name, p.Type)
}

// Integer reads the text of a JSON number that must be an integer (3 and
// 3.0, not 3.5) for the argument at path name; a value inside an argument
// that DecodeArgs passes on undecoded (apply_workspace_edit's positions)
// is refused in the same words as one DecodeArgs checks.
func Integer(name, text string) (int, error) {
	v, err := checkInt(Param{Name: name}, name, text)
	if err != nil {
		return 0, err
	}
	return v.(int), nil
}

// checkInt accepts integral JSON numbers (3 and 3.0, not 3.5) inside bounds.
func checkInt(p Param, name, text string) (any, error) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return nil, withBounds(Invalid(name, text, "parameter %q must be an integer, got %s", name, text), p)
	}
	n := int(f)
	if (p.Min != nil && n < *p.Min) || (p.Max != nil && n > *p.Max) {
		return nil, withBounds(Invalid(name, n, "parameter %q is %d, outside its allowed bounds%s", name, n, boundsText(p)), p)
	}
	return n, nil
}

// withBounds adds the parameter's min and max to a refusal, so a client
// learns the allowed range whatever was wrong with its value.
func withBounds(f *fault.Error, p Param) *fault.Error {
	if p.Min != nil {
		f.Details["min"] = *p.Min
	}
	if p.Max != nil {
		f.Details["max"] = *p.Max
	}
	return f
}

func boundsText(p Param) string {
	switch text := BoundsText(p.Min, p.Max); {
	case p.Min != nil && p.Max != nil:
		return " " + text
	case text != "":
		return " (" + text + ")"
	}
	return ""
}

// BoundsText says an integer's bounds in words: "1-20", "minimum 0",
// "maximum 5", or "" for none (error messages and the API reference).
func BoundsText(min, max *int) string {
	switch {
	case min != nil && max != nil:
		return fmt.Sprintf("%d-%d", *min, *max)
	case min != nil:
		return fmt.Sprintf("minimum %d", *min)
	case max != nil:
		return fmt.Sprintf("maximum %d", *max)
	}
	return ""
}

// QueryToJSON turns query-string values into a JSON object for params, so
// the GET routes share DecodeArgs with the JSON ones. Booleans and integers
// are read from their text, arrays from repeated keys (or one JSON array),
// objects from JSON text; anything unparsable is passed as a string so the
// type error names the parameter.
func QueryToJSON(params []Param, query map[string][]string) (json.RawMessage, error) {
	types := map[string]ParamType{}
	for _, p := range params {
		types[p.Name] = p.Type
	}
	obj := map[string]any{}
	for key, values := range query {
		if len(values) == 0 {
			continue
		}
		// json.Marshal would turn bytes that are not UTF-8 into U+FFFD.
		if !utf8.ValidString(key) || slices.ContainsFunc(values, notUTF8) {
			name := strings.ToValidUTF8(key, "\uFFFD")
			return nil, Invalid(name, nil, "query parameter %q is not valid UTF-8 (after percent-decoding); nothing was done", name)
		}
		last := values[len(values)-1]
		switch types[key] {
		case TypeInteger:
			if _, err := strconv.ParseFloat(last, 64); err == nil {
				obj[key] = json.Number(last)
			} else {
				obj[key] = last
			}
		case TypeBoolean:
			if b, err := strconv.ParseBool(last); err == nil {
				obj[key] = b
			} else {
				obj[key] = last
			}
		case TypeStringArray:
			if len(values) == 1 && strings.HasPrefix(strings.TrimSpace(last), "[") {
				obj[key] = json.RawMessage(last)
			} else {
				obj[key] = values
			}
		case TypeObject:
			if json.Valid([]byte(last)) {
				obj[key] = json.RawMessage(last)
			} else {
				obj[key] = last
			}
		default:
			obj[key] = last
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, Invalid("query", nil, "query string is not valid: %v", err)
	}
	return b, nil
}

func notUTF8(s string) bool { return !utf8.ValidString(s) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// JSONTypeName names the JSON type of a value decoded with UseNumber, for
// messages that say what was sent instead.
func JSONTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func jsonReason(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at byte %d: %s", se.Offset, se.Error())
	case errors.As(err, &te):
		return fmt.Sprintf("expected %s, got %s", te.Type, te.Value)
	}
	return err.Error()
}
