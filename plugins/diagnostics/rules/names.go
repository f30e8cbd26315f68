package rules

import (
	"fmt"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// The name passes (undefined, unused, duplicates and shadowedImports)
// report undefined-variable, unused-import, unused-variable and
// duplicate-import with pyflakes' semantics (the differential script in
// tests/differential/diagnostics measures the agreement), plus the
// documented departures: explicit re-exports (`import a as a`), stubs,
// and `_`-prefixed dummy variables.

func (c *checker) undefined() {
	m := c.m
	if m.HasStarImport {
		// Any name may come from the star import (pyflakes reports
		// "may be undefined, or defined from star imports" instead).
		return
	}
	type key struct {
		s    *pysem.Scope
		name string
	}
	lastUnboundLocal := map[key]*pysem.Ref{}
	var order []key
	for _, r := range m.Refs {
		if r.Ctx.Has(pysem.CtxGlobal) || r.Ctx.Has(pysem.CtxNonlocal) {
			continue
		}
		if !((r.Binding == nil && !r.Builtin && !r.Implicit) || r.Unbound) {
			continue
		}
		if r.Ctx.Has(pysem.CtxAllEntry) {
			if !c.env.IsPackageInit && !(m.All != nil && m.All.Partial) {
				c.add(UndefinedVariable, r.Start, r.End, "undefined name '%s' in __all__", r.Name)
			}
			continue
		}
		if pysem.InNameErrorTry(r.Node) {
			continue
		}
		// An unbound local that would otherwise resolve outward is
		// pyflakes' "referenced before assignment".
		if r.Unbound && r.Binding != nil && r.Binding.Scope.Kind == pysem.ScopeFunction && r.Scope == r.Binding.Scope && r.Binding.Scope.Parent != nil {
			outer := r.Binding.Scope.Parent.ResolveDeferred(r.Name, r.Start)
			if (outer.Binding != nil && !outer.Unbound) || outer.Builtin {
				k := key{r.Binding.Scope, r.Name}
				if first := pysem.FirstDefinition(r.Binding.Symbol()); first != nil && r.Start < first.NameNode.StartByte() {
					if _, seen := lastUnboundLocal[k]; !seen {
						order = append(order, k)
					}
					lastUnboundLocal[k] = r
				}
				continue
			}
		}
		c.add(UndefinedVariable, r.Start, r.End, "undefined name '%s'", r.Name)
	}
	for _, k := range order {
		r := lastUnboundLocal[k]
		where := ""
		if outer := r.Binding.Scope.Parent.ResolveDeferred(r.Name, r.Start); outer.Binding != nil {
			where = fmt.Sprintf(" on line %d", c.line(outer.Binding.NameNode.StartByte()))
		}
		c.add(UndefinedVariable, r.Start, r.End, "local variable '%s' defined in enclosing scope%s referenced before assignment", r.Name, where)
	}
}

// importRange is the part of an import statement that names the binding:
// `a.b` of `import a.b`, `x as y` of `from m import x as y`.
func importRange(im *pysem.Import) (int, int) {
	var first, last tree.Node
	switch {
	case !im.NameNode.IsNull():
		first, last = im.NameNode, im.NameNode
	case len(im.ModuleNodes) > 0:
		first, last = im.ModuleNodes[0], im.ModuleNodes[len(im.ModuleNodes)-1]
	default:
		return im.Node.StartByte(), im.Node.EndByte()
	}
	if !im.AliasNode.IsNull() {
		last = im.AliasNode
	}
	return first.StartByte(), last.EndByte()
}

// explicitReexport: `import a as a` and `from m import x as x` (PEP 484's
// re-export form, honoured by pyright and ruff).
func explicitReexport(im *pysem.Import) bool {
	if im.AsName == "" {
		return false
	}
	if im.Name != "" {
		return im.AsName == im.Name
	}
	return im.AsName == im.Module
}

func usedBinding(b *pysem.Binding) bool {
	for _, r := range b.Refs {
		if !r.Unbound {
			return true
		}
	}
	return false
}

func (c *checker) unused() {
	m := c.m
	stub := strings.HasSuffix(c.env.Path, ".pyi")
	for _, s := range m.Scopes {
		if s.Kind == pysem.ScopeClass {
			continue
		}
		for _, bs := range s.Symbols() {
			name := bs[0].Name
			var final *pysem.Binding
			for _, b := range bs {
				if b.Site == s || b.IsWalrus() {
					final = b
				}
			}
			if final == nil {
				continue
			}
			used := false
			for _, b := range bs {
				if usedBinding(b) {
					used = true
					break
				}
			}
			// pyflakes: `import a.b` is used when `import a as x` is.
			if !used && final.Kind == pysem.BindImport && final.Import.AsName == "" && strings.Contains(final.Import.Module, ".") {
				for _, other := range s.Symbols() {
					for _, o := range other {
						if o.Kind == pysem.BindImport && o.Import.AsName != "" && o.Import.Module == name && usedBinding(o) {
							used = true
						}
					}
				}
			}
			if s == m.Root && m.All.Has(name) {
				used = true
			}
			if !used && (final.Kind == pysem.BindImport || final.Kind == pysem.BindImportFrom) && c.inOpaqueAnnotation(name) {
				used = true
			}
			if used {
				continue
			}
			switch final.Kind {
			case pysem.BindImport, pysem.BindImportFrom:
				if c.on(UnusedImport) && !stub && !explicitReexport(final.Import) {
					start, end := importRange(final.Import)
					msg := "'%s' imported but unused"
					if c.env.IsPackageInit && s == m.Root {
						msg += "; to re-export it, add it to __all__ or import it as itself (import x as x)"
					}
					c.add(UnusedImport, start, end, msg, final.Import.String())
				}
			}
			if c.on(UnusedVariable) && s.Kind == pysem.ScopeFunction && !strings.HasPrefix(name, "_") && !s.UsesLocals && final.IsPlainAssignment() {
				c.addNodeMsg(UnusedVariable, final.NameNode, "local variable '"+name+"' is assigned to but never used")
			}
		}
	}
	if c.on(UnusedVariable) {
		for _, b := range m.Bindings {
			if b.Kind == pysem.BindExcept && len(b.Refs) == 0 && b.Scope.Kind != pysem.ScopeClass && !strings.HasPrefix(b.Name, "_") {
				c.addNode(UnusedVariable, b.NameNode, "local variable '%s' is assigned to but never used", b.Name)
			}
		}
	}
}

// duplicates reports pyflakes' "redefinition of unused name" when the
// unused binding is an import: a second import of the name, or a def,
// class or assignment that replaces it, in the same scope and not on
// another branch of an if/try.
func (c *checker) duplicates() {
	for _, s := range c.m.Scopes {
		for _, bs := range s.Symbols() {
			name := bs[0].Name
			if len(bs) < 2 {
				continue
			}
			for i := 1; i < len(bs); i++ {
				cur, prev := bs[i], bs[i-1]
				if prev.Kind != pysem.BindImport && prev.Kind != pysem.BindImportFrom {
					continue
				}
				if cur.Site != s || prev.Site != s {
					continue
				}
				// pyflakes: a rebinding inherits "used" from the binding
				// it replaces, so any earlier use counts.
				earlierUse := false
				for _, e := range bs[:i] {
					if usedBinding(e) {
						earlierUse = true
						break
					}
				}
				if earlierUse {
					continue
				}
				switch cur.Kind {
				case pysem.BindImport, pysem.BindImportFrom, pysem.BindFunction, pysem.BindClass,
					pysem.BindAssignment, pysem.BindAugAssign, pysem.BindWith, pysem.BindFor, pysem.BindWalrus:
				case pysem.BindAnnotated:
					if cur.Value.IsNull() {
						continue
					}
				default:
					continue
				}
				if cur.Kind == pysem.BindFor || (cur.Kind == pysem.BindAssignment && cur.DefNode.Parent().Kind() == "for_statement") {
					continue // pyflakes: "import shadowed by loop variable" (not this code)
				}
				if !submoduleRedefines(cur, prev) {
					continue
				}
				if differentForks(stmtOf(cur.DefNode), stmtOf(prev.DefNode)) {
					continue
				}
				line := c.line(prev.DefNode.StartByte())
				if cur.Import != nil {
					start, end := importRange(cur.Import)
					c.add(DuplicateImport, start, end, "redefinition of unused '%s' from line %d", name, line)
				} else {
					c.addNode(DuplicateImport, cur.NameNode, "redefinition of unused '%s' from line %d", name, line)
				}
			}
		}
	}
}

// shadowedImports is the second half of pyflakes' rule: a name bound in
// a nested scope (function, lambda, comprehension, class) while an
// enclosing scope has an import of it that ends up unused is reported as a
// redefinition of that unused import.
func (c *checker) shadowedImports() {
	// Only a name some import binds can shadow an import: the others skip
	// outerBinding's lookups.
	imported := map[string]bool{}
	for _, im := range c.m.Imports {
		if im.Binding != nil {
			imported[im.Binding.Name] = true
		}
	}
	if len(imported) == 0 {
		return
	}
	for _, s := range c.m.Scopes {
		if s.Parent == nil {
			continue
		}
		for _, bs := range s.Symbols() {
			name := bs[0].Name
			if !imported[name] {
				continue
			}
			var b *pysem.Binding
			for _, x := range bs {
				if x.Site == s && !(x.Kind == pysem.BindAnnotated && x.Value.IsNull()) && x.Kind != pysem.BindDel {
					b = x
					break
				}
			}
			if b == nil || b.Kind == pysem.BindFor {
				continue
			}
			existing, scope := outerBinding(s, name, b.NameNode.StartByte())
			if existing == nil || (existing.Kind != pysem.BindImport && existing.Kind != pysem.BindImportFrom) {
				continue
			}
			used := scope == c.m.Root && c.m.All.Has(name)
			for _, x := range scope.Bindings[name] {
				if usedBinding(x) {
					used = true
				}
			}
			if used || !submoduleRedefines(b, existing) {
				continue
			}
			if differentForks(stmtOf(b.DefNode), stmtOf(existing.DefNode)) {
				continue
			}
			c.addNode(DuplicateImport, b.NameNode, "redefinition of unused '%s' from line %d", name, c.line(existing.DefNode.StartByte()))
		}
	}
}

// outerBinding finds, like pyflakes' scope stack, the binding of name in
// the nearest enclosing scope (class bodies included) that has one when
// the inner scope's code runs: function bodies run after their enclosing
// scope finished, comprehensions inline (at pos).
func outerBinding(s *pysem.Scope, name string, pos int) (*pysem.Binding, *pysem.Scope) {
	deferred := s.Kind == pysem.ScopeFunction || s.Kind == pysem.ScopeLambda
	for p := s.Parent; p != nil; p = p.Parent {
		var last *pysem.Binding
		for _, x := range p.Bindings[name] {
			if x.Site != p {
				continue
			}
			if deferred || x.NameNode.StartByte() < pos {
				last = x
			}
		}
		if last != nil {
			return last, p
		}
		if p.Kind == pysem.ScopeFunction || p.Kind == pysem.ScopeLambda {
			deferred = true
		}
	}
	return nil, nil
}

// submoduleRedefines applies pyflakes' rule for `import a.b` (a
// submodule importation): it is redefined only by an import of the same
// full name, and redefines only such an import.
func submoduleRedefines(cur, prev *pysem.Binding) bool {
	sub := func(b *pysem.Binding) bool {
		return b.Kind == pysem.BindImport && b.Import.AsName == "" && strings.Contains(b.Import.Module, ".")
	}
	full := func(b *pysem.Binding) string {
		im := b.Import
		if im.Name == "" {
			return im.Module
		}
		return strings.Repeat(".", im.Level) + im.Module + "." + im.Name
	}
	if sub(cur) {
		return prev.Import == nil || full(prev) == full(cur)
	}
	if sub(prev) && cur.Import != nil {
		return full(prev) == full(cur)
	}
	return true
}

// stmtOf returns the statement containing n (n itself for statements).
func stmtOf(n tree.Node) tree.Node {
	for p := n; !p.IsNull(); p = p.Parent() {
		if pk := p.Parent().Kind(); pk == "block" || pk == "module" {
			return p
		}
	}
	return n
}

// differentForks reports whether a and b lie on different branches of
// their nearest common if or try statement (pyflakes' differentForks,
// with elif clauses as branches of the same if).
func differentForks(a, b tree.Node) bool {
	anc := map[int]tree.Node{}
	for p := a; !p.IsNull(); p = p.Parent() {
		anc[p.Index()] = p
	}
	var common tree.Node
	for p := b; !p.IsNull(); p = p.Parent() {
		if _, ok := anc[p.Index()]; ok {
			common = p
			break
		}
	}
	if common.IsNull() {
		return false
	}
	branch := func(x tree.Node) int { // index of common's child containing x
		child := x
		for p := x.Parent(); !p.IsNull(); child, p = p, p.Parent() {
			if p.Index() == common.Index() {
				return child.Index()
			}
		}
		return -1
	}
	ba, bb := branch(a), branch(b)
	switch common.Kind() {
	case "if_statement":
		return ba != bb
	case "try_statement":
		part := func(i int) int {
			n := common.Tree().NodeAt(i)
			switch n.Kind() {
			case "block", "else_clause":
				return 0
			case "except_clause", "except_group_clause":
				return i
			}
			return -1 // finally: in no part
		}
		pa, pb := part(ba), part(bb)
		return pa != pb || pa == -1
	}
	return false
}

// inOpaqueAnnotation reports whether name occurs as a word in a string
// annotation pysem does not tokenize (one with escape sequences, such as
// "te.Literal['\\n']"): pyflakes evaluates those, so a name used only
// there counts as used.
func (c *checker) inOpaqueAnnotation(name string) bool {
	if c.opaque == nil {
		c.opaque = []string{}
		c.t.Root().Walk(func(n tree.Node) bool {
			if n.Kind() != "string" {
				return true
			}
			if p := n.Parent(); p.Kind() == "type" || (p.Kind() == "subscript" && p.Parent().Kind() == "type") {
				if t := string(n.Text()); strings.ContainsRune(t, '\\') {
					c.opaque = append(c.opaque, t)
				}
			}
			return false
		})
	}
	for _, t := range c.opaque {
		for i := strings.Index(t, name); i >= 0; {
			end := i + len(name)
			if (i == 0 || !isIdentByte(t[i-1])) && (end == len(t) || !isIdentByte(t[end])) {
				return true
			}
			j := strings.Index(t[end:], name)
			if j < 0 {
				break
			}
			i = end + j
		}
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}
