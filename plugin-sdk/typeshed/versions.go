package typeshed

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Version is a Python language version, major and minor: the granularity
// of stdlib/VERSIONS and of typeshed's sys.version_info branches.
type Version struct{ Major, Minor int }

// ParseVersion reads "3.11", or an interpreter's "3.11.7" (the micro
// version is dropped: no stub depends on it).
func ParseVersion(s string) (Version, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("python version %q: want MAJOR.MINOR", s)
	}
	var nums [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p != strconv.Itoa(n) {
			return Version{}, fmt.Errorf("python version %q: want MAJOR.MINOR", s)
		}
		nums[i] = n
	}
	return Version{nums[0], nums[1]}, nil
}

func (v Version) String() string { return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) }

// Compare returns -1, 0 or +1 as v is older than, equal to or newer than w.
func (v Version) Compare(w Version) int {
	if c := cmp.Compare(v.Major, w.Major); c != 0 {
		return c
	}
	return cmp.Compare(v.Minor, w.Minor)
}

// Range is the Python versions a module exists in, both ends included. A
// zero Last means the module is still present in the newest Python.
type Range struct {
	First, Last Version
}

// Contains reports whether the module exists in Python v.
func (r Range) Contains(v Version) bool {
	return v.Compare(r.First) >= 0 && (r.Last == Version{} || v.Compare(r.Last) <= 0)
}

// String writes the range as VERSIONS does: "3.0-3.11", or "3.9-" when open.
func (r Range) String() string {
	if (r.Last == Version{}) {
		return r.First.String() + "-"
	}
	return r.First.String() + "-" + r.Last.String()
}

// parseVersions reads typeshed's stdlib/VERSIONS: one "module: X.Y-[A.B]"
// per line, blank lines and "#" comments ignored. A submodule without its
// own line shares its parent's range.
func parseVersions(data []byte) (map[string]Range, error) {
	ranges := map[string]Range{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		module, spec, ok := strings.Cut(text, ":")
		module, spec = strings.TrimSpace(module), strings.TrimSpace(spec)
		if !ok || !validModuleName(module) {
			return nil, fmt.Errorf("line %d: %q is not \"module: X.Y-[A.B]\"", line, text)
		}
		r, err := parseRange(spec)
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", line, module, err)
		}
		if _, dup := ranges[module]; dup {
			return nil, fmt.Errorf("line %d: %s is listed twice", line, module)
		}
		ranges[module] = r
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(ranges) == 0 {
		return nil, fmt.Errorf("lists no module")
	}
	return ranges, nil
}

func parseRange(spec string) (Range, error) {
	first, last, ok := strings.Cut(spec, "-")
	if !ok {
		return Range{}, fmt.Errorf("version range %q: want X.Y- or X.Y-A.B", spec)
	}
	var r Range
	var err error
	if r.First, err = ParseVersion(first); err != nil {
		return Range{}, err
	}
	if last != "" {
		if r.Last, err = ParseVersion(last); err != nil {
			return Range{}, err
		}
		if r.Last.Compare(r.First) < 0 {
			return Range{}, fmt.Errorf("version range %q ends before it starts", spec)
		}
	}
	return r, nil
}

// validModuleName reports whether name is dotted Python identifiers (ASCII
// suffices: every stdlib module name is).
func validModuleName(name string) bool {
	if name == "" {
		return false
	}
	for part := range strings.SplitSeq(name, ".") {
		if part == "" || (part[0] >= '0' && part[0] <= '9') {
			return false
		}
		for _, c := range []byte(part) {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}
