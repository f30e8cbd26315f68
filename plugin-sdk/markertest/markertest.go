// Package markertest is the one harness of the analyzers' marker tests:
// Python fixtures whose comments say what an analyzer must answer. A case
// is one fixture file, or one directory of Python files when the answer
// needs several modules (the navigation fixtures, which the pyright
// differential test also serves as a workspace).
//
// Two kinds of marker:
//
//	x = undefined_name  # want "undefined-variable:undefined name"
//
// expects a diagnostic of that code starting on the marker's line, whose
// message contains the text after the colon (optional); several quoted
// items may follow one `# want`. A diagnostic no marker announces fails the
// case as much as an announced one that is missing (CheckWants).
//
//	def f(a):  #@ f:d:F a:d:A
//
// marks the first whole-word occurrence of an identifier in the code
// before the `#@` (name@k: the k-th) with a tag and an optional group
// (Marks); `#@ name->new:ok|conflict` marks a rename and its expected
// outcome. What tags mean is the test's business (tests/navigation).
//
// Lines starting with `# name: value` are directives (Directive), for the
// settings of a case (configuration, environment).
//
// Golden compares a case's rendered answer with its golden file.
//
// It imports only the standard library: tests of every layer may use it.
package markertest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// File is one file of a case.
type File struct {
	// Path is slash-separated, relative to the case directory (the base
	// name for a one-file case).
	Path string
	Src  []byte
}

// Case is one fixture: a file, or a directory of Python files.
type Case struct {
	// Path is the fixture's path as matched (file or directory).
	Path  string
	Files []File
}

// Run runs test as a subtest for each case matching one of the glob
// patterns, in sorted order, named after the file or directory without
// extension. It fails when no case matches: a moved testdata directory
// must not make the test pass vacuously.
func Run(t *testing.T, patterns []string, test func(t *testing.T, c Case)) {
	t.Helper()
	var paths []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		t.Fatalf("no marker fixtures match %v", patterns)
	}
	for _, p := range paths {
		name := filepath.Base(p)
		name = strings.TrimSuffix(name, filepath.Ext(name))
		t.Run(name, func(t *testing.T) {
			c, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			test(t, c)
		})
	}
}

// Load reads a case: one file, or the Python files (.py, .pyi) under a
// directory, skipping hidden directories and __pycache__.
func Load(path string) (Case, error) {
	c := Case{Path: path}
	info, err := os.Stat(path)
	if err != nil {
		return c, err
	}
	if !info.IsDir() {
		src, err := os.ReadFile(path)
		c.Files = []File{{Path: filepath.Base(path), Src: src}}
		return c, err
	}
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && (d.Name() == "__pycache__" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".py" && ext != ".pyi" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		c.Files = append(c.Files, File{Path: filepath.ToSlash(rel), Src: src})
		return nil
	})
	return c, err
}

// Directive returns the value of the first line `# name: value` of src.
func Directive(src []byte, name string) (string, bool) {
	prefix := "# " + name + ": "
	for line := range strings.Lines(string(src)) {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimRight(v, "\r\n"), true
		}
	}
	return "", false
}

// Want is one expected diagnostic of a `# want` marker.
type Want struct {
	Line    int // 0-based
	Code    string
	Message string // a substring of the message; "" matches any
}

var (
	wantMarker = regexp.MustCompile(`# want((?: "[a-z-]+(?::[^"]*)?")+)\s*$`)
	wantItem   = regexp.MustCompile(`"([a-z-]+)(?::([^"]*))?"`)
)

// Wants returns the `# want` markers of src, in line order.
func Wants(src []byte) []Want {
	var out []Want
	for i, line := range strings.Split(string(src), "\n") {
		m := wantMarker.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, it := range wantItem.FindAllStringSubmatch(m[1], -1) {
			out = append(out, Want{Line: i, Code: it[1], Message: it[2]})
		}
	}
	return out
}

// Finding is a diagnostic as markers speak of it.
type Finding struct {
	Line    int // 0-based start line
	Code    string
	Message string
}

// Reporter is the part of testing.TB the checks report through (a
// recorder in the harness's own tests).
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// CheckWants reports every want that no finding matches (same line and
// code, message containing the want's) and every finding that no want
// announced. Each finding answers one want.
func CheckWants(r Reporter, findings []Finding, wants []Want) {
	r.Helper()
	used := make([]bool, len(findings))
	for _, w := range wants {
		found := false
		for i, f := range findings {
			if !used[i] && f.Line == w.Line && f.Code == w.Code && strings.Contains(f.Message, w.Message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			r.Errorf("line %d: want %s %q, not reported", w.Line+1, w.Code, w.Message)
		}
	}
	for i, f := range findings {
		if !used[i] {
			r.Errorf("line %d: unexpected %s: %s", f.Line+1, f.Code, f.Message)
		}
	}
}

// Mark is one `#@` marker: an occurrence of an identifier on the
// marker's line, with a tag.
type Mark struct {
	File   string // the case file's Path
	Line   int    // 0-based
	Col    int    // UTF-16 code units, as the API counts
	Offset int    // byte offset in the file
	Name   string
	// Tag is d, r, ext or builtin (Group optional), or ok or conflict
	// for a rename to NewName.
	Tag, Group string
	NewName    string
}

func (m Mark) String() string { return fmt.Sprintf("%s:%d:%d(%s)", m.File, m.Line+1, m.Col, m.Name) }

// Loc is the mark's position as "file:line:col" (line 1-based, col
// 0-based UTF-16), the key the navigation tests compare answers by.
func (m Mark) Loc() string { return Loc(m.File, m.Line, m.Col) }

// Loc formats a position as Mark.Loc does.
func Loc(file string, line, col int) string { return fmt.Sprintf("%s:%d:%d", file, line+1, col) }

var (
	tagMarker    = regexp.MustCompile(`([\pL_][\pL\pN_]*)(?:@(\d+))?:(d|r|ext|builtin)(?::([\w.]+))?`)
	renameMarker = regexp.MustCompile(`([\pL_][\pL\pN_]*)(?:@(\d+))?->([\pL_][\pL\pN_]*):(ok|conflict)`)
)

// Marks returns the `#@` markers of a file, tags before renames on each
// line. A marker naming an occurrence the code does not have is an error.
func Marks(f File) ([]Mark, error) {
	var out []Mark
	lineStart := 0
	for ln, line := range strings.SplitAfter(string(f.Src), "\n") {
		i := strings.Index(line, "#@ ")
		if i >= 0 {
			code, marks := line[:i], line[i+3:]
			add := func(m []string, tag, group, newName string) error {
				k := 1
				if m[2] != "" {
					k, _ = strconv.Atoi(m[2])
				}
				off := Occurrence(code, m[1], k)
				if off < 0 {
					return fmt.Errorf("%s:%d: no occurrence %d of %s", f.Path, ln+1, k, m[1])
				}
				out = append(out, Mark{File: f.Path, Line: ln, Col: utf16Len(code[:off]), Offset: lineStart + off,
					Name: m[1], Tag: tag, Group: group, NewName: newName})
				return nil
			}
			for _, m := range tagMarker.FindAllStringSubmatch(marks, -1) {
				if err := add(m, m[3], m[4], ""); err != nil {
					return nil, err
				}
			}
			for _, m := range renameMarker.FindAllStringSubmatch(marks, -1) {
				if err := add(m, m[4], "", m[3]); err != nil {
					return nil, err
				}
			}
		}
		lineStart += len(line)
	}
	return out, nil
}

// Occurrence returns the byte offset in s of the k-th (1-based)
// occurrence of identifier name that is a whole word (no letter, digit or
// underscore on either side), or -1.
func Occurrence(s, name string, k int) int {
	re := regexp.MustCompile(`(?:^|[^\pL\pN_])(` + regexp.QuoteMeta(name) + `)(?:[^\pL\pN_]|$)`)
	for off := 0; off <= len(s); {
		loc := re.FindStringSubmatchIndex(s[off:])
		if loc == nil {
			return -1
		}
		if k--; k == 0 {
			return off + loc[2]
		}
		// Resume right after the name, so that the character that ended
		// this match may start the next one ("a a").
		off += loc[3]
	}
	return -1
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// Golden compares got, a case's rendered answer, with the golden file at
// path, or writes it there when update is set (the tests' -update flag).
// A difference fails the test and shows the first differing line.
func Golden(r Reporter, path string, got []byte, update bool) {
	r.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			r.Errorf("%v", err)
			return
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		r.Errorf("%v (record it with -update)", err)
		return
	}
	if string(got) == string(want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	line := func(lines []string, i int) string {
		if i < len(lines) {
			return lines[i]
		}
		return "(end of file)"
	}
	i := 0
	for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
		i++
	}
	r.Errorf("differs from %s at line %d:\n got: %s\nwant: %s", path, i+1, line(gl, i), line(wl, i))
}
