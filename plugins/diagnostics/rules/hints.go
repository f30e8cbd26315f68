package rules

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
)

// typeHints reports missing-type-hint (off by default; enable it in
// [tool.pyws]) for the public functions of a module: module-level defs
// and methods of public module-level classes whose names do not start
// with an underscore (dunder methods are public). Each parameter without
// an annotation is reported (the instance/class parameter of a method is
// not, nor `/` and `*`), and a missing return annotation, except for
// dunder methods, whose return types the data model fixes (__init__ is
// None, __len__ int, ...). Options: private (also _private functions and
// classes), returns, parameters.
func (c *checker) typeHints() {
	for _, b := range c.m.Bindings {
		if b.Kind != pysem.BindFunction || b.Body == nil || !c.publicDef(b) {
			continue
		}
		def := b.DefNode
		if c.cfg.HintParameters {
			for p := range def.ChildByField("parameters").NamedChildren() {
				var nameNode = p
				switch p.Kind() {
				case "identifier":
				case "default_parameter":
					nameNode = p.ChildByField("name")
				case "list_splat_pattern", "dictionary_splat_pattern":
					nameNode = p.NamedChild(0)
				default:
					continue // typed, separators, comments
				}
				if b.Body.Self != nil && b.Body.Self.NameNode.StartByte() == nameNode.StartByte() {
					continue
				}
				c.addNode(MissingTypeHint, nameNode, "parameter '%s' of '%s' has no type annotation", text(nameNode), b.Name)
			}
		}
		if c.cfg.HintReturns && b.Annotation.IsNull() && !isDunder(b.Name) {
			c.addNode(MissingTypeHint, b.NameNode, "'%s' has no return type annotation", b.Name)
		}
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
