package pytypes

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Pathological inputs end in Unknown (or a partial answer), never a
// panic or a hang: depth, step budget and cycle marks bound them.
func TestPathological(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("class C0:\n    def m(self) -> int: ...\n")
	for i := 1; i < 200; i++ {
		fmt.Fprintf(&chain, "class C%d(C%d): ...\n", i, i-1)
	}
	chain.WriteString("x = C199().m()\ny = C199().missing\n")

	deep := "x = 1" + strings.Repeat(" + 1", 10000) + "\n"
	attrs := "class A:\n    a: A\nv = A()\nx = v" + strings.Repeat(".a", 10000) + "\n"
	nested := "x = " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000) + "\n"

	cases := []evalCase{
		{"deep inheritance", chain.String(), map[string]string{"x": "", "y": "Unknown"}},
		{"cyclic bases", "class A(B):\n    pass\nclass B(A):\n    pass\nx = A().m\ny = B()", map[string]string{"x": "Unknown", "y": "B"}},
		{"self-referring alias", "from typing import TypeAlias\nX: TypeAlias = X | int\nY = list[Y]\na: X\nb: Y", map[string]string{"a": "", "b": ""}},
		{"recursive variable", "x = x + 1\ny = z\nz = y", map[string]string{"x": "Unknown", "y": "Unknown"}},
		{"10k-deep operators", deep, map[string]string{"x": "Unknown"}},
		{"10k-deep attributes", attrs, map[string]string{"x": "Unknown"}},
		{"3k-deep displays", nested, map[string]string{"x": ""}},
		{"self-referring return", "def f():\n    return [f()]\nx = f()", map[string]string{"x": ""}},
		// A subscripted alias read through aliases of each other recursed
		// without a bound (a stack overflow, fatal to the server).
		{"subscripted aliases of each other", "A = B\nB = A\nx: A[int]\ny: B[str, A]", map[string]string{"x": "", "y": ""}},
	}
	runEvalCases(t, cases)
}

// Concurrent queries share the memo safely (run with -race).
func TestConcurrentQueries(t *testing.T) {
	p := programWith(map[string]string{"m.py": "xs = ['a']\np = xs.pop()\nd = {'a': 1}\nit = d.items()\nclass C:\n    def m(self):\n        return self\nx = C().m()"})
	u := p.unit("m")
	ev := New(p, Options{})
	var wg sync.WaitGroup
	results := make([][]string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, name := range []string{"p", "it", "x", "xs", "d"} {
				results[g] = append(results[g], ev.Print(ev.SymType(u, symNamed(t, u, 0, name))))
			}
		}()
	}
	wg.Wait()
	for g := 1; g < 8; g++ {
		if strings.Join(results[g], ",") != strings.Join(results[0], ",") {
			t.Errorf("goroutine %d saw %v, goroutine 0 %v", g, results[g], results[0])
		}
	}
}

// evaluateAll runs every query the API offers over u.
func evaluateAll(ev *Evaluator, u Unit) {
	s := u.Summary()
	for i := range s.Exprs {
		t := ev.ExprType(u, int32(i))
		ev.Print(t)
		ev.Classes(t)
		ev.Signature(t)
		ev.Member(t, "__iter__")
	}
	for i := range s.Syms {
		ev.Print(ev.SymType(u, int32(i)))
		ev.HoverLine(u, int32(i), -1)
	}
	for i, d := range s.Defs {
		ev.Print(ev.DefType(u, int32(i)))
		ev.HoverLine(u, d.Sym, int32(i))
	}
}

type decodedUnit struct{ s *navindex.Summary }

func (u decodedUnit) Summary() *navindex.Summary { return u.s }
func (u decodedUnit) ModuleName() string         { return "fuzzed" }
func (u decodedUnit) IsStub() bool               { return false }

// FuzzEvaluator feeds decodable summaries, linked with the test stubs,
// to every query.
func FuzzEvaluator(f *testing.F) {
	for _, src := range []string{
		"x = [1, 'a']\nfor v in x:\n    pass\ny = v",
		"class A(B): ...\nclass B(A): ...\nx = A().m",
		"from typing import TypeVar, Generic\nT = TypeVar('T')\nclass Box(Generic[T]):\n    def get(self) -> T: ...\nb = Box()\nv = b.get()",
		"def f(a, *b, c=1, **d):\n    return f(a)\nx = f(1) + 2",
	} {
		p := programWith(map[string]string{"m.py": src})
		f.Add(navindex.Encode(p.unit("m").s))
	}
	// The fuzzed unit's imports and builtins resolve by name through the
	// stubs' program, which follows any unit's symbols.
	stubs := programWith(nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := navindex.Decode(data)
		if err != nil {
			return
		}
		u := decodedUnit{s}
		ev := New(stubs, Options{MaxSteps: 2000})
		evaluateAll(ev, u)
	})
}
