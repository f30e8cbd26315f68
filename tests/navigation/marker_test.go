package navigation

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/markertest"
)

// The navigation fixtures (testdata/<case>/, a directory per case: the
// pyright differential test serves the same directories as workspaces)
// carry `#@` marks (package markertest) with these tags:
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

// navigator is what the marks are checked against: the index, or in
// TestMarkerChecksFail an index that answers wrong.
type navigator interface {
	At(abs string, line, char int) *index.Hit
	References(ctx context.Context, h *index.Hit, includeDecl bool) ([]index.Location, error)
	Definition(h *index.Hit) ([]index.Location, error)
	Rename(ctx context.Context, h *index.Hit, newName string) ([]index.Edit, error)
	Describe(h *index.Hit) string
}

func TestMarkers(t *testing.T) {
	markertest.Run(t, []string{filepath.Join("testdata", "*")}, func(t *testing.T, c markertest.Case) {
		root, err := filepath.Abs(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		checkMarkers(t, newTestIndex(t, root, ""), root, c)
	})
}

// locs are the sorted markertest.Loc keys of locations.
func locs(ls []index.Location) []string {
	out := []string{}
	for _, l := range ls {
		out = append(out, markertest.Loc(l.Rel, int(l.Line), int(l.Col)))
	}
	slices.Sort(out)
	return out
}

// checkMarkers checks every mark of a case (root is its directory)
// against nav.
func checkMarkers(r markertest.Reporter, nav navigator, root string, c markertest.Case) {
	r.Helper()
	var marks, renames []markertest.Mark
	hasStub := map[string]bool{}
	for _, f := range c.Files {
		ms, err := markertest.Marks(f)
		if err != nil {
			r.Errorf("%v", err)
			return
		}
		for _, m := range ms {
			if m.NewName != "" {
				renames = append(renames, m)
			} else {
				marks = append(marks, m)
			}
		}
		if p, ok := strings.CutSuffix(f.Path, ".pyi"); ok {
			hasStub[p+".py"] = true
		}
	}
	at := func(m markertest.Mark) *index.Hit {
		h := nav.At(filepath.Join(root, filepath.FromSlash(m.File)), m.Line, m.Col)
		if h == nil {
			r.Errorf("nothing at %v", m)
		}
		return h
	}
	groups := map[string][]markertest.Mark{}
	for _, m := range marks {
		if m.Group != "" {
			groups[m.Group] = append(groups[m.Group], m)
		}
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	slices.Sort(names)
	ctx := context.Background()
	for _, g := range names {
		ms := groups[g]
		var want, wantDefs, wantNoDecl []string
		for _, m := range ms {
			want = append(want, m.Loc())
			if m.Tag == "d" {
				wantDefs = append(wantDefs, m.Loc())
			} else {
				wantNoDecl = append(wantNoDecl, m.Loc())
			}
		}
		slices.Sort(want)
		slices.Sort(wantDefs)
		slices.Sort(wantNoDecl)
		for _, m := range ms {
			if hasStub[m.File] {
				// pyright answers asymmetrically from a source file that
				// has a stub: the goldens cover it.
				continue
			}
			h := at(m)
			if h == nil {
				continue
			}
			refs, err := nav.References(ctx, h, true)
			if got := locs(refs); err != nil || !slices.Equal(got, want) {
				r.Errorf("group %s: references at %v (%s): %v\n got  %v\n want %v", g, m, nav.Describe(h), err, got, want)
			}
			// includeDeclaration=false leaves out the d: positions (what
			// get_definition answers) and nothing else: imports naming
			// the symbol stay.
			refs, err = nav.References(ctx, h, false)
			if got := locs(refs); err != nil || !slices.Equal(got, wantNoDecl) {
				r.Errorf("group %s: references without declaration at %v (%s): %v\n got  %v\n want %v", g, m, nav.Describe(h), err, got, wantNoDecl)
			}
			if len(wantDefs) > 0 {
				defs, err := nav.Definition(h)
				if got := locs(defs); err != nil || !slices.Equal(got, wantDefs) {
					r.Errorf("group %s: definition at %v: got %v %v, want %v", g, m, got, err, wantDefs)
				}
			}
		}
	}
	for _, m := range renames {
		h := at(m)
		if h == nil {
			continue
		}
		_, err := nav.Rename(ctx, h, m.NewName)
		switch code := fault.CodeOf(err); {
		case m.Tag == "ok" && err != nil:
			r.Errorf("rename %v to %s: %v, want edits", m, m.NewName, err)
		case m.Tag == "conflict" && code != fault.NameConflict:
			r.Errorf("rename %v to %s: %v, want NAME_CONFLICT", m, m.NewName, err)
		}
	}
	for _, m := range marks {
		if m.Tag != "ext" && m.Tag != "builtin" {
			continue
		}
		h := at(m)
		if h == nil {
			continue
		}
		if _, err := nav.Definition(h); fault.CodeOf(err) != fault.ExternalDefinition {
			r.Errorf("definition at %v: %v, want EXTERNAL_DEFINITION", m, err)
		}
		if m.Tag == "builtin" {
			if _, err := nav.Rename(ctx, h, "zzz"); fault.CodeOf(err) != fault.CannotRename {
				r.Errorf("rename at %v: %v, want CANNOT_RENAME", m, err)
			}
		}
	}
}

// wrongIndex answers as the index does, except where its fault says.
type wrongIndex struct {
	*index.Index
	fault string
}

func (w wrongIndex) References(ctx context.Context, h *index.Hit, includeDecl bool) ([]index.Location, error) {
	refs, err := w.Index.References(ctx, h, includeDecl)
	switch {
	case w.fault == "a reference missed" && len(refs) > 1:
		refs = refs[1:]
	case w.fault == "the declaration kept" && !includeDecl:
		refs, err = w.Index.References(ctx, h, true)
	}
	return refs, err
}

func (w wrongIndex) Definition(h *index.Hit) ([]index.Location, error) {
	defs, err := w.Index.Definition(h)
	switch {
	case w.fault == "a definition too many" && err == nil:
		defs = append(defs, defs...)
	case w.fault == "externals defined" && fault.CodeOf(err) == fault.ExternalDefinition:
		defs, err = nil, nil
	}
	return defs, err
}

func (w wrongIndex) Rename(ctx context.Context, h *index.Hit, newName string) ([]index.Edit, error) {
	edits, err := w.Index.Rename(ctx, h, newName)
	switch {
	case w.fault == "conflicts allowed" && fault.CodeOf(err) == fault.NameConflict:
		err = nil
	case w.fault == "renames refused" && err == nil:
		err = fmt.Errorf("refused")
	case w.fault == "builtins renamed" && fault.CodeOf(err) == fault.CannotRename:
		err = nil
	}
	return edits, err
}

func (w wrongIndex) At(abs string, line, char int) *index.Hit {
	if w.fault == "nothing found" {
		return nil
	}
	return w.Index.At(abs, line, char)
}

// recorder is a markertest.Reporter that counts what a check reported.
type recorder struct{ errors int }

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }

// TestMarkerChecksFail makes sure the marker checks can fail: over the
// scopes case (which has marks of every kind), the right index passes and
// each way of answering wrong is reported.
func TestMarkerChecksFail(t *testing.T) {
	c, err := markertest.Load(filepath.Join("testdata", "scopes"))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs(c.Path)
	x := newTestIndex(t, root, "")
	for _, f := range []string{"", "a reference missed", "the declaration kept", "a definition too many",
		"externals defined", "conflicts allowed", "renames refused", "builtins renamed", "nothing found"} {
		r := &recorder{}
		checkMarkers(r, wrongIndex{x, f}, root, c)
		if (r.errors == 0) != (f == "") {
			t.Errorf("index answering with %q: %d errors reported", f, r.errors)
		}
	}
}
