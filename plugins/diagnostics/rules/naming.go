package rules

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
)

// defaultIgnoredNames are names frameworks impose (pep8-naming's
// ignore-names default, plus Django's setUpTestData).
var defaultIgnoredNames = map[string]bool{
	"setUp": true, "tearDown": true, "setUpClass": true, "tearDownClass": true, "setUpModule": true,
	"tearDownModule": true, "asyncSetUp": true, "asyncTearDown": true, "setUpTestData": true,
	"failureException": true, "longMessage": true, "maxDiff": true,
}

// naming reports convention-violation (PEP 8 naming):
//
//   - class names use CapWords (N801);
//   - function and method names are lowercase_with_underscores (N802);
//   - argument names are lowercase (N803);
//   - variables assigned a literal in a function are lowercase or
//     UPPER_CASE constants (N806, narrowed: a CapWords name bound to a call
//     or another name is a class alias and is allowed);
//   - module-level variables are not mixedCase (N816) unless listed in
//     __all__ (kept for compatibility).
//
// Leading and trailing underscores are ignored; dunder names are fine.
// Not reported: methods (and their arguments) of a class with a base that
// is not defined in this file, or decorated @override: they may override
// a method whose name they cannot choose; names in the framework list
// (setUp, tearDown, setUpClass, ...) and in the ignore-names option;
// visit_*/depart_* visitor methods.
func (c *checker) naming() {
	// The ignore lists are consulted last, before reporting: looking a
	// name up costs more than the checks, which rarely fail.
	ignored := func(name string) bool { return c.cfg.IgnoreNames[name] || defaultIgnoredNames[name] }
	for _, b := range c.m.Bindings {
		if isDunder(b.Name) || b.Site != b.Scope {
			continue
		}
		if first := b.Symbol(); len(first) > 0 && first[0] != b && b.Kind != pysem.BindParameter {
			continue // one report per name and scope
		}
		name := strings.Trim(b.Name, "_")
		if name == "" {
			continue
		}
		switch b.Kind {
		case pysem.BindClass:
			if !capWords(name) && !ignored(b.Name) {
				c.addNodeMsg(ConventionViolation, b.NameNode, "class name '"+b.Name+"' should use CapWords")
			}
		case pysem.BindFunction:
			if lowerSnake(name) || strings.HasPrefix(name, "visit_") || strings.HasPrefix(name, "depart_") || ignored(b.Name) || c.mayOverride(b) {
				continue
			}
			c.addNodeMsg(ConventionViolation, b.NameNode, "function name '"+b.Name+"' should be lowercase_with_underscores")
		case pysem.BindParameter:
			if lowerSnake(name) || !ascii(name) || ignored(b.Name) {
				continue
			}
			if owner := b.Scope.Owner; owner != nil && (c.mayOverride(owner) || ignored(owner.Name)) {
				continue
			}
			c.addNodeMsg(ConventionViolation, b.NameNode, "argument name '"+b.Name+"' should be lowercase")
		case pysem.BindAssignment, pysem.BindAnnotated:
			if b.Unpacked || b.Value.IsNull() || !ascii(name) {
				continue
			}
			switch b.Scope.Kind {
			case pysem.ScopeFunction:
				if lowerSnake(name) || upperSnake(name) || literalKind(b.Value) == 0 || literalKind(b.Value) == kNone || ignored(b.Name) {
					continue
				}
				c.addNodeMsg(ConventionViolation, b.NameNode, "variable '"+b.Name+"' in function should be lowercase")
			case pysem.ScopeModule:
				if mixedCase(name) && !c.m.All.Has(b.Name) && !ignored(b.Name) {
					c.addNodeMsg(ConventionViolation, b.NameNode, "module-level variable '"+b.Name+"' should not be mixedCase")
				}
			}
		}
	}
}

// mayOverride: a method of a class with a base not defined in this file,
// or decorated @override.
func (c *checker) mayOverride(b *pysem.Binding) bool {
	if b.HasDecorator("override") {
		return true
	}
	class := b.Site
	if class.Kind == pysem.ScopeTypeParams {
		class = class.Parent
	}
	if class == nil || class.Kind != pysem.ScopeClass || class.Owner == nil {
		return false
	}
	return c.externalBase(class.Owner, 0)
}

func (c *checker) externalBase(cls *pysem.Binding, depth int) bool {
	if depth > 10 {
		return true
	}
	for _, bn := range cls.Bases {
		if bn.Kind() == "keyword_argument" {
			continue
		}
		if bn.Kind() != "identifier" {
			return true
		}
		r := c.refAt(bn)
		if r != nil && r.Builtin && text(bn) == "object" {
			continue
		}
		if r == nil || r.Binding == nil || r.Binding.Kind != pysem.BindClass || c.externalBase(r.Binding, depth+1) {
			return true
		}
	}
	return false
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }
func isLower(b byte) bool { return b >= 'a' && b <= 'z' }

// capWords: starts uppercase, no underscores (digits allowed).
func capWords(s string) bool {
	if !ascii(s) {
		return true
	}
	return isUpper(s[0]) && !strings.Contains(s, "_")
}

// lowerSnake: no uppercase letters.
func lowerSnake(s string) bool {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			return false
		}
	}
	return true
}

// upperSnake: no lowercase letters.
func upperSnake(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLower(s[i]) {
			return false
		}
	}
	return true
}

// mixedCase: starts lowercase and has an uppercase letter.
func mixedCase(s string) bool {
	return isLower(s[0]) && !lowerSnake(s)
}
