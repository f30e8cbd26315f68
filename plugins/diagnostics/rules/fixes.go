package rules

import (
	"slices"
	"strings"

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

// Fixes are the repairs of one file: an action per fixable diagnostic
// (what get_code_actions serves as a quick fix), and All, every fix at
// once.
type Fixes struct {
	Actions []abi.CodeAction
	// All applies every fix whose edits do not overlap those of an earlier
	// one (in the diagnostics' order), the names an import statement loses
	// removed together; nil when there is no fix.
	All []abi.TextEdit
}

// Actions returns, in Check's order, the fixes of the diagnostics Check
// reports for t whose rule has a fix that applies there. Each action
// stands alone: the edits of two actions may overlap (two unused names
// of one import statement have the same fix, which removes both). A tree
// with syntax errors has none (its diagnostics are syntax errors, see
// Run).
func Actions(t *tree.Tree, idx *textpos.Index, cfg Config, env Env) []abi.CodeAction {
	return FileFixes(t, idx, cfg, env).Actions
}

// FileFixes returns the actions of Actions and the file's fix-all edit.
func FileFixes(t *tree.Tree, idx *textpos.Index, cfg Config, env Env) Fixes {
	if t.Root().HasError() {
		return Fixes{}
	}
	c := newChecker(t, cfg, env)
	c.runPasses()
	var kept []finding
	diags := c.finish(idx, &kept)
	// An import fix removes every name of its statement that the same
	// rule removes, as Ruff's does: "remove the unused imports" of
	// `from m import a, b` leaves no unused name behind in it.
	type importFix struct {
		code string
		stmt int
	}
	names := map[importFix][]tree.Node{}
	type fixable struct {
		diag       abi.Diagnostic
		fix        *Fix
		edits      []edit
		name, stmt tree.Node
	}
	var found []fixable
	for i, f := range kept {
		fix := Lookup(f.code).Fix
		if fix == nil {
			continue
		}
		x := fixable{diag: diags[i], fix: fix}
		if fix.importName != nil {
			if x.name, x.stmt = fix.importName(c, f); x.stmt.IsNull() {
				continue
			}
			k := importFix{f.code, x.stmt.StartByte()}
			names[k] = append(names[k], x.name)
		} else if x.edits = fix.edits(c, f); len(x.edits) == 0 {
			continue
		}
		found = append(found, x)
	}
	var out Fixes
	all := newFixAll()
	for _, x := range found {
		edits := x.edits
		if !x.stmt.IsNull() {
			edits = c.removeImportedNames(x.stmt, names[importFix{x.diag.Code, x.stmt.StartByte()}])
			all.removeName(x.name, x.stmt)
		} else if !x.fix.Manual {
			all.add(edits)
		}
		if len(edits) > 0 {
			out.Actions = append(out.Actions, abi.CodeAction{Diagnostic: x.diag, Title: x.fix.Title, Edits: textEdits(idx, edits), IsPreferred: x.fix.Preferred})
		}
	}
	if edits := all.edits(c); len(edits) > 0 {
		out.All = textEdits(idx, edits)
	}
	return out
}

func textEdits(idx *textpos.Index, edits []edit) []abi.TextEdit {
	out := make([]abi.TextEdit, len(edits))
	for i, e := range edits {
		sl, sc := idx.Position(e.start)
		el, ec := idx.Position(e.end)
		out[i] = abi.TextEdit{
			Range:   abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}},
			NewText: e.text,
		}
	}
	return out
}

// fixAll gathers the fixes of a file into one edit. Removing two names of
// `from m import a, b` one fix at a time would take the comma between
// them twice (the two edits overlap) and keep the statement; gathered per
// statement, the names go together and the statement with the last one.
type fixAll struct {
	fixes []fixEdits
	stmts map[int]int // an import statement's start byte -> its entry in fixes
}

// fixEdits is one fix's edits, or an import statement's removed names
// (stmt not null), whose edits are made once all are known.
type fixEdits struct {
	edits []edit
	stmt  tree.Node
	names []tree.Node
}

func newFixAll() *fixAll { return &fixAll{stmts: map[int]int{}} }

func (a *fixAll) add(edits []edit) { a.fixes = append(a.fixes, fixEdits{edits: edits}) }

func (a *fixAll) removeName(name, stmt tree.Node) {
	i, ok := a.stmts[stmt.StartByte()]
	if !ok {
		i = len(a.fixes)
		a.stmts[stmt.StartByte()] = i
		a.fixes = append(a.fixes, fixEdits{stmt: stmt})
	}
	if !slices.Contains(a.fixes[i].names, name) {
		a.fixes[i].names = append(a.fixes[i].names, name)
	}
}

// edits returns the gathered edits sorted by position: each fix's unless
// one overlaps an earlier fix's (then the later fix is left out whole). A
// block whose every statement goes keeps a `pass`.
func (a *fixAll) edits(c *checker) []edit {
	var out []edit
	removed := map[tree.Node][]tree.Node{} // block -> its import statements removed whole
	for _, fx := range a.fixes {
		edits := fx.edits
		if !fx.stmt.IsNull() {
			edits = c.removeImportedNames(fx.stmt, fx.names)
		}
		if len(edits) == 0 || slices.ContainsFunc(edits, func(e edit) bool { return overlapsAny(e, out) }) {
			continue
		}
		out = append(out, edits...)
		if !fx.stmt.IsNull() && len(fx.names) == countNames(fx.stmt) {
			removed[fx.stmt.Parent()] = append(removed[fx.stmt.Parent()], fx.stmt)
		}
	}
	for block, stmts := range removed {
		if c.nk.Of(block) != nkBlock || len(c.statements(block, nil)) != len(stmts) {
			continue
		}
		last := stmts[0]
		for _, s := range stmts {
			if s.StartByte() > last.StartByte() {
				last = s
			}
		}
		for i, e := range out {
			if e.start <= last.StartByte() && last.EndByte() <= e.end {
				out[i] = edit{last.StartByte(), last.EndByte(), "pass"}
			}
		}
	}
	slices.SortFunc(out, func(x, y edit) int { return x.start - y.start })
	return out
}

// overlapsAny reports whether e shares bytes with one of edits (edits that
// only touch do not; two insertions at one place do).
func overlapsAny(e edit, edits []edit) bool {
	for _, o := range edits {
		if e.start < o.end && o.start < e.end || e.start == o.start && (e.start == e.end || o.start == o.end) {
			return true
		}
	}
	return false
}

func countNames(stmt tree.Node) int {
	n := 0
	for range stmt.ChildrenByField("name") {
		n++
	}
	return n
}

// importRemoval is the fix that removes the import name clause target
// finds for a finding.
func importRemoval(title string, target func(c *checker, f finding) (name, stmt tree.Node)) *Fix {
	return &Fix{
		Title: title, Preferred: true, importName: target,
		edits: func(c *checker, f finding) []edit {
			name, stmt := target(c, f)
			if stmt.IsNull() {
				return nil
			}
			return c.removeImportedNames(stmt, []tree.Node{name})
		},
	}
}

var removeUnusedImport = importRemoval("Remove the unused import", func(c *checker, f finding) (name, stmt tree.Node) {
	name, stmt = importedName(c.t, f)
	if stmt.IsNull() || (c.env.IsPackageInit && stmt.Parent().Kind() == "module") {
		// A package's unused top-level import may be a re-export its
		// users rely on: the message suggests __all__ instead.
		return tree.Node{}, tree.Node{}
	}
	return name, stmt
})

var removeDuplicateImport = importRemoval("Remove the duplicate import", func(c *checker, f finding) (name, stmt tree.Node) {
	// Only an import of exactly what the earlier one imported goes:
	// removing `from b import x` after `from a import x` would change
	// what x is.
	cur := c.importBindingAt(f)
	if cur == nil {
		return tree.Node{}, tree.Node{}
	}
	var prev *pysem.Binding
	for _, b := range c.symbol(cur) {
		if b == cur {
			break
		}
		prev = b
	}
	if prev == nil || prev.Import == nil || !sameImport(prev.Import, cur.Import) {
		return tree.Node{}, tree.Node{}
	}
	return importedName(c.t, f)
})

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

// removeImportedNames removes name clauses of an import statement, each
// with the comma that separates it from the next name (the last ones
// with the comma after the last name kept), or the whole statement when
// no name is left.
func (c *checker) removeImportedNames(stmt tree.Node, removed []tree.Node) []edit {
	var names []tree.Node
	for n := range stmt.ChildrenByField("name") {
		names = append(names, n)
	}
	for _, r := range removed {
		if !slices.Contains(names, r) {
			return nil
		}
	}
	lastKept := -1
	for i, n := range names {
		if !slices.Contains(removed, n) {
			lastKept = i
		}
	}
	if lastKept < 0 {
		return c.removeStatement(stmt)
	}
	var out []edit
	for i, n := range names[:lastKept] {
		if slices.Contains(removed, n) {
			out = append(out, edit{n.StartByte(), names[i+1].StartByte(), ""})
		}
	}
	if last := len(names) - 1; lastKept < last {
		out = append(out, edit{names[lastKept].EndByte(), names[last].EndByte(), ""})
	}
	return out
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

// addMissingArguments adds a `name=...` placeholder for each parameter a
// call leaves unfilled, after its last argument (before the ")" of a call
// without any), for the user to fill: a manual fix, never in fix-all.
var addMissingArguments = &Fix{
	Title:  "Add the missing argument placeholders",
	Manual: true,
	edits: func(c *checker, f finding) []edit {
		if len(f.fill) == 0 {
			return nil
		}
		args := c.t.Root().DescendantForByteRange(f.start, f.end)
		if c.nk.Of(args) != nkArgumentList || args.StartByte() != f.start || args.EndByte() != f.end {
			return nil
		}
		var last tree.Node // the last argument or comma before ")"
		for ch := range args.Children() {
			switch {
			case ch.IsNamed() && c.nk.Of(ch) == nkComment:
			case !ch.IsNamed() && string(ch.Text()) == ")":
			case !ch.IsNamed() && string(ch.Text()) == "(":
			default:
				last = ch
			}
		}
		placeholders := make([]string, len(f.fill))
		for i, name := range f.fill {
			placeholders[i] = name + "=..."
		}
		text := strings.Join(placeholders, ", ")
		switch {
		case last.IsNull():
			return []edit{{f.start + 1, f.start + 1, text}}
		case !last.IsNamed(): // a trailing comma
			return []edit{{last.EndByte(), last.EndByte(), " " + text}}
		}
		return []edit{{last.EndByte(), last.EndByte(), ", " + text}}
	},
}
