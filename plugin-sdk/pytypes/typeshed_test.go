package pytypes

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// typeshedDir is bin/typeshed/stdlib of the checkout (`make stubs`).
func typeshedDir(tb testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "bin", "typeshed", "stdlib")
	if _, err := os.Stat(filepath.Join(dir, "builtins.pyi")); err != nil {
		tb.Skip("no typeshed stubs: run make stubs")
	}
	return dir
}

// typeshedModules are the stubs builtins needs most, sketched (both
// branches of version conditions kept: the later binding wins).
var typeshedModules = map[string]string{
	"builtins": "builtins.pyi", "typing": "typing.pyi", "_typeshed": "_typeshed/__init__.pyi",
	"collections.abc": "_collections_abc.pyi", "_collections_abc": "_collections_abc.pyi", "types": "types.pyi", "typing_extensions": "typing_extensions.pyi",
	"copy": "copy.pyi", "enum": "enum.pyi", "os.path": "posixpath.pyi",
}

func typeshedProgram(tb testing.TB, files map[string]string) *fakeProgram {
	dir := typeshedDir(tb)
	all := map[string]string{}
	for mod, path := range typeshedModules {
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			tb.Fatal(err)
		}
		all[mod+".pyi"] = logicalLines(string(b))
	}
	for k, v := range files {
		all[k] = v
	}
	return newProgram(all)
}

// logicalLines joins bracketed continuation lines and drops comments,
// so each statement of a stub is one line for the sketch.
func logicalLines(src string) string {
	var out []string
	var cur strings.Builder
	depth := 0
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "#"); i >= 0 && !strings.ContainsAny(line[:i], `"'`) {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" && depth == 0 {
			continue
		}
		if depth > 0 {
			cur.WriteString(" " + strings.TrimSpace(line))
		} else {
			cur.WriteString(strings.TrimRight(line, " "))
		}
		depth += strings.Count(line, "(") + strings.Count(line, "[") + strings.Count(line, "{") -
			strings.Count(line, ")") - strings.Count(line, "]") - strings.Count(line, "}")
		if depth <= 0 {
			depth = 0
			s := strings.ReplaceAll(cur.String(), ", )", ")")
			s = strings.ReplaceAll(s, ",)", ")")
			s = strings.ReplaceAll(s, ", ]", "]")
			out = append(out, s)
			cur.Reset()
		}
	}
	return strings.Join(out, "\n")
}

// Real typeshed stubs, read through the sketch: receiver specialisation,
// overloads and protocols as typeshed writes them.
func TestTypeshedBuiltins(t *testing.T) {
	src := "xs = ['a']\np = xs.pop()\ns = ', '.join(xs)\nd = {'a': 1}\nv = d.get('a')\nit = d.items()\nn = len(xs)\nu = 'a'.upper().split()\nfor k in d:\n    pass\nkk = k\nfrom copy import copy\nc = copy(1)\ni = int('3') + 1"
	p := typeshedProgram(t, map[string]string{"m.py": src})
	u := p.unit("m")
	ev := New(p, Options{})
	want := map[string]string{"p": "str", "s": "str", "v": "int | None", "it": "dict_items[str, int]", "n": "int", "u": "list[LiteralString]", "kk": "str", "c": "int", "i": "int"}
	for name, w := range want {
		if got := ev.Print(ev.SymType(u, symNamed(t, u, 0, name))); got != w {
			t.Errorf("%s: got %q, want %q", name, got, w)
		}
	}
}

func TestTypeshedHovers(t *testing.T) {
	p := typeshedProgram(t, map[string]string{"m.py": "xs = ['a']\nxs.append('b')\nj = str.join\nfrom copy import copy\n"})
	u := p.unit("m")
	ev := New(p, Options{})
	if got, want := ev.HoverLine(u, addAttrSym(u, "append"), -1), "(method) def append(object: str, /) -> None"; got != want {
		t.Errorf("append:\n got %s\nwant %s", got, want)
	}
	if got, want := ev.Print(ev.SymType(u, symNamed(t, u, 0, "j"))), "Overload[(self: LiteralString, iterable: Iterable[LiteralString], /) -> LiteralString, (self: str, iterable: Iterable[str], /) -> str]"; got != want {
		t.Errorf("str.join:\n got %s\nwant %s", got, want)
	}
	cp := symNamed(t, u, 0, "copy")
	if got, want := ev.HoverLine(u, cp, lastDef(u, cp)), "(function) def copy(x: _T@copy) -> _T@copy"; got != want {
		t.Errorf("copy:\n got %s\nwant %s", got, want)
	}
}

const benchSource = "xs = ['a']\nd = {'a': 1}\ns = ', '.join(xs)\nv = d.get('a')\nxs.pop()\n"

// BenchmarkHoverWarm is a hover whose types the evaluator has seen.
func BenchmarkHoverWarm(b *testing.B) {
	p := typeshedProgram(b, map[string]string{"m.py": benchSource})
	u := p.unit("m")
	pop := addAttrSym(u, "pop")
	ev := New(p, Options{})
	ev.HoverLine(u, pop, -1)
	b.ResetTimer()
	for range b.N {
		ev.HoverLine(u, pop, -1)
	}
}

// BenchmarkHoverColdBuiltins is the first hover of a fresh evaluator
// that needs builtins (list, its MRO, str, typing's protocols); the
// stubs are summarized already, as the kernel keeps them.
func BenchmarkHoverColdBuiltins(b *testing.B) {
	p := typeshedProgram(b, map[string]string{"m.py": benchSource})
	u := p.unit("m")
	pop := addAttrSym(u, "pop")
	b.ResetTimer()
	for range b.N {
		ev := New(p, Options{})
		if ev.HoverLine(u, pop, -1) == "" {
			b.Fatal("no hover")
		}
	}
}

// TestSelfReferentialBaseRemembered: builtins' `class str(Sequence[str])`
// meets str again while its base is evaluated. That is no cut, so str's
// class is remembered and the query that built it is complete: the
// type of a str method's result is remembered too.
func TestSelfReferentialBaseRemembered(t *testing.T) {
	p := typeshedProgram(t, map[string]string{"m.py": "u = 'a'.upper()\nb = b'a'.upper()\n"})
	u := p.unit("m")
	ev := New(p, Options{})
	for name, want := range map[string]string{"u": "str", "b": "bytes"} {
		q := ev.query()
		if got := ev.Print(q.sym(u, symNamed(t, u, 0, name))); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
		if q.cuts != 0 {
			t.Errorf("%s: %d cuts, want none", name, q.cuts)
		}
		c := q.builtinClass(want)
		ev.mu.Lock()
		_, ok := ev.classes[c]
		ev.mu.Unlock()
		if !ok {
			t.Errorf("class %s not remembered", want)
		}
	}
}
