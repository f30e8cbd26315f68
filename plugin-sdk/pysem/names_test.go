package pysem

import "testing"

// TestSymbolTables checks the tables Analyze fills by name number against
// the public maps: Symbols and Symbol against Bindings, RefAt against At.
func TestSymbolTables(t *testing.T) {
	src := `import os
x = 1
def f(a, b=x):
    global x
    x = a
    def g():
        nonlocal a
        a = 2
        return [y for y in os.listdir(a) if (z := y)]
    return g, z
class C:
    x = x
    def m(self):
        return self.x, x
del x
`
	m := Analyze(parse(t, src), Options{})
	for _, s := range m.Scopes {
		if len(s.Symbols()) != len(s.Bindings) {
			t.Errorf("scope %d: %d symbols, %d names", s.Index, len(s.Symbols()), len(s.Bindings))
		}
		for _, bs := range s.Symbols() {
			want := s.Bindings[bs[0].Name]
			if len(want) != len(bs) || &want[0] != &bs[0] {
				t.Errorf("scope %d: symbol %q differs from Bindings", s.Index, bs[0].Name)
			}
			for _, b := range bs {
				if got := m.Symbol(b); len(got) != len(bs) || &got[0] != &bs[0] {
					t.Errorf("Symbol(%q) differs from Bindings", b.Name)
				}
			}
		}
	}
	for off := 0; off <= len(src); off++ {
		_, r, _ := m.At(off)
		if r != nil && off >= r.End {
			r = nil
		}
		if got := m.RefAt(off); got != r {
			t.Errorf("RefAt(%d) = %v, At gives %v", off, got, r)
		}
	}
}
