package index

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/pyws/pyws/host/regularfile"

	"github.com/pyws/pyws/plugin-sdk/typeshed"
)

// Installed packages as units. An import the workspace does not define
// and the standard library does not have resolves through the
// interpreter's search path (its sys.path without the standard library:
// site-packages, dist-packages, PYTHONPATH), as pyright's does: a
// package's `-stubs` sibling first, then its .pyi, then its .py (inline
// types, and bodies the evaluator infers from). A site set is a StubSet
// whose files come from those directories; like typeshed's stubs, its
// units are shared read-only by every workspace of the same target and
// search path, never answered as locations (get_definition says
// EXTERNAL_DEFINITION), and only read, never written.

// Bounds of a site closure: installed packages import much more than a
// workspace uses (Django's 900 files for `from django.db import
// models`), so imports are followed maxSiteDepth levels from the
// workspace's, and at most maxSiteModules names are looked up.
const (
	maxSiteDepth   = 4
	maxSiteModules = 2048
	maxSiteSource  = 4 << 20
)

type siteKey struct {
	t    Target
	dirs string
}

// ForSite returns the set of installed packages found in dirs, and of
// typeshed's third-party stubs, for t (nil for a nil StubSets).
func (s *StubSets) ForSite(t Target, dirs []string) *StubSet {
	if s == nil || s.cfg.Summarizer == nil || len(dirs) == 0 && s.cfg.Stubs == nil {
		return nil
	}
	t = t.withDefaults()
	k := siteKey{t, strings.Join(dirs, "\x00")}
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.sites[k]
	if set == nil {
		set = &StubSet{cfg: s.cfg, target: t, version: typeshed.Version{Major: 3, Minor: t.Minor},
			mods: map[string]*stubEntry{}, srcs: map[srcKey]*srcEntry{}, site: dirs, isSite: true,
			depth: maxSiteDepth, maxModules: maxSiteModules}
		set.setDirs(t) // keys are content hashes and paths: one cache serves both
		if s.sites == nil {
			s.sites = map[siteKey]*StubSet{}
		}
		s.sites[k] = set
	}
	return set
}

// findSiteModule finds module's file outside the workspace and the
// standard library, in pyright's order: a `-stubs` package in dirs, an
// installed package that says it is typed (py.typed) with its .pyi or
// .py, typeshed's third-party stub, then any installed .pyi or .py. The
// standard library's names are never looked up (typeshed has them), and
// only dotted identifiers are. file is the path under its directory (or
// in the stubs tree).
func findSiteModule(stubs *typeshed.Stubs, dirs []string, module string) (file string, text []byte, ok bool) {
	parts := strings.Split(module, ".")
	for _, p := range parts {
		if !identPart.MatchString(p) {
			return "", nil, false
		}
	}
	if stdlibModules[parts[0]] {
		return "", nil, false
	}
	base := strings.Join(parts, "/")
	stubsPkg := parts[0] + "-stubs"
	if len(parts) > 1 {
		stubsPkg += "/" + strings.Join(parts[1:], "/")
	}
	inDirs := func(typedOnly bool, candidates ...string) (string, []byte, bool) {
		for _, dir := range dirs {
			if typedOnly && readSiteSource(dir, parts[0]+"/py.typed") == nil {
				continue
			}
			for _, rel := range candidates {
				if b := readSiteSource(dir, rel); b != nil {
					return rel, b, true
				}
			}
		}
		return "", nil, false
	}
	stubCandidates := []string{stubsPkg + ".pyi", stubsPkg + "/__init__.pyi"}
	if len(parts) == 1 {
		stubCandidates = stubCandidates[1:] // a top-level `-stubs` is a directory
	}
	code := []string{base + ".pyi", base + "/__init__.pyi", base + ".py", base + "/__init__.py"}
	if file, text, ok := inDirs(false, stubCandidates...); ok {
		return file, text, true
	}
	if file, text, ok := inDirs(true, code...); ok {
		return file, text, true
	}
	if stubs != nil {
		if file, ok := stubs.ThirdPartyFile(module); ok {
			if text, err := stubs.ReadFile(file); err == nil {
				return file, text, true
			}
		}
	}
	return inDirs(false, code...)
}

// readSiteSource reads rel under an interpreter's search directory dir
// (outside the workspace: installed packages, as the interpreter's probe
// reported its sys.path), nil when it is not a regular file under
// maxSiteSource bytes.
func readSiteSource(dir, rel string) []byte {
	// Judged by the file opened, not the name stat'ed: a FIFO swapped in
	// (a venv inside the workspace is as hostile as the rest of it) would
	// block the read, and the site load with it, forever.
	b, err := regularfile.Read(filepath.Join(dir, filepath.FromSlash(rel)), 0, maxSiteSource)
	if err != nil {
		return nil
	}
	return b
}

// loadSite loads the installed packages the workspace's imports (mods,
// less those under the workspace's own top-level names: ws) reach, and
// the stdlib stubs those import, into out.
func (x *Index) loadSite(ctx context.Context, mods []string, ws map[string]bool, out map[string]*File) error {
	var third []string
	for _, m := range mods {
		top, _, _ := strings.Cut(m, ".")
		if !stdlibModules[top] && !ws[top] {
			third = append(third, m)
		}
	}
	if len(third) == 0 {
		return nil
	}
	site, err := x.site.Load(ctx, third)
	if err != nil {
		return err
	}
	var std []string
	for name, f := range site {
		if out[name] == nil {
			out[name] = f
		}
		for _, m := range f.stubImports {
			if top, _, _ := strings.Cut(m, "."); stdlibModules[top] && out[m] == nil {
				std = append(std, m)
			}
		}
	}
	if len(std) == 0 || x.stubs == nil {
		return nil
	}
	more, err := x.stubs.Load(ctx, std)
	if err != nil {
		return err
	}
	for name, f := range more {
		if out[name] == nil {
			out[name] = f
		}
	}
	return nil
}

// workspaceTops are the top-level names the workspace's files may be
// imported by: the first part of each path, also below src/, and each
// package directory's own name (a package nested in a plain directory
// imports from its top). Computed from the paths alone: the link sets
// File.Module under the index's lock, and this runs outside it.
func workspaceTops(files map[string]*File) map[string]bool {
	tops := map[string]bool{}
	add := func(name string) {
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".pyi"), ".py")
		if isIdent(name) {
			tops[name] = true
		}
	}
	for _, f := range files {
		for _, p := range []string{f.Rel, strings.TrimPrefix(f.Rel, "src/")} {
			top, _, _ := strings.Cut(p, "/")
			add(top)
		}
		if f.IsInit {
			add(path.Base(path.Dir(f.Rel)))
		}
	}
	return tops
}
