package pyright

import (
	"context"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// NewName is the name every sampled rename uses.
const NewName = "renamed_by_diff"

// Sample is one identifier position.
type Sample struct {
	Rel  string `json:"rel"`
	Line int    `json:"line"`
	Char int    `json:"character"`
	Name string `json:"name"`
}

// Answer is one engine's answers at a sample, normalised: locations are
// "rel:line:character" inside the workspace; outside it "external".
type Answer struct {
	Def       []string `json:"definition"`
	DefErr    string   `json:"definitionError,omitempty"`
	Refs      []string `json:"references"`
	RefsErr   string   `json:"referencesError,omitempty"`
	Rename    []string `json:"rename"` // nil: refused
	RenameErr string   `json:"renameError,omitempty"`
}

// Case is a sample with pyright's recorded answer.
type Case struct {
	Sample
	Pyright Answer `json:"pyright"`
}

// Samples picks n identifier positions of the Python files under root,
// uniformly over identifiers, with a seeded RNG.
func Samples(ctx context.Context, s *nativeindex.Summarizer, root string, n int, seed int64) ([]Sample, error) {
	var all []Sample
	err := eachParsed(ctx, s, root, func(rel string, t *tree.Tree, idx *textpos.Index) {
		for node := range t.Root().Descendants() {
			if node.Kind() != "identifier" {
				continue
			}
			l, c := idx.Position(node.StartByte())
			all = append(all, Sample{Rel: rel, Line: l, Char: c, Name: string(node.Text())})
		}
	})
	if err != nil {
		return nil, err
	}
	if n <= 0 || n >= len(all) {
		return all, nil
	}
	r := rand.New(rand.NewSource(seed))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	out := all[:n]
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rel != out[j].Rel {
			return out[i].Rel < out[j].Rel
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Char < out[j].Char
	})
	return out, nil
}

// eachParsed calls fn with each Python file under root that parses: its
// slash-separated path relative to root, tree and positions.
func eachParsed(ctx context.Context, s *nativeindex.Summarizer, root string, fn func(rel string, t *tree.Tree, idx *textpos.Index)) error {
	files, err := nativeindex.PythonFiles(root)(ctx)
	if err != nil {
		return err
	}
	for _, abs := range files {
		src, err := os.ReadFile(abs)
		if err != nil {
			continue
		}
		t, err := s.Parse(ctx, src)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(root, abs)
		fn(filepath.ToSlash(rel), t, textpos.New(src))
	}
	return nil
}

func relOf(root, uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return "external"
	}
	p := filepath.Clean(u.Path)
	if !strings.HasPrefix(p, root+string(filepath.Separator)) {
		return "external"
	}
	return filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
}

func locStr(rel string, line, char int) string { return fmt.Sprintf("%s:%d:%d", rel, line, char) }

// AskPyright runs the three requests for s.
func AskPyright(c *Client, root string, s Sample) Answer {
	abs := filepath.Join(root, s.Rel)
	var a Answer
	defs, err := c.Definition(abs, s.Line, s.Char)
	if err != nil {
		a.DefErr = err.Error()
	}
	for _, d := range defs {
		rel := relOf(root, d.URI)
		if rel == "external" {
			a.Def = append(a.Def, "external")
		} else {
			a.Def = append(a.Def, locStr(rel, d.Range.Start.Line, d.Range.Start.Character))
		}
	}
	refs, err := c.References(abs, s.Line, s.Char, true)
	if err != nil {
		a.RefsErr = err.Error()
	}
	for _, r := range refs {
		if rel := relOf(root, r.URI); rel != "external" {
			a.Refs = append(a.Refs, locStr(rel, r.Range.Start.Line, r.Range.Start.Character))
		}
	}
	edits, err := c.Rename(abs, s.Line, s.Char, NewName)
	if err != nil {
		a.RenameErr = err.Error()
	}
	if edits != nil {
		a.Rename = []string{}
		for _, e := range edits {
			a.Rename = append(a.Rename, fmt.Sprintf("%s-%d:%d=%s", locStr(relOf(root, e.URI), e.Line, e.Char), e.EndLine, e.EndChar, e.NewText))
		}
	}
	sort.Strings(a.Refs)
	sort.Strings(a.Rename)
	return a
}

// AskPyws answers s from the index.
func AskPyws(ctx context.Context, x *index.Index, root string, s Sample) Answer {
	var a Answer
	abs := filepath.Join(root, s.Rel)
	h := x.At(abs, s.Line, s.Char)
	if h == nil {
		a.DefErr, a.RefsErr, a.RenameErr = fault.NoDefinitionFound, fault.NoSymbolFound, fault.NoSymbolFound
		return a
	}
	defs, err := x.Definition(h)
	if err != nil {
		a.DefErr = fault.CodeOf(err)
		if a.DefErr == fault.ExternalDefinition {
			a.Def = []string{"external"}
		}
	}
	for _, d := range defs {
		a.Def = append(a.Def, locStr(d.Rel, int(d.Line), int(d.Col)))
	}
	refs, err := x.References(ctx, h, true)
	if err != nil {
		a.RefsErr = fault.CodeOf(err)
	}
	for _, r := range refs {
		a.Refs = append(a.Refs, locStr(r.Rel, int(r.Line), int(r.Col)))
	}
	edits, err := x.Rename(ctx, h, NewName)
	if err != nil {
		a.RenameErr = fault.CodeOf(err)
	} else {
		a.Rename = []string{}
		for _, e := range edits {
			a.Rename = append(a.Rename, fmt.Sprintf("%s-%d:%d=%s", locStr(e.Rel, int(e.Line), int(e.Col)), e.Line, e.End, e.NewText))
		}
	}
	sort.Strings(a.Refs)
	sort.Strings(a.Rename)
	return a
}

func lineOf(loc string) string {
	if i := strings.LastIndexByte(loc, ':'); i >= 0 {
		return loc[:i]
	}
	return loc
}

// DefAgrees: both find nothing in the workspace (nothing, or only
// external), or pyws's primary definition is on a line pyright lists.
func DefAgrees(py, us Answer) bool {
	pyWS := map[string]bool{}
	for _, d := range py.Def {
		if d != "external" {
			pyWS[lineOf(d)] = true
		}
	}
	var first string
	for _, d := range us.Def {
		if d != "external" {
			first = d
			break
		}
	}
	if len(pyWS) == 0 {
		return first == ""
	}
	return first != "" && pyWS[lineOf(first)]
}

// F1 of pyws's references against pyright's (1 when both are empty).
func F1(py, us []string) float64 {
	if len(py) == 0 && len(us) == 0 {
		return 1
	}
	set := map[string]bool{}
	for _, p := range py {
		set[p] = true
	}
	tp := 0
	for _, u := range us {
		if set[u] {
			tp++
		}
	}
	if tp == 0 {
		return 0
	}
	p, r := float64(tp)/float64(len(us)), float64(tp)/float64(len(py))
	return 2 * p * r / (p + r)
}

// RenameAgrees: both refuse (pyright: no edits or an error), or the edit
// sets are equal.
func RenameAgrees(py, us Answer) bool {
	pyRefused := len(py.Rename) == 0
	usRefused := us.Rename == nil || len(us.Rename) == 0
	if pyRefused || usRefused {
		return pyRefused == usRefused
	}
	return strings.Join(py.Rename, "\n") == strings.Join(us.Rename, "\n")
}

// Score sums agreement over cases.
type Score struct {
	N                   int
	DefOK, RenameOK     int
	F1Sum               float64
	DefMiss, RenameMiss []int // indexes of disagreeing cases
	LowF1               []int
}

func (s *Score) Add(i int, py, us Answer) {
	s.N++
	if DefAgrees(py, us) {
		s.DefOK++
	} else {
		s.DefMiss = append(s.DefMiss, i)
	}
	f := F1(py.Refs, us.Refs)
	s.F1Sum += f
	if f < 0.999 {
		s.LowF1 = append(s.LowF1, i)
	}
	if RenameAgrees(py, us) {
		s.RenameOK++
	} else {
		s.RenameMiss = append(s.RenameMiss, i)
	}
}

func (s *Score) String() string {
	if s.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("samples %d: definition %.1f%% (%d/%d), references mean F1 %.3f, rename %.1f%% (%d/%d)",
		s.N, 100*float64(s.DefOK)/float64(s.N), s.DefOK, s.N, s.F1Sum/float64(s.N), 100*float64(s.RenameOK)/float64(s.N), s.RenameOK, s.N)
}
