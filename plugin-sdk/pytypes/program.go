// Package pytypes is pyws's type evaluator: what a Python expression or
// declaration holds, in pyright's notation, computed lazily from
// per-file navigation summaries (plugin-sdk/navindex, version 5) and
// typeshed's stubs summarized the same way.
//
// The contract:
//
//   - Inputs are Units (one summarized .py or .pyi file each) and a
//     Program, which the kernel's index implements: it owns the module
//     map, so it follows imports, re-exports and star imports, and loads
//     stub units lazily (builtins, typing, the standard library).
//   - Outputs are Types (Evaluator.ExprType, SymType, DefType), members
//     through the MRO (Evaluator.Member) and text in pyright's notation
//     (Print, HoverLine).
//   - Nothing here reads files, parses Python or knows about tenants; an
//     expression that cannot be evaluated is Unknown, never a panic or a
//     hang (recursion is bounded and cycles give Unknown).
//
// Using it: one Evaluator per Program (per link of the index; drop it at
// relink), shared by concurrent queries.
//
//	ev := pytypes.New(prog, pytypes.Options{})
//	ev.HoverAt(u, occ)           // the hover's first line, as pyright prints it
//	ev.Definition(u, sym)        // resp.json -> Response.json (through types)
//	ev.TypeDefinition(u, sym)    // the classes of the value a symbol holds
//	ev.TypeAt(u, occ)            // a name's type where it is read (narrowed)
//	ev.Print(ev.ExprType(u, e))  // any expression's type in pyright's notation
//	ev.ConstructorLine(c)        // "class C(x: int)", for a class called
//
// It imports only the standard library and plugin-sdk/navindex, so the
// kernel and any guest can link it.
package pytypes

import "github.com/pyws/pyws/plugin-sdk/navindex"

// Unit is one summarized module file: a workspace file or a stub. Units
// are compared by identity; the evaluator never changes one.
type Unit interface {
	Summary() *navindex.Summary
	// ModuleName is the dotted module name ("os.path", "builtins").
	ModuleName() string
	// IsStub reports a .pyi file: declarations only, so no return type
	// is inferred from a body.
	IsStub() bool
}

// Ref is what a symbol refers to once imports are followed: a symbol of
// a unit (Unit non-nil), a module (Module non-empty), or nothing.
type Ref struct {
	Unit   Unit
	Sym    int32
	Module string
}

// Found reports whether r refers to something.
func (r Ref) Found() bool { return r.Unit != nil || r.Module != "" }

// Program links units. The kernel's index implements it; it must be safe
// for concurrent use while the evaluator that holds it is in use.
type Program interface {
	// Resolve follows symbol sym of u (a SymLocal bound by an import, a
	// SymImport, a SymBuiltin, a SymUnresolved a star import provides)
	// to the binding it names. A SymLocal that is not an import resolves
	// to itself. SymAttr and SymKeyword are the evaluator's to resolve.
	Resolve(u Unit, sym int32) Ref
	// ModuleMember is attribute name of module mod: a name it binds
	// (followed through re-exports), a submodule, or what a star import
	// brings in.
	ModuleMember(mod, name string) Ref
	// Module returns the units of module mod, the stub first when both
	// exist (nil when there is none).
	Module(mod string) []Unit
}
