// Package diagdiff measures get_diagnostics against the tools Python users
// trust: pyflakes for undefined-variable, unused-import, unused-variable
// and duplicate-import (precision and recall), pyright for
// import-not-found, missing-argument and type-mismatch (our findings that
// pyright does not make are false positives). The live run on Debian's
// requests, flask and django sources needs PYWS_DIFF=1 (see diff_test.go
// for the commands); the CI test replays recorded tool output on the small
// corpus in testdata.
package diagdiff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Finding is one diagnostic reduced to what the tools agree on.
type Finding struct {
	File string // workspace-relative, slash-separated
	Line int    // 1-based
	Code string // our code
	Name string // the name the message is about ("" when none)
	Text string // the original message
}

// PyflakesCodes are the codes compared with pyflakes.
var PyflakesCodes = []string{"undefined-variable", "unused-import", "unused-variable", "duplicate-import"}

// PyrightCodes are the codes checked against pyright (false positives).
var PyrightCodes = []string{"import-not-found", "missing-argument", "type-mismatch", UndefinedAttribute}

// UndefinedAttribute is a code of the comparison only: an undefined-variable
// finding about an attribute read its class does not have (the type
// evaluator's attribute check). pyflakes never checks attributes, so such
// findings are confirmed by pyright's reportAttributeAccessIssue instead.
const UndefinedAttribute = "undefined-attribute"

// attributeAccess begins the evaluator's message, and pyright's, for such a read.
const attributeAccess = "Cannot access attribute"

// ComparedCode is the code a finding of ours is compared under.
func ComparedCode(code, message string) string {
	if code == "undefined-variable" && strings.HasPrefix(message, attributeAccess) {
		return UndefinedAttribute
	}
	return code
}

var (
	pfLine      = regexp.MustCompile(`^(.*?):(\d+):(?:\d+:)? (.*)$`)
	reUndef     = regexp.MustCompile(`^undefined name '([^']*)'(?: in __all__)?$`)
	reUndefLoc  = regexp.MustCompile(`^local variable '([^']*)' (?:defined in enclosing scope|defined as a builtin).* referenced before assignment$`)
	reUnusedImp = regexp.MustCompile(`^'(.*)' imported but unused`)
	reUnusedVar = regexp.MustCompile(`^local variable '([^']*)' is assigned to but never used$`)
	reRedef     = regexp.MustCompile(`^redefinition of unused '([^']*)' from line (\d+)$`)
)

// ClassifyPyflakes maps a pyflakes message to our code and name; ok is
// false for messages outside the compared codes. lineText returns a line
// of the file (1-based), to keep only redefinitions of imports.
func ClassifyPyflakes(msg string, lineText func(int) string) (code, name string, ok bool) {
	switch {
	case reUndef.MatchString(msg):
		return "undefined-variable", reUndef.FindStringSubmatch(msg)[1], true
	case reUndefLoc.MatchString(msg):
		return "undefined-variable", reUndefLoc.FindStringSubmatch(msg)[1], true
	case reUnusedImp.MatchString(msg):
		n := reUnusedImp.FindStringSubmatch(msg)[1]
		if strings.HasSuffix(n, ".*") || strings.Contains(n, "import *") {
			return "", "", false
		}
		return "unused-import", n, true
	case reUnusedVar.MatchString(msg):
		return "unused-variable", reUnusedVar.FindStringSubmatch(msg)[1], true
	case reRedef.MatchString(msg):
		m := reRedef.FindStringSubmatch(msg)
		line, _ := strconv.Atoi(m[2])
		if !importLine(lineText(line)) {
			return "", "", false // a redefined function or class: not duplicate-import
		}
		return "duplicate-import", m[1], true
	}
	return "", "", false
}

func importLine(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "import ") || strings.HasPrefix(s, "from ") || strings.Contains(s, " import ")
}

// OurName extracts the name from one of our messages of the pyflakes codes.
func OurName(code, msg string) string {
	for _, re := range []*regexp.Regexp{reUndef, reUnusedVar, reRedef} {
		if m := re.FindStringSubmatch(msg); m != nil {
			return m[1]
		}
	}
	if m := reUnusedImp.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	if m := regexp.MustCompile(`^local variable '([^']*)'`).FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

// ParsePyflakes reads pyflakes output; strip turns a printed path into the
// workspace-relative one; lines gives a file's lines.
func ParsePyflakes(out []byte, strip func(string) string, lines func(file string) []string) []Finding {
	var res []Finding
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := pfLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		file := strip(m[1])
		line, _ := strconv.Atoi(m[2])
		code, name, ok := ClassifyPyflakes(m[3], func(n int) string {
			ls := lines(file)
			if n >= 1 && n <= len(ls) {
				return ls[n-1]
			}
			return ""
		})
		if ok && !(HonourNoqa && NoqaCovers(lineOf(lines(file), line), code)) && !Departure(code, name, lines(file), line) {
			res = append(res, Finding{File: file, Line: line, Code: code, Name: name, Text: m[3]})
		}
	}
	return res
}

// Score is one code's agreement.
type Score struct {
	Theirs, Ours, Agree  int
	OnlyOurs, OnlyTheirs []Finding
}

func (s Score) Precision() float64 {
	if s.Ours == 0 {
		return 1
	}
	return float64(s.Agree) / float64(s.Ours)
}

func (s Score) Recall() float64 {
	if s.Theirs == 0 {
		return 1
	}
	return float64(s.Agree) / float64(s.Theirs)
}

// lineSlack: pyflakes reports an import finding on the statement's first
// line, we on the name; a match may be this many lines below.
const lineSlack = 40

// ComparePyflakes matches our findings with pyflakes' per code: same file,
// code and name, on the same line (or, for imports and __all__ entries,
// up to lineSlack lines below pyflakes' statement line).
func ComparePyflakes(ours, theirs []Finding) map[string]*Score {
	scores := map[string]*Score{}
	for _, c := range PyflakesCodes {
		scores[c] = &Score{}
	}
	type key struct{ file, code, name string }
	pool := map[key][]Finding{}
	for _, f := range theirs {
		if s, ok := scores[f.Code]; ok {
			s.Theirs++
			k := key{f.File, f.Code, f.Name}
			pool[k] = append(pool[k], f)
		}
	}
	used := map[key][]bool{}
	for k, fs := range pool {
		used[k] = make([]bool, len(fs))
	}
	sort.SliceStable(ours, func(i, j int) bool { return ours[i].Line < ours[j].Line })
	for _, f := range ours {
		s, ok := scores[f.Code]
		if !ok {
			continue
		}
		s.Ours++
		k := key{f.File, f.Code, f.Name}
		best := -1
		for i, t := range pool[k] {
			if used[k][i] {
				continue
			}
			if t.Line == f.Line {
				best = i
				break
			}
			if best < 0 && t.Line < f.Line && f.Line-t.Line <= lineSlack && f.Code != "unused-variable" {
				best = i
			}
		}
		if best >= 0 {
			used[k][best] = true
			s.Agree++
		} else {
			s.OnlyOurs = append(s.OnlyOurs, f)
		}
	}
	for k, fs := range pool {
		for i, f := range fs {
			if !used[k][i] {
				scores[k.code].OnlyTheirs = append(scores[k.code].OnlyTheirs, f)
			}
		}
	}
	return scores
}

// PyrightDiag is one pyright --outputjson diagnostic.
type PyrightDiag struct {
	File     string `json:"file"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Rule     string `json:"rule"`
	Range    struct {
		Start struct{ Line int } `json:"start"`
		End   struct{ Line int } `json:"end"`
	} `json:"range"`
}

// ParsePyright reads pyright --outputjson output.
func ParsePyright(out []byte, strip func(string) string) ([]PyrightDiag, error) {
	var body struct {
		GeneralDiagnostics []PyrightDiag `json:"generalDiagnostics"`
	}
	if err := json.Unmarshal(out, &body); err != nil {
		return nil, fmt.Errorf("pyright output: %w", err)
	}
	for i := range body.GeneralDiagnostics {
		body.GeneralDiagnostics[i].File = strip(body.GeneralDiagnostics[i].File)
	}
	return body.GeneralDiagnostics, nil
}

// pyrightRules are the pyright rules that confirm each of our codes
// (type-mismatch: the kernel's evaluator also judges assignments and
// returns).
var pyrightRules = map[string][]string{
	"import-not-found": {"reportMissingImports", "reportMissingModuleSource"},
	"missing-argument": {"reportCallIssue"},
	"type-mismatch":    {"reportArgumentType", "reportCallIssue", "reportAssignmentType", "reportReturnType"},
	UndefinedAttribute: {"reportAttributeAccessIssue"},
}

// attributeStore begins pyright's message, and the evaluator's, for a
// value stored to an attribute its declaration rejects (pyright's rule
// is then reportAttributeAccessIssue).
const attributeStore = "Cannot assign to attribute"

// PyrightFalsePositives returns our findings of the pyright codes that no
// pyright diagnostic of a confirming rule covers (same file, our line
// inside pyright's range).
func PyrightFalsePositives(ours []Finding, theirs []PyrightDiag) (fps map[string][]Finding, counts map[string]int) {
	fps, counts = map[string][]Finding{}, map[string]int{}
	for _, f := range ours {
		rules, ok := pyrightRules[f.Code]
		if !ok {
			continue
		}
		counts[f.Code]++
		confirmed := false
		for _, d := range theirs {
			if d.File != f.File || f.Line-1 < d.Range.Start.Line || f.Line-1 > d.Range.End.Line {
				continue
			}
			for _, r := range rules {
				if d.Rule == r {
					confirmed = true
				}
			}
			if f.Code == "type-mismatch" && d.Rule == "reportAttributeAccessIssue" && strings.HasPrefix(f.Text, attributeStore) && strings.HasPrefix(d.Message, attributeStore) {
				confirmed = true
			}
		}
		if !confirmed {
			fps[f.Code] = append(fps[f.Code], f)
		}
	}
	return fps, counts
}

func lineOf(ls []string, n int) string {
	if n >= 1 && n <= len(ls) {
		return ls[n-1]
	}
	return ""
}

// HonourNoqa: drop pyflakes findings a `# noqa` comment covers (for runs
// where pyws honours them too).
var HonourNoqa = false

var noqaRe = regexp.MustCompile(`(?i)#\s*noqa(?:\s*:\s*([A-Za-z0-9_,\- \t]+))?`)

var flakeCodes = map[string][]string{
	"undefined-variable": {"F821", "F822", "F823"},
	"unused-import":      {"F401"},
	"unused-variable":    {"F841"},
	"duplicate-import":   {"F811"},
}

// NoqaCovers applies flake8's noqa to a pyflakes finding: pyflakes itself
// ignores the comments, flake8 users (and pyws) honour them.
func NoqaCovers(line, code string) bool {
	m := noqaRe.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	if strings.TrimSpace(m[1]) == "" {
		return true
	}
	for _, c := range flakeCodes[code] {
		if strings.Contains(strings.ToUpper(m[1]), c) {
			return true
		}
	}
	return strings.Contains(m[1], code)
}

// Departure reports a pyflakes finding that pyws deliberately does not
// make (docs/diagnostics.md): an unused import written as an explicit
// re-export (`import a as a`, `from m import x as x`), and an unused
// local whose name starts with an underscore.
func Departure(code, name string, ls []string, line int) bool {
	switch code {
	case "unused-variable":
		return strings.HasPrefix(name, "_")
	case "unused-import":
		last := name[strings.LastIndexAny(name, ".")+1:]
		if strings.Contains(name, " as ") {
			return false
		}
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(last) + `\s+as\s+` + regexp.QuoteMeta(last) + `\b`)
		for l := line; l < line+lineSlack && l <= len(ls); l++ {
			if re.MatchString(ls[l-1]) {
				return true
			}
			if l > line && (strings.Contains(ls[l-1], ")") || !strings.HasSuffix(strings.TrimSpace(ls[l-1]), ",")) {
				if strings.Contains(ls[l-1], ")") {
					break
				}
			}
		}
	}
	return false
}
