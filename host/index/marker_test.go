package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/pyws/pyws/host/fault"
)

// Marker fixtures (tests/navigation/testdata/<case>/): a trailing comment
// "#@ name[@k]:tag ..." annotates the k-th (default first) occurrence of
// identifier name in the code before it on the same line. Tags:
//
//	d:G        a definition of symbol group G (also one of its references)
//	r:G        a reference of G
//	ext        get_definition answers EXTERNAL_DEFINITION
//	builtin    a builtin: EXTERNAL_DEFINITION and CANNOT_RENAME
//
// "#@ name[@k]->new:ok" says renaming that occurrence to new succeeds,
// "#@ name[@k]->new:conflict" that it is NAME_CONFLICT (new is bound in a
// scope the symbol can see, or would capture or shadow a name).
//
// Positions in a .py file that has a .pyi beside it are not queried:
// pyright answers asymmetrically there (importers see the stub), which
// the pyright goldens (tests/differential/pyright) check.
//
// For every group, references from every marked position must be exactly
// the marked positions (so a string or comment counted, or an occurrence
// missed, fails), and definitions exactly the d: positions (when any).

type mark struct {
	rel       string
	line, col int
	name, tag string
	group     string
}

var markRE = regexp.MustCompile(`([\pL_][\pL\pN_]*)(?:@(\d+))?:(d|r|ext|builtin)(?::([\w.]+))?`)

var renameRE = regexp.MustCompile(`([\pL_][\pL\pN_]*)(?:@(\d+))?->([\pL_][\pL\pN_]*):(ok|conflict)`)

// rename is a "#@ name->new:ok|conflict" mark.
type rename struct {
	mark
	newName string
}

func readRenames(t *testing.T, root string) []rename {
	t.Helper()
	var out []rename
	files, _ := dirFiles(root)(context.Background())
	for _, abs := range files {
		rel, _ := filepath.Rel(root, abs)
		b, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		for ln, line := range strings.Split(string(b), "\n") {
			i := strings.Index(line, "#@ ")
			if i < 0 {
				continue
			}
			code := line[:i]
			for _, m := range renameRE.FindAllStringSubmatch(line[i+3:], -1) {
				name, k := m[1], 1
				if m[2] != "" {
					k, _ = strconv.Atoi(m[2])
				}
				idRE := regexp.MustCompile(`(^|[^\pL\pN_])(` + regexp.QuoteMeta(name) + `)([^\pL\pN_]|$)`)
				locs := idRE.FindAllStringSubmatchIndex(code, -1)
				if k > len(locs) {
					t.Fatalf("%s:%d: no occurrence %d of %s", rel, ln+1, k, name)
				}
				out = append(out, rename{mark{rel: filepath.ToSlash(rel), line: ln, col: utf16Col(code, locs[k-1][4]), name: name, tag: m[4]}, m[3]})
			}
		}
	}
	return out
}

func utf16Col(s string, byteOff int) int { return len(utf16.Encode([]rune(s[:byteOff]))) }

func readMarks(t *testing.T, root string) []mark {
	t.Helper()
	var out []mark
	files, _ := dirFiles(root)(context.Background())
	for _, abs := range files {
		rel, _ := filepath.Rel(root, abs)
		b, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		for ln, line := range strings.Split(string(b), "\n") {
			i := strings.Index(line, "#@ ")
			if i < 0 {
				continue
			}
			code := line[:i]
			for _, m := range markRE.FindAllStringSubmatch(line[i+3:], -1) {
				name, k := m[1], 1
				if m[2] != "" {
					k, _ = strconv.Atoi(m[2])
				}
				idRE := regexp.MustCompile(`(^|[^\pL\pN_])(` + regexp.QuoteMeta(name) + `)([^\pL\pN_]|$)`)
				locs := idRE.FindAllStringSubmatchIndex(code, -1)
				// overlapping matches (a a) are rare in fixtures; good enough
				if k > len(locs) {
					t.Fatalf("%s:%d: no occurrence %d of %s", rel, ln+1, k, name)
				}
				off := locs[k-1][4]
				out = append(out, mark{rel: filepath.ToSlash(rel), line: ln, col: utf16Col(code, off), name: name, tag: m[3], group: m[4]})
			}
		}
	}
	return out
}

func (m mark) String() string { return fmt.Sprintf("%s:%d:%d(%s)", m.rel, m.line+1, m.col, m.name) }

func locKey(rel string, line, col int) string { return fmt.Sprintf("%s:%d:%d", rel, line+1, col) }

func shadowedByStub(root, rel string) bool {
	if !strings.HasSuffix(rel, ".py") {
		return false
	}
	_, err := os.Stat(filepath.Join(root, rel+"i"))
	return err == nil
}

// without returns the elements of a that are not in b.
func without(a, b []string) []string {
	out := []string{}
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func TestMarkers(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "tests", "navigation", "testdata", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			root, _ := filepath.Abs(dir)
			x := newTestIndex(t, root, "")
			marks := readMarks(t, root)
			groups := map[string][]mark{}
			for _, m := range marks {
				if m.group != "" {
					groups[m.group] = append(groups[m.group], m)
				}
			}
			names := make([]string, 0, len(groups))
			for g := range groups {
				names = append(names, g)
			}
			sort.Strings(names)
			for _, g := range names {
				ms := groups[g]
				var want, wantDefs []string
				for _, m := range ms {
					want = append(want, locKey(m.rel, m.line, m.col))
					if m.tag == "d" {
						wantDefs = append(wantDefs, locKey(m.rel, m.line, m.col))
					}
				}
				sort.Strings(want)
				sort.Strings(wantDefs)
				for _, m := range ms {
					if shadowedByStub(root, m.rel) {
						// pyright answers asymmetrically from a source
						// file that has a stub: the goldens cover it.
						continue
					}
					h := x.At(filepath.Join(root, m.rel), m.line, m.col)
					if h == nil {
						t.Errorf("group %s: nothing at %v", g, m)
						continue
					}
					refs, err := x.References(context.Background(), h, true)
					if err != nil {
						t.Errorf("group %s: references at %v: %v", g, m, err)
						continue
					}
					var got []string
					for _, l := range refs {
						got = append(got, locKey(l.Rel, int(l.Line), int(l.Col)))
					}
					sort.Strings(got)
					if strings.Join(got, " ") != strings.Join(want, " ") {
						t.Errorf("group %s: references at %v (%s)\n got  %v\n want %v", g, m, x.Describe(h), got, want)
					}
					// includeDeclaration=false leaves out the d: positions
					// (what get_definition answers) and nothing else:
					// imports naming the symbol stay.
					refs, err = x.References(context.Background(), h, false)
					if err != nil {
						t.Errorf("group %s: references without declaration at %v: %v", g, m, err)
						continue
					}
					got = got[:0]
					for _, l := range refs {
						got = append(got, locKey(l.Rel, int(l.Line), int(l.Col)))
					}
					sort.Strings(got)
					if wantNoDecl := without(want, wantDefs); strings.Join(got, " ") != strings.Join(wantNoDecl, " ") {
						t.Errorf("group %s: references without declaration at %v (%s)\n got  %v\n want %v", g, m, x.Describe(h), got, wantNoDecl)
					}
					if len(wantDefs) > 0 {
						defs, err := x.Definition(h)
						var gotDefs []string
						for _, l := range defs {
							gotDefs = append(gotDefs, locKey(l.Rel, int(l.Line), int(l.Col)))
						}
						sort.Strings(gotDefs)
						if err != nil || strings.Join(gotDefs, " ") != strings.Join(wantDefs, " ") {
							t.Errorf("group %s: definition at %v: got %v %v, want %v", g, m, gotDefs, err, wantDefs)
						}
					}
				}
			}
			for _, r := range readRenames(t, root) {
				h := x.At(filepath.Join(root, r.rel), r.line, r.col)
				if h == nil {
					t.Errorf("nothing at %v", r.mark)
					continue
				}
				_, err := x.Rename(context.Background(), h, r.newName)
				switch code := fault.CodeOf(err); {
				case r.tag == "ok" && err != nil:
					t.Errorf("rename %v to %s: %v, want edits", r.mark, r.newName, err)
				case r.tag == "conflict" && code != fault.NameConflict:
					t.Errorf("rename %v to %s: %v, want NAME_CONFLICT", r.mark, r.newName, err)
				}
			}
			for _, m := range marks {
				if m.tag != "ext" && m.tag != "builtin" {
					continue
				}
				h := x.At(filepath.Join(root, m.rel), m.line, m.col)
				if h == nil {
					t.Errorf("nothing at %v", m)
					continue
				}
				_, err := x.Definition(h)
				if fault.CodeOf(err) != fault.ExternalDefinition {
					t.Errorf("definition at %v: %v, want EXTERNAL_DEFINITION", m, err)
				}
				if m.tag == "builtin" {
					if _, err := x.Rename(context.Background(), h, "zzz"); fault.CodeOf(err) != fault.CannotRename {
						t.Errorf("rename at %v: %v, want CANNOT_RENAME", m, err)
					}
				}
			}
		})
	}
}
