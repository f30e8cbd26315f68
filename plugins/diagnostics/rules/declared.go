package rules

import (
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// declaredValues reports type-mismatch where a value of certain type
// meets a declared one outside a call: an annotated assignment
// (`count: int = "x"`) and a `return` in a def with a return annotation.
// The rules are the argument checks' (checkValue): builtin types only,
// the typing spec's promotions, no report where narrowing may apply.
func (c *checker) declaredValues(ev typeEval) {
	if !c.onTypeMismatch || c.m.Opts.IsStub {
		return
	}
	for _, b := range c.m.Bindings {
		switch {
		case b.Kind == pysem.BindAnnotated && !b.Annotation.IsNull() && !b.Value.IsNull() && !b.Unpacked:
			t, isAny := ev.eval(b.Annotation)
			if k, ok := c.rejected(b.Value, t, isAny); ok {
				c.addNode(TypeMismatch, b.Value, "type '%s' is not assignable to declared type '%s'", typ(k).String(), t.String())
			}
		case b.Kind == pysem.BindFunction && !b.Annotation.IsNull() && !b.DefNode.IsNull():
			c.checkReturns(b, ev)
		}
	}
}

// checkReturns checks the values of the return statements of def b
// against its return annotation. A generator's annotation describes the
// generator, not what it returns, so generators are skipped; so are
// async generators.
func (c *checker) checkReturns(b *pysem.Binding, ev typeEval) {
	t, isAny := ev.eval(b.Annotation)
	if t == 0 || isAny {
		return
	}
	body := b.DefNode.ChildByFieldID(fieldID(c.t, "body"))
	if body.IsNull() {
		return
	}
	var values []tree.Node
	generator := false
	var walk func(n tree.Node)
	walk = func(n tree.Node) {
		for ch := n.FirstChild(); !ch.IsNull() && !generator; ch = ch.NextSibling() {
			switch ch.Kind() {
			case "function_definition", "class_definition", "lambda", "decorated_definition":
				continue // their returns and yields are their own
			case "yield":
				generator = true
				return
			case "return_statement":
				if v := ch.NamedChild(0); !v.IsNull() && ch.NamedChildCount() == 1 {
					values = append(values, v)
				}
			}
			walk(ch)
		}
	}
	walk(body)
	if generator {
		return
	}
	for _, v := range values {
		if k, ok := c.rejected(v, t, false); ok {
			c.addNode(TypeMismatch, v, "type '%s' is not assignable to return type '%s'", typ(k).String(), t.String())
		}
	}
}

// rejected reports whether declared type t rejects value, whose type
// (returned) is certain: a literal's, or a name's declared once, unless
// narrowing may have made it fit (a declared int where t wants bool).
func (c *checker) rejected(value tree.Node, t typ, isAny bool) (kind, bool) {
	if t == 0 || isAny {
		return 0, false
	}
	k, declared := c.argKind(value)
	if k == 0 || t.accepts(k) || (declared && t.narrowable(k)) {
		return 0, false
	}
	return k, true
}
