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
	lineSep := inferLineSeparator(contents)
	inLines := pytext.SplitLines(contents, false)
	if contents != "" && (contents[len(contents)-1] == '\n' || contents[len(contents)-1] == '\r') {
		inLines = append(inLines, "")
	}
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
		originalLineCount: len(inLines),
		lineSeparator:     lineSep,
	}
	for _, s := range sections {
		p.imports[s] = &sectionImports{straight: newOrderedBools(), from: map[string]*orderedBools{}}
	}
	var out []string
	lineCount := len(inLines)
	index := 0
	inQuote := ""
	nested := func(mod string) map[string]string {
		m := p.commentsNested[mod]
		if m == nil {
			m = map[string]string{}
			p.commentsNested[mod] = m
		}
		return m
	}
	isNestedName := func(stripped string) bool {
		return stripped != "" && !strings.Contains(strings.ReplaceAll(stripped, " as ", ""), " ")
	}
	for index < lineCount {
		line := inLines[index]
		index++
		statementIndex := index
		var skipping bool
		skipping, inQuote = skipLine(line, inQuote, true)
		if skipping {
			out = append(out, line)
			continue
		}

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

		for _, statement := range statements {
			line := normalizeLine(statement)
			typ := importType(line)
			if typ == "" {
				out = append(out, statement)
				continue
			}
			if p.importIndex == -1 {
				p.importIndex = index - 1
			}
			nestedComments := map[string]string{}
			importString, comment := parseComments(line)
			var comments []string
			if comment != "" {
				comments = append(comments, comment)
			}
			var lineParts []string
			for _, part := range strings.Split(pyStrip(stripSyntax(importString)), " ") {
				if part != "" {
					lineParts = append(lineParts, part)
				}
			}
			if typ == "from" && len(lineParts) == 2 && len(comments) > 0 {
				nestedComments[lineParts[len(lineParts)-1]] = comments[0]
			}

			collectParen := func() {
				for !strings.HasSuffix(pyStrip(beforeHash(line)), ")") && index < lineCount {
					var newComment string
					line, newComment = parseComments(inLines[index])
					index++
					if newComment != "" {
						comments = append(comments, newComment)
					}
					stripped := pyStrip(stripSyntax(line))
					if typ == "from" && isNestedName(stripped) && newComment != "" {
						nestedComments[stripped] = comments[len(comments)-1]
					}
					importString += lineSep + line
				}
			}
			if h, _, _ := splitFirst(line, "#"); strings.Contains(h, "(") && index < lineCount {
				collectParen()
			} else {
				for strings.HasSuffix(pyStrip(line), "\\") {
					if index >= lineCount {
						break
					}
					var newComment string
					line, newComment = parseComments(inLines[index])
					index++
					if newComment != "" {
						comments = append(comments, newComment)
					}
					if h := beforeHash(line); strings.Contains(h, "(") && !strings.Contains(h, ")") && index < lineCount {
						stripped := pyStrip(stripSyntax(line))
						if typ == "from" && isNestedName(stripped) && newComment != "" {
							nestedComments[stripped] = comments[len(comments)-1]
						}
						importString += lineSep + line
						collectParen()
					}
					stripped := pyStrip(stripSyntax(line))
					if typ == "from" && isNestedName(stripped) && newComment != "" {
						nestedComments[stripped] = comments[len(comments)-1]
					}
					if t := pyStrip(importString); strings.HasSuffix(t, " import") || strings.HasSuffix(t, " cimport") ||
						hasPrefixAny(pyStrip(line), "import ", "cimport ") {
						importString += lineSep + line
					} else {
						importString = strings.TrimRight(pyRStrip(importString), "\\") + " " + pyLStrip(line)
					}
				}
			}

			if typ == "from" {
				importString = strings.ReplaceAll(importString, "import(", "import (")
				importString = strings.ReplaceAll(importString, "\\", " ")
				importString = strings.ReplaceAll(importString, "\n", " ")
				parts := strings.Split(importString, " import ")
				fromImport := strings.Split(parts[0], " ")
				head := fromImport[0] + " " + strings.Join(fromImport[1:], "")
				importString = strings.Join(append([]string{head}, parts[1:]...), " import ")
			}

			var justImports []string
			for _, item := range pySplit(stripSyntax(importString)) {
				justImports = append(justImports, strings.ReplaceAll(strings.ReplaceAll(item, "{|", "{ "), "|}", " }"))
			}
			var attachTo *[]string
			directImports := append([]string(nil), justImports[min(1, len(justImports)):]...)
			straightImport := true
			if ai := indexOf(justImports, "as"); ai >= 0 && ai+1 < len(justImports) {
				straightImport = false
				for {
					ai := indexOf(justImports, "as")
					if ai < 0 {
						break
					}
					if ai == 0 || ai+1 >= len(justImports) {
						panic(errUnsupported{"malformed as-import: " + line})
					}
					var module, topLevel, nestedModule string
					asName := justImports[ai+1]
					if typ == "from" {
						nestedModule = justImports[ai-1]
						topLevel = justImports[0]
						module = topLevel + "." + nestedModule
						var ok1, ok2, ok3 bool
						directImports, ok1 = removeFirst(directImports, nestedModule)
						directImports, ok2 = removeFirst(directImports, asName)
						directImports, ok3 = removeFirst(directImports, "as")
						if !ok1 || !ok2 || !ok3 {
							panic(errUnsupported{"malformed as-import: " + line})
						}
						if indexOf(p.asFrom[module], asName) < 0 {
							p.asFrom[module] = append(p.asFrom[module], asName)
						}
						fullName := nestedModule + " as " + asName
						if c, ok := nestedComments[fullName]; ok && c != "" {
							nested(topLevel)[fullName] = c
							if i := indexOf(comments, c); i >= 0 {
								comments = append(comments[:i:i], comments[i+1:]...)
							}
						}
					} else {
						module = justImports[ai-1]
						if indexOf(p.asStraight[module], asName) < 0 {
							p.asStraight[module] = append(p.asStraight[module], asName)
						}
					}
					if len(comments) > 0 && attachTo == nil {
						attachTo = refIn(p.commentsStraight, module)
					}
					justImports = append(justImports[:ai:ai], justImports[ai+2:]...)
				}
			}

			if typ == "from" {
				if len(justImports) == 0 {
					panic(errUnsupported{"from-import without a module: " + line})
				}
				importFrom := justImports[0]
				justImports = justImports[1:]
				placed := pl.place(importFrom)
				sec := p.imports[placed]
				for _, name := range justImports {
					if c, ok := nestedComments[name]; ok && c != "" {
						nested(importFrom)[name] = c
						if i := indexOf(comments, c); i >= 0 {
							comments = append(comments[:i:i], comments[i+1:]...)
						}
					}
				}
				if len(comments) > 0 && attachTo == nil {
					attachTo = refIn(p.commentsFrom, importFrom)
				}
				if len(out) > max(p.importIndex, 1)-1 {
					last := ""
					if len(out) > 0 {
						last = pyRStrip(out[len(out)-1])
					}
					for isCommentAboveCandidate(last) {
						p.aboveFrom[importFrom] = append([]string{out[len(out)-1]}, p.aboveFrom[importFrom]...)
						out = out[:len(out)-1]
						last = ""
						if len(out) > 0 {
							last = pyRStrip(out[len(out)-1])
						}
					}
					if statementIndex-1 == p.importIndex {
						p.importIndex -= len(p.aboveFrom[importFrom])
					}
				}
				root := sec.from[importFrom]
				if root == nil {
					root = newOrderedBools()
					sec.from[importFrom] = root
					sec.fromKeys = append(sec.fromKeys, importFrom)
					for _, m := range justImports {
						root.set(m, indexOf(directImports, m) >= 0)
					}
				} else {
					for _, m := range justImports {
						prev, _ := root.get(m)
						root.set(m, prev || indexOf(directImports, m) >= 0)
					}
				}
				if len(comments) > 0 && attachTo != nil {
					*attachTo = append(*attachTo, comments...)
				}
			} else {
				if len(comments) > 0 && attachTo != nil {
					*attachTo = append(*attachTo, comments...)
					comments = nil
				}
				for _, module := range justImports {
					if len(comments) > 0 {
						c := comments
						p.commentsStraight[module] = &c
						comments = nil
					}
					if len(out) > max(p.importIndex, 1)-1 {
						last := ""
						if len(out) > 0 {
							last = pyRStrip(out[len(out)-1])
						}
						for isCommentAboveCandidate(last) {
							p.aboveStraight[module] = append([]string{out[len(out)-1]}, p.aboveStraight[module]...)
							out = out[:len(out)-1]
							last = ""
							if len(out) > 0 {
								last = pyRStrip(out[len(out)-1])
							}
						}
						if index-1 == p.importIndex {
							p.importIndex -= len(p.aboveStraight[module])
						}
					}
					placed := pl.place(module)
					sec := p.imports[placed]
					prev, _ := sec.straight.get(module)
					straightImport = straightImport || prev
					sec.straight.set(module, straightImport)
				}
			}
		}
	}
	p.linesWithoutImports = out
	return p
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
