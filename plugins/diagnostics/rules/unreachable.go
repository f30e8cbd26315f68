package rules

import (
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// unreachable reports the statements of a block that follow a statement
// that never completes normally: return, raise, continue, break; a call to
// sys.exit, os._exit, os.abort, exit or quit, or to a function of this
// file annotated -> NoReturn / Never; an if/elif/else, try or match whose
// every branch ends so; `while True:` without a break. One diagnostic per
// block covers every unreachable statement in it. Not reported: code under
// `if False:`, `if TYPE_CHECKING:` or version checks (deliberately
// disabled code), a `yield` after a return (the empty-generator idiom), and
// code after a with block whose body raises (a context manager may
// swallow the exception).
func (c *checker) unreachable() {
	if c.t.Root().HasError() {
		return
	}
	c.block(c.t.Root())
}

// statements appends n's named children but comments to out.
func (c *checker) statements(n tree.Node, out []tree.Node) []tree.Node {
	for s := range n.NamedChildren() {
		if c.nk.Of(s) != nkComment {
			out = append(out, s)
		}
	}
	return out
}

func (c *checker) block(n tree.Node) {
	var buf [16]tree.Node
	stmts := c.statements(n, buf[:0])
	for i, s := range stmts {
		c.nested(s)
		term, _ := c.terminates(s)
		if !term || i == len(stmts)-1 {
			continue
		}
		rest := stmts[i+1:]
		if allYields(rest) {
			return
		}
		c.add(UnreachableCode, rest[0].StartByte(), rest[len(rest)-1].EndByte(),
			"code is unreachable: the statement on line %d never completes normally", c.line(s.StartByte()))
		return
	}
}

// nested visits the blocks inside statement s: the outermost blocks among
// its descendants, in source order.
func (c *checker) nested(s tree.Node) {
	for i, end := s.Index()+1, s.SubtreeEnd(); ; {
		if i = c.blocks.Scan(i, end, 0); i >= end {
			return
		}
		b := c.t.NodeAt(i)
		c.block(b)
		i = b.SubtreeEnd()
	}
}

func allYields(stmts []tree.Node) bool {
	for _, s := range stmts {
		if s.Kind() != "expression_statement" {
			return false
		}
		e := s.NamedChild(0)
		if e.Kind() != "yield" {
			return false
		}
	}
	return true
}

// terminates reports whether s never completes normally, and whether every
// way it ends is a jump (return/continue/break) rather than an exception.
func (c *checker) terminates(s tree.Node) (term, jump bool) {
	switch c.nk.Of(s) {
	case nkReturnStatement, nkContinueStatement, nkBreakStatement:
		return true, true
	case nkRaiseStatement:
		return true, false
	case nkExpressionStatement:
		return c.noReturnCall(s.NamedChild(0)), false
	case nkBlock:
		for x := range s.NamedChildren() {
			if c.nk.Of(x) == nkComment {
				continue
			}
			if t, j := c.terminates(x); t {
				return true, j
			}
		}
		return false, false
	case nkIfStatement:
		jump = true
		t, j := c.terminates(s.ChildByField("consequence"))
		if !t {
			return false, false
		}
		jump = jump && j
		hasElse := false
		for alt := range s.ChildrenByField("alternative") {
			var body tree.Node
			switch alt.Kind() {
			case "elif_clause":
				body = alt.ChildByField("consequence")
			case "else_clause":
				body = alt.ChildByField("body")
				hasElse = true
			}
			t, j := c.terminates(body)
			if !t {
				return false, false
			}
			jump = jump && j
		}
		return hasElse, jump
	case nkWhileStatement:
		cond := s.ChildByField("condition")
		if (cond.Kind() == "true" || (cond.Kind() == "integer" && text(cond) != "0")) && !hasBreak(s.ChildByField("body")) {
			return true, false
		}
		return false, false
	case nkTryStatement:
		var body, elseBody, finally tree.Node
		var handlers []tree.Node
		for ch := range s.NamedChildren() {
			switch ch.Kind() {
			case "block":
				body = ch
			case "else_clause":
				elseBody = ch.ChildByField("body")
			case "finally_clause":
				for b := range ch.NamedChildren() {
					if b.Kind() == "block" {
						finally = b
					}
				}
			case "except_clause", "except_group_clause":
				for b := range ch.NamedChildren() {
					if b.Kind() == "block" {
						handlers = append(handlers, b)
					}
				}
			}
		}
		if !finally.IsNull() {
			if t, j := c.terminates(finally); t {
				return true, j
			}
		}
		tb, jb := c.terminates(body)
		if !tb && !elseBody.IsNull() {
			tb, jb = c.terminates(elseBody)
		}
		if !tb {
			return false, false
		}
		jump = jb
		for _, h := range handlers {
			t, j := c.terminates(h)
			if !t {
				return false, false
			}
			jump = jump && j
		}
		return true, jump
	case nkWithStatement:
		t, j := c.terminates(s.ChildByField("body"))
		return t && j, j
	case nkMatchStatement:
		body := s.ChildByField("body")
		cases := 0
		irrefutable := false
		jump = true
		for cc := range body.NamedChildren() {
			if cc.Kind() != "case_clause" {
				continue
			}
			cases++
			t, j := c.terminates(cc.ChildByField("consequence"))
			if !t {
				return false, false
			}
			jump = jump && j
			irrefutable = cc.ChildByField("guard").IsNull() && irrefutableCase(cc)
		}
		return cases > 0 && irrefutable, jump
	}
	return false, false
}

// irrefutableCase: `case _:` or `case name:` (the last case).
func irrefutableCase(cc tree.Node) bool {
	n := 0
	var pat tree.Node
	for ch := range cc.NamedChildren() {
		if ch.Kind() == "case_pattern" {
			n++
			pat = ch
		}
	}
	if n != 1 {
		return false
	}
	if pat.NamedChildCount() == 0 {
		return text(pat) == "_"
	}
	inner := pat.NamedChild(0)
	return pat.NamedChildCount() == 1 && (inner.Kind() == "dotted_name" && inner.NamedChildCount() == 1)
}

// hasBreak reports whether a loop body contains a break for that loop.
func hasBreak(body tree.Node) bool {
	found := false
	body.Walk(func(n tree.Node) bool {
		if found {
			return false
		}
		switch n.Kind() {
		case "break_statement":
			found = true
			return false
		case "for_statement", "while_statement", "function_definition", "class_definition", "lambda":
			// a break in a nested loop's else clause leaves our loop
			if n.Kind() == "for_statement" || n.Kind() == "while_statement" {
				if alt := n.ChildByField("alternative"); !alt.IsNull() && hasBreak(alt) {
					found = true
				}
			}
			return false
		}
		return true
	})
	return found
}

// noReturnCall reports whether e is a call that never returns.
func (c *checker) noReturnCall(e tree.Node) bool {
	if c.nk.Of(e) != nkCall {
		return false
	}
	fn := e.ChildByField("function")
	switch c.nk.Of(fn) {
	case nkIdentifier:
		// Refs are never empty: At's ref starting at fn is RefAt's.
		r := c.m.RefAt(fn.StartByte())
		if r == nil || r.Start != fn.StartByte() {
			return false
		}
		if r.Builtin {
			return r.Name == "exit" || r.Name == "quit"
		}
		b := r.Binding
		if b == nil || r.Unbound {
			return false
		}
		if b.Kind == pysem.BindImportFrom && b.Import.Level == 0 {
			switch b.Import.Module + "." + b.Import.Name {
			case "sys.exit", "os._exit", "os.abort":
				return true
			}
		}
		if b.Kind == pysem.BindFunction && len(b.Symbol()) == 1 && !b.Annotation.IsNull() && len(b.Decorators) == 0 {
			switch text(b.Annotation) {
			case "NoReturn", "Never", "typing.NoReturn", "typing.Never", "typing_extensions.NoReturn", "typing_extensions.Never":
				return true
			}
		}
	case nkAttribute:
		obj := fn.ChildByField("object")
		if c.nk.Of(obj) != nkIdentifier {
			return false
		}
		_, r, _ := c.m.At(obj.StartByte())
		if r == nil || r.Binding == nil || r.Unbound || r.Binding.Kind != pysem.BindImport {
			return false
		}
		switch importedModule(r.Binding) + "." + text(fn.ChildByField("attribute")) {
		case "sys.exit", "os._exit", "os.abort":
			return true
		}
	}
	return false
}

// importedModule is the module a BindImport binding names: the alias's
// module, or the first segment for `import a.b` (which binds a).
func importedModule(b *pysem.Binding) string {
	if b == nil || b.Kind != pysem.BindImport {
		return ""
	}
	if b.Import.AsName != "" {
		return b.Import.Module
	}
	return b.Name
}
