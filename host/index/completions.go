package index

import (
	"bytes"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pycomplete"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// Completion is one item get_completions offers.
type Completion struct {
	Label, Kind, Detail, Documentation string
	// Import is the module to import Label from ("" none): a name no
	// scope binds that a workspace or standard-library module defines.
	Import string
	ref    pytypes.Ref
	// score orders the items, highest first (see rank).
	score float64
}

// CompletionList is get_completions' answer before the limit: Total
// counts every candidate matching the prefix.
type CompletionList struct {
	Items []Completion
	Total int
}

// Completions answers get_completions at byte offset off of abs, whose
// current text is src (the file as it is on disk, usually half-typed:
// `resp.` does not parse). The text says what is completed
// (plugin-sdk/pycomplete); the index says what the names are:
//
//   - after `recv.`: the attributes of recv's type, from the type
//     evaluator. recv is found as the occurrence the indexer recorded
//     just before the dot, else (the parser dropped it into an error
//     node) by reading the dotted receiver back from the text and
//     resolving its first name in the scopes around the position, each
//     further part as a member, a call's result or a subscript's;
//   - in a name position: the names of the enclosing scopes (by
//     indentation), the module's globals and star imports, builtins and
//     the keywords valid there;
//   - after `import` / `from m import`: module names (workspace and
//     standard library) and the module's names.
//
// Items whose label does not start with the typed prefix
// (case-insensitively) are dropped; the rest are ranked by rank, and the
// first limit returned (Total counts them all).
func (x *Index) Completions(abs string, src []byte, off, limit int) CompletionList {
	c := pycomplete.At(src, off)
	if c.What == pycomplete.Nothing {
		return CompletionList{}
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	f := x.files[x.rel(abs)]
	if f == nil || !x.linked {
		return CompletionList{}
	}
	q := &completionQuery{x: x, f: f, src: src, c: c, ev: x.typesLocked(), lines: textpos.New(src)}
	q.usage = x.usageLocked()
	q.skipOccAtPrefix()
	switch c.What {
	case pycomplete.Attribute:
		q.attributes()
	case pycomplete.Name:
		q.names()
	case pycomplete.ImportModule:
		q.modules()
	case pycomplete.ImportMember:
		q.importMembers()
	}
	return q.result(limit)
}

type completionQuery struct {
	x     *Index
	f     *File
	src   []byte
	c     pycomplete.Context
	ev    *pytypes.Evaluator
	lines *textpos.Index
	usage *usage
	// fileUses counts the file's occurrences by name (attribute names
	// apart), the one being typed left out.
	fileUses, fileAttrUses map[string]int
	skipName               string
	skipAttr               bool

	seen  map[string]bool
	items []Completion
}

// usage counts how often each name is used in the workspace's files:
// what ranks completions beyond pyright's alphabetical order.
type usage struct {
	gen          uint64
	names, attrs map[string]int
	importable   *importables // made on first use
}

// usageLocked is the current link's usage table, counted once per link;
// mu held (read).
func (x *Index) usageLocked() *usage {
	x.usageMu.Lock()
	defer x.usageMu.Unlock()
	if x.uses != nil && x.uses.gen == x.gen {
		return x.uses
	}
	u := &usage{gen: x.gen, names: map[string]int{}, attrs: map[string]int{}}
	for _, f := range x.sorted {
		countUses(f, u.names, u.attrs, -1)
	}
	x.uses = u
	return u
}

// countUses adds the reads and writes of f's names and attribute names
// to names and attrs, occurrence skip left out.
func countUses(f *File, names, attrs map[string]int, skip int) {
	for i, o := range f.S.Occs {
		if i == skip || o.Flags&(navindex.OccImport|navindex.OccAll|navindex.OccString) != 0 || int(o.Sym) >= len(f.S.Syms) || o.Sym < 0 {
			continue
		}
		switch y := &f.S.Syms[o.Sym]; y.Kind {
		case navindex.SymAttr:
			attrs[y.Name]++
		case navindex.SymMember:
			attrs[y.Name]++
		case navindex.SymKeyword:
		default:
			names[y.Name]++
		}
	}
}

// skipOccAtPrefix finds the occurrence the prefix starts (the identifier
// being typed, when the file already holds some of it) and counts the
// file's uses without it: an identifier must not vote for itself.
func (q *completionQuery) skipOccAtPrefix() {
	skip := -1
	if q.c.Prefix != "" {
		skip = q.occAt(q.c.PrefixStart)
	}
	if skip >= 0 {
		y := q.f.S.Syms[q.f.S.Occs[skip].Sym]
		q.skipName, q.skipAttr = y.Name, y.Kind == navindex.SymAttr || y.Kind == navindex.SymMember
	}
	q.fileUses, q.fileAttrUses = map[string]int{}, map[string]int{}
	countUses(q.f, q.fileUses, q.fileAttrUses, skip)
}

// wsUses is the workspace count of name (attribute names or others), the
// occurrence being typed left out.
func (q *completionQuery) wsUses(name string, attr bool) int {
	n := q.usage.names[name]
	if attr {
		n = q.usage.attrs[name]
	}
	if name == q.skipName && attr == q.skipAttr && n > 0 {
		n--
	}
	return n
}

// add offers name unless offered already or not matching the prefix.
func (q *completionQuery) add(name, kind string, ref pytypes.Ref, bonus float64, attr bool) {
	q.addCounted(name, kind, ref, bonus, attr, -1)
}

// addCounted is add with the workspace's uses of the candidate known
// (ws >= 0) rather than counted by name.
func (q *completionQuery) addCounted(name, kind string, ref pytypes.Ref, bonus float64, attr bool, ws int) {
	if q.seen == nil {
		q.seen = map[string]bool{}
	}
	if q.seen[name] || !matchesPrefix(name, q.c.Prefix) {
		return
	}
	q.seen[name] = true
	q.items = append(q.items, Completion{Label: name, Kind: kind, ref: ref, score: q.rank(name, bonus, attr, ws)})
}

// describe fills an item's kind, detail and documentation from what it
// refers to: only for the items returned, so a long candidate list
// costs its ranking alone.
func (q *completionQuery) describe(it *Completion) {
	ref := it.ref
	if g, ok := ref.Unit.(*File); ok && g == q.f && ref.Sym >= 0 && q.f.S.Syms[ref.Sym].Target >= 0 {
		// An import: described by what it imports.
		if r := q.x.programLocked().Resolve(q.f, ref.Sym); r.Found() {
			ref = r
		}
	}
	if g, ok := ref.Unit.(*File); ok && ref.Sym >= 0 && int(ref.Sym) < len(g.S.Syms) {
		d, ok := q.primaryDef(g, ref.Sym)
		if it.Kind == "" {
			it.Kind = completionKind(g, ref.Sym, d, ok)
		}
		if ok {
			it.Detail, it.Documentation = d.Sig, d.Doc
		}
	} else if ref.Module != "" && it.Kind == "" {
		it.Kind = "module"
	}
	if it.Kind == "" {
		it.Kind = "variable"
	}
}

func (q *completionQuery) primaryDef(g *File, sym int32) (navindex.Def, bool) {
	var imp *navindex.Def
	for _, d := range g.defs.of(sym) {
		df := &g.S.Defs[d]
		if !df.Import {
			return *df, true
		}
		imp = df
	}
	if imp != nil {
		return *imp, true
	}
	return navindex.Def{}, false
}

// completionKind names what symbol sym of g is in get_completions' terms.
func completionKind(g *File, sym int32, d navindex.Def, ok bool) string {
	y := g.S.Syms[sym]
	if y.Kind == navindex.SymMember {
		return "field"
	}
	if !ok {
		return "variable"
	}
	switch d.Kind {
	case navindex.KindFunction:
		if y.Scope >= 0 && int(y.Scope) < len(g.S.Scopes) && g.S.Scopes[y.Scope].Kind == navindex.ScopeClass {
			return "method"
		}
		return "function"
	case navindex.KindMethod:
		return "method"
	case navindex.KindClass:
		return "class"
	case navindex.KindParameter:
		return "parameter"
	case navindex.KindProperty:
		return "property"
	case navindex.KindModule:
		return "module"
	}
	if isConstantName(y.Name) {
		return "constant"
	}
	return "variable"
}

// isConstantName: UPPER_CASE, as pyright's completion kinds tell constants.
func isConstantName(s string) bool {
	letter := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		letter = letter || unicode.IsUpper(r)
	}
	return letter
}

func matchesPrefix(name, prefix string) bool {
	return len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix)
}

// rank scores a candidate: the uses of the name in this file weigh most
// (what the author writes here, they wrote nearby), then the bonus
// (scope distance, MRO depth), then for members their uses in the
// workspace; a prefix typed in the name's own case counts, private names
// and dunders sink unless the prefix asks for them.
func (q *completionQuery) rank(name string, bonus float64, attr bool, ws int) float64 {
	fileUses := q.fileUses[name]
	if attr {
		fileUses = q.fileAttrUses[name]
	}
	s := 2*math.Log2(1+float64(fileUses)) + bonus
	if attr || q.c.What == pycomplete.ImportMember {
		// Workspace counts break ties between members the file does not
		// use yet; for names in scope they cost 1.1 points of top-5
		// (RATIONALE).
		if ws < 0 {
			ws = q.wsUses(name, attr)
		}
		s += math.Log2(1 + float64(ws))
	}
	if q.c.Prefix != "" && strings.HasPrefix(name, q.c.Prefix) {
		s += 1
	}
	switch {
	case strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") && !strings.HasPrefix(q.c.Prefix, "__"):
		s -= 100
	case strings.HasPrefix(name, "_") && !strings.HasPrefix(q.c.Prefix, "_"):
		s -= 10
	}
	return s
}

func (q *completionQuery) result(limit int) CompletionList {
	sort.SliceStable(q.items, func(i, j int) bool {
		a, b := q.items[i], q.items[j]
		if a.score != b.score {
			return a.score > b.score
		}
		return a.Label < b.Label
	})
	page := q.items[:min(limit, len(q.items))]
	for i := range page {
		q.describe(&page[i])
	}
	return CompletionList{Items: page, Total: len(q.items)}
}

// attributes offers the attributes of the receiver's type.
func (q *completionQuery) attributes() {
	t := q.receiverType()
	for _, a := range q.ev.Attributes(t) {
		q.addCounted(a.Name, "", a.Ref, -0.25*math.Min(float64(a.Depth), 8), true, q.declUses(a.Ref))
	}
	// A package's submodules are attributes once imported; offer them.
	if t.Kind() == pytypes.KindModule {
		q.submodules(t.Text())
	}
}

// declUses counts the workspace's occurrences linked to the declaration
// r (every `resp.json` the link resolved to Response.json, whatever the
// receiver is called), the one being typed left out; -1 when r is not
// one the link keys (a module, or nothing), so the name is counted.
func (q *completionQuery) declUses(r pytypes.Ref) int {
	g, ok := r.Unit.(*File)
	if !ok || r.Sym < 0 || int(r.Sym) >= len(g.S.Syms) {
		return -1
	}
	t := target{kind: tSym, f: g, sym: r.Sym}
	if g.typeshed {
		y := g.S.Syms[r.Sym]
		if y.Qual == "" {
			return -1
		}
		t = target{kind: tExt, f: g, sym: r.Sym, name: g.Module + "." + y.Qual, mod: g.Module}
	}
	id, ok := q.x.keyIDs[q.x.keyString(t)]
	if !ok {
		return 0
	}
	n := len(q.x.inv[id])
	if i := q.occAt(q.c.PrefixStart); i >= 0 && q.c.Prefix != "" && q.f.occKeys[i] == id && n > 0 {
		n--
	}
	return n
}

// possibleType is t, or for an Unknown the type it possibly is (an
// ambiguous overloaded call's), whose members pyright offers too.
func possibleType(t pytypes.Type) pytypes.Type {
	if t.IsUnknown() {
		return t.Possible()
	}
	return t
}

// receiverType is the type of the receiver before the dot: when the
// file already holds an attribute there (a name being retyped, or the
// cursor inside one), its receiver expression as the indexer recorded it
// (calls, subscripts and super() included); else the occurrence just
// before the dot; else the receiver read back from the text.
func (q *completionQuery) receiverType() pytypes.Type {
	if i := q.occAt(q.c.PrefixStart); i >= 0 {
		if y := q.f.S.Syms[q.f.S.Occs[i].Sym]; y.Kind == navindex.SymAttr && y.Recv >= 0 {
			if t := possibleType(q.ev.ExprType(q.f, y.Recv)); !t.IsUnknown() {
				return t
			}
		}
	}
	line, col := q.lines.Position(q.c.DotOffset)
	occs := q.f.S.Occs
	i := sort.Search(len(occs), func(i int) bool {
		return occs[i].Line > int32(line) || occs[i].Line == int32(line) && occs[i].End >= int32(col)
	})
	last := q.c.Receiver[len(q.c.Receiver)-1]
	if i < len(occs) && occs[i].Line == int32(line) && occs[i].End == int32(col) && int(occs[i].Sym) < len(q.f.S.Syms) && occs[i].Sym >= 0 &&
		q.f.S.Syms[occs[i].Sym].Name == last {
		if t := possibleType(q.ev.TypeAt(q.f, occs[i])); !t.IsUnknown() {
			return t
		}
	}
	// The text: the first part in the scopes around the dot, each next
	// part a member.
	var t pytypes.Type
	for k, part := range q.c.Receiver {
		name := strings.TrimRight(part, "()[]")
		suffix := part[len(name):]
		if k == 0 {
			if part == `""` {
				t = q.ev.InstanceOf(q.builtinType("str"))
				continue
			}
			t = q.nameType(name)
		} else {
			t = q.ev.Member(t, name).Type
		}
		for i := 0; i+1 < len(suffix); i += 2 {
			if suffix[i] == '(' {
				t = q.ev.CallResult(t)
			} else {
				t = q.ev.CallResult(q.ev.Member(t, "__getitem__").Type)
			}
		}
		if t.IsUnknown() {
			return t
		}
	}
	return t
}

// occAt is the index of the occurrence starting at byte offset off, -1
// none.
func (q *completionQuery) occAt(off int) int {
	line, col := q.lines.Position(off)
	occs := q.f.S.Occs
	i := sort.Search(len(occs), func(i int) bool {
		return occs[i].Line > int32(line) || occs[i].Line == int32(line) && occs[i].Col >= int32(col)
	})
	if i < len(occs) && occs[i].Line == int32(line) && occs[i].Col == int32(col) && occs[i].Sym >= 0 && int(occs[i].Sym) < len(q.f.S.Syms) {
		return i
	}
	return -1
}

// nameType is the type of name as read at the position: a local of the
// enclosing scopes, a global, a builtin.
func (q *completionQuery) nameType(name string) pytypes.Type {
	for _, sc := range q.scopeChain(q.c.DotOffset) {
		if s, ok := q.f.local(sc, name); ok {
			return q.ev.SymType(q.f, s)
		}
	}
	return q.builtinType(name)
}

func (q *completionQuery) builtinType(name string) pytypes.Type {
	r := q.x.programLocked().ModuleMember("builtins", name)
	if r.Unit == nil {
		return pytypes.Type{}
	}
	return q.ev.SymType(r.Unit, r.Sym)
}

// scopeChain lists the scopes whose names are visible at byte offset
// off, innermost first, module last: the defs and classes enclosing it
// by indentation (a class's names only when it is the innermost).
func (q *completionQuery) scopeChain(off int) []int32 {
	line, _ := q.lines.Position(off)
	lineStart := bytes.LastIndexByte(q.src[:off], '\n') + 1
	headers := pycomplete.EnclosingBlocks(q.src, line, off-lineStart)
	bodies := map[int32]int32{} // header line -> body scope
	for _, d := range q.f.S.Defs {
		if d.Body > 0 && int(d.Body) < len(q.f.S.Scopes) && (d.Kind == navindex.KindClass || d.Kind == navindex.KindFunction || d.Kind == navindex.KindMethod || d.Kind == navindex.KindProperty) {
			bodies[d.Name.Line] = d.Body
		}
	}
	var chain []int32
	for _, h := range headers {
		sc, ok := bodies[int32(h)]
		if !ok {
			continue
		}
		if len(chain) > 0 && q.f.S.Scopes[sc].Kind == navindex.ScopeClass {
			continue
		}
		chain = append(chain, sc)
	}
	return append(chain, 0)
}

// names offers what a name may be here.
func (q *completionQuery) names() {
	scopeSyms := map[int32][]int32{}
	for i, y := range q.f.S.Syms {
		if y.Kind == navindex.SymLocal {
			scopeSyms[y.Scope] = append(scopeSyms[y.Scope], int32(i))
		}
	}
	chain := q.scopeChain(q.c.PrefixStart)
	for k, sc := range chain {
		bonus := 1.0 // module globals
		if sc != 0 {
			bonus = 2 - 0.25*float64(k)
		}
		for _, s := range scopeSyms[sc] {
			q.add(q.f.S.Syms[s].Name, "", pytypes.Ref{Unit: q.f, Sym: s}, bonus, false)
		}
	}
	for _, st := range q.f.S.Stars {
		if mod, ok := q.x.mods.absolute(q.f, st.Level, st.Module); ok {
			for _, a := range q.ev.Attributes(pytypes.ModuleType(mod)) {
				if a.Depth == 0 && !strings.HasPrefix(a.Name, "_") {
					q.add(a.Name, "", a.Ref, 0.5, false)
				}
			}
		}
	}
	for _, a := range q.ev.Attributes(pytypes.ModuleType("builtins")) {
		if a.Depth == 0 && !strings.HasPrefix(a.Name, "_") {
			q.add(a.Name, "", a.Ref, 0, false)
		}
	}
	for _, kw := range pycomplete.Keywords(q.c) {
		q.add(kw, "keyword", pytypes.Ref{}, 0, false)
	}
	if q.c.Prefix != "" {
		q.importableNames()
	}
}

// maxImportableScan bounds the importable names a query ranks by prefix
// alone.
const maxImportableScan = 400

// importableNames offers the names other modules define that nothing
// here binds, after everything in scope: each carries the module to
// import it from (the first of importablesLocked's order).
func (q *completionQuery) importableNames() {
	t := q.x.importablesLocked()
	var names []string
	if r := t.withPrefix(q.c.Prefix); len(r) <= maxImportableScan {
		for _, ln := range r {
			names = append(names, ln.name)
		}
	} else {
		// A short prefix matches thousands of a large workspace's names:
		// only those the file already reads are worth ranking.
		for name := range q.fileUses {
			if matchesPrefix(name, q.c.Prefix) && len(t.defs[name]) > 0 {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		if q.seen[name] {
			continue
		}
		defs := t.defs[name]
		d := defs[0]
		if d.f == q.f {
			if len(defs) == 1 {
				continue
			}
			d = defs[1]
		}
		n := len(q.items)
		q.add(name, "", pytypes.Ref{Unit: d.f, Sym: d.sym}, -3, false)
		if len(q.items) > n {
			q.items[n].Import = d.f.Module
		}
	}
}

// modules offers the modules below the package typed so far (top-level
// ones without one): the workspace's, then the standard library's.
func (q *completionQuery) modules() {
	pkg := q.c.Module
	if q.c.Level > 0 {
		abs, ok := relativeModule(q.f, int32(q.c.Level), pkg)
		if !ok {
			return
		}
		pkg = abs
	}
	if pkg == "" && q.c.Level == 0 {
		for name := range q.x.mods.byName {
			q.addModule(name[:firstDot(name)], 0.5)
		}
		for name := range q.x.mods.pkgs {
			q.addModule(name[:firstDot(name)], 0.5)
		}
		for name := range stdlibModules {
			q.addModule(name, 0)
		}
		return
	}
	q.submodules(pkg)
}

func firstDot(s string) int {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return i
	}
	return len(s)
}

// submodules offers the direct submodules of pkg the workspace or the
// loaded stubs know.
func (q *completionQuery) submodules(pkg string) {
	prefix := pkg + "."
	if pkg == "" {
		prefix = ""
	}
	add := func(name string) {
		if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" {
			q.addModule(rest[:firstDot(rest)], 0.5)
		}
	}
	for name := range q.x.mods.byName {
		add(name)
	}
	for name := range q.x.mods.pkgs {
		add(name)
	}
	for name := range q.x.mods.stubs {
		add(name)
	}
}

func (q *completionQuery) addModule(name string, bonus float64) {
	if isIdent(name) {
		q.add(name, "module", pytypes.Ref{}, bonus, false)
	}
}

// importMembers offers the names `from m import` can take: m's names and
// its submodules.
func (q *completionQuery) importMembers() {
	mod, ok := q.x.mods.absolute(q.f, int32(q.c.Level), q.c.Module)
	if !ok {
		return
	}
	for _, a := range q.ev.Attributes(pytypes.ModuleType(mod)) {
		if a.Depth == 0 {
			q.add(a.Name, "", a.Ref, 0, false)
		}
	}
	q.submodules(mod)
}
