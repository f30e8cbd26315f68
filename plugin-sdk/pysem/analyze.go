package pysem

import (
	"unsafe"

	"github.com/pyws/pyws/plugin-sdk/slab"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// fieldIDs are the tree's field ids used by the walk, resolved once.
type fieldIDs struct {
	name, body, parameters, typeParameters, returnType, superclasses, definition,
	left, right, typ, value, alternative, consequence, condition, moduleName, alias,
	object, attribute, function, arguments, subject, guard, key, subscript uint8
}

type builder struct {
	m   *Module
	t   *tree.Tree
	src []byte
	f   fieldIDs

	scope *Scope
	// Context counters of the walk.
	cond, typeChecking, tryImport int
	ann                           int // inside an annotation expression
	noStr                         int // strings are not annotations (Literal[...], Annotated metadata)
	deferred                      int // refs are evaluated later (see package comment)
	deferAnn                      bool
	baseDefer                     int
	skipBodies                    bool // Options.SkipFunctionBodies, when it applies
	skipDocs                      bool // Options.SkipDocstrings

	bindings []*Binding     // in creation order
	vk       tree.KindTable // visitKinds for t
	names    nameTable      // numbers Binding and Ref names
	syms     []symbol       // the bindings by owner and name (place)

	// The model's many small objects come from chunks: one allocation per
	// chunk instead of one per object (malloc is slow in a wasm guest).
	bindingSlab slab.Slab[Binding]
	refSlab     slab.Slab[Ref]
	attrSlab    slab.Slab[AttrRef]
}

// Analyze builds the semantic model of the file t was parsed from. It
// never fails: whatever a tree with syntax errors holds is analyzed as far
// as it can be.
func Analyze(t *tree.Tree, opts Options) *Module {
	m := &Module{Tree: t, Opts: opts, Future: map[string]bool{}}
	m.builtins = Builtins(opts.PythonMinor)
	b := &builder{m: m, t: t}
	if t == nil {
		m.Root = &Scope{Kind: ScopeModule, Bindings: map[string][]*Binding{}}
		m.Scopes = []*Scope{m.Root}
		return m
	}
	b.src = t.Source()
	b.vk = visitKinds.Table(t)
	b.initFields()
	if opts.IsStub {
		b.baseDefer = 1
	}
	if normMinor(opts.PythonMinor) >= 14 {
		b.deferAnn = true
	}
	b.deferred = b.baseDefer
	b.skipBodies = opts.SkipFunctionBodies && globalKinds.Table(t).Scan(0, t.NodeCount(), 0) == t.NodeCount()
	b.skipDocs = opts.SkipDocstrings
	root := t.Root()
	m.Root = b.push(ScopeModule, root, 0, len(b.src))
	m.DocNode, m.Docstring = b.docstring(root)
	b.children(root)
	b.pop()
	b.place()
	b.resolve()
	b.finish()
	return m
}

func (b *builder) initFields() {
	id := func(s string) uint8 { v, _ := b.t.FieldID(s); return v }
	b.f = fieldIDs{
		name: id("name"), body: id("body"), parameters: id("parameters"),
		typeParameters: id("type_parameters"), returnType: id("return_type"),
		superclasses: id("superclasses"), definition: id("definition"), left: id("left"),
		right: id("right"), typ: id("type"), value: id("value"), alternative: id("alternative"),
		consequence: id("consequence"), condition: id("condition"), moduleName: id("module_name"),
		alias: id("alias"), object: id("object"), attribute: id("attribute"), function: id("function"),
		arguments: id("arguments"), subject: id("subject"), guard: id("guard"), key: id("key"),
		subscript: id("subscript"),
	}
}

// field returns n's first child in field id (null if none).
func field(n tree.Node, id uint8) tree.Node { return n.ChildByFieldID(id) }

// firstNamed returns n's first named child that is not a comment.
func firstNamed(n tree.Node) tree.Node {
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.IsNamed() && !c.IsExtra() {
			return c
		}
	}
	return tree.Node{}
}

// srcString returns b as a string sharing its memory. b must be part of
// a tree's source, which the tree package requires to stay unchanged:
// names then cost neither a copy nor an intern-table lookup (string
// hashing is slow in a wasm guest). The names keep the source alive as
// long as the Module does anyway.
func srcString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (b *builder) name(n tree.Node) string { return srcString(n.Text()) }

func (b *builder) validIdent(n tree.Node) bool {
	// The class first: it is false for the null Node.
	return b.vk.Of(n) == vkIdentifier && !n.IsMissing() && n.EndByte() > n.StartByte()
}

// ---- scopes, bindings, refs ----

func (b *builder) push(kind ScopeKind, n tree.Node, start, end int) *Scope {
	// Bindings is made by place, with its size known.
	s := &Scope{Kind: kind, Node: n, Parent: b.scope, Start: start, End: end, Index: len(b.m.Scopes)}
	if b.scope != nil {
		b.scope.Children = append(b.scope.Children, s)
	}
	b.m.Scopes = append(b.m.Scopes, s)
	b.scope = s
	return s
}

func (b *builder) pop() {
	if b.scope.Parent != nil {
		b.scope = b.scope.Parent
	}
}

func (b *builder) bind(id tree.Node, kind BindingKind, def, value tree.Node, at int) *Binding {
	if !b.validIdent(id) {
		return nil
	}
	bd := b.bindingSlab.New()
	name := b.name(id)
	*bd = Binding{Name: name, nid: b.names.id(name), Kind: kind, Site: b.scope, NameNode: id, DefNode: def,
		Value: value, at: at, Conditional: b.cond > 0, InTypeChecking: b.typeChecking > 0,
		InTryImportError: b.tryImport > 0}
	b.bindings = append(b.bindings, bd)
	return bd
}

func (b *builder) ref(id tree.Node, ctx RefContext) *Ref {
	if !b.validIdent(id) {
		return nil
	}
	if b.ann > 0 {
		ctx |= CtxAnnotation
	}
	r := b.refSlab.New()
	name := b.name(id)
	*r = Ref{Name: name, nid: b.names.id(name), Node: id, Start: id.StartByte(), End: id.EndByte(), Scope: b.scope,
		Ctx: ctx, Deferred: b.deferred > 0}
	b.m.Refs = append(b.m.Refs, r)
	return r
}

func (b *builder) attrRef(n, obj tree.Node, objRef *Ref, attr tree.Node, ctx RefContext) *AttrRef {
	if !b.validIdent(attr) {
		return nil
	}
	if b.ann > 0 {
		ctx |= CtxAnnotation
	}
	a := b.attrSlab.New()
	*a = AttrRef{Node: n, Object: obj, ObjectRef: objRef, Name: b.name(attr), NameNode: attr,
		Start: attr.StartByte(), End: attr.EndByte(), Ctx: ctx, Scope: b.scope}
	b.m.Attrs = append(b.m.Attrs, a)
	return a
}

// ---- the walk ----

func (b *builder) children(n tree.Node) {
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if !c.IsNamed() {
			continue
		}
		// visit's two commonest cases, without the call.
		switch b.vk.Of(c) {
		case vkIdentifier:
			b.ref(c, CtxLoad)
		case vkLeaf, vkStringStart, vkStringContent, vkStringEnd:
		default:
			b.visit(c)
		}
	}
}

// Cases of builder.visit, by kind name (see visitKind).
const (
	vkOther = iota
	vkIdentifier
	vkAttribute
	vkCall
	vkKeywordArgument
	vkDecoratedDefinition
	vkFunctionDefinition
	vkClassDefinition
	vkLambda
	vkComprehension
	vkAssignment
	vkAugmentedAssignment
	vkNamedExpression
	vkForStatement
	vkWhileStatement
	vkIfStatement
	vkTryStatement
	vkWithStatement
	vkMatchStatement
	vkGlobalNonlocal
	vkDeleteStatement
	vkImportStatement
	vkImportFromStatement
	vkFutureImportStatement
	vkTypeAliasStatement
	vkString
	vkSubscript
	vkGenericType
	vkMemberType
	vkError
	vkComment
	vkLeaf
	vkStringStart   // leaves: visited as vkLeaf
	vkStringContent //
	vkStringEnd     //

	// The kinds below are visited as any other kind (visit's default):
	// they have classes for the builder's other switches, which compare
	// classes rather than kind names.
	vkType
	vkArgumentList
	vkForInClause
	vkIfClause
	vkPatternList // pattern_list, tuple_pattern, list_pattern
	vkTuple
	vkList
	vkExpressionList
	vkParenthesizedExpression
	vkListSplatPattern
	vkDictionarySplatPattern
	vkListSplat
	vkDictionarySplat
	vkTypedParameter
	vkDefaultParameter // default_parameter, typed_default_parameter
	vkExpressionStatement
	vkBlock
	vkElifClause
	vkElseClause
	vkExceptClause
	vkFinallyClause
	vkDecorator
	vkAsync
	vkNotOperator
	vkAsPattern
	vkAsPatternTarget
	vkWithClause
	vkWithItem
	vkInterpolation
)

// globalKinds finds global statements, which rule out
// Options.SkipFunctionBodies.
var globalKinds = tree.NewKindClasses(map[string]uint8{"global_statement": 1})

var visitKinds = tree.NewKindClasses(map[string]uint8{
	"identifier":               vkIdentifier,
	"attribute":                vkAttribute,
	"call":                     vkCall,
	"keyword_argument":         vkKeywordArgument,
	"decorated_definition":     vkDecoratedDefinition,
	"function_definition":      vkFunctionDefinition,
	"class_definition":         vkClassDefinition,
	"lambda":                   vkLambda,
	"list_comprehension":       vkComprehension,
	"set_comprehension":        vkComprehension,
	"dictionary_comprehension": vkComprehension,
	"generator_expression":     vkComprehension,
	"assignment":               vkAssignment,
	"augmented_assignment":     vkAugmentedAssignment,
	"named_expression":         vkNamedExpression,
	"for_statement":            vkForStatement,
	"while_statement":          vkWhileStatement,
	"if_statement":             vkIfStatement,
	"try_statement":            vkTryStatement,
	"with_statement":           vkWithStatement,
	"match_statement":          vkMatchStatement,
	"global_statement":         vkGlobalNonlocal,
	"nonlocal_statement":       vkGlobalNonlocal,
	"delete_statement":         vkDeleteStatement,
	"import_statement":         vkImportStatement,
	"import_from_statement":    vkImportFromStatement,
	"future_import_statement":  vkFutureImportStatement,
	"type_alias_statement":     vkTypeAliasStatement,
	"string":                   vkString,
	"subscript":                vkSubscript,
	"generic_type":             vkGenericType,
	"member_type":              vkMemberType,
	"ERROR":                    vkError,
	"comment":                  vkComment,
	"integer":                  vkLeaf,
	"float":                    vkLeaf,
	"true":                     vkLeaf,
	"false":                    vkLeaf,
	"none":                     vkLeaf,
	"ellipsis":                 vkLeaf,
	"string_start":             vkStringStart,
	"string_content":           vkStringContent,
	"string_end":               vkStringEnd,
	"escape_sequence":          vkLeaf,
	"pass_statement":           vkLeaf,
	"break_statement":          vkLeaf,
	"continue_statement":       vkLeaf,
	"type_conversion":          vkLeaf,
	"line_continuation":        vkLeaf,
	"type":                     vkType,
	"argument_list":            vkArgumentList,
	"for_in_clause":            vkForInClause,
	"if_clause":                vkIfClause,
	"pattern_list":             vkPatternList,
	"tuple_pattern":            vkPatternList,
	"list_pattern":             vkPatternList,
	"tuple":                    vkTuple,
	"list":                     vkList,
	"expression_list":          vkExpressionList,
	"parenthesized_expression": vkParenthesizedExpression,
	"list_splat_pattern":       vkListSplatPattern,
	"dictionary_splat_pattern": vkDictionarySplatPattern,
	"list_splat":               vkListSplat,
	"dictionary_splat":         vkDictionarySplat,
	"typed_parameter":          vkTypedParameter,
	"default_parameter":        vkDefaultParameter,
	"typed_default_parameter":  vkDefaultParameter,
	"expression_statement":     vkExpressionStatement,
	"block":                    vkBlock,
	"elif_clause":              vkElifClause,
	"else_clause":              vkElseClause,
	"except_clause":            vkExceptClause,
	"finally_clause":           vkFinallyClause,
	"decorator":                vkDecorator,
	"async":                    vkAsync,
	"not_operator":             vkNotOperator,
	"as_pattern":               vkAsPattern,
	"as_pattern_target":        vkAsPatternTarget,
	"with_clause":              vkWithClause,
	"with_item":                vkWithItem,
	"interpolation":            vkInterpolation,
})

// visit's switch is on the class of n's kind: a switch on the kind's name
// costs several string comparisons per node, which are calls in a wasm
// guest.
func (b *builder) visit(n tree.Node) {
	switch b.vk.Of(n) {
	case vkIdentifier: // identifier
		b.ref(n, CtxLoad)
	case vkAttribute: // attribute
		b.attribute(n, CtxLoad)
	case vkCall: // call
		b.call(n, 0)
	case vkKeywordArgument: // keyword_argument
		b.visit(field(n, b.f.value))
	case vkDecoratedDefinition: // decorated_definition
		b.decorated(n)
	case vkFunctionDefinition: // function_definition
		b.funcDef(n, nil)
	case vkClassDefinition: // class_definition
		b.classDef(n, nil)
	case vkLambda: // lambda
		b.lambda(n)
	case vkComprehension: // list_comprehension, set_comprehension, dictionary_comprehension, generator_expression
		b.comprehension(n)
	case vkAssignment: // assignment
		b.assignment(n)
	case vkAugmentedAssignment: // augmented_assignment
		b.augAssign(n)
	case vkNamedExpression: // named_expression
		b.walrus(n)
	case vkForStatement: // for_statement
		b.forStmt(n)
	case vkWhileStatement: // while_statement
		b.visit(field(n, b.f.condition))
		b.cond++
		b.visit(field(n, b.f.body))
		b.visit(field(n, b.f.alternative))
		b.cond--
	case vkIfStatement: // if_statement
		b.ifStmt(n)
	case vkTryStatement: // try_statement
		b.tryStmt(n)
	case vkWithStatement: // with_statement
		b.withStmt(n)
	case vkMatchStatement: // match_statement
		b.matchStmt(n)
	case vkGlobalNonlocal: // global_statement, nonlocal_statement
		b.globalStmt(n)
	case vkDeleteStatement: // delete_statement
		for c := range n.NamedChildren() {
			b.delTarget(c, n)
		}
	case vkImportStatement: // import_statement
		b.importStmt(n)
	case vkImportFromStatement: // import_from_statement
		b.importFrom(n)
	case vkFutureImportStatement: // future_import_statement
		b.futureImport(n)
	case vkTypeAliasStatement: // type_alias_statement
		b.typeAlias(n)
	case vkString: // string
		if b.ann > 0 && b.noStr == 0 {
			b.stringAnnotation(n)
			return
		}
		b.children(n)
	case vkSubscript: // subscript
		b.subscript(n)
	case vkGenericType: // generic_type
		b.genericType(n)
	case vkMemberType: // member_type
		obj := firstNamed(n)
		objRef := b.objectExpr(obj)
		var attr tree.Node
		for c := range n.NamedChildren() {
			if b.vk.Of(c) == vkIdentifier {
				attr = c
			}
		}
		b.attrRef(n, obj, objRef, attr, CtxLoad)
	case vkError: // ERROR
		for c := range n.NamedChildren() {
			if b.vk.Of(c) != vkIdentifier {
				b.visit(c)
			}
		}
	case vkComment: // comment
		b.typeComment(n)
	case vkLeaf, vkStringStart, vkStringContent, vkStringEnd: // integer, float, true, false, none, ellipsis, string_start, string_content, string_end, escape_sequence, pass_statement, break_statement, continue_statement, type_conversion, line_continuation
	default: // vkOther and the classes after vkStringEnd

		b.children(n)
	}
}

// objectExpr visits the object of an attribute and returns its Ref when
// it is a plain name.
func (b *builder) objectExpr(obj tree.Node) *Ref {
	switch b.vk.Of(obj) {
	case vkIdentifier:
		return b.ref(obj, CtxLoad)
	case vkType:
		if c := firstNamed(obj); b.vk.Of(c) == vkIdentifier && c.NextSibling().IsNull() {
			return b.ref(c, CtxLoad)
		}
	}
	b.visit(obj)
	return nil
}

func (b *builder) attribute(n tree.Node, ctx RefContext) *AttrRef {
	obj := field(n, b.f.object)
	objRef := b.objectExpr(obj)
	return b.attrRef(n, obj, objRef, field(n, b.f.attribute), ctx)
}

// exprFlags visits a decorator or callee expression, tagging the name.
func (b *builder) exprFlags(n tree.Node, flags RefContext) {
	switch b.vk.Of(n) {
	case vkIdentifier:
		b.ref(n, CtxLoad|flags)
	case vkAttribute:
		b.attribute(n, CtxLoad|flags)
	case vkCall:
		b.call(n, flags)
	default:
		b.visit(n)
	}
}

// lastName returns the last name of a dotted expression (y of x.y, f of
// f(...) and x.f(...)), "" if none; kinds is visitKinds for n's tree. The
// result aliases the source.
func lastName(kinds tree.KindTable, n tree.Node) string {
	switch kinds.Of(n) {
	case vkIdentifier:
		return srcString(n.Text())
	case vkAttribute:
		for c := range n.NamedChildren() {
			if c.FieldName() == "attribute" {
				return srcString(c.Text())
			}
		}
	case vkCall:
		for c := range n.Children() {
			if c.FieldName() == "function" {
				return lastName(kinds, c)
			}
		}
	case vkType:
		return lastName(kinds, firstNamed(n))
	}
	return ""
}

func decoratorName(d tree.Node) string { return lastName(visitKinds.Table(d.Tree()), d) }

func (b *builder) call(n tree.Node, flags RefContext) {
	fn := field(n, b.f.function)
	fnKind := b.vk.Of(fn)
	switch fnKind {
	case vkIdentifier:
		if r := b.ref(fn, CtxLoad|CtxCall|flags); r != nil && r.Name == "locals" {
			b.scope.UsesLocals = true
		}
	case vkAttribute:
		b.attribute(fn, CtxLoad|CtxCall|flags)
	default:
		b.visit(fn)
	}
	args := field(n, b.f.arguments)
	if b.vk.Of(args) != vkArgumentList {
		b.visit(args)
		return
	}
	// typing.cast and typing.TypeVar take types as strings. (lastName's
	// cases, with the two common ones written out.)
	var callee []byte
	switch fnKind {
	case vkIdentifier:
		callee = fn.Text()
	case vkAttribute:
		callee = field(fn, b.f.attribute).Text()
	default:
		callee = []byte(lastName(b.vk, fn))
	}
	cast, typeVar := string(callee) == "cast", string(callee) == "TypeVar"
	if (cast || typeVar) && !b.isTyping(fn, string(callee)) {
		cast, typeVar = false, false
	}
	ann, noStr := b.ann, b.noStr
	b.ann, b.noStr = 0, 0
	i := 0
	for c := args.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if !c.IsNamed() {
			continue
		}
		switch ck := b.vk.Of(c); {
		case c.IsExtra():
		case ck == vkKeywordArgument:
			v := field(c, b.f.value)
			if typeVar && string(field(c, b.f.name).Text()) == "bound" && b.vk.Of(v) == vkString {
				b.stringAnnotation(v)
			} else {
				b.visit(v)
			}
		default:
			if ck == vkString && ((cast && i == 0) || (typeVar && i > 0)) {
				b.stringAnnotation(c)
			} else {
				b.visit(c)
			}
			i++
		}
	}
	b.ann, b.noStr = ann, noStr
	if b.scope == b.m.Root && fnKind == vkAttribute {
		if obj := field(fn, b.f.object); b.vk.Of(obj) == vkIdentifier && string(obj.Text()) == "__all__" {
			arg := firstNamed(args)
			switch string(field(fn, b.f.attribute).Text()) {
			case "extend":
				b.allStmt(n, arg, false)
			case "append":
				b.allStmt(n, arg, true)
			}
		}
	}
}

// isTyping reports whether fn names typing's (or typing_extensions')
// member: a name imported from typing, or an attribute of a name bound to
// an import of typing. Bindings are searched as walked so far.
func (b *builder) isTyping(fn tree.Node, member string) bool {
	typingMod := func(m string) bool { return m == "typing" || m == "typing_extensions" }
	var name string
	switch fn.Kind() {
	case "identifier":
		name = string(fn.Text())
	case "attribute":
		obj := field(fn, b.f.object)
		if obj.Kind() != "identifier" {
			return false
		}
		name = string(obj.Text())
	default:
		return false
	}
	for i := len(b.bindings) - 1; i >= 0; i-- {
		bd := b.bindings[i]
		if bd.Name != name {
			continue
		}
		im := bd.Import
		if im == nil {
			return false
		}
		if fn.Kind() == "identifier" {
			return im.Level == 0 && typingMod(im.Module) && (im.Name == member || member == "")
		}
		return im.Level == 0 && im.Name == "" && typingMod(im.Module)
	}
	return false
}

func (b *builder) subscript(n tree.Node) {
	val := field(n, b.f.value)
	b.visit(val)
	// A subscript of a typing member (List["Foo"], t.Optional["Foo"]) is a
	// type expression even outside annotations.
	vk := b.vk.Of(val)
	typ := b.ann == 0 && (vk == vkIdentifier || vk == vkAttribute) && b.isTyping(val, "")
	if typ {
		b.ann++
	}
	b.typeArgs(n, lastName(b.vk, val), func(c tree.Node) bool { return c.FieldID() == b.f.subscript })
	if typ {
		b.ann--
	}
}

// typeArgs visits the arguments of a subscript or generic type; inside an
// annotation, the arguments of Literal are not annotations and only the
// first argument of Annotated is.
func (b *builder) typeArgs(n tree.Node, head string, isArg func(tree.Node) bool) {
	lit := b.ann > 0 && head == "Literal"
	annotated := b.ann > 0 && head == "Annotated"
	i := 0
	for c := range n.NamedChildren() {
		if !isArg(c) {
			continue
		}
		switch {
		case lit:
			b.noStr++
			b.visit(c)
			b.noStr--
		case annotated && i > 0:
			ann := b.ann
			b.ann = 0
			b.visit(c)
			b.ann = ann
		default:
			b.visit(c)
		}
		i++
	}
}

func (b *builder) genericType(n tree.Node) {
	var head string
	for c := range n.NamedChildren() {
		switch c.Kind() {
		case "identifier":
			b.ref(c, CtxLoad)
			head = srcString(c.Text())
		case "type_parameter":
			// A tuple of args inside a single type: Literal["a", "b"].
			b.typeArgs(c, head, func(x tree.Node) bool { return x.Kind() == "type" })
		default:
			b.visit(c)
		}
	}
}

// annotation visits a type/annotation node.
func (b *builder) annotation(n tree.Node, deferred bool) {
	if n.IsNull() {
		return
	}
	b.ann++
	if deferred || b.deferAnn {
		b.deferred++
	}
	b.visit(n)
	if deferred || b.deferAnn {
		b.deferred--
	}
	b.ann--
}

// ---- definitions ----

func (b *builder) decorated(n tree.Node) {
	var decos []tree.Node
	var def tree.Node
	for c := range n.NamedChildren() {
		switch {
		case b.vk.Of(c) == vkDecorator:
			if e := firstNamed(c); !e.IsNull() {
				decos = append(decos, e)
				b.exprFlags(e, CtxDecorator)
			}
		case c.FieldID() == b.f.definition:
			def = c
		default:
			b.visit(c)
		}
	}
	switch b.vk.Of(def) {
	case vkFunctionDefinition:
		b.funcDef(def, decos)
	case vkClassDefinition:
		b.classDef(def, decos)
	default:
		if !def.IsNull() {
			b.visit(def)
		}
	}
}

// enterBody saves the walk context and resets it for a new function or
// class body.
type walkCtx struct{ cond, tryImport, ann, noStr, deferred int }

func (b *builder) saveCtx() walkCtx {
	c := walkCtx{b.cond, b.tryImport, b.ann, b.noStr, b.deferred}
	b.cond, b.tryImport, b.ann, b.noStr, b.deferred = 0, 0, 0, 0, b.baseDefer
	return c
}

func (b *builder) restoreCtx(c walkCtx) {
	b.cond, b.tryImport, b.ann, b.noStr, b.deferred = c.cond, c.tryImport, c.ann, c.noStr, c.deferred
}

func (b *builder) hasAsync(n tree.Node) bool {
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if !c.IsNamed() {
			return b.vk.Of(c) == vkAsync
		}
	}
	return false
}

// ownComments visits the comments that are direct children of n (type
// comments of a def, for or with header).
func (b *builder) ownComments(n tree.Node) {
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.IsExtra() && b.vk.Of(c) == vkComment {
			b.typeComment(c)
		}
	}
}

func (b *builder) funcDef(n tree.Node, decos []tree.Node) {
	outer := b.scope
	b.ownComments(n)
	b.ownComments(field(n, b.f.parameters))
	nameID := field(n, b.f.name)
	bd := b.bind(nameID, BindFunction, n, tree.Node{}, n.EndByte())
	params := field(n, b.f.parameters)
	tparams := field(n, b.f.typeParameters)
	ret := field(n, b.f.returnType)
	body := field(n, b.f.body)
	if bd != nil {
		bd.Decorators = decos
		bd.Async = b.hasAsync(n)
		bd.Annotation = ret
		if outer.Kind == ScopeClass {
			b.property(bd, outer)
		}
	}
	// Defaults: in the enclosing scope, before any type-parameter scope.
	b.paramDefaults(params)
	pushed := 0
	if !tparams.IsNull() {
		b.push(ScopeTypeParams, n, tparams.StartByte(), n.EndByte())
		b.typeParams(tparams)
		pushed++
	}
	b.paramAnnotations(params)
	b.annotation(ret, false)
	start := n.StartByte()
	if !params.IsNull() {
		start = params.StartByte()
	}
	fs := b.push(ScopeFunction, n, start, n.EndByte())
	pushed++
	if bd != nil {
		fs.Owner = bd
		bd.Body = fs
	}
	if outer.Kind == ScopeClass {
		fs.Method = InstanceMethod
		name := ""
		if bd != nil {
			name = bd.Name
			switch {
			case bd.HasDecorator("staticmethod"):
				fs.Method = StaticMethod
			case bd.HasDecorator("classmethod"):
				fs.Method = ClassMethod
			}
		}
		switch name {
		case "__new__":
			fs.Method = StaticMethod
		case "__init_subclass__", "__class_getitem__":
			fs.Method = ClassMethod
		}
	}
	saved := b.saveCtx()
	first := b.bindParams(params, n.StartByte())
	if fs.Method == InstanceMethod || fs.Method == ClassMethod || (fs.Method == StaticMethod && fs.Owner != nil && fs.Owner.Name == "__new__") {
		fs.Self = first
	}
	if bd != nil {
		bd.DocNode, bd.Docstring = b.docstring(body)
	}
	if !b.skipBodies {
		b.visit(body)
	}
	b.restoreCtx(saved)
	for ; pushed > 0; pushed-- {
		b.pop()
	}
}

// property links @x.setter/@x.deleter defs to their @property getter.
func (b *builder) property(bd *Binding, class *Scope) {
	if bd.HasDecorator("property", "cached_property", "abstractproperty") {
		bd.PropertyRole = PropertyGetter
		return
	}
	for _, d := range bd.Decorators {
		if b.vk.Of(d) != vkAttribute {
			continue
		}
		obj := field(d, b.f.object)
		role := NotProperty
		switch string(field(d, b.f.attribute).Text()) {
		case "setter":
			role = PropertySetter
		case "deleter":
			role = PropertyDeleter
		case "getter":
			role = PropertyGetter
		}
		if role == NotProperty || b.vk.Of(obj) != vkIdentifier || string(obj.Text()) != bd.Name {
			continue
		}
		for i := len(b.bindings) - 1; i >= 0; i-- {
			p := b.bindings[i]
			if p.Site == class && p.Name == bd.Name && p.Kind == BindFunction && p != bd && p.PropertyRole != NotProperty {
				bd.PropertyRole = role
				bd.Property = p
				if p.Property != nil {
					bd.Property = p.Property
				}
				return
			}
		}
	}
}

func (b *builder) paramDefaults(params tree.Node) {
	for c := params.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.IsNamed() && b.vk.Of(c) == vkDefaultParameter { // default_parameter, typed_default_parameter
			b.visit(field(c, b.f.value))
		}
	}
}

func (b *builder) paramAnnotations(params tree.Node) {
	for c := params.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		switch k := b.vk.Of(c); {
		case !c.IsNamed():
		case k == vkTypedParameter, k == vkDefaultParameter: // a default_parameter has no type: annotation(null) is a no-op
			b.annotation(field(c, b.f.typ), false)
		}
	}
}

// bindParams binds the parameters in the current (function or lambda)
// scope and returns the first one.
func (b *builder) bindParams(params tree.Node, at int) *Binding {
	var first *Binding
	add := func(bd *Binding) {
		if bd != nil && first == nil {
			first = bd
		}
	}
	for c := params.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if !c.IsNamed() {
			continue
		}
		switch c.Kind() {
		case "identifier":
			add(b.bind(c, BindParameter, c, tree.Node{}, at))
		case "typed_parameter":
			id := firstNamed(c)
			star := false
			if k := b.vk.Of(id); k == vkListSplatPattern || k == vkDictionarySplatPattern {
				id = firstNamed(id)
				star = true
			}
			if bd := b.bind(id, BindParameter, c, tree.Node{}, at); bd != nil {
				bd.Annotation = field(c, b.f.typ)
				bd.Starred = star
				if !star {
					add(bd)
				}
			}
		case "default_parameter", "typed_default_parameter":
			id := field(c, b.f.name)
			if b.vk.Of(id) == vkIdentifier {
				if bd := b.bind(id, BindParameter, c, field(c, b.f.value), at); bd != nil {
					bd.Annotation = field(c, b.f.typ)
					add(bd)
				}
			} else {
				b.target(id, BindParameter, c, tree.Node{}, at, 0)
			}
		case "list_splat_pattern", "dictionary_splat_pattern":
			if bd := b.bind(firstNamed(c), BindParameter, c, tree.Node{}, at); bd != nil {
				bd.Starred = true
			}
		case "tuple_pattern":
			b.target(c, BindParameter, c, tree.Node{}, at, 0)
		}
	}
	return first
}

// typeParams binds PEP 695 type parameters in the current scope.
func (b *builder) typeParams(tp tree.Node) {
	for c := range tp.NamedChildren() {
		if c.Kind() != "type" {
			continue
		}
		inner := firstNamed(c)
		switch inner.Kind() {
		case "identifier":
			b.bind(inner, BindTypeParam, c, tree.Node{}, b.scope.Start)
		case "splat_type":
			if bd := b.bind(firstNamed(inner), BindTypeParam, c, tree.Node{}, b.scope.Start); bd != nil {
				bd.Starred = true
			}
		case "constrained_type":
			var bd *Binding
			k := 0
			for t := range inner.NamedChildren() {
				if t.Kind() != "type" {
					continue
				}
				if k == 0 {
					if id := firstNamed(t); id.Kind() == "identifier" {
						bd = b.bind(id, BindTypeParam, c, tree.Node{}, b.scope.Start)
					}
				} else {
					if bd != nil {
						bd.Annotation = t
					}
					b.annotation(t, true) // bounds are evaluated lazily
				}
				k++
			}
		default:
			b.annotation(c, true)
		}
	}
}

func (b *builder) classDef(n tree.Node, decos []tree.Node) {
	nameID := field(n, b.f.name)
	bd := b.bind(nameID, BindClass, n, tree.Node{}, n.EndByte())
	if bd != nil {
		bd.Decorators = decos
	}
	tparams := field(n, b.f.typeParameters)
	pushed := 0
	if !tparams.IsNull() {
		b.push(ScopeTypeParams, n, tparams.StartByte(), n.EndByte())
		b.typeParams(tparams)
		pushed++
	}
	if supers := field(n, b.f.superclasses); !supers.IsNull() {
		for c := range supers.NamedChildren() {
			switch {
			case c.IsExtra():
			case b.vk.Of(c) == vkKeywordArgument:
				if bd != nil {
					bd.Keywords = append(bd.Keywords, c)
				}
				b.visit(field(c, b.f.value))
			default:
				if k := b.vk.Of(c); bd != nil && k != vkListSplat && k != vkDictionarySplat {
					bd.Bases = append(bd.Bases, c)
				}
				b.visit(c)
			}
		}
	}
	body := field(n, b.f.body)
	start := n.EndByte()
	if !body.IsNull() {
		start = body.StartByte()
	}
	cs := b.push(ScopeClass, n, start, n.EndByte())
	pushed++
	if bd != nil {
		cs.Owner = bd
		bd.Body = cs
		bd.DocNode, bd.Docstring = b.docstring(body)
	}
	saved := b.saveCtx()
	b.visit(body)
	b.restoreCtx(saved)
	for ; pushed > 0; pushed-- {
		b.pop()
	}
}

func (b *builder) lambda(n tree.Node) {
	params := field(n, b.f.parameters)
	b.paramDefaults(params)
	b.push(ScopeLambda, n, n.StartByte(), n.EndByte())
	saved := b.saveCtx()
	b.bindParams(params, n.StartByte())
	b.visit(field(n, b.f.body))
	b.restoreCtx(saved)
	b.pop()
}

func (b *builder) comprehension(n tree.Node) {
	first := true
	// The first iterable is evaluated in the enclosing scope.
	for c := range n.NamedChildren() {
		if b.vk.Of(c) == vkForInClause {
			for r := c.FirstChild(); !r.IsNull(); r = r.NextSibling() {
				if r.FieldID() == b.f.right {
					b.visit(r)
				}
			}
			break
		}
	}
	b.push(ScopeComprehension, n, n.StartByte(), n.EndByte())
	ann, noStr := b.ann, b.noStr
	b.ann, b.noStr = 0, 0
	for c := range n.NamedChildren() {
		switch b.vk.Of(c) {
		case vkForInClause:
			var right tree.Node
			for r := c.FirstChild(); !r.IsNull(); r = r.NextSibling() {
				if r.FieldID() != b.f.right {
					continue
				}
				if !first {
					b.visit(r)
				}
				right = r
			}
			first = false
			b.target(field(c, b.f.left), BindComprehension, c, right, c.EndByte(), 0)
		case vkIfClause:
			b.children(c)
		}
	}
	for c := range n.NamedChildren() {
		if c.FieldID() == b.f.body {
			b.visit(c)
		}
	}
	b.ann, b.noStr = ann, noStr
	b.pop()
}

// ---- assignments and targets ----

const (
	tUnpacked = 1 << iota
	tStarred
)

// target binds the names of an assignment-like target.
func (b *builder) target(n tree.Node, kind BindingKind, def, value tree.Node, at int, flags int) {
	switch b.vk.Of(n) {
	case vkIdentifier:
		if bd := b.bind(n, kind, def, value, at); bd != nil {
			bd.Unpacked = flags&tUnpacked != 0
			bd.Starred = flags&tStarred != 0
		}
	case vkPatternList, vkTuple, vkList, vkExpressionList: // and tuple_pattern, list_pattern
		for c := range n.NamedChildren() {
			b.target(c, kind, def, value, at, flags|tUnpacked)
		}
	case vkParenthesizedExpression:
		for c := range n.NamedChildren() {
			b.target(c, kind, def, value, at, flags)
		}
	case vkListSplatPattern, vkListSplat:
		for c := range n.NamedChildren() {
			b.target(c, kind, def, value, at, flags|tStarred)
		}
	case vkAttribute:
		b.attribute(n, CtxStore)
	case vkComment:
	default: // the null Node too: visiting it does nothing
		b.visit(n)
	}
}

func (b *builder) assignment(n tree.Node) {
	var targets []tree.Node
	typ := field(n, b.f.typ)
	value := tree.Node{}
	for cur := n; ; {
		targets = append(targets, field(cur, b.f.left))
		r := field(cur, b.f.right)
		if b.vk.Of(r) == vkAssignment && field(r, b.f.typ).IsNull() {
			cur = r
			continue
		}
		value = r
		break
	}
	if !value.IsNull() {
		if !typ.IsNull() && lastName(b.vk, typ) == "TypeAlias" && b.vk.Of(value) == vkString {
			b.ann++
			b.deferred++
			b.stringAnnotation(value)
			b.deferred--
			b.ann--
		} else {
			b.visit(value)
		}
	}
	kind := BindAssignment
	if !typ.IsNull() {
		kind = BindAnnotated
		// Annotations of local variables are never evaluated.
		b.annotation(typ, b.scope.Kind != ScopeModule && b.scope.Kind != ScopeClass)
	}
	at := n.EndByte()
	first := len(b.bindings)
	for _, t := range targets {
		b.target(t, kind, n, value, at, 0)
	}
	created := b.bindings[first:]
	for _, bd := range created {
		bd.Annotation = typ
	}
	if b.scope == b.m.Root {
		for _, t := range targets {
			if b.vk.Of(t) == vkIdentifier && string(t.Text()) == "__all__" {
				b.allStmt(n, value, false)
			}
		}
	}
	// Attribute docstrings: a string statement right after the assignment.
	if (b.scope.Kind == ScopeModule || b.scope.Kind == ScopeClass) && len(created) == 1 {
		if p := n.Parent(); b.vk.Of(p) == vkExpressionStatement {
			nx := p.NextSibling()
			for !nx.IsNull() && (nx.IsExtra() || !nx.IsNamed()) {
				nx = nx.NextSibling()
			}
			if s := b.docString(nx); !s.IsNull() {
				created[0].DocNode = s
				created[0].Docstring = b.cleanDoc(s)
			}
		}
	}
}

func (b *builder) augAssign(n tree.Node) {
	left := field(n, b.f.left)
	right := field(n, b.f.right)
	switch b.vk.Of(left) {
	case vkIdentifier:
		b.ref(left, CtxAugAssign)
		b.visit(right)
		b.bind(left, BindAugAssign, n, right, n.EndByte())
		if b.scope == b.m.Root && string(left.Text()) == "__all__" {
			b.allStmt(n, right, false)
		}
	case vkAttribute:
		b.attribute(left, CtxAugAssign)
		b.visit(right)
	default:
		b.visit(left)
		b.visit(right)
	}
}

func (b *builder) walrus(n tree.Node) {
	value := field(n, b.f.value)
	b.visit(value)
	if bd := b.bind(field(n, b.f.name), BindWalrus, n, value, n.EndByte()); bd != nil {
		bd.walrus = true
	}
}

func (b *builder) delTarget(n, stmt tree.Node) {
	switch n.Kind() {
	case "identifier":
		b.ref(n, CtxDel)
		if bd := b.bind(n, BindDel, stmt, tree.Node{}, stmt.EndByte()); bd != nil {
			// A del unbinds for the rest of its block; after a conditional
			// block the name is only possibly unbound.
			if p := stmt.Parent(); b.vk.Of(p) == vkBlock {
				bd.until = p.EndByte()
			}
		}
	case "tuple", "list", "expression_list", "parenthesized_expression", "pattern_list":
		for c := range n.NamedChildren() {
			b.delTarget(c, stmt)
		}
	case "attribute":
		b.attribute(n, CtxDel)
	default:
		b.visit(n)
	}
}

// ---- compound statements ----

func (b *builder) forStmt(n tree.Node) {
	right := field(n, b.f.right)
	b.visit(right)
	b.ownComments(n)
	at := right.EndByte()
	if right.IsNull() {
		at = n.StartByte()
	}
	first := len(b.bindings)
	b.target(field(n, b.f.left), BindFor, n, right, at, 0)
	if b.hasAsync(n) {
		for _, bd := range b.bindings[first:] {
			bd.Async = true
		}
	}
	b.cond++
	b.visit(field(n, b.f.body))
	b.visit(field(n, b.f.alternative))
	b.cond--
}

func (b *builder) isTypeChecking(n tree.Node) bool {
	switch b.vk.Of(n) {
	case vkIdentifier, vkAttribute:
		return lastName(b.vk, n) == "TYPE_CHECKING"
	}
	return false
}

func (b *builder) isNotTypeChecking(n tree.Node) bool {
	if b.vk.Of(n) != vkNotOperator {
		return false
	}
	return b.isTypeChecking(firstNamed(n))
}

func (b *builder) ifStmt(n tree.Node) {
	c := field(n, b.f.condition)
	b.visit(c)
	tc, ntc := b.isTypeChecking(c), b.isNotTypeChecking(c)
	b.cond++
	if tc {
		b.typeChecking++
	}
	b.visit(field(n, b.f.consequence))
	if tc {
		b.typeChecking--
	}
	for alt := n.FirstChild(); !alt.IsNull(); alt = alt.NextSibling() {
		if alt.FieldID() != b.f.alternative {
			continue
		}
		switch b.vk.Of(alt) {
		case vkElifClause:
			b.visit(field(alt, b.f.condition))
			b.visit(field(alt, b.f.consequence))
		case vkElseClause:
			if ntc {
				b.typeChecking++
			}
			b.visit(field(alt, b.f.body))
			if ntc {
				b.typeChecking--
			}
		default:
			b.visit(alt)
		}
	}
	b.cond--
}

func (b *builder) catchesImportError(clause tree.Node) bool {
	found := false
	for c := range clause.NamedChildren() {
		if b.vk.Of(c) == vkBlock {
			continue
		}
		c.Walk(func(x tree.Node) bool {
			if b.vk.Of(x) == vkIdentifier {
				if t := string(x.Text()); t == "ImportError" || t == "ModuleNotFoundError" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func (b *builder) tryStmt(n tree.Node) {
	imp := false
	for c := range n.NamedChildren() {
		if b.vk.Of(c) == vkExceptClause && b.catchesImportError(c) {
			imp = true
		}
	}
	b.cond++
	if imp {
		b.tryImport++
	}
	b.visit(field(n, b.f.body))
	for c := range n.NamedChildren() {
		if b.vk.Of(c) == vkExceptClause {
			b.exceptClause(c)
		}
	}
	if imp {
		b.tryImport--
	}
	for c := range n.NamedChildren() {
		if b.vk.Of(c) == vkElseClause {
			b.visit(c)
		}
	}
	b.cond--
	for c := range n.NamedChildren() {
		switch b.vk.Of(c) {
		case vkFinallyClause:
			b.visit(c)
		case vkExceptClause, vkElseClause, vkBlock, vkComment:
		default:
			if c.FieldID() != b.f.body {
				b.visit(c)
			}
		}
	}
}

func (b *builder) exceptClause(c tree.Node) {
	bindAlias := func(alias, typ tree.Node) {
		id := alias
		if b.vk.Of(id) == vkAsPatternTarget {
			id = firstNamed(id)
		}
		if bd := b.bind(id, BindExcept, c, typ, alias.EndByte()); bd != nil {
			bd.until = c.EndByte()
		}
	}
	var typ tree.Node
	for ch := range c.NamedChildren() {
		switch {
		case ch.FieldID() == b.f.alias:
			bindAlias(ch, typ)
		case b.vk.Of(ch) == vkAsPattern:
			var alias tree.Node
			for x := range ch.NamedChildren() {
				if x.FieldID() == b.f.alias {
					alias = x
				} else {
					typ = x
					b.visit(x)
				}
			}
			if !alias.IsNull() {
				bindAlias(alias, typ)
			}
		default:
			if ch.FieldID() == b.f.value {
				typ = ch
			}
			b.visit(ch)
		}
	}
}

func (b *builder) withStmt(n tree.Node) {
	async := b.hasAsync(n)
	b.ownComments(n)
	for c := range n.NamedChildren() {
		if b.vk.Of(c) != vkWithClause {
			if c.FieldID() == b.f.body {
				b.visit(c)
			}
			continue
		}
		for item := range c.NamedChildren() {
			if b.vk.Of(item) != vkWithItem {
				b.visit(item)
				continue
			}
			v := field(item, b.f.value)
			if b.vk.Of(v) != vkAsPattern {
				b.visit(v)
				continue
			}
			var alias, expr tree.Node
			for x := range v.NamedChildren() {
				if x.FieldID() == b.f.alias {
					alias = x
				} else {
					expr = x
					b.visit(x)
				}
			}
			first := len(b.bindings)
			b.target(firstNamed(alias), BindWith, item, expr, item.EndByte(), 0)
			for _, bd := range b.bindings[first:] {
				bd.Async = async
			}
		}
	}
}

func (b *builder) matchStmt(n tree.Node) {
	for c := range n.NamedChildren() {
		if c.FieldID() == b.f.subject {
			b.visit(c)
		}
	}
	body := field(n, b.f.body)
	b.cond++
	for cc := range body.NamedChildren() {
		if cc.Kind() != "case_clause" {
			b.visit(cc)
			continue
		}
		for p := range cc.NamedChildren() {
			switch {
			case p.FieldID() == b.f.guard || p.FieldID() == b.f.consequence:
				b.visit(p)
			default:
				b.pattern(p, cc)
			}
		}
	}
	b.cond--
}

// dottedValue records a dotted name used as a value (a class in a class
// pattern, a value pattern): a ref for the head, attr refs for the rest.
func (b *builder) dottedValue(n tree.Node) {
	var head *Ref
	var prev tree.Node
	for id := range n.NamedChildren() {
		if id.Kind() != "identifier" {
			continue
		}
		if prev.IsNull() {
			head = b.ref(id, CtxLoad)
		} else {
			b.attrRef(tree.Node{}, prev, head, id, CtxLoad)
			head = nil
		}
		prev = id
	}
}

func (b *builder) pattern(p, clause tree.Node) {
	switch p.Kind() {
	case "case_pattern", "list_pattern", "tuple_pattern", "union_pattern":
		for c := range p.NamedChildren() {
			b.pattern(c, clause)
		}
	case "dotted_name":
		ids := 0
		var id tree.Node
		for c := range p.NamedChildren() {
			if c.Kind() == "identifier" {
				ids++
				id = c
			}
		}
		if ids == 1 {
			b.bind(id, BindMatch, clause, tree.Node{}, id.EndByte())
		} else {
			b.dottedValue(p)
		}
	case "class_pattern":
		first := true
		for c := range p.NamedChildren() {
			if first && c.Kind() == "dotted_name" {
				b.dottedValue(c)
			} else {
				b.pattern(c, clause)
			}
			first = false
		}
	case "keyword_pattern":
		first := true
		for c := range p.NamedChildren() {
			if !(first && c.Kind() == "identifier") {
				b.pattern(c, clause)
			}
			first = false
		}
	case "as_pattern":
		for c := range p.NamedChildren() {
			if c.Kind() == "identifier" {
				b.bind(c, BindMatch, clause, tree.Node{}, c.EndByte())
			} else {
				b.pattern(c, clause)
			}
		}
	case "splat_pattern":
		if bd := b.bind(firstNamed(p), BindMatch, clause, tree.Node{}, p.EndByte()); bd != nil {
			bd.Starred = true
		}
	case "dict_pattern":
		for c := range p.NamedChildren() {
			if c.FieldID() == b.f.key {
				if c.Kind() == "dotted_name" {
					b.dottedValue(c)
				} else {
					b.visit(c)
				}
			} else {
				b.pattern(c, clause)
			}
		}
	default:
		b.visit(p)
	}
}

func (b *builder) globalStmt(n tree.Node) {
	global := n.Kind() == "global_statement"
	for id := range n.NamedChildren() {
		if !b.validIdent(id) {
			continue
		}
		name := b.name(id)
		if global {
			if b.scope.Globals == nil {
				b.scope.Globals = map[string]tree.Node{}
			}
			if _, ok := b.scope.Globals[name]; !ok {
				b.scope.Globals[name] = id
			}
			b.ref(id, CtxGlobal)
		} else {
			if b.scope.Nonlocals == nil {
				b.scope.Nonlocals = map[string]tree.Node{}
			}
			if _, ok := b.scope.Nonlocals[name]; !ok {
				b.scope.Nonlocals[name] = id
			}
			b.ref(id, CtxNonlocal)
		}
	}
}

func (b *builder) typeAlias(n tree.Node) {
	left := firstNamed(field(n, b.f.left))
	var nameID, tparams tree.Node
	if k := left.Kind(); k != "generic_type" && k != "identifier" {
		// `type(x).y = v` parsed as a type alias statement: it is a call
		// of the builtin type and an assignment.
		if tok := n.FirstChild(); tok.Kind() == "type" && !tok.IsNamed() {
			r := &Ref{Name: "type", nid: b.names.id("type"), Node: tok, Start: tok.StartByte(), End: tok.EndByte(), Scope: b.scope,
				Ctx: CtxLoad | CtxCall, Deferred: b.deferred > 0}
			b.m.Refs = append(b.m.Refs, r)
		}
		right := firstNamed(field(n, b.f.right))
		b.visit(right)
		b.target(left, BindAssignment, n, right, n.EndByte(), 0)
		return
	}
	switch left.Kind() {
	case "generic_type":
		for c := range left.NamedChildren() {
			switch c.Kind() {
			case "identifier":
				nameID = c
			case "type_parameter":
				tparams = c
			}
		}
	case "identifier":
		nameID = left
	}
	right := field(n, b.f.right)
	b.bind(nameID, BindTypeAlias, n, right, n.EndByte())
	if !tparams.IsNull() {
		b.push(ScopeTypeParams, n, tparams.StartByte(), n.EndByte())
		b.typeParams(tparams)
	}
	b.annotation(right, true)
	if !tparams.IsNull() {
		b.pop()
	}
}
