package rules

import (
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// edit replaces the bytes [start, end) of the file with text.
type edit struct {
	start, end int
	text       string
}

// Action is the fix of one diagnostic: what get_code_actions will serve
// as a quick fix.
type Action struct {
	Diagnostic abi.Diagnostic
	Title      string
	Edits      []abi.TextEdit
}

// Actions returns, in Check's order, the fixes of the diagnostics Check
// reports for t whose rule has a fix that applies there. Each action
// stands alone: the edits of two actions may overlap. A tree with syntax
// errors has none (its diagnostics are syntax errors, see Run).
func Actions(t *tree.Tree, idx *textpos.Index, cfg Config, env Env) []Action {
	if t.Root().HasError() {
		return nil
	}
	c := newChecker(t, cfg, env)
	c.runPasses()
	var kept []finding
	diags := c.finish(idx, &kept)
	var out []Action
	for i, f := range kept {
		fix := Lookup(f.code).Fix
		if fix == nil {
			continue
		}
		edits := fix.edits(c, f)
		if len(edits) == 0 {
			continue
		}
		a := Action{Diagnostic: diags[i], Title: fix.Title}
		for _, e := range edits {
			sl, sc := idx.Position(e.start)
			el, ec := idx.Position(e.end)
			a.Edits = append(a.Edits, abi.TextEdit{
				Range:   abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}},
				NewText: e.text,
			})
		}
		out = append(out, a)
	}
	return out
}

var removeUnusedImport = &Fix{
	Title: "Remove the unused import",
	edits: func(c *checker, f finding) []edit {
		name, stmt := importedName(c.t, f)
		if stmt.IsNull() || (c.env.IsPackageInit && stmt.Parent().Kind() == "module") {
			// A package's unused top-level import may be a re-export its
			// users rely on: the message suggests __all__ instead.
			return nil
		}
		return c.removeImportedName(name, stmt)
	},
}

var removeDuplicateImport = &Fix{
	Title: "Remove the duplicate import",
	edits: func(c *checker, f finding) []edit {
		// Only an import of exactly what the earlier one imported goes:
		// removing `from b import x` after `from a import x` would change
		// what x is.
		cur := c.importBindingAt(f)
		if cur == nil {
			return nil
		}
		var prev *pysem.Binding
		for _, b := range c.symbol(cur) {
			if b == cur {
				break
			}
			prev = b
		}
		if prev == nil || prev.Import == nil || !sameImport(prev.Import, cur.Import) {
			return nil
		}
		name, stmt := importedName(c.t, f)
		if stmt.IsNull() {
			return nil
		}
		return c.removeImportedName(name, stmt)
	},
}

var renameUnusedVariable = &Fix{
	Title: "Rename the unused variable to _",
	edits: func(c *checker, f finding) []edit {
		var b *pysem.Binding
		for _, x := range c.m.Bindings {
			if x.NameNode.StartByte() == f.start && x.NameNode.EndByte() == f.end {
				b = x
				break
			}
		}
		if b == nil {
			return nil
		}
		if b.Kind == pysem.BindExcept {
			return []edit{{b.NameNode.StartByte(), b.NameNode.EndByte(), "_"}}
		}
		// Every binding of the name in its scope is renamed, or the last
		// one left would be reported in turn; a parameter or a loop
		// variable among them means the name is not just a dead store.
		var out []edit
		for _, x := range c.symbol(b) {
			if x.Kind == pysem.BindExcept {
				continue // renamed on its own finding
			}
			if !x.IsPlainAssignment() && !x.IsWalrus() {
				return nil
			}
			out = append(out, edit{x.NameNode.StartByte(), x.NameNode.EndByte(), "_"})
		}
		return out
	},
}

// symbol returns the bindings of b's name in the scope that holds b, in
// source order.
func (c *checker) symbol(b *pysem.Binding) []*pysem.Binding {
	for _, bs := range b.Scope.Symbols() {
		if bs[0].Name == b.Name {
			return bs
		}
	}
	return nil
}

// importBindingAt returns the import binding a finding reported on the
// importRange of its import.
func (c *checker) importBindingAt(f finding) *pysem.Binding {
	for _, b := range c.m.Bindings {
		if b.Import == nil || (b.Kind != pysem.BindImport && b.Kind != pysem.BindImportFrom) {
			continue
		}
		if start, end := importRange(b.Import); start == f.start && end == f.end {
			return b
		}
	}
	return nil
}

func sameImport(a, b *pysem.Import) bool {
	return a.Level == b.Level && a.Module == b.Module && a.Name == b.Name && a.AsName == b.AsName
}

// importedName returns the name clause of an import statement that a
// finding covers (`a.b`, `x as y`) and the statement; null nodes when the
// finding is not on one.
func importedName(t *tree.Tree, f finding) (name, stmt tree.Node) {
	for n := t.Root().DescendantForByteRange(f.start, f.end); !n.IsNull(); n = n.Parent() {
		switch p := n.Parent(); p.Kind() {
		case "import_statement", "import_from_statement":
			if n.FieldName() == "name" {
				return n, p
			}
			return tree.Node{}, tree.Node{}
		}
	}
	return tree.Node{}, tree.Node{}
}

// removeImportedName removes one name clause from an import statement,
// with the comma that separates it from the next (or the previous) name,
// or the whole statement when it is the only name.
func (c *checker) removeImportedName(name, stmt tree.Node) []edit {
	var names []tree.Node
	for n := range stmt.ChildrenByField("name") {
		names = append(names, n)
	}
	i := 0
	for i < len(names) && names[i] != name {
		i++
	}
	switch {
	case i == len(names):
		return nil
	case len(names) == 1:
		return c.removeStatement(stmt)
	case i < len(names)-1:
		return []edit{{name.StartByte(), names[i+1].StartByte(), ""}}
	default:
		return []edit{{names[i-1].EndByte(), name.EndByte(), ""}}
	}
}

// removeStatement removes a simple statement: its whole line when it is
// alone there (a trailing comment goes with it), `pass` in its place when
// it is the only statement of a block, nothing (nil) when it shares its
// line with another statement.
func (c *checker) removeStatement(stmt tree.Node) []edit {
	if parent := stmt.Parent(); c.nk.Of(parent) == nkBlock && len(c.statements(parent, nil)) == 1 {
		return []edit{{stmt.StartByte(), stmt.EndByte(), "pass"}}
	}
	src := c.src
	start := stmt.StartByte()
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] != '\n' {
		return nil
	}
	end := stmt.EndByte()
	for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\r') {
		end++
	}
	if end < len(src) && src[end] == '#' {
		for end < len(src) && src[end] != '\n' {
			end++
		}
	}
	switch {
	case end == len(src):
	case src[end] == '\n':
		end++
	default:
		return nil
	}
	return []edit{{start, end, ""}}
}
