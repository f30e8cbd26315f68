package navigation

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
	"github.com/pyws/pyws/plugin-sdk/typeshed"
	"github.com/pyws/pyws/tests/internal/nativeindex"
	"github.com/pyws/pyws/tests/internal/teststubs"
)

// fileCounter counts how often each file was summarized.
type fileCounter struct {
	index.Summarizer
	mu sync.Mutex
	n  map[string]int
}

func newFileCounter(tb testing.TB) *fileCounter {
	return &fileCounter{Summarizer: native(tb).Summarizer, n: map[string]int{}}
}

func (c *fileCounter) Summarize(ctx context.Context, t index.Target, files []index.Source) ([][]byte, error) {
	c.mu.Lock()
	for _, f := range files {
		c.n[f.Rel]++
	}
	c.mu.Unlock()
	return c.Summarizer.Summarize(ctx, t, files)
}

func (c *fileCounter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.n {
		n += k
	}
	return n
}

func newStubSets(t *testing.T, s index.Summarizer, cacheDir string) *index.StubSets {
	t.Helper()
	tree, err := teststubs.Open()
	if err != nil {
		t.Fatal(err)
	}
	return index.NewStubSets(index.StubConfig{Stubs: tree, Summarizer: s, CacheDir: cacheDir, Parallel: 2})
}

var linux312 = index.Target{Minor: 12, Platform: "linux"}

func TestStubSetLoadsBuiltinsClosure(t *testing.T) {
	c := newFileCounter(t)
	set := newStubSets(t, c, "").For(linux312)
	start := time.Now()
	got, err := set.Load(context.Background(), []string{"builtins"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("builtins closure: %d modules in %v", len(got), time.Since(start))
	for _, m := range []string{"builtins", "typing", "typing_extensions", "_typeshed", "types", "collections.abc", "_collections_abc"} {
		u := got[m]
		if u == nil {
			t.Errorf("%s not in the closure of builtins", m)
			continue
		}
		if u.ModuleName() != m || !u.IsStub() || !u.IsTypeshed() || len(u.Summary().Syms) == 0 {
			t.Errorf("%s: module %q stub %v typeshed %v, %d symbols", m, u.ModuleName(), u.IsStub(), u.IsTypeshed(), len(u.Summary().Syms))
		}
	}
	if n := len(got); n < 20 || n > 120 {
		t.Errorf("closure of builtins has %d modules; types.md counted about 55", n)
	}
	if int(set.Summarized()) != len(got) || c.total() != len(got) {
		t.Errorf("%d modules, %d summarized (%d summarizer files)", len(got), set.Summarized(), c.total())
	}
	if set.Loaded("builtins") != got["builtins"] || set.Loaded("tkinter") != nil {
		t.Error("Loaded does not answer what Load loaded, and only that")
	}
}

func TestStubSetHonoursVersions(t *testing.T) {
	sets := newStubSets(t, native(t), "")
	mods := []string{"asyncio.taskgroups", "distutils", "tomllib", "nosuchmodule"}
	for _, tc := range []struct {
		minor   int
		present []string
		absent  []string
	}{
		{10, []string{"distutils"}, []string{"asyncio.taskgroups", "tomllib", "nosuchmodule"}},
		{12, []string{"asyncio.taskgroups", "tomllib"}, []string{"distutils", "nosuchmodule"}},
	} {
		set := sets.For(index.Target{Minor: tc.minor, Platform: "linux"})
		got, err := set.Load(context.Background(), mods)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tc.present {
			if got[m] == nil {
				t.Errorf("3.%d: %s not loaded", tc.minor, m)
			}
		}
		for _, m := range tc.absent {
			if got[m] != nil || set.Loaded(m) != nil {
				t.Errorf("3.%d: %s loaded, VERSIONS says it is absent", tc.minor, m)
			}
		}
	}
	if sets.For(index.Target{Minor: 10}) == sets.For(linux312) || sets.For(index.Target{Minor: 12}) != sets.For(linux312) {
		t.Error("a stub set per target, the zero platform being linux")
	}
}

func TestStubSetDiskCache(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	c1 := newFileCounter(t)
	first, err := newStubSets(t, c1, cache).For(linux312).Load(ctx, []string{"builtins"})
	if err != nil {
		t.Fatal(err)
	}
	if c1.total() == 0 {
		t.Fatal("nothing summarized on a cold cache")
	}

	// Another process (a new stub set) reads every summary from disk.
	c2 := newFileCounter(t)
	start := time.Now()
	second, err := newStubSets(t, c2, cache).For(linux312).Load(ctx, []string{"builtins"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("warm builtins closure: %d modules in %v", len(second), time.Since(start))
	if c2.total() != 0 {
		t.Errorf("warm load summarized %d files", c2.total())
	}
	if len(first) != len(second) {
		t.Fatalf("cold %d modules, warm %d", len(first), len(second))
	}
	for m, u := range first {
		if !reflect.DeepEqual(u.Summary(), second[m].Summary()) {
			t.Errorf("%s: the cached summary differs from the one made", m)
		}
	}

	// A corrupt file is summarized again and rewritten.
	var files []string
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) != len(first) {
		t.Fatalf("%d cache files for %d modules", len(files), len(first))
	}
	bad := files[len(files)/2]
	if err := os.WriteFile(bad, []byte("not a summary"), 0o600); err != nil {
		t.Fatal(err)
	}
	c3 := newFileCounter(t)
	if _, err := newStubSets(t, c3, cache).For(linux312).Load(ctx, []string{"builtins"}); err != nil {
		t.Fatal(err)
	}
	if c3.total() != 1 {
		t.Errorf("after corrupting one cache file, %d files summarized: %v", c3.total(), c3.n)
	}
	b, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := navindex.Decode(b); err != nil {
		t.Errorf("the corrupt cache file was not rewritten: %v", err)
	}
}

// A prepared state (`pyws prepare`: LoadAll at build time) serves a
// fresh cache: nothing is summarized and nothing is written beside it; a
// target it lacks is summarized.
func TestStubSetPreparedState(t *testing.T) {
	ctx := context.Background()
	prepared := t.TempDir()
	c1 := newFileCounter(t)
	n, err := newStubSets(t, c1, prepared).LoadAll(ctx, linux312)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := teststubs.Open()
	if err != nil {
		t.Fatal(err)
	}
	all, err := tree.Modules(typeshed.Version{Major: 3, Minor: linux312.Minor})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(all) || c1.total() != n {
		t.Fatalf("LoadAll: %d modules, %d files summarized; the version has %d", n, c1.total(), len(all))
	}

	fresh := t.TempDir()
	c2 := newFileCounter(t)
	sets := index.NewStubSets(index.StubConfig{Stubs: tree, Summarizer: c2, CacheDir: fresh, PreparedDir: prepared, Parallel: 2})
	got, err := sets.For(linux312).Load(ctx, []string{"builtins", "os"})
	if err != nil {
		t.Fatal(err)
	}
	if c2.total() != 0 {
		t.Errorf("with a prepared state, %d files summarized: %v", c2.total(), c2.n)
	}
	if entries, _ := os.ReadDir(fresh); len(entries) != 0 {
		t.Errorf("the fresh cache holds %d entries; prepared summaries are read in place", len(entries))
	}
	for _, m := range []string{"builtins", "os", "os.path", "typing"} {
		if u := got[m]; u == nil || len(u.Summary().Syms) == 0 {
			t.Errorf("%s: not loaded from the prepared state, or empty", m)
		}
	}

	if _, err := sets.For(index.Target{Minor: 11, Platform: "linux"}).Load(ctx, []string{"builtins"}); err != nil {
		t.Fatal(err)
	}
	if c2.total() == 0 {
		t.Error("a target the prepared state lacks was not summarized")
	}
}

func TestStubSetConcurrentLoadsSummarizeOnce(t *testing.T) {
	c := newFileCounter(t)
	set := newStubSets(t, c, "").For(linux312)
	const n = 6
	results := make([]map[string]*index.File, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mods := []string{"json", "builtins"}
			if i%2 == 1 {
				mods = []string{"os.path", "json.decoder"}
			}
			got, err := set.Load(context.Background(), mods)
			if err != nil {
				t.Error(err)
			}
			results[i] = got
		}()
	}
	wg.Wait()
	for rel, k := range c.n {
		if k != 1 {
			t.Errorf("%s summarized %d times", rel, k)
		}
	}
	for i := 1; i < n; i++ {
		for m, u := range results[i] {
			if v := results[0][m]; v != nil && v != u {
				t.Errorf("%s: two units", m)
			}
		}
	}
}

// stubFixture imports the standard library the ways the index links.
var stubFixture = map[string]string{
	"a.py": `import os.path
from collections import OrderedDict
import os
import collections as co

os.path.join("a", "b")
d = OrderedDict()
d.move_to_end("k")
n = len("x")
co.OrderedDict


class E(Exception):
    pass


E().args
os.getcwd()
`,
	"b.py": `import os
from os.path import join
from posixpath import *

os.path.join("c")
join("d")
splitext("e")
`,
}

// symbolNamed is the first symbol of kind k named name in f.
func symbolNamed(t *testing.T, f *index.File, k navindex.SymKind, name string) int32 {
	t.Helper()
	for i, y := range f.S.Syms {
		if y.Kind == k && y.Name == name {
			return int32(i)
		}
	}
	t.Fatalf("%s has no symbol %s of kind %d", f.Rel, name, k)
	return -1
}

// refName names what r refers to: "module:symbol", "module" or "".
func refName(r pytypes.Ref) string {
	switch {
	case r.Unit != nil:
		return r.Unit.ModuleName() + ":" + r.Unit.Summary().Syms[r.Sym].Name
	case r.Module != "":
		return "module " + r.Module
	}
	return ""
}

func TestIndexLinksIntoStubs(t *testing.T) {
	root := t.TempDir()
	write(t, root, stubFixture)
	x := newTestIndex(t, root, "")
	x.View(func(p *index.Program) {
		a := p.Unit("a.py")
		for _, tc := range []struct {
			kind navindex.SymKind
			name string
			want string
		}{
			{navindex.SymLocal, "OrderedDict", "collections:OrderedDict"},
			{navindex.SymBuiltin, "len", "builtins:len"},
			{navindex.SymBuiltin, "Exception", "builtins:Exception"},
			{navindex.SymLocal, "co", "module collections"},
			{navindex.SymLocal, "os", "module os"},
			{navindex.SymLocal, "E", "a:E"},
		} {
			if got := refName(p.Resolve(a, symbolNamed(t, a, tc.kind, tc.name))); got != tc.want {
				t.Errorf("Resolve(%s) = %q, want %q", tc.name, got, tc.want)
			}
		}
		for _, tc := range [][3]string{
			{"os.path", "join", "posixpath:join"}, // through os/path.pyi's star import (linux)
			{"os", "path", "os:path"},             // `path = _path`: a variable, whose value the evaluator finds
			{"os.path", "sep", "posixpath:sep"},
			{"os", "getcwd", "os:getcwd"},
			{"collections", "OrderedDict", "collections:OrderedDict"},
			{"a", "E", "a:E"},
			{"os", "no_such_name", ""},
		} {
			if got := refName(p.ModuleMember(tc[0], tc[1])); got != tc[2] {
				t.Errorf("ModuleMember(%s, %s) = %q, want %q", tc[0], tc[1], got, tc[2])
			}
		}
		b := p.Unit("b.py")
		if got := refName(p.Resolve(b, symbolNamed(t, b, navindex.SymUnresolved, "splitext"))); got != "posixpath:splitext" {
			t.Errorf("Resolve(splitext) through a star import = %q", got)
		}
		if us := p.Module("builtins"); len(us) != 1 || !us[0].IsStub() {
			t.Errorf("Module(builtins) = %v", us)
		}
		if us := p.Module("a"); len(us) != 1 || us[0] != pytypes.Unit(a) {
			t.Errorf("Module(a) = %v", us)
		}
		if us := p.Module("tkinter"); us != nil {
			t.Errorf("Module(tkinter) = %v: nothing imports it", us)
		}
	})
	// The references of os.path.join span both files, the import of join
	// included, as without stubs.
	abs := filepath.Join(root, "a.py")
	want := []string{"a.py:5:8", "b.py:1:20", "b.py:4:8", "b.py:5:0"}
	if got := refsAt(t, x, abs, 5, 9); !reflect.DeepEqual(got, want) {
		t.Errorf("references of os.path.join: %v, want %v", got, want)
	}
}

// TestStubsChangeNoAnswer asks definition, references and rename at every
// identifier of the fixture with and without stubs: the answers must be
// the same (hover may improve, so it is not compared).
func TestStubsChangeNoAnswer(t *testing.T) {
	root := t.TempDir()
	write(t, root, stubFixture)
	with := newTestIndex(t, root, "")
	without := index.New(index.Config{Root: root, Files: nativeindex.PythonFiles(root), Read: os.ReadFile, Summarizer: native(t), Parallel: 1})
	if err := without.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	ext := 0
	for _, rel := range []string{"a.py", "b.py"} {
		var occs []navindex.Occ
		with.View(func(p *index.Program) { occs = p.Unit(rel).S.Occs })
		abs := filepath.Join(root, rel)
		for _, o := range occs {
			line, char := int(o.Line), int(o.Col)
			w, wo := answers(with, abs, line, char), answers(without, abs, line, char)
			if w != wo {
				t.Errorf("%s:%d:%d\nwith stubs:    %s\nwithout stubs: %s", rel, line, char, w, wo)
			}
			if h := with.At(abs, line, char); h != nil {
				if _, err := with.Definition(h); fault.CodeOf(err) == fault.ExternalDefinition {
					ext++
				}
			}
		}
	}
	if ext < 10 {
		t.Errorf("only %d external definitions: the fixture no longer exercises the stubs", ext)
	}
}

// answers prints get_definition, get_references and rename_symbol at a
// position.
func answers(x *index.Index, abs string, line, char int) string {
	h := x.At(abs, line, char)
	if h == nil {
		return "no symbol"
	}
	show := func(v any, err error) string {
		if fe, ok := fault.As(err); ok {
			return fmt.Sprintf("%s %v", fe.Code, fe.Details)
		}
		if err != nil {
			return err.Error()
		}
		return fmt.Sprint(v)
	}
	defs, derr := x.Definition(h)
	refs, rerr := x.References(context.Background(), h, true)
	edits, nerr := x.Rename(context.Background(), h, "zz")
	return "def " + show(defs, derr) + "; refs " + show(refs, rerr) + "; rename " + show(edits, nerr)
}

// TestStubUnitsShared builds two workspaces over one stub set and queries
// both at once (run under -race): they share the same stub units, and a
// workspace's link state never lands on them.
func TestStubUnitsShared(t *testing.T) {
	ctx := context.Background()
	sets := newStubSets(t, native(t), "")
	var xs [2]*index.Index
	var roots [2]string
	for i := range xs {
		roots[i] = t.TempDir()
		write(t, roots[i], stubFixture)
		xs[i] = index.New(index.Config{Root: roots[i], Files: nativeindex.PythonFiles(roots[i]), Read: os.ReadFile, Summarizer: native(t), Parallel: 1, Stubs: sets})
	}
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := x.Build(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var units [2][]pytypes.Unit
	for i, x := range xs {
		x.View(func(p *index.Program) {
			for _, m := range []string{"builtins", "collections", "posixpath", "typing"} {
				units[i] = append(units[i], p.Module(m)...)
			}
		})
	}
	if len(units[0]) != 4 || !reflect.DeepEqual(units[0], units[1]) {
		t.Fatalf("stub units differ between workspaces: %v / %v", units[0], units[1])
	}
	for k := range units[0] {
		if units[0][k] != units[1][k] {
			t.Errorf("%s: two copies", units[0][k].ModuleName())
		}
	}
	// Queries, evaluator-style resolutions and a relink, concurrently.
	for i, x := range xs {
		abs := filepath.Join(roots[i], "a.py")
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					switch g {
					case 0:
						answers(x, abs, 5, 9)
						answers(x, abs, 8, 5)
					case 1:
						x.View(func(p *index.Program) {
							a := p.Unit("a.py")
							for s := range a.S.Syms {
								p.Resolve(a, int32(s))
							}
							p.ModuleMember("os.path", "join")
							p.ModuleMember("builtins", "str")
						})
					case 2:
						write(t, roots[i], map[string]string{"c.py": fmt.Sprintf("import json\nx%d = json.dumps\n", time.Now().UnixNano())})
						if err := x.Rescan(ctx); err != nil {
							t.Error(err)
						}
					}
				}
			}()
		}
	}
	wg.Wait()
}

func TestStubSetCanceledLoadIsRetried(t *testing.T) {
	set := newStubSets(t, native(t), "").For(linux312)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := set.Load(ctx, []string{"json"}); err == nil {
		t.Fatal("a canceled load succeeded")
	}
	if set.Loaded("json") != nil {
		t.Fatal("a canceled load left a unit")
	}
	got, err := set.Load(context.Background(), []string{"json"})
	if err != nil || got["json"] == nil || len(got["json"].Summary().Syms) == 0 {
		t.Fatalf("load after a canceled one: %v, %v", got["json"], err)
	}
}
