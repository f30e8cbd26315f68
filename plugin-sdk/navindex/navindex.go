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
const Version = 16 // 11: a try statement's normal end joins before its handlers' (union order); 13: ReturnValues in binder order (a try's else before its handlers); 14: DefRaisesNotImplemented; returns and yields in branches that never run are not the def's; a lambda's parameter names; 15: DefYieldResultUsed, FlowCall and FlowExit nodes; 16: a keyword argument names the callee as its call reads it (through the flow); len(x) == n conditions narrow x

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

// Sym is one symbol of the file. (Its fields are ordered so that it
// packs into 64 bytes: the kernel keeps every file's decoded.)
type Sym struct {
	Kind SymKind
	// Alias: see Target.
	Alias bool
	// Scope owns a SymLocal.
	Scope int32
	Name  string
	// Qual is the qualified name within the module for symbols other files
	// can reach ("" otherwise).
	Qual string
	// Class is the class SymLocal of a SymMember.
	Class int32
	// Recv is the receiver expression of a SymAttr (-1 none).
	Recv int32
	// Target is the SymImport a SymLocal bound by imports takes its value
	// from (-1 none); Alias says the import bound the target's own name
	// (`from m import x`, `import a.b` binding a), so the local name IS
	// the target for references and rename.
	Target int32
	// Value is the expression giving the symbol's value or type (-1
	// unknown).
	Value int32
	// SymModule holds the module an import names, read as y.Module and
	// y.Level, apart because only SymImports have one. Decode sets it on
	// every Sym (the others share one empty SymModule, never to be
	// written); a Sym built elsewhere needs one before they are read.
	*SymModule
}

// SymModule names an import target (SymImport): Module is the dotted
// module as written, Level its leading dots; the Sym's Name "" means the
// module itself.
type SymModule struct {
	Module string
	Level  int32
}

// noSymModule is what Decode gives a Sym that names no module.
var noSymModule = &SymModule{}

// ModuleOf is the module y names, an empty one if it has none.
func (y *Sym) ModuleOf() *SymModule {
	if y.SymModule == nil {
		return noSymModule
	}
	return y.SymModule
}

// ExprOp is an expression operator.
type ExprOp uint8

const (
	ExprSym   ExprOp = iota // the value of symbol A; B (version 8) the flow node of the read (Summary.Flow), -1 none
	ExprAttr                // attribute Name of expression A
	ExprCall                // the result of calling expression A with Args (Keys)
	ExprSuper               // super() in a method of class symbol A: its bases

	// Version 5: what the type evaluator (plugin-sdk/pytypes) needs. The
	// same operators describe values and annotations: an annotation is
	// kept as written (`list[str] | None` is ExprOp "|" of an
	// ExprSubscript and an ExprLit None), and the evaluator reads it as a
	// type expression.

	ExprLit       // a literal: Name its builtin type (int, str, bytes, bool, float, complex, None, ellipsis), Text its value as pyright prints it in Literal[...] ("10", "'a'", "True"; a str or bytes longer than 50 characters cut there with "…" inside the quotes, as pyright's printer does); Text "" when not a literal type (f-strings, floats); `-1` is the literal "-1"
	ExprSubscript // A[Args...] (a tuple index is split into Args; a slice lo:hi or lo:hi:step is the builtin slice called with its bounds as written, None for one omitted)
	ExprOper      // operator Name on A and B (B -1 for a unary one): "+", "|", "==", "in", "not in", "is", "is not", "not", "and", "or", "-" ...; a chain a < b < c is "and" of a < b and b < c
	ExprDisplay   // a display: Name "tuple", "list", "set" or "dict" (Args alternate key and value); Keys[i] "*" ("**") marks a starred element
	ExprComp      // a comprehension: Name "list", "set", "dict" or "generator"; A the element (dict: the key, B the value)
	ExprIter      // an element of iterating A (Name "async" for async for)
	ExprUnpack    // element B of unpacking A into Text targets (Name "*" for the starred target); B counts every target before it, the starred one too, so a target after the star is the value's element at the negative index B-Text
	ExprEnter     // what entering context manager A gives (Name "async" for async with)
	ExprAwait     // await A
	ExprIf        // A if ... else B
	ExprLambda    // a lambda returning A (-1 unknown), with B parameters named by Keys ("*a", "**kw" for splats), B -1 when not described (a default, a separator)
	ExprText      // a string annotation the plugin could not describe: Text
)

// Expr is one symbolic expression. Operands (A, B, Args) refer to
// earlier expressions except where Op says a symbol (ExprSym,
// ExprSuper); -1 is an operand the plugin could not describe. Its lists,
// which most expressions leave empty, sit in an ExprLists of their own,
// so an Expr is 56 bytes, not 96 (see RATIONALE.md, "Where does the
// memory go?").
type Expr struct {
	Op   ExprOp
	A    int32
	Name string
	// B is the second operand of ExprOper, ExprComp (dict), ExprIf, or
	// the element index of ExprUnpack.
	B int32
	// Text is a literal's value or a string annotation's content.
	Text string
	// ExprLists holds the lists, read as x.Args and x.Keys. Decode sets
	// it on every Expr (expressions without lists share one empty
	// ExprLists, never to be written); an Expr built elsewhere needs its
	// own before its lists are read or set.
	*ExprLists
}

// ExprLists are an Expr's lists. Copies of an Expr share them.
type ExprLists struct {
	// Args are the arguments of a call (positional first, then keyword),
	// the indexes of a subscript, the elements of a display.
	Args []int32
	// Keys name the last len(Keys) Args of a call ("*" for *args, "**"
	// for **kwargs, "" for a positional argument after a *args), or mark
	// starred display elements ("" none; a dict's **d takes a key slot,
	// marked "**", and a value slot -1).
	Keys []string
}

// noExprLists is what Decode gives an Expr without lists.
var noExprLists = &ExprLists{}

// Lists are x's lists, empty ones if it has none.
func (x *Expr) Lists() *ExprLists {
	if x.ExprLists == nil {
		return noExprLists
	}
	return x.ExprLists
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
// an instance attribute's first assignment). Its lists, which most
// definitions (variables, parameters, imports) leave empty, sit in a
// DefLists of their own, so a Def is 104 bytes, not 192: a Django index
// with its stubs holds about 210,000 (see RATIONALE.md, "Where does the
// memory go?").
type Def struct {
	Sym  int32
	Kind DefKind
	// Import: bound by an import statement; Stubby: in a class body
	// without value (a declaration only).
	Import bool
	Name   Span
	// Body is the scope a def or class creates (-1 none).
	Body int32
	// Returns is the expression of a def's return value (its return
	// annotation called), -1 unknown.
	Returns int32
	// Annot (version 5, for the type evaluator, as what follows) is the
	// binding's annotation as a type expression (a variable's, a
	// parameter's, a def's return), -1 none.
	Annot int32
	// Value is the value this binding assigns (-1 none): the right-hand
	// side, an ExprUnpack of it for a target in a tuple, an ExprIter of
	// the iterable for a for target, an ExprEnter for a with target, the
	// exception class called for `except E as e` (for `except (E1, E2)`
	// the ExprIf chain of each called), the aliased type expression of a
	// type alias.
	Value int32
	// Flags say how the def behaves.
	Flags DefFlags
	// Sig is the hover signature without the kind ("def f(a: int) -> str",
	// "class A(Base)", "x: int"); Doc the docstring rendered as Markdown.
	Sig, Doc string

	// Version 6, for the outline and edits by symbol.

	// Extent is the statement a def or class is (from its first
	// decorator to the end of its body), or the assignment statement
	// that binds a variable; zero when not one of those.
	Extent Extent

	// DefLists holds the lists, read as d.Bases, d.Params and so on.
	// Decode sets it on every Def (definitions without lists share one
	// empty DefLists, never to be written); a Def built elsewhere needs
	// its own (new(DefLists)) before its lists are read or set.
	*DefLists
}

// DefLists are a Def's lists. Copies of a Def share them.
type DefLists struct {
	// Bases are the class's base expressions.
	Bases []int32
	// Params are a def's parameters in order.
	Params []Param
	// ReturnValues are the values of a def's `return X` statements (a
	// bare `return` is not listed: Flags has DefReturnsNone).
	ReturnValues []int32
	// YieldValues are the values a generator def yields, in order: -1
	// for a bare `yield`, an ExprIter of x for `yield from x`.
	YieldValues []int32
	// Decorators are the decorator expressions, outermost first, other
	// than the ones Flags already says (overload, classmethod,
	// staticmethod, abstractmethod, final, deprecated, by their last
	// name) and a property's own (property, x.setter/getter/deleter:
	// Kind says it); cached_property is listed.
	Decorators []int32
}

// noDefLists is what Decode gives a Def without lists.
var noDefLists = &DefLists{}

// Lists are d's lists, empty ones if it has none.
func (d *Def) Lists() *DefLists {
	if d.DefLists == nil {
		return noDefLists
	}
	return d.DefLists
}

func (l *DefLists) empty() bool {
	return len(l.Bases) == 0 && len(l.Params) == 0 && len(l.ReturnValues) == 0 && len(l.YieldValues) == 0 && len(l.Decorators) == 0
}

// Extent is a multi-line range, positions in (line, UTF-16 character),
// End exclusive; BodyLine and BodyCol are where a def's or class's block
// starts (its first statement, after the colon), zero for others.
type Extent struct {
	Line, Col, EndLine, EndCol int32
	BodyLine, BodyCol          int32
}

// DefFlags say how a def behaves.
type DefFlags uint32

const (
	DefAsync                DefFlags = 1 << iota
	DefGenerator                     // the body yields
	DefReturnsNone                   // some path ends without a value (falls off the end, or a bare return); the end counts as reachable unless the last statement returns or raises, or is an if/else, try or with whose every branch does, or a `while True` without break
	DefNeverReturns                  // every path raises (pyright: NoReturn): no return statement, no yield, and the end is not reachable as above
	DefOverload                      // @overload
	DefClassMethod                   // @classmethod
	DefStaticMethod                  // @staticmethod
	DefAbstract                      // @abstractmethod
	DefFinal                         // @final, or a Final annotation
	DefTypeAlias                     // `X: TypeAlias = ...` or `type X = ...`
	DefStaticFalse                   // under a condition false for the target (sys.version_info, sys.platform, os.name, not/and/or of them): the binding never happens; TYPE_CHECKING decides nothing
	DefTypeChecking                  // under `if TYPE_CHECKING:`
	DefDeprecated                    // @deprecated
	DefClassVar                      // a ClassVar annotation, or a value assigned in a class body
	DefRaisesNotImplemented          // DefNeverReturns by pyright's idiom of an unimplemented method: simple statements only, and every raise is `raise E` or `raise E(...)` of a NotImplementedError, without `from`
	DefYieldResultUsed               // a generator some reachable yield of which is a `yield from` or is not a statement by itself (`x = yield`): its send type is Unknown, not Any
)

// ParamKind says how a parameter takes its argument.
type ParamKind uint8

const (
	ParamNormal    ParamKind = iota
	ParamPosOnly             // before `/` (or a `__x` name in a stub)
	ParamVarArgs             // *args
	ParamKwOnly              // after `*` or `*args`
	ParamVarKwargs           // **kwargs
)

// Param is one parameter of a def.
type Param struct {
	Name       string
	Kind       ParamKind
	HasDefault bool
	// Annot is the annotation as a type expression, Default the default
	// value (-1 none); DefaultText the default as written, on one line
	// ("" none), which hovers print.
	Annot, Default int32
	DefaultText    string
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

// Pos is a position: a line and a UTF-16 character.
type Pos struct{ Line, Col int32 }

// Less orders positions in the file.
func (p Pos) Less(o Pos) bool { return p.Line < o.Line || p.Line == o.Line && p.Col < o.Col }

// Call is a call's argument list as written (version 7), for signature
// help: Open is just after its "(", Close at its ")" (the end of what
// parsed when it is missing), Commas the commas between its arguments,
// Keys each written argument's keyword in written order ("" positional,
// "*" for *x, "**" for **x).
type Call struct {
	Expr        int32 // the ExprCall, -1 when the callee could not be described
	Open, Close Pos
	Commas      []Pos
	Keys        []string
}

// SiteKind says what a checked site compares (version 8).
type SiteKind uint8

const (
	SiteAssign    SiteKind = iota // Def's value against its symbol's declared type
	SiteReturn                    // `return Value` of def Def against its return annotation
	SiteArgument                  // argument Arg of call Value against the parameter it fills
	SiteAttribute                 // Value stored to attribute Sym (a SymAttr) against its declaration
)

// Site is a value the type checker compares with a declared type
// (version 8, for the type-mismatch check of plugin-sdk/pytypes):
// an assignment, a returned value or a call's argument, with where to
// report it. Only a stub-less file's sites are listed.
type Site struct {
	Kind SiteKind
	// Span is the value as written (its first line when it spans more).
	Span Span
	// Def is the binding (SiteAssign) or the def (SiteReturn), -1
	// otherwise.
	Def int32
	// Value is the returned expression (SiteReturn), the ExprCall
	// (SiteArgument) or the stored value (SiteAttribute); an
	// assignment's value is its Def's.
	Value int32
	// Arg indexes the ExprCall's Args (SiteArgument), -1 otherwise.
	Arg int32
	// Sym is the attribute stored to (SiteAttribute: a SymAttr, whose
	// Recv is the object), -1 otherwise.
	Sym int32
}

// Summary is one file's navigation summary.
type Summary struct {
	Syms   []Sym
	Exprs  []Expr
	Defs   []Def
	Occs   []Occ // sorted by position
	Scopes []Scope
	Stars  []StarImport
	// Calls are the calls written in the file, by Open.
	Calls []Call
	// All is __all__ when statically known (AllKnown), AllPartial when
	// some part of it is not a literal.
	All                  []string
	AllKnown, AllPartial bool
	// Doc is the module docstring rendered as Markdown.
	Doc string
	// Lines is the number of lines of the file.
	Lines int32

	// Sites are the values compared with declared types, in file order.
	Sites []Site

	// Version 9, for narrowing: the control flow of function bodies and
	// the module's code (Flow), and the reads of names whose type may
	// differ by position (Reads, sorted by position).
	Flow      []FlowNode
	FlowPreds []int32
	Reads     []FlowRead
}

// FlowKind says what a flow node is.
type FlowKind uint8

const (
	FlowStart     FlowKind = iota // the entry of scope A (a def's parameters are assigned after it)
	FlowAssign                    // symbol A bound by def B (-1: unbound by del, or a binding with no def), after Prev
	FlowCond                      // expression A is true (B 0) or false (B 1) here, after Prev; A -1 narrows nothing
	FlowJoin                      // the paths FlowPreds[A:A+B] meet (after an if, at a loop's head, at an except)
	FlowAugAssign                 // symbol A bound by an augmented assignment, to expression B (`x += 1` is x + 1), after Prev
	FlowStore                     // attribute A (an ExprAttr of a name: self.x) assigned expression B (-1 unknown), after Prev
	FlowCall                      // version 15: call expression A (-1 not described) run as a statement of a function body, after Prev: a callee that never returns ends the path (outside a with block)
	FlowExit                      // version 15: a way out of the function of scope A after Prev: a return of expression B (one of the def's ReturnValues), -1 a bare return or the end of the body; nothing follows it
)

// FlowNode is one node of the control flow graph a scope's code runs
// through (pyright's code flow): the type of a name (or of an attribute
// of a name) read at a node is found by walking back to the assignments
// that reach it, narrowed by the conditions on the way. Only
// assignments and conditions that may narrow are nodes; code that
// cannot be reached has no node.
type FlowNode struct {
	Kind FlowKind
	A, B int32
	Prev int32
}

// Preds are the nodes a FlowJoin follows.
func (s *Summary) Preds(n *FlowNode) []int32 {
	if n.Kind != FlowJoin || n.A < 0 || n.B < 0 || int(n.A)+int(n.B) > len(s.FlowPreds) {
		return nil
	}
	return s.FlowPreds[n.A : n.A+n.B]
}

// FlowRead is a name read at Pos whose symbol has flow: Node is the flow
// node the read happens at.
type FlowRead struct {
	Pos
	Node int32
}
