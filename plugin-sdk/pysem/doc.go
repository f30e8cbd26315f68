// Package pysem is the semantic model of ONE Python file: scopes, bindings
// (every place a name is bound), references (every place a name is read,
// deleted or declared global/nonlocal, each resolved to the binding it
// means under Python's scoping rules), imports, attribute accesses and a
// statically known __all__. It is shared by the diagnostics analyzer
// (pyflakes-grade: undefined names, unused imports/variables, redefinitions)
// and the navigation indexer (definition, references, rename, hover), so
// its answers follow CPython's compiler for scoping and pyright for
// navigation. It imports only the standard library, plugin-sdk/tree and
// plugin-sdk/textpos, and compiles to wasm (GOOS=wasip1).
//
// # API (stable; additions only)
//
//	func Analyze(t *tree.Tree, opts Options) *Module      // never panics, never fails
//	type Options struct{ ModuleName string; IsPackageInit, IsStub bool; PythonMinor int; SkipFunctionBodies, SkipDocstrings bool }
//
//	type Module struct {
//	    Tree *tree.Tree; Opts Options
//	    Root *Scope; Scopes []*Scope             // Scopes in preorder, Root first
//	    Bindings []*Binding                       // every binding, sorted by NameNode start
//	    Refs []*Ref                               // every name reference, sorted by Start
//	    Attrs []*AttrRef                          // every x.y, sorted by Start
//	    Imports []*Import                         // in source order, star and __future__ included
//	    All *AllList                              // __all__ when statically known, else nil
//	    Future map[string]bool                    // `from __future__ import` features
//	    HasStarImport bool                        // some `from m import *` at module level
//	    Docstring string; DocNode tree.Node       // module docstring (cleaned) and its string node
//	}
//	func (m *Module) ScopeAt(offset int) *Scope
//	func (m *Module) At(offset int) (*Binding, *Ref, *AttrRef)
//	func (m *Module) RefAt(offset int) *Ref         // At's ref, when it contains offset
//	func (m *Module) Symbol(b *Binding) []*Binding  // all bindings of b's name in b's scope
//	func (b *Binding) Symbol() []*Binding           // the same
//	func (s *Scope) Symbols() [][]*Binding          // Bindings' values, in first-binding order
//	func (m *Module) InstanceAttrs(class *Binding) map[string][]*AttrRef
//	func (m *Module) Members(class *Binding) map[string][]*Binding
//	func (m *Module) IsBuiltin(name string) bool    // for Opts.PythonMinor
//	func (s *Scope) Lookup(name string, offset int) *Binding
//	func (s *Scope) Resolve(name string, offset int) Resolution
//	func (s *Scope) IsLocal(name string) bool
//	func (i *Import) Absolute(importer string, isPackageInit bool) (string, bool)
//	func (i *Import) Prefix(k int) string           // module named by ModuleNodes[:k+1]
//	func (b *Binding) HasDecorator(names ...string) bool
//	func (b *Binding) IsDefinition() bool           // false for del and bare annotations
//	func (b *Binding) IsPlainAssignment() bool      // pyflakes' Assignment: reported when unused
//	func (i *Import) String() string                // as pyflakes prints it: "a.b as c"
//	func Builtins(minor int) map[string]bool
//	func CleanDoc(doc string) string                // inspect.cleandoc
//
// Offsets are byte offsets into the tree's source (convert with
// plugin-sdk/textpos). Every *Binding, *Ref, *AttrRef, *Import and *Scope
// is a pointer into one Module; the Module is immutable after Analyze and
// safe for concurrent readers.
//
// # The model in one paragraph
//
// A Scope is a module, class body, function body, lambda, comprehension
// (list/set/dict/generator) or a PEP 695 type-parameter scope. A Binding
// belongs to the scope that OWNS the name (Scope), which differs from the
// scope the statement is written in (Site) for `global`/`nonlocal` names
// and for a walrus inside a comprehension. Scope.Bindings[name] lists all
// bindings of a name in source order: together they are one symbol (what
// pyright renames together). A Ref is one read (or del, or global/nonlocal
// declaration, or an __all__ entry, or a name inside a string annotation)
// resolved to one Binding: the binding that reaches it by textual order in
// code executed inline, or the last binding of the name for code executed
// later (function bodies, deferred annotations). Ref.Binding is nil for
// builtins (Builtin), implicit names (Implicit: module dunders, __class__,
// class __module__/__qualname__) and undefined names.
//
// # Semantics decisions
//
//   - LEGB as CPython compiles it. A name bound anywhere in a function
//     (assignment, for/with/except target, import, def/class, del, walrus
//     from a nested comprehension, annotation without value, match capture)
//     is local to the whole function; a use before the first binding
//     resolves to the local binding with Unbound set (UnboundLocalError),
//     never to a global. Module and class bodies look names up by name at
//     run time: a use before any binding in the same body falls through to
//     the enclosing scopes/builtins (`class A: x = x` reads the global x);
//     when nothing is found the ref points at the later binding with
//     Unbound set (NameError at run time; pyright reports "unbound").
//   - Class bodies are invisible from nested functions, lambdas,
//     comprehensions and classes; the first iterable of a comprehension is
//     evaluated in the enclosing scope; comprehension targets are local to
//     the comprehension; a walrus in a comprehension binds in the nearest
//     enclosing non-comprehension scope. A PEP 695 type-parameter scope
//     sits between a generic def/class/type alias and its enclosing scope
//     and, unlike a function, sees the names of a class it is defined in.
//   - Decorators, default values, class bases and keywords are evaluated in
//     the enclosing scope; parameter and return annotations too (or in the
//     type-parameter scope of a generic def). Parameters are bound in the
//     function scope.
//   - Deferred evaluation: with `from __future__ import annotations`, with
//     PythonMinor >= 14 (PEP 649), in stubs (IsStub: forward references
//     are legal everywhere), inside string annotations, for annotations of
//     local variables (never evaluated) and for `type X = ...` values,
//     references are resolved position-insensitively (the last binding of
//     the name in the scope where they would be evaluated, class bodies
//     included), so forward references resolve. Refs in function bodies
//     to enclosing scopes are position-insensitive for the same reason.
//   - `global x` / `nonlocal x`: bindings of x in that scope are owned by
//     the module / the nearest enclosing function that binds x; the
//     declaration's identifiers are Refs with Ctx CtxGlobal/CtxNonlocal
//     resolved to the outer binding (so rename covers them).
//   - `del x` is a Binding of kind BindDel (it makes x local, and unbinds
//     it: later refs in the same inline code get Unbound) AND a Ref with
//     CtxDel resolved to the binding it deletes. An augmented assignment
//     `x += 1` likewise is a Ref (CtxAugAssign) to the previous binding and
//     a Binding of kind BindAugAssign.
//   - `except E as e`: e is bound for the handler and unbound after it
//     (refs after the handler, in the same inline code, get Unbound).
//   - A bare annotation `x: int` is a Binding (BindAnnotated, Value null):
//     it declares x (local in a function, a dataclass field in a class) but
//     gives no value; refs reaching only such bindings get Unbound.
//   - Imports: `import a.b.c` binds a (Import.Module "a.b.c"); `import a.b
//     as c` binds c; `from . import x` has Level 1 and Module "". Star
//     imports and `from __future__` have no Binding. Future features go to
//     Module.Future.
//   - Builtins: the names of the builtins module of CPython 3.PythonMinor
//     (3.8-3.14; aiter/anext/EncodingWarning 3.10+, ExceptionGroup and
//     BaseExceptionGroup 3.11+, PythonFinalizationError 3.13+), plus the
//     names site adds (exit, quit, help, copyright, credits, license) and
//     WindowsError (Windows-only at run time; pyflakes and pyright on
//     Windows accept it, and a cross-platform checker cannot know the
//     target: we accept it). reveal_type/reveal_locals are NOT builtins
//     (they exist only for type checkers; import them from typing).
//   - Implicit names (Ref.Implicit): module globals __name__, __file__,
//     __doc__, __builtins__, __spec__, __loader__, __package__, __cached__,
//     __annotations__ and __path__ (package __init__ only); in a
//     class body __module__, __qualname__ (and __annotations__); inside a
//     function nested in a class, __class__.
//   - __all__ (module level): list/tuple literals of strings, `+`, `+=`,
//     .extend([...]), .append("x"); names from every such statement are
//     united (conditional definitions included). Any non-literal part
//     (`a.__all__ + [...]`) sets AllList.Partial and is kept in Sources.
//     Each entry is a Ref with Ctx CtxAllEntry whose Start/End are the name
//     inside the quotes, so it counts as a use and is a rename position.
//   - String annotations: strings in annotation positions (not inside
//     Literal[...] nor in the metadata of Annotated[...]), the first
//     argument of cast(...), bound= and constraints of TypeVar(...), and
//     the value of `X: TypeAlias = "..."` are tokenized: each identifier is
//     a Ref (CtxStringAnnotation) or, after a dot, an AttrRef, with exact
//     byte offsets inside the file. Strings with escape sequences, prefixes
//     other than r/u, or interpolations are not parsed, nor strings that
//     are not expressions (two names in a row, unbalanced brackets: prose
//     like 'not a type'). cast/TypeVar count only when they come from
//     typing/typing_extensions (so memoryview.cast("B") is not one); a
//     subscript of a typing member (List["Foo"], typing.Optional["X"]) is a
//     type expression even outside an annotation (pyflakes and pyright
//     agree). PEP 484 type comments (`# type: List[int]`, `# type: (int)
//     -> str`, not `# type: ignore`) are annotations too (CtxTypeComment;
//     pyflakes and pyright read them). No other string or comment ever
//     yields a reference.
//   - Binding.Refs includes Unbound refs (rename must reach them); a
//     "used?" check should skip refs with Unbound set.
//   - `type(x).y = v` (which tree-sitter parses as a type alias statement)
//     is treated as the assignment it is, with a ref to the builtin type.
//   - Properties: a def decorated `@name.setter/.getter/.deleter` whose
//     name is bound to an earlier `@property` def in the same class has
//     Property set to that getter binding; all of them are in the same
//     symbol (Module.Symbol). `self.x = ...` in a method is an AttrRef with
//     Ctx CtxStore and ObjectBinding = the method's first parameter; see
//     Module.InstanceAttrs. Scope.Method tells instance/class/static
//     methods apart (decorators staticmethod/classmethod, implicit
//     classmethods __new__ (static), __init_subclass__, __class_getitem__).
//   - Syntax errors: ERROR subtrees are walked for what they contain
//     (statements, expressions), but bare identifiers directly inside an
//     ERROR node are not references. Analyze never panics.
package pysem
