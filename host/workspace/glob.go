package workspace

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/pyws/pyws/host/fault"
)

// pattern is one validated glob. Patterns are doublestar globs matched
// against the workspace-relative, slash-separated path. A pattern without
// "/" also matches any single path component (so "test_*.py" matches base
// names and "tests" matches a directory anywhere). A pattern matches a file
// when it matches the file's path or the path of any directory above it,
// so "src/legacy" and "**/migrations" exclude whole subtrees. A leading "/"
// anchors at the root and is dropped; a trailing "/" is dropped.
type pattern struct {
	glob      string
	component bool // no "/": also matched against each path component
}

// compilePatterns validates patterns; a bad one is INVALID_FILTER with
// details {pattern, reason}. A leading "!" is refused here: it negates only
// in the list filter, whose caller strips it first.
func compilePatterns(pats []string) ([]pattern, error) {
	out := make([]pattern, 0, len(pats))
	for _, p := range pats {
		if strings.HasPrefix(p, "!") {
			return nil, badPattern(p, "a leading '!' negates only in filter; excludePatterns already exclude")
		}
		c, err := compilePattern(p)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func compilePattern(raw string) (pattern, error) {
	p := strings.TrimPrefix(raw, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return pattern{}, badPattern(raw, "empty pattern")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return pattern{}, badPattern(raw, "pattern contains a NUL byte")
	}
	if reason := globProblem(p); reason != "" {
		return pattern{}, badPattern(raw, reason)
	}
	return pattern{glob: p, component: !strings.Contains(p, "/")}, nil
}

func badPattern(p, reason string) *fault.Error {
	return fault.New(fault.InvalidFilter, fault.Details{"pattern": p, "reason": reason},
		"invalid glob pattern %q: %s", p, reason)
}

// globProblem explains why doublestar would reject p, or returns "".
func globProblem(p string) string {
	if doublestar.ValidatePattern(p) {
		return ""
	}
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i++; i >= len(p) {
				return "trailing backslash escapes nothing"
			}
		case '[':
			j := i + 1
			if j < len(p) && (p[j] == '^' || p[j] == '!') {
				j++
			}
			if j < len(p) && p[j] == ']' {
				return "empty character class []"
			}
			for ; j < len(p) && p[j] != ']'; j++ {
				if p[j] == '\\' {
					j++
				}
			}
			if j >= len(p) {
				return "unclosed character class: missing ']'"
			}
			i = j
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return "'}' without a matching '{'"
			}
			depth--
		}
	}
	if depth > 0 {
		return "unclosed alternative: missing '}'"
	}
	return "malformed pattern"
}

// match reports whether p matches rel or any directory above it.
func (p pattern) match(rel string) bool {
	for s := rel; s != ""; {
		if doublestar.MatchUnvalidated(p.glob, s) {
			return true
		}
		i := strings.LastIndexByte(s, '/')
		if i < 0 {
			break
		}
		s = s[:i]
	}
	if p.component {
		for c := range strings.SplitSeq(rel, "/") {
			if doublestar.MatchUnvalidated(p.glob, c) {
				return true
			}
		}
	}
	return false
}

func matchAny(ps []pattern, rel string) bool {
	for _, p := range ps {
		if p.match(rel) {
			return true
		}
	}
	return false
}
