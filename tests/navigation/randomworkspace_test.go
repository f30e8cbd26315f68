package navigation

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// randomModules are the files of a generated workspace: a package, its
// modules and top-level modules, so absolute, relative and star imports
// can point at each other in every direction.
var randomModules = []string{"pkg/__init__.py", "pkg/m.py", "pkg/sub/__init__.py", "pkg/sub/deep.py", "app.py", "lib.py"}

// randomStatement is one module-level statement drawn from what makes one
// file's link read another's: imports of every form, aliases, star
// imports, attribute chains, bases, returns and `__all__`, over few
// names, so they collide and cycle.
func randomStatement(r *rand.Rand) string {
	mods := []string{"pkg", "pkg.m", "pkg.sub", "pkg.sub.deep", "app", "lib"}
	rels := []string{".", ".m", "..", ".sub", ".deep", "..m"}
	names := []string{"A", "B", "a", "b", "m", "sub"}
	m, rel := mods[r.Intn(len(mods))], rels[r.Intn(len(rels))]
	n, n2, n3 := names[r.Intn(len(names))], names[r.Intn(len(names))], names[r.Intn(len(names))]
	switch r.Intn(38) {
	case 0:
		return fmt.Sprintf("from %s import *", m)
	case 1:
		return fmt.Sprintf("from %s import %s", m, n)
	case 2:
		return fmt.Sprintf("from %s import %s as %s", m, n, n2)
	case 3:
		return fmt.Sprintf("import %s", m)
	case 4:
		return fmt.Sprintf("import %s as %s", m, n)
	case 5:
		return fmt.Sprintf("from %s import %s", rel, n)
	case 6:
		return fmt.Sprintf("from %s import *", rel)
	case 7:
		return fmt.Sprintf("%s = %s.%s", n, n2, n3)
	case 8:
		return fmt.Sprintf("%s = %s()", n, n2)
	case 9:
		return fmt.Sprintf("class %s(%s):\n    %s = %s\n\n    def run(self):\n        return self.%s", n, n2, n3, n, n3)
	case 10:
		return fmt.Sprintf("def %s(x=%s):\n    return %s(x).%s", n, n2, n3, n)
	case 11:
		return fmt.Sprintf("__all__ = ['%s', '%s']", n, n2)
	case 12:
		return fmt.Sprintf("%s.%s = %s", n, n2, n3)
	case 14:
		return fmt.Sprintf("def %s(x: %s) -> %s:\n    return %s(x) if x else %s.%s", n, n2, n3, n, n2, n3)
	case 15:
		return fmt.Sprintf("@%s\ndef %s():\n    yield from %s()", n2, n, n3)
	case 16:
		return fmt.Sprintf("for %s in %s:\n    %s = [%s for %s in %s.%s]", n, n2, n3, n, n, n2, n3)
	case 17:
		return fmt.Sprintf("with %s() as %s:\n    %s: %s = %s", n2, n, n3, n2, n)
	case 18:
		return fmt.Sprintf("class %s(%s[%s], metaclass=%s):\n    @property\n    def %s(self) -> '%s':\n        return self.%s", n, n2, n3, n, n2, n3, n2)
	case 19:
		return fmt.Sprintf("from typing import TypeVar, Generic, overload\n%s = TypeVar('%s', bound='%s')\nclass %s(Generic[%s]):\n    def get(self) -> %s: ...", n, n, n2, n2, n, n)
	case 20:
		return fmt.Sprintf("try:\n    from %s import %s\nexcept ImportError:\n    %s = %s", m, n, n, n2)
	case 21:
		return fmt.Sprintf("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from %s import %s as %s", m, n, n2)
	case 22:
		return fmt.Sprintf("def __getattr__(name):\n    return %s.%s", n, n2)
	case 23:
		return fmt.Sprintf("%s = lambda %s=%s: %s(%s)", n, n2, n3, n, n2)
	case 24:
		return fmt.Sprintf("match %s:\n    case %s(%s=%s):\n        %s = %s", n, n2, n3, n, n2, n3)
	case 25:
		return fmt.Sprintf("import dataclasses\n@dataclasses.dataclass\nclass %s(%s):\n    %s: '%s' = None\n    %s: list[%s] = dataclasses.field(default_factory=%s)", n, n2, n3, n, n2, n3, n)
	case 26:
		return fmt.Sprintf("async def %s(*args: %s, **kw: %s) -> %s:\n    async with %s as %s:\n        return await %s(*args, **kw)", n, n2, n3, n, n2, n3, n)
	case 27:
		return fmt.Sprintf("class %s(%s):\n    def __init__(self, v: '%s'):\n        super().__init__(v)\n        self.%s = v.%s\n        self.%s = %s(self)", n, n2, n3, n, n2, n3, n)
	case 28:
		return fmt.Sprintf("import functools\n%s = functools.partial(%s, %s)\n%s = functools.wraps(%s)(%s)", n, n2, n3, n2, n, n3)
	case 29:
		return fmt.Sprintf("from typing import NamedTuple, TypedDict, Protocol\nclass %s(NamedTuple):\n    %s: '%s'\nclass %s(TypedDict, total=False):\n    %s: %s", n, n2, n, n2, n3, n)
	case 30:
		return fmt.Sprintf("import enum\nclass %s(enum.Enum):\n    %s = %s\n    %s = enum.auto()", n, n2, n3, n)
	case 31:
		return fmt.Sprintf("from typing import Callable, ParamSpec, Self\nP = ParamSpec('P')\ndef %s(f: Callable[P, %s]) -> Callable[P, %s]:\n    return %s(f)", n, n2, n3, n)
	case 32:
		return fmt.Sprintf("def %s():\n    %s = %s\n    def inner():\n        nonlocal %s\n        %s = inner()\n        return %s\n    return inner", n, n2, n3, n2, n2, n2)
	case 33:
		return fmt.Sprintf("%s = type('%s', (%s,), {'%s': %s})", n, n, n2, n3, n)
	case 34:
		return fmt.Sprintf("class %s:\n    __slots__ = ('%s',)\n    @property\n    def %s(self):\n        return self.%s\n    @%s.setter\n    def %s(self, v):\n        self.%s = v", n, n2, n3, n3, n3, n3, n2)
	case 35:
		return fmt.Sprintf("if %s := %s(%s):\n    global %s\n    %s = [*%s, *%s]", n, n2, n3, n, n, n2, n3)
	case 36:
		return fmt.Sprintf("import sys\nif sys.version_info >= (3, 11):\n    from %s import %s\nelse:\n    %s = %s", m, n, n, n2)
	default:
		return fmt.Sprintf("%s = %s", n, n2)
	}
}

func randomWorkspace(r *rand.Rand) map[string]string {
	files := map[string]string{}
	for _, rel := range randomModules {
		var b strings.Builder
		for range 2 + r.Intn(6) {
			b.WriteString(randomStatement(r) + "\n")
		}
		files[rel] = b.String()
	}
	return files
}

// TestRandomWorkspaces builds generated workspaces whose imports,
// aliases and star imports point at each other in every way (cycles
// included), asks every query at every position of every file, then
// edits files and compares the relinked index with a full link. A name
// that star imports made an alias of itself overflowed the stack of the
// whole server at the first build before (TestStarImportAliasCycle);
// this looks for the next such case. PYWS_RANDOM_WORKSPACES=n (or
// first:n) runs n workspaces instead of the few `make test` runs.
func TestRandomWorkspaces(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 3
	}
	first, campaign := 0, os.Getenv("PYWS_RANDOM_WORKSPACES") != ""
	if campaign {
		// PYWS_RANDOM_WORKSPACES=n or first:n; the seed goes to stderr
		// before each workspace, as a stack overflow ends the process
		// before the test can report it.
		v := os.Getenv("PYWS_RANDOM_WORKSPACES")
		if a, b, ok := strings.Cut(v, ":"); ok {
			fmt.Sscan(a, &first)
			v = b
		}
		fmt.Sscan(v, &n)
	}
	ctx := context.Background()
	s, err := nativeindex.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for seed := first; seed < first+n; seed++ {
		if campaign {
			fmt.Fprintf(os.Stderr, "random workspace, seed %d\n", seed)
		}
		r := rand.New(rand.NewSource(int64(seed)))
		files := randomWorkspace(r)
		root, cache := t.TempDir(), t.TempDir()
		write(t, root, files)
		x, err := nativeindex.Build(ctx, s, root, cache)
		if err != nil {
			t.Fatalf("seed %d: build: %v", seed, err)
		}
		rels := slices.Sorted(func(yield func(string) bool) {
			for rel := range files {
				if !yield(rel) {
					return
				}
			}
		})
		for _, rel := range rels {
			sweepFile(t, x, filepath.Join(root, rel), []byte(files[rel]), 1)
		}
		sweepSymbols(t, x, root, files)
		for step := range 4 {
			rel := rels[r.Intn(len(rels))]
			files[rel] += randomStatement(r) + "\n"
			write(t, root, map[string]string{rel: files[rel]})
			if err := x.RefreshFile(ctx, filepath.Join(root, rel)); err != nil {
				t.Fatalf("seed %d step %d: refresh: %v", seed, step, err)
			}
			fresh, err := nativeindex.Build(ctx, s, root, cache)
			if err != nil {
				t.Fatalf("seed %d step %d: build: %v", seed, step, err)
			}
			if got, want := x.LinkDigest(), fresh.LinkDigest(); got != want {
				t.Fatalf("seed %d step %d (%s edited): the relinked index differs from a full link:\n%s\nworkspace: %q", seed, step, rel, firstDiff(got, want), files)
			}
		}
	}
}

// sweepSymbols asks every query by dotted name, as agents do: each
// module, and each identifier of a module's text under that module and
// relative to it (imports, aliases and re-exports included, which are
// where a name reaches a module, an external name or a builtin).
func sweepSymbols(t *testing.T, x *index.Index, root string, files map[string]string) {
	t.Helper()
	ident := regexp.MustCompile(`[A-Za-z_][A-Za-z_0-9]*`)
	for rel, text := range files {
		mod := strings.TrimSuffix(strings.TrimSuffix(filepath.ToSlash(rel), ".py"), "/__init__")
		mod = strings.ReplaceAll(mod, "/", ".")
		abs := filepath.Join(root, rel)
		names := []string{mod}
		for _, id := range slices.Compact(slices.Sorted(slices.Values(ident.FindAllString(text, -1)))) {
			names = append(names, mod+"."+id, id)
		}
		for _, name := range names {
			withWatchdog(t, "symbol "+name+" from "+rel, func() {
				x.FindSymbols(name, "", 20)
				if h, err := x.Lookup(name, abs); err == nil {
					f, sp := h.File(), h.Span()
					askAll(x, f.Abs, []byte(files[f.Rel]), int(sp.Line), int(sp.Col), 0, true)
				}
			})
		}
	}
}
