package pysem

// ResolveDeferred resolves name as if it were read at offset in s by code
// that runs after the scope finished (a function body looking outward):
// the last binding of the name in module and function scopes counts, as
// for Ref.Deferred refs. Diagnostics use it to tell pyflakes' "local
// variable referenced before assignment" (an outer binding exists) from a
// plain undefined name. Additive API: Resolve is unchanged.
func (s *Scope) ResolveDeferred(name string, offset int) Resolution {
	if s == nil || s.m == nil {
		return Resolution{}
	}
	return s.m.resolve(nil, s, name, offset, true)
}

// IsWalrus reports whether the binding is an assignment expression
// (x := ...), which binds in the nearest enclosing non-comprehension scope
// even when written inside a comprehension (so Site may be the
// comprehension while Scope is the function).
func (b *Binding) IsWalrus() bool { return b.walrus }
