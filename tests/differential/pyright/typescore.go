package pyright

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// HoverParts is a hover's code block split as types.md section 3 does:
// "(kind) name: TYPE" (typed), "(kind) def name(...) -> R" (a signature),
// "class X(...)", "(module) m" and the rest.
type HoverParts struct {
	Kind string // "variable", "function", ...; "class" for "class X(...)"
	Name string
	Type string // of a typed hover
	Sig  string // of a signature hover: whitespace-normalised, from "def" (or "name: (...) -> R")
	// Bucket is the first that fits, in types.md's order: "unknown",
	// "partial-unknown", "typevar", "literal", "callable", "union",
	// "type", "generic", "special" (Any, Never, NoReturn, None,
	// Module(...)), "plain"; for untyped hovers "class", "module",
	// "class-ref" ((class) X), "alias" ((type) X = ...), "untyped" (no
	// type printed) or "none" (no hover).
	Bucket string
}

// TypeCompared reports whether the hover counts for hover type
// agreement: typed, with no Unknown, not a callable.
func (h HoverParts) TypeCompared() bool {
	switch h.Bucket {
	case "typevar", "literal", "union", "type", "generic", "special", "plain":
		return true
	}
	return false
}

// SigCompared reports whether the hover counts for signature agreement:
// a def, or a name holding a callable (with or without Unknown).
func (h HoverParts) SigCompared() bool { return h.Bucket == "callable" }

var (
	spaceRe   = regexp.MustCompile(`\s+`)
	unknownRe = regexp.MustCompile(`\bUnknown\b`)
	identRe   = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*`)
)

// NormalizeSig collapses whitespace (pyright breaks long signatures over
// lines) and drops it just inside brackets and before commas.
func NormalizeSig(s string) string {
	s = strings.TrimSpace(spaceRe.ReplaceAllString(s, " "))
	for _, r := range []struct{ from, to string }{{"( ", "("}, {" )", ")"}, {"[ ", "["}, {" ]", "]"}, {" ,", ","}, {",)", ")"}} {
		s = strings.ReplaceAll(s, r.from, r.to)
	}
	return s
}

// ParseHover splits a hover's code block (HoverCode) into its parts.
func ParseHover(code string) HoverParts {
	text := strings.TrimSpace(code)
	if text == "" {
		return HoverParts{Bucket: "none"}
	}
	var h HoverParts
	rest := text
	if strings.HasPrefix(text, "(") {
		if i := strings.IndexByte(text, ')'); i > 0 {
			h.Kind, rest = text[1:i], strings.TrimSpace(text[i+1:])
		}
	}
	switch {
	case strings.HasPrefix(rest, "def ") || strings.HasPrefix(rest, "async def "):
		h.Sig = NormalizeSig(rest)
		h.Name = identRe.FindString(strings.TrimPrefix(strings.TrimPrefix(rest, "async "), "def "))
		h.Bucket = "callable"
		return h
	case h.Kind == "" && strings.HasPrefix(rest, "class "):
		h.Kind, h.Name, h.Bucket = "class", identRe.FindString(rest[len("class "):]), "class"
		return h
	case h.Kind == "module":
		h.Name, h.Bucket = rest, "module"
		return h
	case h.Kind == "class":
		h.Name, h.Bucket = identRe.FindString(rest), "class-ref"
		return h
	case h.Kind == "type" || h.Kind == "type alias":
		h.Name, h.Bucket = identRe.FindString(rest), "alias"
		return h
	}
	h.Name = identRe.FindString(rest)
	after := strings.TrimSpace(rest[len(h.Name):])
	if h.Name == "" || !strings.HasPrefix(after, ":") {
		h.Bucket = "untyped"
		return h
	}
	h.Type = NormalizeSig(after[1:])
	h.Bucket = TypeBucket(h.Type)
	if h.Bucket == "callable" {
		h.Sig = NormalizeSig(h.Name + ": " + h.Type)
	}
	return h
}

// TypeBucket is the first of types.md's buckets a printed type fits.
func TypeBucket(t string) string {
	switch {
	case t == "Unknown":
		return "unknown"
	case unknownRe.MatchString(t):
		return "partial-unknown"
	case strings.Contains(t, "@"):
		return "typevar"
	case strings.HasPrefix(t, "Literal["):
		return "literal"
	case strings.HasPrefix(t, "(") && strings.Contains(t, ") ->"):
		return "callable"
	case topLevelUnion(t):
		return "union"
	case strings.HasPrefix(t, "type["):
		return "type"
	case strings.HasPrefix(t, "Module("):
		return "special"
	case strings.Contains(t, "["):
		return "generic"
	case t == "Any" || t == "Never" || t == "NoReturn" || t == "None":
		return "special"
	}
	return "plain"
}

// topLevelUnion: t has a " | " outside brackets and parentheses.
func topLevelUnion(t string) bool {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '|':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// TypeDefAgrees: pyws names the same classes as pyright (same
// "rel:line", or the same external qualified name), in any order,
// repeats ignored.
func TypeDefAgrees(py, us []string) bool {
	set := func(l []string) []string {
		out := append([]string(nil), l...)
		sort.Strings(out)
		return slices.Compact(out)
	}
	return slices.Equal(set(py), set(us))
}

// MismatchRules are the pyright rules that confirm a type-mismatch.
var MismatchRules = []string{"reportAssignmentType", "reportReturnType", "reportArgumentType"}

// Finding is one pyws diagnostic: file, 0-based line, code and message.
type Finding struct {
	Rel     string
	Line    int
	Code    string
	Message string
}

// Confirmed reports whether pyright reports an assignment, return or
// argument type error on f's line (inside the error's line range), or,
// for a finding on an attribute store (pyws's "Cannot assign to
// attribute" message), pyright's reportAttributeAccessIssue of the same
// wording (pyright's rule for a value its declaration rejects).
func Confirmed(f Finding, pyright []Diag) bool {
	store := strings.HasPrefix(f.Message, attributeStore)
	for _, d := range pyright {
		rel, line, _ := splitAt(d.At)
		if rel != f.Rel || f.Line < line || f.Line > max(line, d.EndLine) {
			continue
		}
		if slices.Contains(MismatchRules, d.Rule) || store && d.Rule == "reportAttributeAccessIssue" && strings.HasPrefix(d.Message, attributeStore) {
			return true
		}
	}
	return false
}

// attributeStore begins the messages of a value stored to an attribute.
const attributeStore = "Cannot assign to attribute"

// Ratio is agreeing out of compared.
type Ratio struct{ OK, N int }

// Value is OK/N, or 1 when nothing was compared (nothing to disagree on).
func (r Ratio) Value() float64 {
	if r.N == 0 {
		return 1
	}
	return float64(r.OK) / float64(r.N)
}

func (r Ratio) String() string {
	if r.N == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%5.1f%% (%d/%d)", 100*r.Value(), r.OK, r.N)
}

func (r *Ratio) add(ok bool) {
	r.N++
	if ok {
		r.OK++
	}
}

// Miss is a disagreement, for the verbose listing.
type Miss struct {
	Figure, At, Pyright, Pyws string
}

// TypeScore sums the four type figures of one project.
type TypeScore struct {
	Hovers   int
	Buckets  map[string]int // pyright's hovers by bucket
	Type     Ratio          // hover type agreement
	Sig      Ratio          // signature agreement
	TypeDef  Ratio          // type definition agreement
	Mismatch Ratio          // type-mismatch precision
	Recall   Ratio          // pyright's assignment/return/argument errors pyws reports
	Misses   []Miss
}

// AddHover scores one sample: pyright's recorded answers against pyws's
// hover code block ("" when pyws has no hover) and type definitions.
func (s *TypeScore) AddHover(c TypeCase, oursHover string, oursTypeDefs []string) {
	s.Hovers++
	if s.Buckets == nil {
		s.Buckets = map[string]int{}
	}
	py, us := ParseHover(c.Hover), ParseHover(oursHover)
	s.Buckets[py.Bucket]++
	at := fmt.Sprintf("%s:%d:%d %s", c.Rel, c.Line, c.Char, c.Name)
	if py.TypeCompared() {
		ok := us.Type != "" && us.Type == py.Type
		s.Type.add(ok)
		if !ok {
			s.Misses = append(s.Misses, Miss{"type", at, c.Hover, oursHover})
		}
	}
	if py.SigCompared() {
		ok := us.Sig != "" && us.Sig == py.Sig
		s.Sig.add(ok)
		if !ok {
			s.Misses = append(s.Misses, Miss{"signature", at, c.Hover, oursHover})
		}
	}
	if py.TypeCompared() && len(c.TypeDefs) > 0 {
		ok := TypeDefAgrees(c.TypeDefs, oursTypeDefs)
		s.TypeDef.add(ok)
		if !ok {
			s.Misses = append(s.Misses, Miss{"typeDefinition", at, strings.Join(c.TypeDefs, " "), strings.Join(oursTypeDefs, " ")})
		}
	}
}

// AddFinding scores one pyws diagnostic; only type-mismatch counts.
func (s *TypeScore) AddFinding(f Finding, pyright []Diag) {
	if f.Code != "type-mismatch" {
		return
	}
	ok := Confirmed(f, pyright)
	s.Mismatch.add(ok)
	if !ok {
		s.Misses = append(s.Misses, Miss{"type-mismatch", fmt.Sprintf("%s:%d", f.Rel, f.Line), "(no type error on the line)", f.Message})
	}
}

// AddRecall scores what share of pyright's assignment, return and
// argument type errors (one per file and line) pyws's type-mismatch
// findings cover (a finding inside the error's lines).
func (s *TypeScore) AddRecall(findings []Finding, pyright []Diag) {
	seen := map[string]bool{}
	for _, d := range pyright {
		if !slices.Contains(MismatchRules, d.Rule) {
			continue
		}
		rel, line, _ := splitAt(d.At)
		at := fmt.Sprintf("%s:%d", rel, line)
		if seen[at] {
			continue
		}
		seen[at] = true
		found := false
		for _, f := range findings {
			if f.Code == "type-mismatch" && Confirmed(f, []Diag{d}) {
				found = true
				break
			}
		}
		s.Recall.add(found)
		if !found {
			s.Misses = append(s.Misses, Miss{"type-mismatch recall", at, d.Message, "(none)"})
		}
	}
}

// Merge adds o's counts to s (for the total).
func (s *TypeScore) Merge(o *TypeScore) {
	s.Hovers += o.Hovers
	if s.Buckets == nil {
		s.Buckets = map[string]int{}
	}
	for b, n := range o.Buckets {
		s.Buckets[b] += n
	}
	for _, p := range []struct{ to, from *Ratio }{{&s.Type, &o.Type}, {&s.Sig, &o.Sig}, {&s.TypeDef, &o.TypeDef}, {&s.Mismatch, &o.Mismatch}, {&s.Recall, &o.Recall}} {
		p.to.OK += p.from.OK
		p.to.N += p.from.N
	}
}

// Figures are a score's four figures by name, as the floors name them.
func (s *TypeScore) Figures() map[string]Ratio {
	return map[string]Ratio{"type": s.Type, "signature": s.Sig, "typeDefinition": s.TypeDef, "mismatch": s.Mismatch, "mismatchRecall": s.Recall}
}

// WriteTable prints the figures of each named score as a table.
func WriteTable(w io.Writer, names []string, scores map[string]*TypeScore) {
	fmt.Fprintf(w, "%-16s %7s  %-22s %-22s %-22s %-24s %-22s\n", "project", "hovers", "hover type", "signature", "type definition", "type-mismatch precision", "type-mismatch recall")
	for _, n := range names {
		s := scores[n]
		fmt.Fprintf(w, "%-16s %7d  %-22s %-22s %-22s %-24s %-22s\n", n, s.Hovers, s.Type, s.Sig, s.TypeDef, s.Mismatch, s.Recall)
	}
}
