package rules

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
)

// typeHints reports missing-type-hint (on by default) once per public
// function whose parameters or return lack annotations, on the def's
// name, naming what is missing: module-level defs and methods of public
// module-level classes whose names do not start with an underscore
// (dunder methods are public). A parameter counts when it has no
// annotation, except the instance/class parameter of a method (self,
// cls, also of __new__) and the `/` and `*` separators; *args and
// **kwargs count. The return counts when it has no annotation, except
// for dunder methods, whose return types the data model fixes (__len__
// is int, __bool__ bool), and __init__ with parameters besides self
// (mypy's rule: such an __init__ is typed without `-> None`; a bare
// `def __init__(self):` needs it). Nested functions and lambdas are
// skipped. Options: private (also _private functions and classes),
// returns, parameters.
func (c *checker) typeHints() {
	for _, b := range c.m.Bindings {
		if b.Kind != pysem.BindFunction || b.Body == nil || !c.publicDef(b) {
			continue
		}
		var missing []string
		params := 0 // besides self/cls
		for p := range b.DefNode.ChildByField("parameters").NamedChildren() {
			var nameNode = p
			prefix := ""
			typed := false
			switch p.Kind() {
			case "identifier":
			case "default_parameter":
				nameNode = p.ChildByField("name")
			case "list_splat_pattern":
				nameNode, prefix = p.NamedChild(0), "*"
			case "dictionary_splat_pattern":
				nameNode, prefix = p.NamedChild(0), "**"
			case "typed_parameter", "typed_default_parameter":
				typed = true
			default:
				continue // separators, comments
			}
			if !typed && b.Body.Self != nil && b.Body.Self.NameNode.StartByte() == nameNode.StartByte() {
				continue
			}
			if typed {
				// `self: Self` is typed too; it is still the instance parameter
				if first := p.NamedChild(0); b.Body.Self != nil && !first.IsNull() && b.Body.Self.NameNode.StartByte() == first.StartByte() {
					continue
				}
			}
			params++
			if !typed && c.cfg.HintParameters {
				missing = append(missing, "'"+prefix+text(nameNode)+"'")
			}
		}
		noReturn := c.cfg.HintReturns && b.Annotation.IsNull() &&
			(!isDunder(b.Name) || b.Name == "__init__" && params == 0)
		if len(missing) == 0 && !noReturn {
			continue
		}
		msg := "'" + b.Name + "' is missing type hints: "
		switch len(missing) {
		case 0:
		case 1:
			msg += "parameter " + missing[0]
		default:
			msg += "parameters " + strings.Join(missing, ", ")
		}
		if noReturn {
			if len(missing) > 0 {
				msg += "; "
			}
			msg += "return type"
			if b.Name == "__init__" {
				msg += " (-> None)"
			}
		}
		c.addNodeMsg(MissingTypeHint, b.NameNode, msg)
	}
}

// publicDef: a module-level def, or a method of a module-level class
// (nested classes included), all public unless the private option is on.
func (c *checker) publicDef(b *pysem.Binding) bool {
	private := func(name string) bool { return strings.HasPrefix(name, "_") && !isDunder(name) }
	if !c.cfg.HintPrivate && private(b.Name) {
		return false
	}
	for s := b.Site; s != nil && s.Kind != pysem.ScopeModule; s = s.Parent {
		switch s.Kind {
		case pysem.ScopeClass:
			if s.Owner == nil || (!c.cfg.HintPrivate && private(s.Owner.Name)) {
				return false
			}
		case pysem.ScopeTypeParams:
		default:
			return false // nested in a function, lambda or comprehension
		}
	}
	return true
}

func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
