// Package navindex is the wire format of a per-file navigation summary:
// what the indexer plugin (plugins/indexer) computes from one Python file
// and the kernel (host/index) stores, caches on disk and links across
// files. It imports only the standard library, so the host and every
// guest can link it.
//
// A Summary is one file's symbols, expressions, definitions and
// occurrences, all positions already in (line, UTF-16 character) so the
// kernel answers without the source. Everything Python-specific (scoping,
// what an identifier refers to inside the file, signatures, docstrings)
// is decided by the plugin; what crosses files (imports, re-exports,
// class members through bases, instances of classes) is left symbolic
// and linked by the kernel:
//
//   - SymLocal: a name bound in one scope of the file (all its bindings
//     together, as pyright renames them). Qual is its qualified name when
//     other files can reach it ("f", "C.m", "C.D.x"), "" for locals of
//     functions, lambdas and comprehensions.
//   - SymMember: an instance attribute assigned through self that the
//     class body does not bind (Class is the class's SymLocal).
//   - SymImport: a module (Name "") or a module member named by an import
//     statement, with the relative level unresolved (the kernel owns the
//     module map).
//   - SymAttr: attribute Name of the value of expression Recv.
//   - SymBuiltin, SymUnresolved: a builtin, or a name nothing in the file
//     binds (a star import may provide it).
//
// Exprs describe values symbolically: the value of a symbol, an attribute
// of a value, or the result of calling a value (a class called is an
// instance; an annotation is written as a call of its type).
//
// Encode/Decode use a compact binary layout: a magic and version, a string
// table, then varint-encoded records. Decode never panics on bad input.
package navindex

// Version is the layout version; the kernel discards cached summaries of
// another version.
const Version = 4

// SymKind says what a symbol is.
type SymKind uint8

const (
	SymLocal SymKind = iota
	SymMember
	SymImport
	SymAttr
	SymBuiltin
	SymUnresolved
	SymKeyword // keyword argument Name of a call of Recv
)

// Sym is one symbol of the file.
type Sym struct {
	Kind SymKind
	Name string
	// Qual is the qualified name within the module for symbols other files
	// can reach ("" otherwise).
	Qual string
	// Scope owns a SymLocal.
	Scope int32
	// Class is the class SymLocal of a SymMember.
	Class int32
	// Recv is the receiver expression of a SymAttr (-1 none).
	Recv int32
	// Module and Level name an import target (SymImport): Module is the
	// dotted module as written, Level its leading dots; Name "" means the
	// module itself.
	Module string
	Level  int32
	// Target is the SymImport a SymLocal bound by imports takes its value
	// from (-1 none); Alias says the import bound the target's own name
	// (`from m import x`, `import a.b` binding a), so the local name IS
	// the target for references and rename.
	Target int32
	Alias  bool
	// Value is the expression giving the symbol's value or type (-1
	// unknown).
	Value int32
}

// ExprOp is an expression operator.
type ExprOp uint8

const (
	ExprSym   ExprOp = iota // the value of symbol A
	ExprAttr                // attribute Name of expression A
	ExprCall                // the result of calling expression A
	ExprSuper               // super() in a method of class symbol A: its bases
)

// Expr is one symbolic expression.
type Expr struct {
	Op   ExprOp
	A    int32
	Name string
}

// DefKind is the kind shown by hover.
type DefKind uint8

const (
	KindVariable DefKind = iota
	KindFunction
	KindMethod
	KindClass
	KindParameter
	KindProperty
	KindModule // an import binding
)

var kindNames = [...]string{"variable", "function", "method", "class", "parameter", "property", "module"}

func (k DefKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "variable"
}

// Span is a one-line range: line and UTF-16 start and end characters.
type Span struct {
	Line, Col, End int32
}

// Def is one definition (a binding that gives a value, a declaration, or
// an instance attribute's first assignment).
type Def struct {
	Sym  int32
	Kind DefKind
	Name Span
	// Bases are the class's base expressions; Returns the expression of a
	// def's return value (its return annotation called), -1 unknown.
	Bases   []int32
	Returns int32
	// Body is the scope a def or class creates (-1 none).
	Body int32
	// Sig is the hover signature without the kind ("def f(a: int) -> str",
	// "class A(Base)", "x: int"); Doc the docstring rendered as Markdown.
	Sig, Doc string
	// Import: bound by an import statement; Stubby: in a class body
	// without value (a declaration only).
	Import bool
}

// Occurrence flags.
const (
	OccDef    uint8 = 1 << iota // a binding site (declaration)
	OccImport                   // inside an import statement
	OccAll                      // a string entry of __all__
	OccString                   // inside a string annotation or type comment
	OccDecl                     // a global/nonlocal declaration
	OccStore                    // an attribute store (self.x = ...)
)

// Occ is one occurrence of a symbol.
type Occ struct {
	Span
	Sym   int32
	Flags uint8
	// Scope is the scope the name is evaluated in.
	Scope int32
}

// ScopeKind mirrors pysem.ScopeKind.
type ScopeKind uint8

const (
	ScopeModule ScopeKind = iota
	ScopeClass
	ScopeFunction
	ScopeLambda
	ScopeComprehension
	ScopeTypeParams
)

// Use is a name read in a scope and where it resolved: the owning scope,
// or -1 for a builtin, -2 for nothing (undefined or from a star import).
type Use struct {
	Name  string
	Scope int32
}

// Scope is one scope of the file with the names it binds and reads.
type Scope struct {
	Kind   ScopeKind
	Parent int32
	Bound  []string
	Uses   []Use
}

// StarImport is `from <Level dots><Module> import *` at module level.
type StarImport struct {
	Module string
	Level  int32
}

// Summary is one file's navigation summary.
type Summary struct {
	Syms   []Sym
	Exprs  []Expr
	Defs   []Def
	Occs   []Occ // sorted by position
	Scopes []Scope
	Stars  []StarImport
	// All is __all__ when statically known (AllKnown), AllPartial when
	// some part of it is not a literal.
	All                  []string
	AllKnown, AllPartial bool
	// Doc is the module docstring rendered as Markdown.
	Doc string
	// Lines is the number of lines of the file.
	Lines int32
}
