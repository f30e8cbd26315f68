package isort

import (
	"regexp"
	"strings"
)

// profile is the part of isort's Config the black profile fixes, plus the
// line length and lines_after_imports that _indented_config changes.
type profile struct {
	lineLength        int
	linesAfterImports int // -1: 2 before def/class/@, else 1
	pyi               bool
}

const (
	indentUnit    = "    "
	commentPrefix = "  #"
)

var statementDeclarations = []string{"def ", "cdef ", "cpdef ", "class ", "@", "async def"}

// withComments is comments.add_to_line.
func withComments(comments []string, original string) string {
	if len(comments) == 0 {
		return original
	}
	var unique []string
	for _, c := range comments {
		if indexOf(unique, c) < 0 {
			unique = append(unique, c)
		}
	}
	head, _ := parseComments(original)
	return head + commentPrefix + " " + strings.Join(unique, "; ")
}

func derefComments(r *[]string) []string {
	if r == nil {
		return nil
	}
	return *r
}

// sortedImports is output.sorted_imports for the black profile.
func sortedImports(p *parsed, cfg profile) string {
	if p.importIndex == -1 {
		return outputAsString(p.linesWithoutImports, p.lineSeparator)
	}
	formatted := append([]string(nil), p.linesWithoutImports...)
	var output []string
	for _, section := range sections {
		sec := p.imports[section]
		straightModules := naturally(sec.straight.keys, func(k string) string { return moduleKey(k, false) })
		fromModules := naturally(sec.fromKeys, func(k string) string { return moduleKey(k, false) })
		sectionOutput := append(withStraightImports(p, sec, straightModules), withFromImports(p, sec, fromModules, cfg)...)
		if len(sectionOutput) > 0 {
			output = append(output, "") // lines_between_sections = 1
			output = append(output, sectionOutput...)
		}
	}
	output = ensureNewlineBeforeComment(output)
	for len(output) > 0 && pyStrip(output[len(output)-1]) == "" {
		output = output[:len(output)-1]
	}
	for len(output) > 0 && pyStrip(output[0]) == "" {
		output = output[1:]
	}
	outputAt := 0
	if p.importIndex < p.originalLineCount {
		outputAt = p.importIndex
	}
	formatted = insertAt(formatted, outputAt, output...)
	tail := outputAt + len(output)
	for tail < len(formatted) && pyStrip(formatted[tail]) == "" {
		formatted = append(formatted[:tail], formatted[tail+1:]...)
	}
	if len(formatted) > tail {
		nextConstruct := ""
		rest := formatted[tail:]
		for i, line := range rest {
			skip, inQuote := skipLine(line, "", false)
			if !skip && pyStrip(line) != "" {
				if strings.HasPrefix(pyStrip(line), "#") && len(rest) > i+1 && pyStrip(rest[i+1]) != "" {
					continue
				}
				nextConstruct = line
				break
			} else if inQuote != "" {
				nextConstruct = line
				break
			}
		}
		switch {
		case cfg.linesAfterImports != -1:
			formatted = insertAt(formatted, tail, make([]string, cfg.linesAfterImports)...)
		case !cfg.pyi && hasPrefixAny(nextConstruct, statementDeclarations...):
			formatted = insertAt(formatted, tail, "", "")
		default:
			formatted = insertAt(formatted, tail, "")
		}
	}
	return outputAsString(formatted, p.lineSeparator)
}

func insertAt(l []string, at int, items ...string) []string {
	out := make([]string, 0, len(l)+len(items))
	out = append(out, l[:at]...)
	out = append(out, items...)
	return append(out, l[at:]...)
}

func outputAsString(lines []string, sep string) string {
	for len(lines) > 0 && pyStrip(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(append(lines, ""), sep)
}

func ensureNewlineBeforeComment(output []string) []string {
	var out []string
	isComment := func(s string) bool { return strings.HasPrefix(s, "#") }
	for i, line := range output {
		prevIsNone := i == 0
		prev := ""
		if !prevIsNone {
			prev = output[i-1]
		}
		if isComment(line) && (prevIsNone || prev != "") && (prevIsNone || !isComment(prev)) {
			out = append(out, "")
		}
		out = append(out, line)
	}
	return out
}

func withStraightImports(p *parsed, sec *sectionImports, modules []string) []string {
	var out []string
	for _, module := range modules {
		var defs []string
		if as, ok := p.asStraight[module]; ok {
			if plain, _ := sec.straight.get(module); plain {
				defs = append(defs, "import "+module)
			}
			for _, a := range as {
				defs = append(defs, "import "+module+" as "+a)
			}
		} else {
			defs = append(defs, "import "+module)
		}
		if above := p.aboveStraight[module]; len(above) > 0 {
			out = append(out, above...)
		}
		delete(p.aboveStraight, module)
		for _, d := range defs {
			out = append(out, withComments(derefComments(p.commentsStraight[module]), d))
		}
	}
	return out
}

func popNested(p *parsed, module, name string) string {
	m := p.commentsNested[module]
	if m == nil {
		return ""
	}
	c, ok := m[name]
	if ok {
		delete(m, name)
	}
	return c
}

func withFromImports(p *parsed, sec *sectionImports, modules []string, cfg profile) []string {
	var out []string
	for _, module := range modules {
		importStart := "from " + module + " import "
		names := sec.from[module]
		fromImports := naturally(names.keys, func(k string) string { return moduleKey(k, true) })
		asImports := map[string][]string{}
		for _, fi := range fromImports {
			if as, ok := p.asFrom[module+"."+fi]; ok {
				l := make([]string, len(as))
				for i, a := range as {
					l[i] = fi + " as " + a
				}
				asImports[fi] = l
			}
		}
		comments := derefComments(p.commentsFrom[module])
		delete(p.commentsFrom, module)
		above := p.aboveFrom[module]
		delete(p.aboveFrom, module)
		for len(fromImports) > 0 {
			if len(above) > 0 {
				out = append(out, above...)
				above = nil
			}
			for len(fromImports) > 0 {
				if _, ok := asImports[fromImports[0]]; !ok {
					break
				}
				fi := fromImports[0]
				fromImports = fromImports[1:]
				asImports[fi] = naturally(asImports[fi], nil)
				var fromComments []string
				if r := p.commentsStraight[module+"."+fi]; r != nil {
					fromComments = append(fromComments, *r...)
				}
				if plain, _ := names.get(fi); plain {
					if c := popNested(p, module, fi); c != "" {
						fromComments = append(fromComments, c)
					}
					out = append(out, wrapLine(withComments(fromComments, importStart+fi), p.lineSeparator, cfg))
					fromComments = nil
				}
				for _, ai := range asImports[fi] {
					if c := popNested(p, module, ai); c != "" {
						fromComments = append(fromComments, c)
					}
					out = append(out, wrapLine(withComments(fromComments, importStart+ai), p.lineSeparator, cfg))
					fromComments = nil
				}
			}
			if i := indexOf(fromImports, "*"); i >= 0 {
				star := append([]string(nil), comments...)
				if c := popNested(p, module, "*"); c != "" {
					star = append(star, c)
				}
				out = append(out, withComments(star, importStart+"*"))
				fromImports = append(fromImports[:i:i], fromImports[i+1:]...)
				comments = nil
			}
			for _, fi := range append([]string(nil), fromImports...) {
				c := popNested(p, module, fi)
				if c == "" {
					continue
				}
				single := withComments(comments, importStart+fi)
				if len(comments) > 0 {
					single += "; " + c
				} else {
					single += commentPrefix + " " + c
				}
				out = append(out, wrapLine(single, p.lineSeparator, cfg))
				fromImports, _ = removeFirst(fromImports, fi)
				comments = nil
			}
			var section []string
			for len(fromImports) > 0 {
				if _, ok := asImports[fromImports[0]]; ok {
					break
				}
				section = append(section, fromImports[0])
				fromImports = fromImports[1:]
			}
			stmt := withComments(comments, importStart+strings.Join(section, ", "))
			if len(section) == 0 {
				stmt = ""
			}
			multiline := pyLen(stmt) > cfg.lineLength && len(section) > 0
			if multiline {
				stmt = verticalHangingIndent(importStart, section, comments, p.lineSeparator)
			}
			if stmt != "" {
				out = append(out, stmt)
			}
		}
	}
	return out
}

// verticalHangingIndent is wrap_modes.vertical_hanging_indent (mode 3)
// with include_trailing_comma.
func verticalHangingIndent(start string, imports, comments []string, sep string) string {
	withC := withComments(comments, "")
	return start + "(" + withC + sep + indentUnit + strings.Join(imports, ","+sep+indentUnit) + "," + sep + ")"
}

var splitters = []struct {
	text string
	re   *regexp.Regexp
}{
	{"import ", regexp.MustCompile(`\bimport \b`)},
	{".", regexp.MustCompile(`\b\.\b`)},
	{"as ", regexp.MustCompile(`\bas \b`)},
}

// wrapLine is wrap.line for mode 3 with use_parentheses and
// include_trailing_comma.
func wrapLine(content, sep string, cfg profile) string {
	if pyLen(content) <= cfg.lineLength {
		return content
	}
	lineWithoutComment, comment, hasComment := splitFirst(content, "#")
	for _, sp := range splitters {
		if !sp.re.MatchString(lineWithoutComment) || strings.HasPrefix(pyStrip(lineWithoutComment), sp.text) {
			continue
		}
		parts := sp.re.Split(lineWithoutComment, -1)
		hasComment := hasComment && comment != "" // Python truthiness of the comment
		if hasComment && !strings.Contains(comment, "noqa") {
			parts[len(parts)-1] = pyStrip(parts[len(parts)-1]) + "," + commentPrefix + comment
		}
		var next []string
		for pyLen(content)+2 > cfg.lineLength && len(parts) > 0 {
			next = append(next, parts[len(parts)-1])
			parts = parts[:len(parts)-1]
			content = strings.Join(parts, sp.text)
		}
		if content == "" {
			content = next[len(next)-1]
			next = next[:len(next)-1]
		}
		cont := wrapLine(indentUnit+pyLStrip(strings.Join(next, sp.text)), sep, cfg)
		var output string
		if sp.text == "as " {
			output = content + sp.text + pyLStrip(cont)
		} else {
			comma := ","
			if hasComment {
				comma = ""
			}
			cmt := ""
			if hasComment && strings.Contains(comment, "noqa") {
				cmt = commentPrefix + comment
				cont = pyRStrip(cont)
				comma = ","
			}
			output = content + sp.text + "(" + cmt + sep + cont + comma + sep + ")"
		}
		lines := strings.Split(output, sep)
		if last := lines[len(lines)-1]; strings.Contains(last, commentPrefix) && strings.HasSuffix(last, ")") {
			c, cm, _ := strings.Cut(last, commentPrefix)
			lines[len(lines)-1] = c + ")" + commentPrefix + cm[:len(cm)-1]
		}
		return strings.Join(lines, sep)
	}
	return content
}
