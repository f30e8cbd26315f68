package rules

import "github.com/pyws/pyws/plugin-sdk/tree"

// Node kinds the rules' per-node loops switch on, as tree.KindClasses
// classes: comparing kind names costs a call per comparison in the wasm
// plugin, and these loops visit every node or every statement of a file.
const (
	nkOther uint8 = iota
	nkCall
	nkIdentifier
	nkAttribute
	nkArgumentList
	nkKeywordArgument
	nkListSplat
	nkDictionarySplat
	nkParenthesizedListSplat
	nkComment
	nkBlock
	nkExpressionStatement
	nkReturnStatement
	nkContinueStatement
	nkBreakStatement
	nkRaiseStatement
	nkIfStatement
	nkWhileStatement
	nkTryStatement
	nkWithStatement
	nkMatchStatement
	nkFunctionDefinition
	nkTypedParameter
	nkDefaultParameter
	nkTypedDefaultParameter
	nkListSplatPattern
	nkDictionarySplatPattern
	nkKeywordSeparator
	nkPositionalSeparator
	nkNone
)

var nodeKinds = tree.NewKindClasses(map[string]uint8{
	"call":                     nkCall,
	"identifier":               nkIdentifier,
	"attribute":                nkAttribute,
	"argument_list":            nkArgumentList,
	"keyword_argument":         nkKeywordArgument,
	"list_splat":               nkListSplat,
	"dictionary_splat":         nkDictionarySplat,
	"parenthesized_list_splat": nkParenthesizedListSplat,
	"comment":                  nkComment,
	"block":                    nkBlock,
	"expression_statement":     nkExpressionStatement,
	"return_statement":         nkReturnStatement,
	"continue_statement":       nkContinueStatement,
	"break_statement":          nkBreakStatement,
	"raise_statement":          nkRaiseStatement,
	"if_statement":             nkIfStatement,
	"while_statement":          nkWhileStatement,
	"try_statement":            nkTryStatement,
	"with_statement":           nkWithStatement,
	"match_statement":          nkMatchStatement,
	"function_definition":      nkFunctionDefinition,
	"typed_parameter":          nkTypedParameter,
	"default_parameter":        nkDefaultParameter,
	"typed_default_parameter":  nkTypedDefaultParameter,
	"list_splat_pattern":       nkListSplatPattern,
	"dictionary_splat_pattern": nkDictionarySplatPattern,
	"keyword_separator":        nkKeywordSeparator,
	"positional_separator":     nkPositionalSeparator,
	"none":                     nkNone,
})

// blockKinds finds blocks (see checker.nested).
var blockKinds = tree.NewKindClasses(map[string]uint8{"block": 1})
