package rules

import (
	"sort"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// A kind is one concrete builtin type the call checks understand. Types
// are sets of kinds; anything else (a class, a protocol, a TypeVar, a
// generic alias the checker does not know) is "unknown" and never yields
// a type-mismatch.
type kind uint16

const (
	kInt kind = 1 << iota
	kFloat
	kComplex
	kBool
	kStr
	kBytes
	kByteArray
	kList
	kDict
	kSet
	kFrozenSet
	kTuple
	kNone
)

var kindNames = []struct {
	k    kind
	name string
}{{kInt, "int"}, {kFloat, "float"}, {kComplex, "complex"}, {kBool, "bool"}, {kStr, "str"}, {kBytes, "bytes"},
	{kByteArray, "bytearray"}, {kList, "list"}, {kDict, "dict"}, {kSet, "set"}, {kFrozenSet, "frozenset"},
	{kTuple, "tuple"}, {kNone, "None"}}

func kindByName(n string) kind {
	for _, kn := range kindNames {
		if kn.name == n {
			return kn.k
		}
	}
	return 0
}

// typ is a set of kinds; 0 means unknown.
type typ kind

func (t typ) String() string {
	var parts []string
	for _, kn := range kindNames {
		if kind(t)&kn.k != 0 {
			parts = append(parts, kn.name)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " | ")
}

// accepts reports whether a value of kind a is assignable to t, with the
// numeric promotions of the typing spec (int to float and complex, float
// to complex; bool is an int).
func (t typ) accepts(a kind) bool {
	if t == 0 {
		return true
	}
	k := kind(t)
	if k&a != 0 {
		return true
	}
	switch a {
	case kBool:
		return k&(kInt|kFloat|kComplex) != 0
	case kInt:
		return k&(kFloat|kComplex) != 0
	case kFloat:
		return k&kComplex != 0
	case kBytes, kByteArray:
		// bytes promotions differ between checkers: never report.
		return k&(kBytes|kByteArray) != 0
	}
	return false
}

// narrowable reports whether a declared (not literal) value of kind a
// could, after isinstance narrowing, be a subtype that t accepts: a
// declared int may hold a bool, a float an int.
func (t typ) narrowable(a kind) bool {
	k := kind(t)
	switch a {
	case kInt:
		return k&kBool != 0
	case kFloat:
		return k&(kInt|kBool) != 0
	case kComplex:
		return k&(kFloat|kInt|kBool) != 0
	case kSet, kFrozenSet:
		return k&(kSet|kFrozenSet) != 0
	}
	return false
}

// typeEval evaluates annotations of one module.
type typeEval struct {
	m *pysem.Module
}

func (e typeEval) ref(n tree.Node) *pysem.Ref {
	r := e.m.RefAt(n.StartByte())
	if r == nil || r.Start != n.StartByte() || r.End != n.EndByte() {
		return nil
	}
	return r
}

// typingName returns the typing member an expression names ("Optional"
// for Optional, typing.Optional, t.Optional, typing_extensions.Optional),
// or "".
func (e typeEval) typingName(n tree.Node) string {
	switch n.Kind() {
	case "identifier":
		r := e.ref(n)
		if r == nil || r.Binding == nil || r.Unbound {
			return ""
		}
		b := r.Binding
		if b.Kind == pysem.BindImportFrom && b.Import.Level == 0 && (b.Import.Module == "typing" || b.Import.Module == "typing_extensions") && len(b.Symbol()) == 1 {
			return b.Import.Name
		}
	case "attribute":
		obj := n.ChildByField("object")
		if obj.Kind() != "identifier" {
			return ""
		}
		r := e.ref(obj)
		if r == nil || r.Binding == nil || r.Unbound || len(r.Binding.Symbol()) != 1 {
			return ""
		}
		if mod := importedModule(r.Binding); mod == "typing" || mod == "typing_extensions" {
			return text(n.ChildByField("attribute"))
		}
	}
	return ""
}

// builtinName returns the builtin an identifier names (not shadowed).
func (e typeEval) builtinName(n tree.Node) string {
	if n.Kind() != "identifier" {
		return ""
	}
	r := e.ref(n)
	if r == nil || !r.Builtin {
		return ""
	}
	return r.Name
}

var typingContainers = map[string]kind{"List": kList, "Dict": kDict, "Set": kSet, "FrozenSet": kFrozenSet, "Tuple": kTuple}

// eval returns the type an annotation denotes, 0 when unknown. any is true
// for object/Any (accepts everything).
func (e typeEval) eval(n tree.Node) (t typ, any bool) {
	switch n.Kind() {
	case "type":
		return e.eval(n.NamedChild(0))
	case "none":
		return typ(kNone), false
	case "identifier":
		if b := e.builtinName(n); b != "" {
			if b == "object" {
				return 0, true
			}
			if k := kindByName(b); k != 0 && b != "None" {
				return typ(k), false
			}
			return 0, false
		}
		switch e.typingName(n) {
		case "Any":
			return 0, true
		case "List", "Dict", "Set", "FrozenSet", "Tuple":
			return typ(typingContainers[e.typingName(n)]), false
		}
	case "attribute":
		switch name := e.typingName(n); name {
		case "Any":
			return 0, true
		case "List", "Dict", "Set", "FrozenSet", "Tuple":
			return typ(typingContainers[name]), false
		}
	case "generic_type", "subscript":
		var head tree.Node
		if n.Kind() == "subscript" {
			head = n.ChildByField("value")
		} else {
			head = n.NamedChild(0)
		}
		if b := e.builtinName(head); b != "" {
			switch b {
			case "list", "dict", "set", "frozenset", "tuple":
				return typ(kindByName(b)), false
			}
			return 0, false
		}
		args := typeArgs(n)
		switch name := e.typingName(head); name {
		case "List", "Dict", "Set", "FrozenSet", "Tuple":
			return typ(typingContainers[name]), false
		case "Optional":
			if len(args) != 1 {
				return 0, false
			}
			t, a := e.eval(args[0])
			if t == 0 {
				return 0, a
			}
			return t | typ(kNone), false
		case "Union":
			var u typ
			for _, a := range args {
				t, isAny := e.eval(a)
				if isAny {
					return 0, true
				}
				if t == 0 {
					return 0, false
				}
				u |= t
			}
			return u, false
		}
	case "binary_operator":
		if text(n.Child(1)) != "|" {
			return 0, false
		}
		l, la := e.eval(n.ChildByField("left"))
		r, ra := e.eval(n.ChildByField("right"))
		if la || ra {
			return 0, true
		}
		if l == 0 || r == 0 {
			return 0, false
		}
		return l | r, false
	case "string":
		// "int": a string annotation naming one builtin.
		s, e2, ok := stringBody(n)
		if !ok {
			return 0, false
		}
		body := string(n.Tree().Source()[s:e2])
		if k := kindByName(body); k != 0 && body != "None" {
			_, r, _ := e.m.At(s)
			if r != nil && r.Builtin && r.Name == body {
				return typ(k), false
			}
		}
	}
	return 0, false
}

// typeArgs returns the arguments of a subscripted annotation.
func typeArgs(n tree.Node) []tree.Node {
	var out []tree.Node
	if n.Kind() == "subscript" {
		for ch := range n.ChildrenByField("subscript") {
			if ch.Kind() == "tuple" {
				for x := range ch.NamedChildren() {
					out = append(out, x)
				}
			} else {
				out = append(out, ch)
			}
		}
		return out
	}
	for ch := range n.NamedChildren() {
		if ch.Kind() == "type_parameter" {
			for x := range ch.NamedChildren() {
				out = append(out, x)
			}
		}
	}
	return out
}

// stringBody returns the byte range inside the quotes of a plain string
// (no prefix but r/u, no interpolation, one part).
func stringBody(n tree.Node) (int, int, bool) {
	var start, end tree.Node
	for ch := range n.Children() {
		switch ch.Kind() {
		case "string_start":
			start = ch
		case "string_end":
			end = ch
		case "string_content":
		default:
			return 0, 0, false
		}
	}
	if start.IsNull() || end.IsNull() {
		return 0, 0, false
	}
	q := strings.TrimLeft(text(start), "rRuU")
	if len(q) != len(text(start))-strings.IndexAny(text(start), `"'`) {
		return 0, 0, false
	}
	return start.EndByte(), end.StartByte(), true
}

// literalKind returns the kind of a literal expression (0 if not one).
func literalKind(n tree.Node) kind {
	switch literalKinds.Of(n) {
	case lkInteger:
		t := text(n)
		if strings.HasSuffix(t, "j") || strings.HasSuffix(t, "J") {
			return kComplex
		}
		return kInt
	case lkFloat:
		t := text(n)
		if strings.HasSuffix(t, "j") || strings.HasSuffix(t, "J") {
			return kComplex
		}
		return kFloat
	case lkBool:
		return kBool
	case lkNone:
		return kNone
	case lkString:
		start := n.Child(0)
		if start.Kind() != "string_start" {
			return 0
		}
		if strings.ContainsAny(text(start), "bB") {
			return kBytes
		}
		return kStr
	case lkConcatenatedString:
		return literalKind(n.NamedChild(0))
	case lkList:
		return kList
	case lkDict:
		return kDict
	case lkSet:
		return kSet
	case lkTuple:
		return kTuple
	case lkParenthesized:
		if n.NamedChildCount() == 1 {
			return literalKind(n.NamedChild(0))
		}
	case lkUnaryOperator:
		if op := n.ChildByField("argument"); !op.IsNull() {
			switch k := literalKind(op); k {
			case kInt, kFloat, kComplex:
				return k
			case kBool:
				if text(n.Child(0)) != "not" {
					return kInt
				}
			}
		}
	case lkNotOperator:
		return kBool
	}
	return 0
}

// Classes of literalKind's switch (see tree.KindClasses): it runs for
// many call arguments.
const (
	lkOther uint8 = iota
	lkInteger
	lkFloat
	lkBool
	lkNone
	lkString
	lkConcatenatedString
	lkList
	lkDict
	lkSet
	lkTuple
	lkParenthesized
	lkUnaryOperator
	lkNotOperator
)

var literalKinds = tree.NewKindClasses(map[string]uint8{
	"integer": lkInteger, "float": lkFloat, "true": lkBool, "false": lkBool, "none": lkNone,
	"string": lkString, "concatenated_string": lkConcatenatedString,
	"list": lkList, "list_comprehension": lkList, "dictionary": lkDict, "dictionary_comprehension": lkDict,
	"set": lkSet, "set_comprehension": lkSet, "tuple": lkTuple, "parenthesized_expression": lkParenthesized,
	"unary_operator": lkUnaryOperator, "not_operator": lkNotOperator,
})
