// Package typeshed reads typeshed's standard-library stubs: which modules
// exist for a Python version (stdlib/VERSIONS) and which .pyi file defines
// each. It reads through an fs.FS and imports nothing of pyws, so the
// kernel (a directory), a test (testdata) and a guest (a mounted tree)
// share it.
//
// A tree is laid out as `make stubs` writes it (plugin-sdk/typeshed/stubs.mk):
// LICENSE, commit.txt, stdlib/ and stubs/ from pyright's typeshed-fallback.
package typeshed

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

// Commit is the typeshed commit the stubs must come from: the one pyright
// 1.1.414 ships, which the reference answers were printed from. It is
// STUBS_COMMIT of stubs.mk; a test keeps the two equal.
const Commit = "289e5d3568961c8bcd33d01eef5b7ec5e1ad33ad"

// Files of a stubs tree, relative to its root.
const (
	CommitFile   = "commit.txt"
	LicenseFile  = "LICENSE"
	VersionsFile = "stdlib/VERSIONS"
	stdlibDir    = "stdlib"
	// thirdPartyDir holds typeshed's stubs of other distributions, one
	// directory each (stubs/requests/requests/__init__.pyi).
	thirdPartyDir = "stubs"
)

// FileError says which file of a stubs tree is missing or wrong.
type FileError struct {
	File string // relative to the tree's root, e.g. "stdlib/VERSIONS"
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// ModuleError says why a module has no stub for a Python version. It
// matches fs.ErrNotExist.
type ModuleError struct {
	Module  string
	Version Version
	Reason  string
}

func (e *ModuleError) Error() string {
	return fmt.Sprintf("no stdlib stub for %s in Python %s: %s", e.Module, e.Version, e.Reason)
}
func (e *ModuleError) Is(target error) bool { return target == fs.ErrNotExist }

// Stubs is one stubs tree with its VERSIONS table. It never changes after
// Open, so one value serves every workspace and goroutine.
type Stubs struct {
	fsys   fs.FS
	ranges map[string]Range

	thirdOnce sync.Once
	third     map[string]string // top-level module -> its distribution's directory under stubs/
}

// Open reads the tree's stdlib/VERSIONS. It does not check where the tree
// came from; Verify does.
func Open(fsys fs.FS) (*Stubs, error) {
	data, err := fs.ReadFile(fsys, VersionsFile)
	if err != nil {
		return nil, &FileError{VersionsFile, unwrapPath(err)}
	}
	ranges, err := parseVersions(data)
	if err != nil {
		return nil, &FileError{VersionsFile, err}
	}
	return &Stubs{fsys: fsys, ranges: ranges}, nil
}

// Verify opens the tree and checks that it is the pinned one and whole:
// commit.txt names Commit, LICENSE is there (it ships with the stubs), and
// every module VERSIONS lists has its stub file, so a truncated copy fails
// at start-up rather than as a missing module later. Errors are *FileError.
func Verify(fsys fs.FS) (*Stubs, error) {
	commit, err := fs.ReadFile(fsys, CommitFile)
	if err != nil {
		return nil, &FileError{CommitFile, unwrapPath(err)}
	}
	if got := strings.TrimSpace(string(commit)); got != Commit {
		return nil, &FileError{CommitFile, fmt.Errorf("typeshed commit %.40q, want %s", got, Commit)}
	}
	if st, err := fs.Stat(fsys, LicenseFile); err != nil {
		return nil, &FileError{LicenseFile, unwrapPath(err)}
	} else if !st.Mode().IsRegular() {
		return nil, &FileError{LicenseFile, errors.New("not a regular file")}
	}
	s, err := Open(fsys)
	if err != nil {
		return nil, err
	}
	for _, module := range slices.Sorted(maps.Keys(s.ranges)) {
		if _, ok := s.stubFile(module); !ok {
			return nil, &FileError{VersionsFile, fmt.Errorf("lists %s, but %s has neither %s.pyi nor %s/__init__.pyi",
				module, stdlibDir, modulePath(module), modulePath(module))}
		}
	}
	return s, nil
}

// Range returns the versions VERSIONS gives module: its own line, else its
// nearest listed parent's. ok is false when no part of its name is listed.
func (s *Stubs) Range(module string) (r Range, ok bool) {
	for name := module; ; {
		if r, ok := s.ranges[name]; ok {
			return r, true
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			return Range{}, false
		}
		name = name[:i]
	}
}

// ModuleFile returns the stub that defines module for Python v, as a path
// in the tree ("stdlib/os/path.pyi", "stdlib/json/__init__.pyi"). As an
// import does, it takes a package's __init__.pyi before a module's .pyi.
// A module is absent when its top-level name is not in VERSIONS, when it
// or any listed parent does not exist in v (asyncio.taskgroups before
// 3.11, anything under distutils after 3.11), or when it has no stub file.
// The error is then a *ModuleError, matching fs.ErrNotExist.
func (s *Stubs) ModuleFile(module string, v Version) (string, error) {
	if !validModuleName(module) {
		return "", &ModuleError{module, v, "not a module name"}
	}
	top, _, _ := strings.Cut(module, ".")
	if _, ok := s.ranges[top]; !ok {
		return "", &ModuleError{module, v, top + " is not in " + VersionsFile}
	}
	// Every listed prefix must hold: a removed package takes its
	// submodules with it even when they have lines of their own.
	for name := module; ; {
		if r, ok := s.ranges[name]; ok && !r.Contains(v) {
			return "", &ModuleError{module, v, fmt.Sprintf("%s exists in Python %s", name, r)}
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			break
		}
		name = name[:i]
	}
	file, ok := s.stubFile(module)
	if !ok {
		return "", &ModuleError{module, v, "no stub file"}
	}
	return file, nil
}

// ThirdPartyFile returns typeshed's third-party stub of module
// ("stubs/requests/requests/models.pyi"), when the tree has stubs/ (the
// distributions typeshed keeps stubs for) and one of them provides
// module's top-level package.
func (s *Stubs) ThirdPartyFile(module string) (string, bool) {
	if !validModuleName(module) {
		return "", false
	}
	s.thirdOnce.Do(s.indexThirdParty)
	top, _, _ := strings.Cut(module, ".")
	dist, ok := s.third[top]
	if !ok {
		return "", false
	}
	return s.pyiUnder(dist, module)
}

// indexThirdParty maps each top-level module of stubs/<distribution>/
// to that distribution (the first, by name, when two provide it).
func (s *Stubs) indexThirdParty() {
	s.third = map[string]string{}
	dists, err := fs.ReadDir(s.fsys, thirdPartyDir)
	if err != nil {
		return
	}
	for _, d := range dists {
		if !d.IsDir() {
			continue
		}
		dir := path.Join(thirdPartyDir, d.Name())
		entries, err := fs.ReadDir(s.fsys, dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := strings.TrimSuffix(e.Name(), ".pyi")
			if !e.IsDir() && name == e.Name() || !validModuleName(name) || strings.Contains(name, ".") {
				continue // METADATA.toml, @tests
			}
			if _, taken := s.third[name]; !taken {
				s.third[name] = dir
			}
		}
	}
}

// stubFile finds module's .pyi: each parent must be a package (a
// directory with __init__.pyi), and a package wins over a module file.
func (s *Stubs) stubFile(module string) (string, bool) {
	return s.pyiUnder(stdlibDir, module)
}

// pyiUnder finds module's .pyi under dir as stubFile does.
func (s *Stubs) pyiUnder(dir, module string) (string, bool) {
	parts := strings.Split(module, ".")
	for i, part := range parts {
		pkg := path.Join(dir, part, "__init__.pyi")
		if isFile(s.fsys, pkg) {
			if i == len(parts)-1 {
				return pkg, true
			}
			dir = path.Join(dir, part)
			continue
		}
		if i == len(parts)-1 {
			if file := path.Join(dir, part+".pyi"); isFile(s.fsys, file) {
				return file, true
			}
		}
		return "", false
	}
	return "", false
}

// Modules lists, sorted, every module with a stub in Python v: top-level
// modules, packages and submodules ("os", "os.path", "xml.etree.ElementTree"),
// each one ModuleFile finds.
func (s *Stubs) Modules(v Version) ([]string, error) {
	var modules []string
	err := fs.WalkDir(s.fsys, stdlibDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".pyi") {
			return nil
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, stdlibDir+"/"), ".pyi")
		if path.Base(rel) == "__init__" {
			rel = path.Dir(rel)
		}
		module := strings.ReplaceAll(rel, "/", ".")
		if file, err := s.ModuleFile(module, v); err == nil && file == p {
			modules = append(modules, module)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(modules)
	return modules, nil
}

// ReadFile returns a file of the tree, named as ModuleFile names it.
func (s *Stubs) ReadFile(name string) ([]byte, error) { return fs.ReadFile(s.fsys, name) }

func isFile(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.Mode().IsRegular()
}

func modulePath(module string) string { return strings.ReplaceAll(module, ".", "/") }

// unwrapPath drops an fs.PathError's path: FileError names the file
// relative to the tree, which the caller's message places.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
