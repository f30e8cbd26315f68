package pyright

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// TypeCase is a sample with pyright's recorded type answers: the code
// block of its hover (the docstring is dropped) and its type definitions,
// "rel:line" (0-based line) inside the workspace or
// "external:<module>.<name>" outside it.
type TypeCase struct {
	Sample
	Hover    string   `json:"hover,omitempty"`
	TypeDefs []string `json:"typeDefinition,omitempty"`
}

// Diag is a type-error diagnostic: "rel:line:character" (0-based) where
// it starts, its last line when that is another, its rule and the start
// of its message.
type Diag struct {
	At      string `json:"at"`
	EndLine int    `json:"endLine,omitempty"`
	Rule    string `json:"rule"`
	Message string `json:"message,omitempty"`
}

// TypeRules are pyright's rules recorded as type errors.
var TypeRules = []string{"reportAssignmentType", "reportReturnType", "reportArgumentType", "reportAttributeAccessIssue", "reportCallIssue"}

// TypeGolden is pyright's recorded answers on one project: the Debian
// package and the SHA-256 of each of its Python files (what the answers
// are valid for), pyright's version and configuration, the sampled
// positions with their hovers and type definitions, and the type-error
// diagnostics of every file. It holds none of the project's source.
type TypeGolden struct {
	Project  string            `json:"project"`
	Package  string            `json:"package"`
	Pyright  string            `json:"pyright"`
	Config   map[string]any    `json:"pyrightConfig"`
	Seed     int64             `json:"seed"`
	Files    map[string]string `json:"files"`
	Cases    []TypeCase        `json:"cases"`
	Diags    []Diag            `json:"diagnostics"`
	Comments []string          `json:"comment,omitempty"`
}

// Write encodes g compactly but diffably: one file, case or diagnostic a
// line.
func (g *TypeGolden) Write(w io.Writer) error {
	return writeRecording(w, recordingHead{g.Project, g.Package, g.Pyright, g.Config, g.Seed, g.Comments, g.Files},
		recordingList{"cases", anySlice(g.Cases)}, recordingList{"diagnostics", anySlice(g.Diags)})
}

// recordingHead is what every golden of pyright's answers starts with.
type recordingHead struct {
	project, pkg, pyright string
	config                map[string]any
	seed                  int64
	comments              []string
	files                 map[string]string
}

// recordingList is a named array of a golden, written an element a line.
type recordingList struct {
	name  string
	items []any
}

func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// writeRecording writes a golden's head, its files and its lists.
func writeRecording(w io.Writer, h recordingHead, lists ...recordingList) error {
	bw := bufio.NewWriter(w)
	enc := func(v any) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		e.Encode(v)
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(bw, "{\n\"project\": %s,\n\"package\": %s,\n\"pyright\": %s,\n\"pyrightConfig\": %s,\n\"seed\": %d,\n",
		enc(h.project), enc(h.pkg), enc(h.pyright), enc(h.config), h.seed)
	if len(h.comments) > 0 {
		fmt.Fprintf(bw, "\"comment\": %s,\n", enc(h.comments))
	}
	rels := make([]string, 0, len(h.files))
	for r := range h.files {
		rels = append(rels, r)
	}
	sort.Strings(rels)
	bw.WriteString("\"files\": {")
	for i, r := range rels {
		if i > 0 {
			bw.WriteString(",")
		}
		fmt.Fprintf(bw, "\n %s: %s", enc(r), enc(h.files[r]))
	}
	bw.WriteString("\n}")
	for _, l := range lists {
		fmt.Fprintf(bw, ",\n%s: [", enc(l.name))
		for i, it := range l.items {
			if i > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n " + enc(it))
		}
		bw.WriteString("\n]")
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// ReadTypeGolden reads a golden written by Write.
func ReadTypeGolden(path string) (*TypeGolden, error) { return readGolden[TypeGolden](path) }

// readGolden decodes the golden at path.
func readGolden[G any](path string) (*G, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g G
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &g, nil
}

// ProjectFiles hashes the Python files (.py, .pyi) under dir/name,
// skipping __pycache__: path relative to dir ("name/...") to SHA-256,
// hex. name "." hashes all of dir.
func ProjectFiles(dir, name string) (map[string]string, error) {
	out := map[string]string{}
	base := filepath.Join(dir, name)
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	return out, err
}

// FilesDiffer says how the files of a package differ from the recorded
// ones ("" when they are the same).
func FilesDiffer(recorded, found map[string]string) string {
	var missing, changed, extra []string
	for r, h := range recorded {
		switch g, ok := found[r]; {
		case !ok:
			missing = append(missing, r)
		case g != h:
			changed = append(changed, r)
		}
	}
	for r := range found {
		if _, ok := recorded[r]; !ok {
			extra = append(extra, r)
		}
	}
	if len(missing)+len(changed)+len(extra) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(changed)
	sort.Strings(extra)
	var parts []string
	for _, p := range []struct {
		what  string
		files []string
	}{{"missing", missing}, {"changed", changed}, {"not recorded", extra}} {
		if len(p.files) > 0 {
			parts = append(parts, fmt.Sprintf("%d files %s (%s, ...)", len(p.files), p.what, p.files[0]))
		}
	}
	return strings.Join(parts, ", ")
}

// CopyFiles copies the files rels of src into dst (same relative paths).
func CopyFiles(src, dst string, rels []string) error {
	for _, r := range rels {
		b, err := os.ReadFile(filepath.Join(src, r))
		if err != nil {
			return err
		}
		p := filepath.Join(dst, r)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// HoverCode is the code block of a hover's Markdown (its first fenced
// block, without the fences), or the whole text when it has none.
func HoverCode(md string) string {
	s := md
	if i := strings.Index(s, "```"); i >= 0 {
		s = s[i+3:]
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			s = s[nl+1:]
		}
		if j := strings.Index(s, "```"); j >= 0 {
			s = s[:j]
		}
	} else if k := strings.Index(s, "\n---"); k >= 0 {
		s = s[:k]
	}
	return strings.TrimSpace(s)
}

// TypeDefString names a type definition location: "rel:line" inside
// root, otherwise "external:<module>.<name>" with the module from the
// file's path (typeshed, site-packages) and the name read at the range.
func TypeDefString(root string, l Loc) string {
	rel := relOf(root, l.URI)
	if rel != "external" {
		return fmt.Sprintf("%s:%d", rel, l.Range.Start.Line)
	}
	u, err := url.Parse(l.URI)
	if err != nil {
		return "external:?"
	}
	return "external:" + qualifiedAt(u.Path, l)
}

func qualifiedAt(path string, l Loc) string {
	mod := strings.TrimSuffix(strings.TrimSuffix(path, ".pyi"), ".py")
	for _, marker := range []string{"/typeshed-fallback/stdlib/", "/site-packages/", "/dist-packages/", "/typeshed-fallback/stubs/"} {
		if i := strings.LastIndex(mod, marker); i >= 0 {
			mod = mod[i+len(marker):]
			if marker == "/typeshed-fallback/stubs/" { // <distribution>/<module path>
				if j := strings.IndexByte(mod, '/'); j >= 0 {
					mod = mod[j+1:]
				}
			}
			break
		}
	}
	if i := strings.LastIndex(mod, "/lib/python3"); i >= 0 { // an interpreter's standard library
		mod = mod[i+len("/lib/python3"):]
		if j := strings.IndexByte(mod, '/'); j >= 0 {
			mod = mod[j+1:]
		}
	}
	mod = strings.TrimSuffix(mod, "/__init__")
	mod = strings.ReplaceAll(strings.TrimPrefix(mod, "/"), "/", ".")
	b, err := os.ReadFile(path)
	if err != nil {
		return mod
	}
	lines := strings.Split(string(b), "\n")
	if l.Range.Start.Line >= len(lines) {
		return mod
	}
	line := []rune(lines[l.Range.Start.Line]) // LSP characters: UTF-16; stubs are ASCII
	s, e := l.Range.Start.Character, l.Range.End.Character
	if l.Range.End.Line != l.Range.Start.Line || e <= s || e > len(line) {
		return mod
	}
	// the range may hold more than the name ("Optional: _SpecialForm")
	name := identRe.FindString(string(line[s:e]))
	for _, c := range enclosingClasses(lines, l.Range.Start.Line) {
		name = c + "." + name
	}
	return mod + "." + name
}

// enclosingClasses names the classes a stub's line is nested in,
// innermost first, from the indentation: object's __class__ property
// is builtins.object.__class__, not builtins.__class__.
func enclosingClasses(lines []string, at int) []string {
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	var out []string
	depth := indent(lines[at])
	for i := at - 1; i >= 0 && depth > 0; i-- {
		s := lines[i]
		if t := strings.TrimSpace(s); t == "" || t[0] == '#' || indent(s) >= depth {
			continue
		}
		depth = indent(s)
		if rest, ok := strings.CutPrefix(strings.TrimSpace(s), "class "); ok {
			out = append(out, identRe.FindString(rest))
		}
	}
	return out
}

// splitAt reads a "rel:line:char" position.
func splitAt(at string) (rel string, line, char int) {
	parts := strings.Split(at, ":")
	if len(parts) < 3 {
		return at, 0, 0
	}
	fmt.Sscan(parts[len(parts)-2], &line)
	fmt.Sscan(parts[len(parts)-1], &char)
	return strings.Join(parts[:len(parts)-2], ":"), line, char
}
