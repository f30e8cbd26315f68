package pysem

import (
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// DefaultPythonMinor is the Python 3 minor version assumed when
// Options.PythonMinor is 0.
const DefaultPythonMinor = 13

// Options describe the file being analyzed.
type Options struct {
	// ModuleName is the file's dotted module name ("pkg.sub"; for a
	// package's __init__ the package name), "" when unknown. It is used by
	// Import.Absolute to resolve relative imports.
	ModuleName string
	// IsPackageInit: the file is a package's __init__.py(i); __path__ is
	// defined and relative imports are relative to the package itself.
	IsPackageInit bool
	// IsStub: a .pyi file; forward references are legal everywhere.
	IsStub bool
	// PythonMinor is the target Python 3 minor version (8..14) for the
	// builtins table and annotation semantics; 0 means DefaultPythonMinor.
	PythonMinor int
	// SkipFunctionBodies leaves the statements of every def's body out of
	// the model (its parameters, defaults, annotations and decorators
	// stay): for readers of module- and class-level names only, such as a
	// module's outline. A module with a global statement anywhere is
	// analysed whole, since a body's global binds a module name.
	SkipFunctionBodies bool
	// SkipDocstrings leaves every Docstring empty (DocNode stays): for
	// readers that never show one, such as the diagnostics rules, which
	// would otherwise pay for cleaning each def's and class's docstring.
	SkipDocstrings bool
}

// ScopeKind says what created a scope.
type ScopeKind uint8

const (
	ScopeModule        ScopeKind = iota
	ScopeClass                   // a class body
	ScopeFunction                // a def (async or not) body, parameters included
	ScopeLambda                  // a lambda, parameters included
	ScopeComprehension           // list/set/dict comprehension or generator expression
	ScopeTypeParams              // PEP 695 type parameters of a generic def/class/type alias
)

var scopeKindNames = [...]string{"module", "class", "function", "lambda", "comprehension", "typeparams"}

func (k ScopeKind) String() string {
	if int(k) < len(scopeKindNames) {
		return scopeKindNames[k]
	}
	return "?"
}

// MethodKind classifies a function scope defined directly in a class body.
type MethodKind uint8

const (
	NotMethod      MethodKind = iota
	InstanceMethod            // first parameter is the instance (self)
	ClassMethod               // @classmethod, __init_subclass__, __class_getitem__: first parameter is the class (cls)
	StaticMethod              // @staticmethod, and __new__ (whose first parameter is still the class: see Scope.Self)
)

// Scope is one Python scope.
type Scope struct {
	Kind ScopeKind
	// Node is the module, class_definition, function_definition, lambda,
	// comprehension node; for ScopeTypeParams, the generic
	// function_definition, class_definition or type_alias_statement.
	Node   tree.Node
	Parent *Scope
	// Children are the directly nested scopes, in source order.
	Children []*Scope
	// Owner is the def/class binding that created the scope (nil for the
	// module, lambdas, comprehensions and type-parameter scopes).
	Owner *Binding
	// Bindings maps each name owned by this scope to its bindings in source
	// order. A name present here is local to the scope.
	Bindings map[string][]*Binding
	// Globals and Nonlocals map names declared `global`/`nonlocal` in this
	// scope to the identifier of their first declaration.
	Globals, Nonlocals map[string]tree.Node
	// Start and End delimit where ScopeAt answers this scope: a function
	// from its parameter list to its end, a class its body, a lambda, a
	// comprehension or a type-parameter scope their whole node.
	Start, End int
	// Method is set for function scopes directly in a class body.
	Method MethodKind
	// Self is the first parameter of a method (self, or cls for class
	// methods and __new__), nil otherwise.
	Self *Binding
	// UsesLocals: the scope calls the builtin locals() (any binding may be
	// read through it).
	UsesLocals bool
	// Index is the scope's position in Module.Scopes.
	Index int

	m       *Module
	symbols [][]*Binding // the values of Bindings (see Symbols)
}

// BindingKind says which construct bound a name.
type BindingKind uint8

const (
	BindImport        BindingKind = iota // import a.b / import a.b as c
	BindImportFrom                       // from m import x [as y]
	BindFunction                         // def / async def
	BindClass                            // class
	BindParameter                        // def/lambda parameter (incl. *args, **kw)
	BindAssignment                       // x = ...
	BindAugAssign                        // x += ...
	BindAnnotated                        // x: T [= ...] (Value null without value)
	BindFor                              // for x in ...
	BindWith                             // with ... as x
	BindExcept                           // except E as x
	BindWalrus                           // (x := ...)
	BindDel                              // del x (unbinds)
	BindMatch                            // case capture patterns: x, *x, **x, ... as x
	BindTypeParam                        // PEP 695 [T], [*Ts], [**P]
	BindComprehension                    // for x in ... inside a comprehension
	BindTypeAlias                        // type X = ...
)

var bindingKindNames = [...]string{"import", "importfrom", "function", "class", "parameter",
	"assignment", "augassign", "annotated", "for", "with", "except", "walrus", "del", "match",
	"typeparam", "comprehension", "typealias"}

func (k BindingKind) String() string {
	if int(k) < len(bindingKindNames) {
		return bindingKindNames[k]
	}
	return "?"
}

// PropertyRole says what a def is in a property group.
type PropertyRole uint8

const (
	NotProperty     PropertyRole = iota
	PropertyGetter               // @property (or functools.cached_property)
	PropertySetter               // @x.setter
	PropertyDeleter              // @x.deleter
)

// Binding is one place where a name is bound (or, BindDel, unbound).
type Binding struct {
	Name string
	Kind BindingKind
	// Scope owns the name; Site is the scope the binding is written in
	// (they differ for global/nonlocal names and for a walrus inside a
	// comprehension).
	Scope, Site *Scope
	// NameNode is the identifier to point at and rename.
	NameNode tree.Node
	// DefNode is the construct: function_definition, class_definition,
	// the import statement, the assignment/augmented_assignment, the
	// for_statement or for_in_clause, with_item, except_clause,
	// named_expression, delete_statement, case_clause, the parameter node,
	// the type_parameter's type node, type_alias_statement.
	DefNode tree.Node
	// Value is the expression assigned when there is one: the right-hand
	// side (the whole value for an unpacking), the iterable of a for, the
	// context expression of a with, the value of a walrus or of a type
	// alias, a parameter's default.
	Value tree.Node
	// Annotation is the type node of an annotated assignment or parameter,
	// the return type of a def.
	Annotation tree.Node
	// Import is set for BindImport and BindImportFrom.
	Import *Import
	// Refs are the references resolved to this binding, in source order,
	// including Unbound ones (rename must cover them; "is it used" checks
	// should skip them).
	Refs []*Ref
	// Decorators are the decorator expressions of a def/class (the node
	// after '@').
	Decorators []tree.Node
	// Bases are the positional arguments of a class's superclass list;
	// Keywords its keyword arguments (metaclass=..., total=...).
	Bases, Keywords []tree.Node
	// Body is the scope a def/class/lambda creates (nil otherwise).
	Body *Scope
	// Conditional: inside an if/elif/else, loop body/else, try
	// body/handler/else or match case (not finally).
	Conditional bool
	// InTypeChecking: inside `if TYPE_CHECKING:` (or typing.TYPE_CHECKING).
	InTypeChecking bool
	// InTryImportError: inside a try body, or one of its handlers, whose
	// handlers catch ImportError or ModuleNotFoundError.
	InTryImportError bool
	// Unpacked: bound as one element of a tuple/list unpacking target.
	Unpacked bool
	// Starred: bound by a *x target or pattern.
	Starred bool
	// Async: async def / async for / async with.
	Async bool
	// Docstring is the cleaned docstring of a def/class, or of a module or
	// class level assignment followed by a string statement; DocNode is
	// that string node.
	Docstring string
	DocNode   tree.Node
	// Property groups a getter with its setter/deleter defs.
	Property     *Binding
	PropertyRole PropertyRole
	// Index is the binding's position in Module.Bindings.
	Index int

	at     int // offset from which the binding is in effect
	until  int // offset from which it is unbound again (except aliases); 0: never
	walrus bool
	nid    int32 // Name's number (see nameTable)
	nrefs  int   // len(Refs), counted before they are listed
	sym    int32 // Scope.symbols[sym] holds the binding
}

// IsDefinition reports whether the binding gives the name a value (false
// for BindDel and for annotations without value).
func (b *Binding) IsDefinition() bool {
	return b.Kind != BindDel && !(b.Kind == BindAnnotated && b.Value.IsNull())
}

// HasDecorator reports whether a decorator's name, or its last dotted
// segment, is one of names ("property" matches @property and
// @builtins.property; calls match by their callee: @dataclass(frozen=True)).
func (b *Binding) HasDecorator(names ...string) bool {
	for _, d := range b.Decorators {
		n := decoratorName(d)
		for _, want := range names {
			if n == want {
				return true
			}
		}
	}
	return false
}

// RefContext says how a name or attribute is used. Exactly one access bit
// (CtxLoad ... CtxAllEntry) is set, plus any number of the flags after it.
type RefContext uint16

const (
	CtxLoad      RefContext = 1 << iota // a read
	CtxStore                            // a store (attributes only: names that are stored are Bindings)
	CtxDel                              // del x / del x.y
	CtxAugAssign                        // x += 1: a read and a store
	CtxGlobal                           // the identifier in a global statement
	CtxNonlocal                         // the identifier in a nonlocal statement
	CtxAllEntry                         // a name listed in __all__ (inside the string)

	CtxAnnotation       // inside an annotation expression
	CtxStringAnnotation // inside a string annotation (also has CtxAnnotation)
	CtxDecorator        // the decorator name itself (@x, @x(...), @a.x)
	CtxCall             // the callee of a call: x(...), a.x(...)
	CtxTypeComment      // inside a `# type:` comment (also has CtxAnnotation, CtxStringAnnotation)
)

// Has reports whether all bits of f are set.
func (c RefContext) Has(f RefContext) bool { return c&f == f }

// Ref is one use of a name.
type Ref struct {
	Name string
	// Node is the identifier; for CtxAllEntry, CtxStringAnnotation and
	// CtxTypeComment refs it is the string or comment node that contains
	// the name.
	Node tree.Node
	// Start and End are the byte range of the name itself.
	Start, End int
	// Scope is the scope the name is evaluated in.
	Scope *Scope
	Ctx   RefContext
	// Binding is what the name resolves to: nil for builtins, implicit
	// names and undefined names.
	Binding *Binding
	// Builtin: resolved to a builtin (Binding is nil).
	Builtin bool
	// Implicit: resolved to an implicit name (module dunder, __class__,
	// class __module__/__qualname__); Binding is nil.
	Implicit bool
	// Unbound: Binding is the name's symbol, but by textual order it is not
	// bound here (use before assignment, after del or after the except
	// handler that bound it, or only annotated).
	Unbound bool
	// Deferred: evaluated after its scope finished running (function
	// bodies looking outward, deferred/string annotations, __all__).
	Deferred bool

	nid int32 // Name's number (see nameTable)
}

// AttrRef is one attribute access x.y. The indexer resolves members across
// files; in-file, ObjectBinding says what a plain-name object is.
type AttrRef struct {
	// Node is the attribute node (null inside string annotations).
	Node tree.Node
	// Object is the expression before the dot (null inside strings).
	Object tree.Node
	// ObjectRef is the Ref of Object when Object is a plain name (also the
	// head name of a dotted name inside a string annotation or a pattern).
	ObjectRef *Ref
	// ObjectBinding is ObjectRef.Binding for a one-dot chain (a.b), and for
	// longer chains nil unless Object is a plain name.
	ObjectBinding *Binding
	// Name is the attribute; NameNode its identifier (for strings: the
	// string node), Start/End its byte range.
	Name       string
	NameNode   tree.Node
	Start, End int
	Ctx        RefContext
	Scope      *Scope
}

// Import is one imported name (one per alias of an import statement).
type Import struct {
	// Module is the dotted module as written, without leading dots ("" for
	// `from . import x`).
	Module string
	// Level is the number of leading dots of a relative import.
	Level int
	// Name is the member of a from-import ("" for `import a.b`).
	Name string
	// AsName is the alias after `as` ("" if none).
	AsName string
	Star   bool // from m import *
	Future bool // from __future__ import x (Name is the feature)
	// Binding is the name the import binds (nil for star and __future__).
	Binding *Binding
	// Node is the import statement.
	Node tree.Node
	// ModuleNodes are the identifiers of Module's dotted segments: for
	// `import a.b.c` they name the modules a, a.b and a.b.c (see Prefix).
	ModuleNodes []tree.Node
	// NameNode is the member identifier of a from-import; AliasNode the
	// identifier after `as`.
	NameNode, AliasNode tree.Node
	// Conditional, InTypeChecking, InTryImportError: as for Binding (set
	// for star and __future__ imports too).
	Conditional, InTypeChecking, InTryImportError bool
	// Scope is the scope the statement is in.
	Scope *Scope
}

// BoundName is the name the import binds ("" for star/__future__).
func (im *Import) BoundName() string {
	if im.Binding != nil {
		return im.Binding.Name
	}
	return ""
}

// Prefix returns the dotted module named by ModuleNodes[:k+1] ("a.b" for
// k=1 of `import a.b.c`).
func (im *Import) Prefix(k int) string {
	n := 0
	for i := 0; i < len(im.Module); i++ {
		if im.Module[i] == '.' {
			if n == k {
				return im.Module[:i]
			}
			n++
		}
	}
	return im.Module
}

// Absolute returns the absolute dotted module the import reads from (for
// a from-import, the module the member is taken from), resolving relative
// imports against the importing module's name; ok is false when that
// needs a ModuleName it does not have or goes above the top package.
func (im *Import) Absolute(importer string, isPackageInit bool) (mod string, ok bool) {
	if im.Level == 0 {
		return im.Module, true
	}
	if importer == "" {
		return "", false
	}
	pkg := importer
	up := im.Level
	if isPackageInit {
		up--
	}
	for ; up > 0; up-- {
		i := lastDot(pkg)
		if i < 0 {
			if up == 1 && pkg != "" {
				pkg = ""
				continue
			}
			return "", false
		}
		pkg = pkg[:i]
	}
	switch {
	case pkg == "":
		return im.Module, im.Module != ""
	case im.Module == "":
		return pkg, true
	}
	return pkg + "." + im.Module, true
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// AllList is a statically known __all__.
type AllList struct {
	Names []AllName
	// Partial: some contribution is not a literal (e.g. a.__all__ + [...]);
	// Sources are those expressions.
	Partial bool
	Sources []tree.Node
	// Stmts are the statements defining or changing __all__.
	Stmts []tree.Node
}

// AllName is one string in __all__.
type AllName struct {
	Name string
	// Node is the string node; Start/End the name inside the quotes.
	Node       tree.Node
	Start, End int
	// Ref is the CtxAllEntry reference for the entry.
	Ref *Ref
}

// Has reports whether name is listed.
func (a *AllList) Has(name string) bool {
	if a == nil {
		return false
	}
	for _, n := range a.Names {
		if n.Name == name {
			return true
		}
	}
	return false
}

// Resolution is the answer of Scope.Resolve.
type Resolution struct {
	Binding  *Binding
	Builtin  bool
	Implicit bool
	Unbound  bool
}

// Module is the semantic model of one file.
type Module struct {
	Tree *tree.Tree
	Opts Options
	// Root is the module scope; Scopes lists all scopes in preorder.
	Root   *Scope
	Scopes []*Scope
	// Bindings, sorted by NameNode start.
	Bindings []*Binding
	// Refs, sorted by Start.
	Refs []*Ref
	// Attrs, sorted by Start.
	Attrs []*AttrRef
	// Imports in source order.
	Imports []*Import
	// All is __all__ when statically known (nil when __all__ is not set by
	// any recognised statement).
	All *AllList
	// Future holds the `from __future__ import` features.
	Future map[string]bool
	// HasStarImport: a `from m import *` at module level.
	HasStarImport bool
	// Docstring is the cleaned module docstring; DocNode its string.
	Docstring string
	DocNode   tree.Node

	builtins map[string]bool
	nnames   int // see NameCount
}
