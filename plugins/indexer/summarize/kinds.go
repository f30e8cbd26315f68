package summarize

import "github.com/pyws/pyws/plugin-sdk/tree"

// Kind classes of the nodes the builder switches on: comparing n.Kind()
// with strings is a call per comparison in a wasm guest, a class is a
// table load.
const (
	kOther uint8 = iota
	kIdentifier
	kAttribute
	kCall
	kParenthesized
	kAwait
	kType
	kSubscript
	kGenericType
	kBinaryOperator
	kKeywordArgument
	kArgumentList
	kAssignment
	kNone
	// Literals, by the builtin type they are an instance of.
	kInteger
	kFloat
	kString
	kConcatString
	kBool
	kList
	kDict
	kSet
	kTuple
)

var kinds = tree.NewKindClasses(map[string]uint8{
	"identifier":               kIdentifier,
	"attribute":                kAttribute,
	"call":                     kCall,
	"parenthesized_expression": kParenthesized,
	"await":                    kAwait,
	"type":                     kType,
	"subscript":                kSubscript,
	"generic_type":             kGenericType,
	"binary_operator":          kBinaryOperator,
	"keyword_argument":         kKeywordArgument,
	"argument_list":            kArgumentList,
	"assignment":               kAssignment,
	"none":                     kNone,
	"integer":                  kInteger,
	"float":                    kFloat,
	"string":                   kString,
	"concatenated_string":      kConcatString,
	"true":                     kBool,
	"false":                    kBool,
	"list":                     kList,
	"list_comprehension":       kList,
	"dictionary":               kDict,
	"dictionary_comprehension": kDict,
	"set":                      kSet,
	"set_comprehension":        kSet,
	"tuple":                    kTuple,
})

// fieldIDs are the tree's ids of the fields the builder reads.
type fieldIDs struct {
	object, attribute, function, value, subscript, left, right, typ, name, parameters, typeParameters uint8
}

func fieldsOf(t *tree.Tree) fieldIDs {
	if t == nil {
		return fieldIDs{}
	}
	id := func(s string) uint8 { v, _ := t.FieldID(s); return v }
	return fieldIDs{object: id("object"), attribute: id("attribute"), function: id("function"), value: id("value"),
		subscript: id("subscript"), left: id("left"), right: id("right"), typ: id("type"), name: id("name"),
		parameters: id("parameters"), typeParameters: id("type_parameters")}
}
