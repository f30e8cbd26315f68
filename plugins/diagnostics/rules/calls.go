package rules

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Calls: missing-argument and type-mismatch for calls whose callee is
// known for certain:
//
//   - a function or class of this file, bound exactly once in its scope;
//   - a function or class imported with `from m import f` from a workspace
//     module the kernel sent as a context file, bound exactly once there;
//   - a standard-library function or builtin of the table in stdsigs.go.
//
// Functions with decorators other than a known signature-preserving few
// (functools.cache/lru_cache/wraps, contextlib.contextmanager,
// typing.final/override, @deprecated, staticmethod/classmethod) are not
// checked; classes only when their __init__ is known: no decorators, no
// metaclass, no __new__, and bases that are all checkable classes of the
// same file. A call with *args or **kwargs unpacking, too many positional
// arguments or an unknown keyword is not checked at all (our signature may
// be wrong). Argument types are the literal's type, or the declared type
// of a parameter or annotated variable bound once; only builtin types
// (int, float, complex, bool, str, bytes, list, dict, set, frozenset,
// tuple, None, and Optional/Union/| of them) are compared.

type paramKind uint8

const (
	posOnly paramKind = iota
	posOrKw
	varPos
	kwOnly
	varKw
)

type param struct {
	name       string
	kind       paramKind
	hasDefault bool
	typ        typ
	anyTyp     bool
	node       tree.Node
}

type signature struct {
	name   string
	params []param
}

func (c *checker) calls() {
	// Looked up once: checkCall and checkArg run for most calls.
	c.onMissingArgument, c.onTypeMismatch = c.on(MissingArgument), c.on(TypeMismatch)
	ev := typeEval{c.m}
	c.fName, c.fValue = fieldID(c.t, "name"), fieldID(c.t, "value")
	argsID, fnID := fieldID(c.t, "arguments"), fieldID(c.t, "function")
	check := func(fn tree.Node, r *pysem.Ref) {
		n := fn.Parent()
		if c.nk.Of(n) != nkCall || n.ChildByFieldID(fnID) != fn {
			return
		}
		args := n.ChildByFieldID(argsID)
		if c.nk.Of(args) != nkArgumentList {
			return // generator argument: f(x for x in y)
		}
		if sig := c.calleeSignature(fn, r); sig != nil {
			c.checkCall(n, args, sig, ev)
		}
	}
	// Only calls of a name or an attribute can have a known signature, and
	// pysem marks those callees: no need to visit every node for calls.
	// (Findings are sorted by position later.)
	for _, r := range c.m.Refs {
		if r.Ctx&pysem.CtxCall != 0 {
			check(r.Node, r)
		}
	}
	for _, a := range c.m.Attrs {
		if a.Ctx&pysem.CtxCall != 0 && !a.Node.IsNull() {
			check(a.Node, nil)
		}
	}
	c.declaredValues(ev)
}

// fieldID is t.FieldID, 0 (no child has it) for a field t's language
// lacks.
func fieldID(t *tree.Tree, name string) uint8 {
	id, _ := t.FieldID(name)
	return id
}

// refAt returns the ref of identifier n, nil when n is not one.
func (c *checker) refAt(n tree.Node) *pysem.Ref {
	r := c.m.RefAt(n.StartByte())
	if r == nil || r.Start != n.StartByte() || r.End != n.EndByte() {
		return nil
	}
	return r
}

func onlyBinding(b *pysem.Binding) bool {
	bs := b.Symbol()
	return len(bs) == 1 && b.Site == b.Scope
}

// qualName returns the dotted standard-library name an expression denotes
// through imports ("os.path.join", "builtins.len"), or "".
func (c *checker) qualName(n tree.Node) string {
	switch c.nk.Of(n) {
	case nkIdentifier:
		return refQualName(c.refAt(n))
	case nkAttribute:
		if q := c.qualName(n.ChildByField("object")); q != "" {
			return q + "." + text(n.ChildByField("attribute"))
		}
	}
	return ""
}

// refQualName is qualName of the identifier r is the ref of (r may be
// nil).
func refQualName(r *pysem.Ref) string {
	if r == nil {
		return ""
	}
	if r.Builtin {
		return "builtins." + r.Name
	}
	b := r.Binding
	if b == nil || r.Unbound || !(onlyBinding(b) || sameModuleImports(b)) {
		return ""
	}
	switch b.Kind {
	case pysem.BindImport:
		return importedModule(b)
	case pysem.BindImportFrom:
		if b.Import.Level == 0 {
			return b.Import.Module + "." + b.Import.Name
		}
	}
	return ""
}

// calleeSignature returns the signature of the callee fn; r is fn's ref
// when the caller has it (what refAt would find), nil otherwise.
func (c *checker) calleeSignature(fn tree.Node, r *pysem.Ref) *signature {
	var q string
	switch c.nk.Of(fn) {
	case nkIdentifier:
		if r == nil {
			r = c.refAt(fn)
		}
		if r != nil && r.Binding != nil && !r.Unbound && onlyBinding(r.Binding) {
			b := r.Binding
			switch b.Kind {
			case pysem.BindFunction, pysem.BindClass:
				return c.defSignature(c.m, b)
			case pysem.BindImportFrom:
				if mod, ok := b.Import.Absolute(c.env.ModuleName, c.env.IsPackageInit); ok {
					if cf := c.context(mod); cf != nil {
						return c.contextSignature(cf, mod, b.Import.Name)
					}
				}
			}
		}
		if r != nil && r.Builtin && !maybeStdSignature([]byte(r.Name)) {
			return nil
		}
		q = refQualName(r)
	case nkAttribute:
		if maybeStdSignature(fn.ChildByField("attribute").Text()) {
			q = c.qualName(fn)
		}
	}
	if q != "" {
		return stdSignature(q, c.cfg.PythonMinor)
	}
	return nil
}

// defSignature is defSignature memoized by binding: a function is usually
// called from several places, and reading its signature evaluates its
// decorators and annotations.
func (c *checker) defSignature(m *pysem.Module, b *pysem.Binding) *signature {
	if c.sigs == nil {
		c.sigs = make([]memoSig, len(m.Bindings))
	}
	if ms := &c.sigs[b.Index]; ms.done {
		return ms.sig
	}
	sig := defSignature(m, b)
	c.sigs[b.Index] = memoSig{sig, true}
	return sig
}

// memoSig is a memoized defSignature.
type memoSig struct {
	sig  *signature // nil included
	done bool
}

// moduleBinding returns the single def/class binding of name at module
// level of m, nil when it is bound otherwise or more than once.
func moduleBinding(m *pysem.Module, name string) *pysem.Binding {
	bs := m.Root.Bindings[name]
	if len(bs) != 1 || bs[0].Site != m.Root {
		return nil
	}
	if k := bs[0].Kind; k != pysem.BindFunction && k != pysem.BindClass {
		return nil
	}
	return bs[0]
}

// preservingDecorator: decorators that keep the call signature.
func preservingDecorator(m *pysem.Module, d tree.Node, method bool) bool {
	if d.Kind() == "call" {
		d = d.ChildByField("function")
	}
	ev := typeEval{m}
	var q string
	switch d.Kind() {
	case "identifier":
		r := ev.ref(d)
		if r == nil {
			return false
		}
		if r.Builtin {
			return method && (r.Name == "staticmethod" || r.Name == "classmethod")
		}
		if r.Binding == nil || r.Unbound || r.Binding.Kind != pysem.BindImportFrom {
			return false
		}
		q = r.Binding.Import.Module + "." + r.Binding.Import.Name
	case "attribute":
		obj := d.ChildByField("object")
		if obj.Kind() != "identifier" {
			return false
		}
		r := ev.ref(obj)
		if r == nil || r.Binding == nil || r.Unbound {
			return false
		}
		q = importedModule(r.Binding) + "." + text(d.ChildByField("attribute"))
	default:
		return false
	}
	switch q {
	case "functools.cache", "functools.lru_cache", "functools.wraps", "contextlib.contextmanager",
		"contextlib.asynccontextmanager", "typing.final", "typing_extensions.final", "typing.override",
		"typing_extensions.override", "typing_extensions.deprecated", "warnings.deprecated":
		return true
	}
	return false
}

// defSignature returns the call signature of a def or class binding of m.
func defSignature(m *pysem.Module, b *pysem.Binding) *signature {
	if b.Kind == pysem.BindClass {
		return classSignature(m, b, 0)
	}
	if b.Kind != pysem.BindFunction {
		return nil
	}
	method := b.Site.Kind == pysem.ScopeClass
	for _, d := range b.Decorators {
		if !preservingDecorator(m, d, method) {
			return nil
		}
	}
	if method {
		return nil // called through an instance or class: not resolved here
	}
	return funcSignature(m, b, false)
}

// classSignature: the signature of calling a class of m (its __init__
// without self), nil unless certain.
func classSignature(m *pysem.Module, b *pysem.Binding, depth int) *signature {
	if depth > 5 || len(b.Decorators) > 0 || len(b.Keywords) > 0 || b.Body == nil {
		return nil
	}
	body := b.Body
	if _, ok := body.Bindings["__new__"]; ok {
		return nil
	}
	var base *pysem.Binding
	for _, bn := range b.Bases {
		if bn.Kind() == "identifier" && string(bn.Text()) == "object" {
			if r := (typeEval{m}).ref(bn); r != nil && r.Builtin {
				continue
			}
			return nil
		}
		if base != nil || bn.Kind() != "identifier" {
			return nil
		}
		r := (typeEval{m}).ref(bn)
		if r == nil || r.Binding == nil || r.Unbound || r.Binding.Kind != pysem.BindClass || !onlyBinding(r.Binding) {
			return nil
		}
		base = r.Binding
	}
	inits := body.Bindings["__init__"]
	if len(inits) == 0 {
		if base == nil {
			return nil // object(): no arguments; not worth reporting
		}
		sig := classSignature(m, base, depth+1)
		if sig != nil {
			sig.name = b.Name
		}
		return sig
	}
	if len(inits) != 1 || inits[0].Kind != pysem.BindFunction || len(inits[0].Decorators) > 0 {
		return nil
	}
	if base != nil && hasNew(m, base, 0) {
		return nil
	}
	sig := funcSignature(m, inits[0], true)
	if sig != nil {
		sig.name = b.Name
	}
	return sig
}

func hasNew(m *pysem.Module, b *pysem.Binding, depth int) bool {
	if b.Body == nil || depth > 5 {
		return true
	}
	if _, ok := b.Body.Bindings["__new__"]; ok {
		return true
	}
	for _, bn := range b.Bases {
		r := (typeEval{m}).ref(bn)
		if r == nil || r.Builtin {
			continue
		}
		if r.Binding == nil || r.Binding.Kind != pysem.BindClass || hasNew(m, r.Binding, depth+1) {
			return true
		}
	}
	return false
}

// funcSignature reads a def's parameters; dropSelf drops the first one.
func funcSignature(m *pysem.Module, b *pysem.Binding, dropSelf bool) *signature {
	def := b.DefNode
	if def.Kind() != "function_definition" {
		return nil
	}
	ev := typeEval{m}
	params := def.ChildByField("parameters")
	sig := &signature{name: b.Name, params: make([]param, 0, params.NamedChildCount())}
	kwonly := false
	for p := range params.NamedChildren() {
		var pr param
		pr.node = p
		switch p.Kind() {
		case "identifier":
			pr.name, pr.kind = text(p), posOrKw
		case "typed_parameter":
			inner := p.NamedChild(0)
			switch inner.Kind() {
			case "identifier":
				pr.name, pr.kind = text(inner), posOrKw
			case "list_splat_pattern":
				pr.name, pr.kind = text(inner.NamedChild(0)), varPos
			case "dictionary_splat_pattern":
				pr.name, pr.kind = text(inner.NamedChild(0)), varKw
			default:
				return nil
			}
			pr.typ, pr.anyTyp = ev.eval(p.ChildByField("type"))
		case "default_parameter":
			pr.name, pr.kind, pr.hasDefault = text(p.ChildByField("name")), posOrKw, true
		case "typed_default_parameter":
			pr.name, pr.kind, pr.hasDefault = text(p.ChildByField("name")), posOrKw, true
			pr.typ, pr.anyTyp = ev.eval(p.ChildByField("type"))
			if v := p.ChildByField("value"); v.Kind() == "none" && pr.typ != 0 {
				pr.typ |= typ(kNone) // implicit Optional (PEP 484's old rule)
			}
		case "list_splat_pattern":
			pr.name, pr.kind = text(p.NamedChild(0)), varPos
		case "dictionary_splat_pattern":
			pr.name, pr.kind = text(p.NamedChild(0)), varKw
		case "keyword_separator":
			kwonly = true
			continue
		case "positional_separator":
			for i := range sig.params {
				if sig.params[i].kind == posOrKw {
					sig.params[i].kind = posOnly
				}
			}
			continue
		case "comment":
			continue
		default:
			return nil
		}
		if pr.kind == varPos {
			kwonly = true
		} else if kwonly && pr.kind == posOrKw {
			pr.kind = kwOnly
		}
		sig.params = append(sig.params, pr)
	}
	if dropSelf {
		if len(sig.params) == 0 || (sig.params[0].kind != posOrKw && sig.params[0].kind != posOnly) {
			return nil
		}
		sig.params = sig.params[1:]
	}
	return sig
}

// checkCall matches the arguments of call against sig.
func (c *checker) checkCall(call, args tree.Node, sig *signature, ev typeEval) {
	// Most calls have few arguments: keep these on the stack.
	var filledBuf, posBuf, kwsBuf [8]tree.Node
	filled := filledBuf[:0]
	if len(sig.params) > len(filledBuf) {
		filled = make([]tree.Node, len(sig.params))
	} else {
		filled = filledBuf[:len(sig.params)]
	}
	pos, kws := posBuf[:0], kwsBuf[:0]
	for a := args.FirstChild(); !a.IsNull(); a = a.NextSibling() {
		if !a.IsNamed() {
			continue
		}
		switch c.nk.Of(a) {
		case nkListSplat, nkDictionarySplat, nkParenthesizedListSplat:
			return
		case nkKeywordArgument:
			kws = append(kws, a)
		case nkComment:
		default:
			if len(kws) > 0 {
				return // positional after keyword: a syntax error CPython reports
			}
			pos = append(pos, a)
		}
	}
	i := 0
	for _, a := range pos {
		for i < len(sig.params) && sig.params[i].kind != posOnly && sig.params[i].kind != posOrKw && sig.params[i].kind != varPos {
			i++
		}
		if i >= len(sig.params) || sig.params[i].kind == kwOnly || sig.params[i].kind == varKw {
			return // too many positional arguments
		}
		if sig.params[i].kind == varPos {
			c.checkArg(a, &sig.params[i], sig, ev)
			continue
		}
		filled[i] = a
		i++
	}
	for _, kw := range kws {
		name := kw.ChildByFieldID(c.fName).Text()
		found := -1
		for j := range sig.params {
			p := &sig.params[j]
			if p.name == string(name) && (p.kind == posOrKw || p.kind == kwOnly) {
				found = j
			}
		}
		if found < 0 {
			hasVarKw := false
			for j := range sig.params {
				hasVarKw = hasVarKw || sig.params[j].kind == varKw
			}
			if !hasVarKw {
				return // unknown keyword
			}
			continue
		}
		if !filled[found].IsNull() {
			return // given twice
		}
		filled[found] = kw.ChildByFieldID(c.fValue)
	}
	var missing, fill []string
	keywords := true // every missing parameter can be passed by keyword
	for j := range sig.params {
		p := &sig.params[j]
		if filled[j].IsNull() && !p.hasDefault && (p.kind == posOnly || p.kind == posOrKw || p.kind == kwOnly) {
			missing = append(missing, "'"+p.name+"'")
			fill = append(fill, p.name)
			keywords = keywords && p.kind != posOnly
		}
	}
	if len(missing) > 0 && c.onMissingArgument {
		what := "argument"
		if len(missing) > 1 {
			what = "arguments"
		}
		c.addNodeMsg(MissingArgument, args, "missing "+what+" "+strings.Join(missing, ", ")+" in call to '"+sig.name+"'")
		if keywords {
			c.out[len(c.out)-1].fill = fill
		}
	}
	for j := range sig.params {
		if !filled[j].IsNull() {
			c.checkArg(filled[j], &sig.params[j], sig, ev)
		}
	}
}

func (c *checker) checkArg(a tree.Node, p *param, sig *signature, ev typeEval) {
	if !c.onTypeMismatch {
		return
	}
	k, ok := c.rejected(a, p.typ, p.anyTyp)
	if !ok {
		return
	}
	c.addNode(TypeMismatch, a, "argument of type '%s' is not assignable to parameter '%s' of type '%s' in call to '%s'",
		typ(k).String(), p.name, p.typ.String(), sig.name)
}

// argKind returns the kind of an argument: a literal's, or the declared
// type of a name bound once as an annotated parameter or variable, or a
// variable bound once to a literal.
func (c *checker) argKind(a tree.Node) (k kind, declared bool) {
	if k := literalKind(a); k != 0 {
		return k, false
	}
	if a.Kind() != "identifier" {
		return 0, false
	}
	r := c.refAt(a)
	if r == nil || r.Binding == nil || r.Unbound || !onlyBinding(r.Binding) {
		return 0, false
	}
	b := r.Binding
	switch b.Kind {
	case pysem.BindParameter, pysem.BindAnnotated:
		if b.Annotation.IsNull() || b.Starred {
			return 0, false
		}
		if b.Kind == pysem.BindParameter && !b.Value.IsNull() && b.Value.Kind() == "none" {
			return 0, false
		}
		t, isAny := (typeEval{c.m}).eval(b.Annotation)
		if isAny || t == 0 || t&(t-1) != 0 { // unions: narrowing may apply
			return 0, false
		}
		return kind(t), true
	case pysem.BindAssignment:
		if b.Unpacked || b.Starred || b.Value.IsNull() {
			return 0, false
		}
		if k := literalKind(b.Value); k != 0 && k != kNone {
			return k, true
		}
	}
	return 0, false
}

// sameModuleImports: every binding of b's name is `import m` or
// `import m.sub` for the same m (`import os` and `import os.path`).
func sameModuleImports(b *pysem.Binding) bool {
	if b.Kind != pysem.BindImport {
		return false
	}
	want := importedModule(b)
	for _, x := range b.Symbol() {
		if x.Kind != pysem.BindImport || importedModule(x) != want || x.Site != x.Scope {
			return false
		}
	}
	return true
}
