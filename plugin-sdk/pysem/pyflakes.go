package pysem

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Two answers pyflakes gives about the model's bindings, shared by the
// diagnostics rules and the model's differential test against pyflakes
// (which checks the model, so it must ask exactly what the rules ask).

// String renders the import the way pyflakes prints it in its messages:
// "a.b", "a.b as c", ".m.x", "..x as y".
func (im *Import) String() string {
	if im.Level == 0 && im.Name == "" {
		full := im.Module
		if im.AsName == "" {
			return full
		}
		if full[lastDot(full)+1:] == im.AsName {
			return full
		}
		return full + " as " + im.AsName
	}
	mod := strings.Repeat(".", im.Level) + im.Module
	full := mod + "." + im.Name
	if strings.HasSuffix(mod, ".") {
		full = mod + im.Name
	}
	if im.AsName != "" && im.AsName != im.Name {
		return full + " as " + im.AsName
	}
	return full
}

// IsPlainAssignment reports whether b is what pyflakes calls an Assignment
// binding, the kind reported when unused: a plain store that is not a loop
// target nor the unpacking of anything but a literal tuple or list.
func (b *Binding) IsPlainAssignment() bool {
	switch b.Kind {
	case BindAssignment, BindAugAssign, BindWith:
		if b.Unpacked || b.Starred {
			return b.unpacksLiteral()
		}
		return true
	case BindAnnotated:
		return !b.Value.IsNull() && !b.Unpacked
	}
	return false
}

// unpacksLiteral: an assignment whose value is a tuple or list literal and
// every target of the statement a tuple or list (pyflakes' rule).
func (b *Binding) unpacksLiteral() bool {
	if b.Kind != BindAssignment {
		return false
	}
	k := b.Value.Kind()
	if k != "tuple" && k != "list" && k != "expression_list" {
		return false
	}
	for cur := b.DefNode; cur.Kind() == "assignment"; cur = cur.ChildByField("right") {
		switch cur.ChildByField("left").Kind() {
		case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list":
		default:
			return false
		}
	}
	return true
}

// InNameErrorTry reports whether n is in the body of the innermost try (in
// the same function) whose handlers name NameError: pyflakes does not
// report undefined names there (`try: unicode except NameError: ...`).
func InNameErrorTry(n tree.Node) bool {
	child := n
	for p := n.Parent(); !p.IsNull(); child, p = p, p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda":
			return false
		case "try_statement":
			if child.FieldName() != "body" {
				continue
			}
			return HandlerNames(p, "NameError")
		}
	}
	return false
}

// HandlerNames reports whether an except clause of the try statement try
// names one of names in its exception expression.
func HandlerNames(try tree.Node, names ...string) bool {
	found := false
	for c := range try.NamedChildren() {
		if c.Kind() != "except_clause" {
			continue
		}
		for v := range c.NamedChildren() {
			if v.Kind() == "block" {
				continue
			}
			v.Walk(func(x tree.Node) bool {
				if x.Kind() == "identifier" {
					t := string(x.Text())
					for _, n := range names {
						if t == n {
							found = true
						}
					}
				}
				return !found
			})
		}
	}
	return found
}
