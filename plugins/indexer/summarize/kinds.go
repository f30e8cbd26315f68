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

	// Version 5: the rest of the expressions, targets, parameters and
	// the statements the def facts look at.
	kListComp
	kDictComp
	kSetComp
	kGenerator
	kEllipsis
	kUnaryOp
	kNotOp
	kBoolOp
	kComparison
	kConditional
	kLambda
	kNamedExpr
	kUnionType
	kListSplat
	kDictSplat
	kPair
	kSlice
	kTypeParameter
	kPatternList
	kListSplatPattern
	kDictSplatPattern
	kAsPatternTarget
	kTypedParam
	kDefaultParam
	kPositionalSep
	kKeywordSep
	kComment
	kBlock
	kReturn
	kRaise
	kIf
	kTry
	kWith
	kWhile
	kBreak
	kElse
	kElif
	kExcept
	kFinally
	kYield
	kFuncDef
	kClassDef
	kDecorated
	kExprStatement

	// Version 8: the statements the flow graph (flow.go) follows.
	kFor
	kAssert
	kContinue
	kMatch
	kCaseClause
	kAugAssign
	kDelete
	kForInClause
	kIfClause
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
	"list_comprehension":       kListComp,
	"dictionary":               kDict,
	"dictionary_comprehension": kDictComp,
	"set":                      kSet,
	"set_comprehension":        kSetComp,
	"tuple":                    kTuple,
	"generator_expression":     kGenerator,
	"ellipsis":                 kEllipsis,
	"unary_operator":           kUnaryOp,
	"not_operator":             kNotOp,
	"boolean_operator":         kBoolOp,
	"comparison_operator":      kComparison,
	"conditional_expression":   kConditional,
	"lambda":                   kLambda,
	"named_expression":         kNamedExpr,
	"union_type":               kUnionType,
	"list_splat":               kListSplat,
	"dictionary_splat":         kDictSplat,
	"pair":                     kPair,
	"slice":                    kSlice,
	"type_parameter":           kTypeParameter,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kPatternList,
	"list_pattern":             kPatternList,
	"expression_list":          kPatternList,
	"list_splat_pattern":       kListSplatPattern,
	"dictionary_splat_pattern": kDictSplatPattern,
	"as_pattern_target":        kAsPatternTarget,
	"typed_parameter":          kTypedParam,
	"default_parameter":        kDefaultParam,
	"typed_default_parameter":  kDefaultParam,
	"positional_separator":     kPositionalSep,
	"keyword_separator":        kKeywordSep,
	"comment":                  kComment,
	"block":                    kBlock,
	"return_statement":         kReturn,
	"raise_statement":          kRaise,
	"if_statement":             kIf,
	"try_statement":            kTry,
	"with_statement":           kWith,
	"while_statement":          kWhile,
	"break_statement":          kBreak,
	"else_clause":              kElse,
	"elif_clause":              kElif,
	"except_clause":            kExcept,
	"except_group_clause":      kExcept,
	"finally_clause":           kFinally,
	"yield":                    kYield,
	"function_definition":      kFuncDef,
	"class_definition":         kClassDef,
	"decorated_definition":     kDecorated,
	"expression_statement":     kExprStatement,
	"for_statement":            kFor,
	"assert_statement":         kAssert,
	"continue_statement":       kContinue,
	"match_statement":          kMatch,
	"case_clause":              kCaseClause,
	"augmented_assignment":     kAugAssign,
	"delete_statement":         kDelete,
	"for_in_clause":            kForInClause,
	"if_clause":                kIfClause,
})

// fieldIDs are the tree's ids of the fields the builder reads.
type fieldIDs struct {
	object, attribute, function, value, subscript, left, right, typ, name, parameters, typeParameters uint8
	arguments, body, key, operator, argument, condition, consequence, alternative, alias, operators   uint8
}

func fieldsOf(t *tree.Tree) fieldIDs {
	if t == nil {
		return fieldIDs{}
	}
	id := func(s string) uint8 { v, _ := t.FieldID(s); return v }
	return fieldIDs{object: id("object"), attribute: id("attribute"), function: id("function"), value: id("value"),
		subscript: id("subscript"), left: id("left"), right: id("right"), typ: id("type"), name: id("name"),
		parameters: id("parameters"), typeParameters: id("type_parameters"),
		arguments: id("arguments"), body: id("body"), key: id("key"), operator: id("operator"), argument: id("argument"),
		condition: id("condition"), consequence: id("consequence"), alternative: id("alternative"), alias: id("alias"), operators: id("operators")}
}
