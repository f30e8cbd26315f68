package pysem

import (
	"testing"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// FuzzAnalyze parses arbitrary bytes with the wasm parser and analyzes
// the tree: Analyze and the queries must never panic, and every ref must
// name the bytes it covers (or lie in a string/comment it came from).
func FuzzAnalyze(f *testing.F) {
	for _, c := range semanticsCases {
		f.Add([]byte(c.src))
	}
	f.Add([]byte("def f(:\n  global x\n  del (a, [b.c])\nmatch x:\n case {**k}: pass\n"))
	f.Add([]byte("x: 'List[\"a\"' = 1\n__all__ = ['a' 'b', c]\nlambda *, a=[i for i in j]: (y := a)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		blob, err := parseBlob(t, src)
		if err != nil {
			return
		}
		tr, err := tree.Decode(blob, src)
		if err != nil {
			return
		}
		for _, minor := range []int{0, 8, 14} {
			m := Analyze(tr, Options{PythonMinor: minor, IsStub: minor == 14, IsPackageInit: minor == 8})
			for _, r := range m.Refs {
				if r.Start < 0 || r.End > len(src) || r.Start >= r.End || string(src[r.Start:r.End]) != r.Name {
					t.Fatalf("bad ref %q %d-%d", r.Name, r.Start, r.End)
				}
			}
			for off := 0; off <= len(src); off += 1 + len(src)/64 {
				m.At(off)
				s := m.ScopeAt(off)
				s.Resolve("x", off)
			}
			for _, b := range m.Bindings {
				m.Symbol(b)
				if b.Kind == BindClass {
					m.InstanceAttrs(b)
					m.Members(b)
				}
			}
		}
	})
}
