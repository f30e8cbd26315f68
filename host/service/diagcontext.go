package service

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// What the diagnostics plugin cannot know from one file, gathered by the
// kernel (docs/diagnostics.md, "How imports are resolved"):
//
//   - the workspace's [tool.pyws] table and target Python version
//     (pyproject.toml, re-read when it changes);
//   - the module name of the file;
//   - the top-level modules the configured interpreter has installed
//     (diaginterp.go);
//   - for each import the file's text shows, whether the workspace has
//     the module (the plugin finds the imports exactly; an import this
//     text scan misses is simply not judged);
//   - the workspace files the file imports names from (sent as extra
//     files of the request, parsed by the plugin runtime), for the
//     signatures of called functions and PEP 702 @deprecated marks.
//
// The module index is rebuilt from Workspace.PythonFiles after the
// workspace watcher reports a change, or every indexTTL without one.

const (
	indexTTL        = 5 * time.Second
	maxContextFiles = 8
	maxContextBytes = 256 << 10
)

// diagState is the per-workspace cache.
type diagState struct {
	ws *workspace.Workspace

	mu       sync.Mutex
	built    time.Time
	dirty    bool
	modules  map[string]string // dotted path from the root ("src.pkg.mod") -> file rel path ("" for a directory)
	hasSrc   bool
	cfgStamp string
	cfg      *pyproject.Config
	cfgErr   error
}

var diagStates sync.Map // *workspace.Workspace -> *diagState

func diagStateFor(ws *workspace.Workspace) *diagState {
	if st, ok := diagStates.Load(ws); ok {
		return st.(*diagState)
	}
	st := &diagState{ws: ws, dirty: true}
	if actual, loaded := diagStates.LoadOrStore(ws, st); loaded {
		return actual.(*diagState)
	}
	ws.Subscribe(func([]string) {
		st.mu.Lock()
		st.dirty = true
		st.mu.Unlock()
	})
	return st
}

// config returns the parsed pyproject.toml, re-read when its size or
// modification time changes.
func (st *diagState) config(log *slog.Logger) *pyproject.Config {
	p := filepath.Join(st.ws.Root(), pyproject.FileName)
	stamp := ""
	if fi, err := os.Stat(p); err == nil {
		stamp = fmt.Sprint(fi.ModTime().UnixNano(), "/", fi.Size())
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cfg != nil && stamp == st.cfgStamp {
		return st.cfg
	}
	cfg, err := pyproject.Load(st.ws.Root())
	if err != nil {
		log.Warn("pyproject.toml ignored by get_diagnostics", "err", err)
		cfg = &pyproject.Config{Raw: map[string]any{}}
	}
	st.cfg, st.cfgStamp = cfg, stamp
	return cfg
}

// index returns the workspace's module map, rebuilding it when stale.
func (st *diagState) index(ctx context.Context) (map[string]string, bool) {
	st.mu.Lock()
	fresh := !st.dirty && time.Since(st.built) < indexTTL && st.modules != nil
	mods, hasSrc := st.modules, st.hasSrc
	st.mu.Unlock()
	if fresh {
		return mods, hasSrc
	}
	files, err := st.ws.PythonFiles(ctx)
	if err != nil {
		return mods, hasSrc
	}
	root := st.ws.Root()
	mods = make(map[string]string, len(files)*2)
	for _, abs := range files {
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		dotted, ok := dottedPath(rel)
		if !ok {
			continue
		}
		if prev, seen := mods[dotted]; !seen || prev == "" || strings.HasSuffix(rel, ".pyi") {
			mods[dotted] = rel // a .pyi stub wins: it carries the signatures
		}
		for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
			dd := strings.ReplaceAll(d, "/", ".")
			if _, seen := mods[dd]; !seen {
				mods[dd] = ""
			}
		}
	}
	_, hasSrc = mods["src"]
	st.mu.Lock()
	st.modules, st.hasSrc, st.built, st.dirty = mods, hasSrc, time.Now(), false
	st.mu.Unlock()
	return mods, hasSrc
}

// dottedPath turns "a/b/c.py" into "a.b.c" and "a/b/__init__.py" into
// "a.b"; ok is false when a segment is not an identifier.
func dottedPath(rel string) (string, bool) {
	ext := path.Ext(rel)
	if ext != ".py" && ext != ".pyi" {
		return "", false
	}
	rel = strings.TrimSuffix(rel, ext)
	if rel == "__init__" {
		return "", false
	}
	rel = strings.TrimSuffix(rel, "/__init__")
	for _, seg := range strings.Split(rel, "/") {
		if !isIdent(seg) {
			return "", false
		}
	}
	return strings.ReplaceAll(rel, "/", "."), true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

// moduleName is the dotted name of a file relative to the workspace root
// (or src/ for a src layout): "pkg/sub/mod.py" -> "pkg.sub.mod".
func moduleName(rel string, hasSrc bool) (string, bool) {
	rel = filepath.ToSlash(rel)
	if hasSrc {
		rel = strings.TrimPrefix(rel, "src/")
	}
	d, ok := dottedPath(rel)
	return d, ok && d != ""
}

// importLine finds import statements in source text: `import a.b as c, d`
// and `from ..a import (x, y as z)`, one logical line (backslash and
// parenthesis continuations joined).
var importLine = regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|.*)|import[ \t]+(.*))$`)

type scannedImport struct {
	level  int
	module string
	names  []string // the bound names of a from-import
}

func scanImports(src []byte) []scannedImport {
	if !bytes.Contains(src, []byte("import")) {
		return nil
	}
	text := strings.ReplaceAll(string(src), "\\\n", " ")
	var out []scannedImport
	for _, m := range importStatements(text) {
		if m[4] != "" || (m[1] == "" && m[2] == "") {
			list, _, _ := strings.Cut(m[4], "#")
			for _, part := range strings.Split(list, ",") {
				f := strings.Fields(strings.Split(part, ";")[0])
				if len(f) > 0 {
					out = append(out, scannedImport{module: f[0]})
				}
			}
			continue
		}
		si := scannedImport{level: len(m[1]), module: m[2]}
		list := strings.Trim(m[3], "()")
		for _, line := range strings.Split(list, "\n") {
			line, _, _ = strings.Cut(line, "#")
			for _, part := range strings.Split(line, ",") {
				f := strings.Fields(part)
				switch len(f) {
				case 1:
					si.names = append(si.names, f[0])
				case 3:
					if f[1] == "as" {
						si.names = append(si.names, f[0]+" as "+f[2])
					}
				}
			}
		}
		out = append(out, si)
	}
	return out
}

// importStatements is importLine.FindAllStringSubmatch(text, -1), with the
// expression tried only where a line starts with "from" or "import": over
// a whole 5,000-line file the expression alone took about 3 ms.
func importStatements(text string) [][]string {
	var out [][]string
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := strings.TrimLeft(text[start:end], " \t")
		if strings.HasPrefix(line, "from") || strings.HasPrefix(line, "import") {
			// A parenthesized name list may span lines: the statement runs
			// to the line of its ")".
			stmt := end
			if open := strings.IndexByte(text[start:end], '('); open >= 0 && !strings.Contains(text[start+open:end], ")") {
				if close := strings.IndexByte(text[end:], ')'); close >= 0 {
					stmt = end + close
					if nl := strings.IndexByte(text[stmt:], '\n'); nl >= 0 {
						stmt += nl
					} else {
						stmt = len(text)
					}
				}
			}
			if m := importLine.FindStringSubmatch(text[start:stmt]); m != nil {
				out = append(out, m)
				if len(m[0]) > end-start {
					end = start + len(m[0]) // continue after the statement
				}
			}
		}
		start = end + 1
	}
	return out
}

// diagnosticsArgs gathers the "pyws" argument and the context files for f.
func (s *Session) diagnosticsArgs(ctx context.Context, f *sourceFile) (*abi.DiagnosticsContext, []*sourceFile) {
	st := diagStateFor(s.ws.ws)
	log := s.svc.cfg.Logger
	cfg := st.config(log)
	mods, hasSrc := st.index(ctx)
	tool := cfg.Table("tool", "pyws")
	if tool == nil {
		tool = map[string]any{}
	}
	a := &abi.DiagnosticsContext{Config: tool, Imports: map[string]int{}}
	rel := filepath.ToSlash(f.rel)
	a.Module, _ = moduleName(rel, hasSrc)
	a.IsPackageInit = path.Base(rel) == "__init__.py" || path.Base(rel) == "__init__.pyi"

	interp := interpreterFor(st.ws.Root(), tool, log)
	if interp != nil {
		a.Installed = []string{} // narrowed to the file's imports below
	}
	a.PythonVersion = targetVersion(tool, cfg, interp)

	// Roots an absolute import may resolve from: the workspace root, src/,
	// and the directories above the file (a script's directory is on
	// sys.path; test runners add others).
	dir := path.Dir(rel)
	roots := []string{""}
	if hasSrc {
		roots = append(roots, "src")
	}
	for d := dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		roots = append(roots, strings.ReplaceAll(d, "/", "."))
	}
	join := func(root, mod string) string {
		if root == "" {
			return mod
		}
		if mod == "" {
			return root
		}
		return root + "." + mod
	}
	var ctxFiles []*sourceFile
	seenCtx := map[string]bool{}
	for _, im := range scanImports(f.text) {
		spec := strings.Repeat(".", im.level) + im.module
		var found string // dotted path of the module, when found
		if im.level == 0 {
			top, _, _ := strings.Cut(im.module, ".")
			ans := abi.ImportAbsent
			for _, r := range roots {
				if _, ok := mods[join(r, im.module)]; ok {
					ans, found = abi.ImportFound, join(r, im.module)
					break
				}
				if _, ok := mods[join(r, top)]; ok {
					ans = abi.ImportTopOnly // the top-level module is ours, the module is not
				}
			}
			if ans == abi.ImportTopOnly && s.extensionModule(roots, im.module) {
				ans = abi.ImportFound
			}
			a.Imports[spec] = ans
		} else {
			base := dir
			for i := 1; i < im.level; i++ {
				if base == "." || base == "" {
					base = "<above>"
					break
				}
				base = path.Dir(base)
			}
			if im.level > 1 && base == "." {
				base = "<above>" // above the top-level package unless the root is one
			}
			switch {
			case base == "<above>":
				a.Imports[spec] = abi.ImportAbsent
			case im.module == "":
				a.Imports[spec] = abi.ImportFound
				found = strings.ReplaceAll(strings.TrimPrefix(base, "."), "/", ".")
			default:
				d := im.module
				if base != "." {
					d = strings.ReplaceAll(base, "/", ".") + "." + im.module
				}
				if _, ok := mods[d]; ok || s.extensionModule([]string{""}, d) {
					a.Imports[spec], found = abi.ImportFound, d
				} else {
					a.Imports[spec] = abi.ImportTopOnly
				}
			}
		}
		// Context: the module's file, when a name imported from it is used.
		if found == "" || len(im.names) == 0 || len(ctxFiles) >= maxContextFiles || seenCtx[found] {
			continue
		}
		crel := mods[found]
		if crel == "" || crel == rel || !namesUsed(f.text, im.names) {
			continue
		}
		seenCtx[found] = true
		cf, err := s.readPython(fileURI(filepath.Join(st.ws.Root(), filepath.FromSlash(crel))), maxContextBytes)
		if err != nil {
			continue
		}
		// The module as the file's import names it (how the plugin matches).
		modName := moduleFor(a.Module, a.IsPackageInit, im.level, im.module, "")
		if modName == "" {
			continue
		}
		ctxFiles = append(ctxFiles, cf)
		a.Context = append(a.Context, abi.DiagnosticsContextFile{Path: filepath.ToSlash(cf.rel), Module: modName,
			IsPackageInit: strings.HasPrefix(path.Base(crel), "__init__.")})
	}
	if interp != nil {
		a.Installed = installedImported(interp.Installed, a.Imports)
	}
	return a, ctxFiles
}

// installedImported narrows the interpreter's top-level modules to those
// the file imports absolutely: the plugin only asks about the imports the
// kernel answered in imports, and a list of hundreds of names decoded on
// every call cost the plugin more than analysing a small file (0.8 of
// 2.1 ms for 8 KB). Never nil: an empty list still says an interpreter is
// known.
func installedImported(installed []string, imports map[string]int) []string {
	tops := make(map[string]bool, len(imports))
	for spec := range imports {
		if strings.HasPrefix(spec, ".") {
			continue
		}
		top, _, _ := strings.Cut(spec, ".")
		tops[top] = true
	}
	out := []string{}
	for _, m := range installed {
		if tops[m] {
			out = append(out, m)
		}
	}
	return out
}

// moduleFor returns the absolute module an import names, resolving a
// relative one against the importer as the plugin's pysem does (so the
// plugin can match them), or fallback when it cannot.
func moduleFor(importer string, isInit bool, level int, mod, fallback string) string {
	if level == 0 {
		return mod
	}
	pkg := importer
	up := level
	if isInit {
		up--
	}
	for ; up > 0; up-- {
		i := strings.LastIndexByte(pkg, '.')
		if i < 0 {
			if up == 1 && pkg != "" {
				pkg = ""
				continue
			}
			return fallback
		}
		pkg = pkg[:i]
	}
	switch {
	case pkg == "":
		return mod
	case mod == "":
		return pkg
	}
	return pkg + "." + mod
}

// namesUsed reports whether one of the imported names (or aliases) occurs
// in the source more than once (the import itself is one occurrence).
func namesUsed(src []byte, names []string) bool {
	for _, n := range names {
		if _, alias, ok := strings.Cut(n, " as "); ok {
			n = alias
		}
		if n == "*" {
			continue
		}
		if wordCount(src, n, 2) > 1 {
			return true
		}
	}
	return false
}

// wordCount counts the occurrences of word in src with a word boundary on
// both sides, as regexp's \b (ASCII letters, digits and "_" are word
// characters), up to max.
func wordCount(src []byte, word string, max int) int {
	if word == "" {
		return 0
	}
	isWord := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	n := 0
	for i := 0; n < max; {
		j := bytes.Index(src[i:], []byte(word))
		if j < 0 {
			break
		}
		j += i
		end := j + len(word)
		before := j > 0 && isWord(src[j-1])
		after := end < len(src) && isWord(src[end])
		if before != isWord(word[0]) && after != isWord(word[len(word)-1]) {
			n++
		}
		i = j + 1
	}
	return n
}

// extensionModule reports whether a compiled extension module (mod.*.so,
// mod.pyd) exists for dotted under one of roots: the workspace index only
// lists Python sources.
func (s *Session) extensionModule(roots []string, dotted string) bool {
	root := s.ws.ws.Root()
	for _, r := range roots {
		full := dotted
		if r != "" {
			full = r + "." + dotted
		}
		parts := strings.Split(full, ".")
		dir := filepath.Join(append([]string{root}, parts[:len(parts)-1]...)...)
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		last := parts[len(parts)-1]
		for _, e := range entries {
			n := e.Name()
			if strings.HasPrefix(n, last+".") && (strings.HasSuffix(n, ".so") || strings.HasSuffix(n, ".pyd")) {
				return true
			}
		}
	}
	return false
}
