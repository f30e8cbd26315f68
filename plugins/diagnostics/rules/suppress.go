package rules

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Suppression comments (docs/diagnostics.md, "Suppressing diagnostics"):
//
//	x = 1  # noqa                      every code on the line
//	import os  # noqa: unused-import   the listed codes; pyflakes/ruff codes
//	import os  # noqa: F401            (F401, F811, F841, F821-F823, E999,
//	                                   ANN*, N8*) name ours
//	f("a")  # type: ignore             type-checker codes on the line:
//	f("a")  # type: ignore[arg-type]   type-mismatch, missing-argument,
//	f("a")  # pyright: ignore          import-not-found, deprecated
//	x = 1  # pyws: ignore              every code on the line
//	x = 1  # pyws: ignore[unused-variable, deprecated]
//	# type: ignore                     before the first statement: the
//	                                   type-checker codes, whole file (PEP 484)
//	# pyws: ignore-file[code, ...]     own line, anywhere: whole file
//	                                   (every code without a list)
//
// A comment applies to the line it is on, matched against the line where
// a diagnostic starts. Syntax errors are never suppressed.
type suppressions struct {
	lines      map[int]*lineSup
	file       lineSup
	ignoreNoqa bool // [tool.pyws] ignore-noqa: `# noqa` comments do not count
}

type lineSup struct {
	all       bool
	typeCheck bool
	codes     map[string]bool
}

var (
	noqaRe   = regexp.MustCompile(`(?i)#\s*noqa(?:\s*:\s*([A-Za-z0-9_,\- \t]+))?`)
	typeIgn  = regexp.MustCompile(`#\s*(?:type|pyright)\s*:\s*ignore(?:\[[^\]]*\])?`)
	pywsIgn  = regexp.MustCompile(`#\s*pyws\s*:\s*ignore(-file)?(?:\[([^\]]*)\])?`)
	codeSpan = regexp.MustCompile(`[A-Za-z0-9_-]+`)
)

func newSuppressions(t *tree.Tree, idx *textpos.Index, ignoreNoqa bool) *suppressions {
	s := &suppressions{lines: map[int]*lineSup{}, ignoreNoqa: ignoreNoqa}
	src := t.Source()
	if !mayHaveSuppressions(src) {
		return s
	}
	firstStmt := len(src)
	for st := range t.Root().NamedChildren() {
		if st.Kind() != "comment" {
			firstStmt = st.StartByte()
			break
		}
	}
	t.Root().Walk(func(n tree.Node) bool {
		if n.Kind() != "comment" {
			return true
		}
		line, _ := idx.Position(n.StartByte())
		s.comment(string(n.Text()), line, n.StartByte() < firstStmt && ownLine(src, n.StartByte()), ownLine(src, n.StartByte()))
		return false
	})
	return s
}

// mayHaveSuppressions reports whether a comment of src can hold a
// suppression: some '#' is followed on its line by noqa, NOQA or ignore.
// It looks at far less text than searching all of src for the words.
func mayHaveSuppressions(src []byte) bool {
	for i := bytes.IndexByte(src, '#'); i >= 0; {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		if bytes.Contains(line, []byte("noqa")) || bytes.Contains(line, []byte("NOQA")) || bytes.Contains(line, []byte("ignore")) {
			return true
		}
		next := bytes.IndexByte(src[end:], '#')
		if next < 0 {
			return false
		}
		i = end + next
	}
	return false
}

func ownLine(src []byte, off int) bool {
	for i := off - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}

func (s *suppressions) at(line int) *lineSup {
	ls := s.lines[line]
	if ls == nil {
		ls = &lineSup{}
		s.lines[line] = ls
	}
	return ls
}

func (s *suppressions) comment(text string, line int, header, own bool) {
	if m := noqaRe.FindStringSubmatch(text); m != nil && !s.ignoreNoqa {
		ls := s.at(line)
		if strings.TrimSpace(m[1]) == "" {
			ls.all = true
		} else {
			ls.addCodes(m[1])
		}
	}
	if typeIgn.MatchString(text) {
		if header && strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "#")), "type") {
			s.file.typeCheck = true
		}
		s.at(line).typeCheck = true
	}
	if m := pywsIgn.FindStringSubmatch(text); m != nil {
		ls := s.at(line)
		if m[1] != "" {
			if !own {
				return
			}
			ls = &s.file
		}
		if strings.TrimSpace(m[2]) == "" {
			ls.all = true
		} else {
			ls.addCodes(m[2])
		}
	}
}

// addCodes records a list of codes: ours, or pyflakes/ruff/flake8 codes
// mapped through Rule.Aliases (a prefix: N802 is an N8 code).
func (ls *lineSup) addCodes(list string) {
	if ls.codes == nil {
		ls.codes = map[string]bool{}
	}
	for _, code := range codeSpan.FindAllString(list, -1) {
		if Lookup(code) != nil {
			ls.codes[code] = true
			continue
		}
		up := strings.ToUpper(code)
		for _, r := range Rules {
			for _, a := range r.Aliases {
				if strings.HasPrefix(up, a) {
					ls.codes[r.Code] = true
				}
			}
		}
	}
}

func (ls *lineSup) covers(code string, typeCheck bool) bool {
	if ls == nil {
		return false
	}
	if ls.all || ls.codes[code] {
		return true
	}
	if ls.typeCheck {
		return typeCheck || Lookup(code).TypeCheck
	}
	return false
}

func (s *suppressions) active() bool {
	return len(s.lines) > 0 || s.file.all || s.file.typeCheck || len(s.file.codes) > 0
}

// suppressed reports whether a diagnostic of code starting on line is
// hidden by a comment; typeCheck says a type checker's finding.
func (s *suppressions) suppressed(line int, code string, typeCheck bool) bool {
	if code == SyntaxError {
		return false
	}
	return s.file.covers(code, typeCheck) || s.lines[line].covers(code, typeCheck)
}
