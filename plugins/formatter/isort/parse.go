package isort

import (
	"strings"

	"github.com/pyws/pyws/plugins/formatter/pytext"
)

// orderedBools is an insertion-ordered map of names to flags (Python's
// OrderedDict of module -> "also imported plainly").
type orderedBools struct {
	keys []string
	m    map[string]bool
}

func newOrderedBools() *orderedBools { return &orderedBools{m: map[string]bool{}} }

func (o *orderedBools) set(k string, v bool) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

func (o *orderedBools) get(k string) (bool, bool) { v, ok := o.m[k]; return v, ok }

type sectionImports struct {
	straight *orderedBools
	fromKeys []string
	from     map[string]*orderedBools
}

// parsed is parse.ParsedContent, for the fields the black profile uses.
type parsed struct {
	linesWithoutImports []string
	importIndex         int
	asStraight          map[string][]string // module -> as names
	asFrom              map[string][]string // "module.name" -> as names
	imports             map[string]*sectionImports
	commentsFrom        map[string]*[]string
	commentsStraight    map[string]*[]string
	commentsNested      map[string]map[string]string
	aboveStraight       map[string][]string
	aboveFrom           map[string][]string
	originalLineCount   int
	lineSeparator       string
}

func inferLineSeparator(contents string) string {
	switch {
	case strings.Contains(contents, "\r\n"):
		return "\r\n"
	case strings.Contains(contents, "\r"):
		return "\r"
	}
	return "\n"
}

func normalizeLine(raw string) string {
	line := strings.ReplaceAll(raw, "from.import ", "from . import ")
	line = strings.ReplaceAll(line, "from.cimport ", "from . cimport ")
	line = strings.ReplaceAll(line, "import*", "import *")
	line = strings.ReplaceAll(line, " .import ", " . import ")
	line = strings.ReplaceAll(line, " .cimport ", " . cimport ")
	return strings.ReplaceAll(line, "\t", " ")
}

func importType(line string) string {
	if strings.Contains(line, "isort:skip") || strings.Contains(line, "isort: skip") || strings.Contains(line, "isort: split") {
		return ""
	}
	if hasPrefixAny(line, "import ", "cimport ") {
		return "straight"
	}
	if strings.HasPrefix(line, "from ") {
		return "from"
	}
	return ""
}

func stripSyntax(s string) string {
	s = strings.ReplaceAll(s, "_import", "[[i]]")
	s = strings.ReplaceAll(s, "_cimport", "[[ci]]")
	for _, r := range []string{"\\", "(", ")", ","} {
		s = strings.ReplaceAll(s, r, " ")
	}
	list := pySplit(s)
	for _, key := range []string{"from", "import", "cimport"} {
		list, _ = removeFirst(list, key)
	}
	s = strings.Join(list, " ")
	s = strings.ReplaceAll(s, "[[i]]", "_import")
	s = strings.ReplaceAll(s, "[[ci]]", "_cimport")
	return strings.ReplaceAll(strings.ReplaceAll(s, "{ ", "{|"), " }", "|}")
}

// scanQuotes is the quote tracking shared by core.process and
// parse.skip_line: it returns the quote still open at the end of line.
func scanQuotes(line, inQuote string) string {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			i++
		case inQuote != "":
			if strings.HasPrefix(line[i:], inQuote) {
				inQuote = ""
			}
		case c == '\'' || c == '"':
			if strings.HasPrefix(line[i:], `"""`) || strings.HasPrefix(line[i:], `'''`) {
				inQuote = line[i : i+3]
				i += 2
			} else {
				inQuote = string(c)
			}
		case c == '#':
			return inQuote
		}
	}
	return inQuote
}

func skipLine(line, inQuote string, needsImport bool) (bool, string) {
	skip := inQuote != ""
	if strings.ContainsAny(line, `"'`) {
		inQuote = scanQuotes(line, inQuote)
	}
	if needsImport && strings.Contains(beforeHash(line), ";") {
		for _, part := range strings.Split(line, ";") {
			part = pyStrip(part)
			if part != "" && !strings.HasPrefix(part, "from ") && !hasPrefixAny(part, "import ", "cimport ") {
				skip = true
			}
		}
	}
	return skip || inQuote != "", inQuote
}

func parseComments(line string) (string, string) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		return line[:i], pyStrip(line[i+1:])
	}
	return line, ""
}

// errUnsupported aborts sorting of a file whose import syntax would make
// isort itself fail (it raises ValueError); the file is left as it is.
type errUnsupported struct{ why string }

func (e errUnsupported) Error() string { return "isort: " + e.why }

func isCommentAboveCandidate(last string) bool {
	return strings.HasPrefix(last, "#") && !strings.HasSuffix(last, `"""`) && !strings.HasSuffix(last, "'''") &&
		!strings.Contains(last, "isort:imports-") && !strings.Contains(last, "isort: imports-")
}

// fileContents is parse.file_contents: it takes the imports out of
// contents and categorizes them and their comments.
func fileContents(contents string, pl *placer) *parsed {
	lines := pytext.SplitLines(contents, false)
	if contents != "" && (contents[len(contents)-1] == '\n' || contents[len(contents)-1] == '\r') {
		lines = append(lines, "")
	}
	f := &fileParser{p: newParsed(len(lines), inferLineSeparator(contents)), pl: pl, lines: lines}
	for f.index < len(f.lines) {
		line := f.lines[f.index]
		f.index++
		statementIndex := f.index
		var skipping bool
		skipping, f.inQuote = skipLine(line, f.inQuote, true)
		if skipping {
			f.out = append(f.out, line)
			continue
		}
		for _, statement := range splitStatements(line) {
			f.statement(statement, statementIndex)
		}
	}
	f.p.linesWithoutImports = f.out
	return f.p
}

func newParsed(lineCount int, lineSep string) *parsed {
	p := &parsed{
		importIndex:       -1,
		asStraight:        map[string][]string{},
		asFrom:            map[string][]string{},
		imports:           map[string]*sectionImports{},
		commentsFrom:      map[string]*[]string{},
		commentsStraight:  map[string]*[]string{},
		commentsNested:    map[string]map[string]string{},
		aboveStraight:     map[string][]string{},
		aboveFrom:         map[string][]string{},
		originalLineCount: lineCount,
		lineSeparator:     lineSep,
	}
	for _, s := range sections {
		p.imports[s] = &sectionImports{straight: newOrderedBools(), from: map[string]*orderedBools{}}
	}
	return p
}

// nested is the nested-comment map of module mod, created when missing.
func (p *parsed) nested(mod string) map[string]string {
	m := p.commentsNested[mod]
	if m == nil {
		m = map[string]string{}
		p.commentsNested[mod] = m
	}
	return m
}

// fileParser is one run of fileContents: the input lines, the next one
// to read, and the lines that are not imports.
type fileParser struct {
	p       *parsed
	pl      *placer
	lines   []string
	index   int // of the next line to read
	out     []string
	inQuote string
}

// splitStatements splits a line at its semicolons; the end-of-line
// comment stays with the last statement.
func splitStatements(line string) []string {
	code, eol, hasEOL := splitFirst(line, "#")
	var statements []string
	if strings.Contains(code, ";") {
		for _, s := range strings.Split(code, ";") {
			statements = append(statements, pyStrip(s))
		}
	} else {
		statements = []string{code}
	}
	if hasEOL {
		statements[len(statements)-1] += "#" + eol
	}
	return statements
}

// statement takes in one statement of the line read at statementIndex
// (1-based): kept as it is when not an import, recorded otherwise.
func (f *fileParser) statement(statement string, statementIndex int) {
	line := normalizeLine(statement)
	typ := importType(line)
	if typ == "" {
		f.out = append(f.out, statement)
		return
	}
	if f.p.importIndex == -1 {
		f.p.importIndex = f.index - 1
	}
	imp := f.readImport(line, typ)
	if typ == "from" {
		imp.text = joinFromModule(imp.text)
	}
	var names []string
	for _, item := range pySplit(stripSyntax(imp.text)) {
		names = append(names, strings.ReplaceAll(strings.ReplaceAll(item, "{|", "{ "), "|}", " }"))
	}
	a := f.takeAliases(imp, names)
	if typ == "from" {
		f.addFrom(imp, a, statementIndex)
	} else {
		f.addStraight(imp, a)
	}
}

// importText is one import statement as read, over all its lines.
type importText struct {
	typ  string // "from" or "straight"
	text string
	// lastLine is the last line read, without its comment (errors show it).
	lastLine       string
	comments       []string
	nestedComments map[string]string // imported name -> its comment
}

// readImport reads the import statement starting with line, and its
// continuation lines (in parentheses or after backslashes).
func (f *fileParser) readImport(line, typ string) *importText {
	imp := &importText{typ: typ, nestedComments: map[string]string{}}
	var comment string
	imp.text, comment = parseComments(line)
	imp.lastLine = line
	if comment != "" {
		imp.comments = append(imp.comments, comment)
	}
	var parts []string
	for _, part := range strings.Split(pyStrip(stripSyntax(imp.text)), " ") {
		if part != "" {
			parts = append(parts, part)
		}
	}
	if typ == "from" && len(parts) == 2 && len(imp.comments) > 0 {
		imp.nestedComments[parts[len(parts)-1]] = imp.comments[0]
	}
	if h, _, _ := splitFirst(line, "#"); strings.Contains(h, "(") && f.index < len(f.lines) {
		f.readParenthesized(imp)
		return imp
	}
	for strings.HasSuffix(pyStrip(imp.lastLine), "\\") && f.index < len(f.lines) {
		comment := f.nextImportLine(imp)
		if h := beforeHash(imp.lastLine); strings.Contains(h, "(") && !strings.Contains(h, ")") && f.index < len(f.lines) {
			imp.noteNestedComment(comment)
			imp.text += f.p.lineSeparator + imp.lastLine
			f.readParenthesized(imp)
		}
		imp.noteNestedComment(comment)
		if t := pyStrip(imp.text); strings.HasSuffix(t, " import") || strings.HasSuffix(t, " cimport") ||
			hasPrefixAny(pyStrip(imp.lastLine), "import ", "cimport ") {
			imp.text += f.p.lineSeparator + imp.lastLine
		} else {
			imp.text = strings.TrimRight(pyRStrip(imp.text), "\\") + " " + pyLStrip(imp.lastLine)
		}
	}
	return imp
}

// readParenthesized reads lines into imp up to the closing parenthesis.
func (f *fileParser) readParenthesized(imp *importText) {
	for !strings.HasSuffix(pyStrip(beforeHash(imp.lastLine)), ")") && f.index < len(f.lines) {
		comment := f.nextImportLine(imp)
		imp.noteNestedComment(comment)
		imp.text += f.p.lineSeparator + imp.lastLine
	}
}

// nextImportLine reads the next line of an import into imp.lastLine and
// its comment into imp.comments, and returns the comment.
func (f *fileParser) nextImportLine(imp *importText) string {
	var comment string
	imp.lastLine, comment = parseComments(f.lines[f.index])
	f.index++
	if comment != "" {
		imp.comments = append(imp.comments, comment)
	}
	return comment
}

// noteNestedComment records the comment of the last line read as the
// comment of the name it holds, when it holds only one name of a
// from-import.
func (imp *importText) noteNestedComment(comment string) {
	stripped := pyStrip(stripSyntax(imp.lastLine))
	if imp.typ == "from" && isNestedName(stripped) && comment != "" {
		imp.nestedComments[stripped] = imp.comments[len(imp.comments)-1]
	}
}

func isNestedName(stripped string) bool {
	return stripped != "" && !strings.Contains(strings.ReplaceAll(stripped, " as ", ""), " ")
}

// joinFromModule writes "from a . b import ..." as "from a.b import ...",
// the statement on one line.
func joinFromModule(text string) string {
	text = strings.ReplaceAll(text, "import(", "import (")
	text = strings.ReplaceAll(text, "\\", " ")
	text = strings.ReplaceAll(text, "\n", " ")
	parts := strings.Split(text, " import ")
	fromImport := strings.Split(parts[0], " ")
	head := fromImport[0] + " " + strings.Join(fromImport[1:], "")
	return strings.Join(append([]string{head}, parts[1:]...), " import ")
}

// importNames is an import statement's names with its "as" aliases
// taken out (and recorded in parsed).
type importNames struct {
	// names: for a from-import, the module then the imported names.
	names []string
	// direct: the names imported under their own name too.
	direct []string
	// attachTo: where the statement's comments go, once known.
	attachTo *[]string
	// straight: the statement has no alias.
	straight bool
}

// takeAliases records the statement's "as" aliases in parsed and returns
// its names without them.
func (f *fileParser) takeAliases(imp *importText, names []string) importNames {
	a := importNames{names: names, direct: append([]string(nil), names[min(1, len(names)):]...), straight: true}
	if ai := indexOf(a.names, "as"); ai < 0 || ai+1 >= len(a.names) {
		return a
	}
	a.straight = false
	for {
		ai := indexOf(a.names, "as")
		if ai < 0 {
			return a
		}
		if ai == 0 || ai+1 >= len(a.names) {
			panic(errUnsupported{"malformed as-import: " + imp.lastLine})
		}
		var module string
		asName := a.names[ai+1]
		if imp.typ == "from" {
			nestedModule := a.names[ai-1]
			topLevel := a.names[0]
			module = topLevel + "." + nestedModule
			var ok1, ok2, ok3 bool
			a.direct, ok1 = removeFirst(a.direct, nestedModule)
			a.direct, ok2 = removeFirst(a.direct, asName)
			a.direct, ok3 = removeFirst(a.direct, "as")
			if !ok1 || !ok2 || !ok3 {
				panic(errUnsupported{"malformed as-import: " + imp.lastLine})
			}
			if indexOf(f.p.asFrom[module], asName) < 0 {
				f.p.asFrom[module] = append(f.p.asFrom[module], asName)
			}
			f.moveNestedComment(imp, topLevel, nestedModule+" as "+asName)
		} else {
			module = a.names[ai-1]
			if indexOf(f.p.asStraight[module], asName) < 0 {
				f.p.asStraight[module] = append(f.p.asStraight[module], asName)
			}
		}
		if len(imp.comments) > 0 && a.attachTo == nil {
			a.attachTo = refIn(f.p.commentsStraight, module)
		}
		a.names = append(a.names[:ai:ai], a.names[ai+2:]...)
	}
}

// moveNestedComment moves the comment of name, imported from module,
// from the statement's comments to the module's nested comments.
func (f *fileParser) moveNestedComment(imp *importText, module, name string) {
	if c, ok := imp.nestedComments[name]; ok && c != "" {
		f.p.nested(module)[name] = c
		if i := indexOf(imp.comments, c); i >= 0 {
			imp.comments = append(imp.comments[:i:i], imp.comments[i+1:]...)
		}
	}
}

// addFrom records a from-import read from the line at statementIndex.
func (f *fileParser) addFrom(imp *importText, a importNames, statementIndex int) {
	if len(a.names) == 0 {
		panic(errUnsupported{"from-import without a module: " + imp.lastLine})
	}
	importFrom, names := a.names[0], a.names[1:]
	sec := f.p.imports[f.pl.place(importFrom)]
	for _, name := range names {
		f.moveNestedComment(imp, importFrom, name)
	}
	if len(imp.comments) > 0 && a.attachTo == nil {
		a.attachTo = refIn(f.p.commentsFrom, importFrom)
	}
	f.takeCommentsAbove(f.p.aboveFrom, importFrom, statementIndex)
	root := sec.from[importFrom]
	if root == nil {
		root = newOrderedBools()
		sec.from[importFrom] = root
		sec.fromKeys = append(sec.fromKeys, importFrom)
		for _, m := range names {
			root.set(m, indexOf(a.direct, m) >= 0)
		}
	} else {
		for _, m := range names {
			prev, _ := root.get(m)
			root.set(m, prev || indexOf(a.direct, m) >= 0)
		}
	}
	if len(imp.comments) > 0 && a.attachTo != nil {
		*a.attachTo = append(*a.attachTo, imp.comments...)
	}
}

// addStraight records the modules of a straight import.
func (f *fileParser) addStraight(imp *importText, a importNames) {
	comments := imp.comments
	if len(comments) > 0 && a.attachTo != nil {
		*a.attachTo = append(*a.attachTo, comments...)
		comments = nil
	}
	straight := a.straight
	for _, module := range a.names {
		if len(comments) > 0 {
			c := comments
			f.p.commentsStraight[module] = &c
			comments = nil
		}
		f.takeCommentsAbove(f.p.aboveStraight, module, f.index)
		sec := f.p.imports[f.pl.place(module)]
		prev, _ := sec.straight.get(module)
		straight = straight || prev
		sec.straight.set(module, straight)
	}
}

// takeCommentsAbove moves the comment lines just above an import (read
// up to line lineIndex, 1-based) from the kept lines to above[name]; the
// import section then starts above them.
func (f *fileParser) takeCommentsAbove(above map[string][]string, name string, lineIndex int) {
	if len(f.out) <= max(f.p.importIndex, 1)-1 {
		return
	}
	last := func() string {
		if len(f.out) == 0 {
			return ""
		}
		return pyRStrip(f.out[len(f.out)-1])
	}
	for isCommentAboveCandidate(last()) {
		above[name] = append([]string{f.out[len(f.out)-1]}, above[name]...)
		f.out = f.out[:len(f.out)-1]
	}
	if lineIndex-1 == f.p.importIndex {
		f.p.importIndex -= len(above[name])
	}
}

// refIn is dict.setdefault(key, []): the list stored under key, created
// when missing, so appends through it are seen by later readers.
func refIn(m map[string]*[]string, key string) *[]string {
	if r := m[key]; r != nil {
		return r
	}
	r := new([]string)
	m[key] = r
	return r
}
