package summarize

import (
	"regexp"
	"strings"
)

// A docstring section, whatever style it was written in.
type docSection struct {
	title string
	items []docItem // parameters, exceptions, ...
	text  []string  // free text lines (Returns prose, examples)
}

type docItem struct {
	name, typ string
	desc      []string
}

var (
	googleHeader = regexp.MustCompile(`^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns|Return|Yields|Yield|Raises|Raise|Exceptions|Example|Examples|Attributes|Note|Notes|Warning|Warnings|See Also|Todo|References)\s*:\s*$`)
	numpyRule    = regexp.MustCompile(`^\s*-{3,}\s*$`)
	restField    = regexp.MustCompile(`^:(param|parameter|arg|argument|key|keyword|type|raises|raise|except|exception|returns|return|rtype|yields|yield|ytype|var|ivar|cvar)\b\s*([^:]*):\s*(.*)$`)
	itemLine     = regexp.MustCompile(`^(\*{0,2}[A-Za-z_][A-Za-z0-9_.]*)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$`)
	numpyItem    = regexp.MustCompile(`^(\*{0,2}[A-Za-z_][A-Za-z0-9_., ]*?)\s*(?::\s*(.*))?$`)
)

// canonical maps the many spellings of a section title to the titles
// pyws renders: Args, Returns, Raises, Example, plus the rest as written.
func canonical(t string) string {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "args", "arguments", "parameters", "params", "param", "parameter", "arg", "argument":
		return "Args"
	case "keyword args", "keyword arguments", "key", "keyword", "other parameters":
		return "Keyword Args"
	case "returns", "return", "rtype":
		return "Returns"
	case "yields", "yield", "ytype":
		return "Yields"
	case "raises", "raise", "exceptions", "except", "exception":
		return "Raises"
	case "example", "examples":
		return "Example"
	case "note", "notes":
		return "Note"
	case "warning", "warnings":
		return "Warning"
	case "var", "ivar", "cvar", "attributes":
		return "Attributes"
	}
	return strings.TrimSpace(t)
}

func itemSection(title string) bool {
	switch title {
	case "Args", "Keyword Args", "Raises", "Attributes":
		return true
	}
	return false
}

// Regexps are slow in a wasm guest, and most docstring lines are prose:
// isRule and matchIf try them only on lines that pass a necessary check.

// isRule reports whether s is a NumPy section underline.
func isRule(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " \t\n\f\r"), "---") && numpyRule.MatchString(s)
}

// matchIf is re.FindStringSubmatch(s), when may says it can match.
func matchIf(re *regexp.Regexp, s string, may bool) []string {
	if !may {
		return nil
	}
	return re.FindStringSubmatch(s)
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// Markdown renders a cleaned docstring (pysem.CleanDoc) as Markdown:
// the description as written, then Args, Returns, Raises, Example and
// other sections recognised in Google, NumPy and reST styles, each as a
// bold title with a list of `name` (type): description items or text.
// Doctest examples go into a python fence.
func Markdown(doc string) string {
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return ""
	}
	d := &docParser{lines: strings.Split(doc, "\n")}
	for ; d.i < len(d.lines); d.i++ {
		ln := d.lines[d.i]
		t := strings.TrimSpace(ln)
		switch {
		case d.i+1 < len(d.lines) && t != "" && isRule(d.lines[d.i+1]) && indentOf(ln) == 0:
			d.numpySection(t)
		case d.googleSection(ln, t):
		case d.restField(ln, t):
		case d.cur != nil && t == "":
			d.cur.text = append(d.cur.text, "")
		default:
			d.intro = append(d.intro, ln)
		}
	}
	return d.render()
}

// docParser reads a docstring's lines into its description and sections.
type docParser struct {
	lines []string
	i     int // the line being read
	intro []string
	secs  []*docSection
	// cur is the section whose text a blank line continues.
	cur *docSection
}

// section returns the section of that title (canonical), created last
// when new.
func (d *docParser) section(title string) *docSection {
	title = canonical(title)
	for _, s := range d.secs {
		if s.title == title {
			return s
		}
	}
	s := &docSection{title: title}
	d.secs = append(d.secs, s)
	return s
}

// numpySection reads a NumPy section: the title, underlined with dashes,
// then items, "name : type" at the section indent with the description
// indented, or text, up to the next title.
func (d *docParser) numpySection(title string) {
	cur := d.section(title)
	d.cur = cur
	d.i++
	for d.i+1 < len(d.lines) {
		nx := d.lines[d.i+1]
		nt := strings.TrimSpace(nx)
		if d.i+2 < len(d.lines) && nt != "" && isRule(d.lines[d.i+2]) && indentOf(nx) == 0 {
			break
		}
		d.i++
		if nt == "" {
			if len(cur.items) > 0 && !itemSection(cur.title) {
				cur.text = append(cur.text, "")
			} else if len(cur.text) > 0 {
				cur.text = append(cur.text, "")
			}
			continue
		}
		if indentOf(nx) == 0 && (itemSection(cur.title) || cur.title == "Returns" || cur.title == "Yields") {
			if m := numpyItem.FindStringSubmatch(nt); m != nil && !strings.HasSuffix(nt, ".") {
				it := docItem{name: strings.TrimSpace(m[1]), typ: strings.TrimSpace(m[2])}
				if cur.title == "Returns" || cur.title == "Yields" || cur.title == "Raises" {
					if it.typ == "" { // "int" alone: a type
						it.typ, it.name = it.name, ""
					}
				}
				cur.items = append(cur.items, it)
				continue
			}
		}
		if len(cur.items) > 0 && indentOf(nx) > 0 {
			last := &cur.items[len(cur.items)-1]
			last.desc = append(last.desc, nt)
			continue
		}
		cur.text = append(cur.text, strings.TrimRight(nx, " "))
	}
}

// googleSection reads a Google section when line ln (trimmed: t) is its
// header, "Args:" at indent 0, with the entries indented below.
func (d *docParser) googleSection(ln, t string) bool {
	m := matchIf(googleHeader, t, strings.HasSuffix(t, ":"))
	if m == nil || indentOf(ln) != 0 {
		return false
	}
	cur := d.section(m[1])
	d.cur = cur
	base := -1
	for d.i+1 < len(d.lines) {
		nx := d.lines[d.i+1]
		nt := strings.TrimSpace(nx)
		if nt != "" && indentOf(nx) == 0 {
			break
		}
		d.i++
		if nt == "" {
			cur.text = append(cur.text, "")
			continue
		}
		ind := indentOf(nx)
		if base < 0 {
			base = ind
		}
		if itemSection(cur.title) || cur.title == "Returns" || cur.title == "Yields" {
			if ind == base {
				if mm := itemLine.FindStringSubmatch(nt); mm != nil && (itemSection(cur.title) || mm[2] != "") {
					cur.items = append(cur.items, docItem{name: mm[1], typ: mm[2], desc: nonEmpty(mm[3])})
					continue
				}
			} else if len(cur.items) > 0 {
				last := &cur.items[len(cur.items)-1]
				last.desc = append(last.desc, nt)
				continue
			}
		}
		cur.text = append(cur.text, strings.TrimRight(nx[min(base, ind):], " "))
	}
	return true
}

// restField reads a reST field (":param x: ...", with its indented
// continuation lines) when line ln (trimmed: t) is one.
func (d *docParser) restField(ln, t string) bool {
	m := matchIf(restField, t, strings.HasPrefix(t, ":"))
	if m == nil {
		return false
	}
	kind, arg, desc := m[1], strings.TrimSpace(m[2]), m[3]
	var more []string
	for d.i+1 < len(d.lines) && indentOf(d.lines[d.i+1]) > indentOf(ln) && strings.TrimSpace(d.lines[d.i+1]) != "" {
		d.i++
		more = append(more, strings.TrimSpace(d.lines[d.i]))
	}
	text := append(nonEmpty(desc), more...)
	switch kind {
	case "type":
		s := d.section("Args")
		found := false
		for k := range s.items {
			if s.items[k].name == arg {
				s.items[k].typ, found = strings.Join(text, " "), true
			}
		}
		if !found {
			s.items = append(s.items, docItem{name: arg, typ: strings.Join(text, " ")})
		}
	case "rtype", "ytype":
		s := d.section(kind)
		if len(s.items) == 0 {
			s.items = append(s.items, docItem{})
		}
		s.items[0].typ = strings.Join(text, " ")
	case "returns", "return", "yields", "yield":
		s := d.section(kind)
		if len(s.items) == 0 {
			s.items = append(s.items, docItem{})
		}
		s.items[0].desc = append(s.items[0].desc, text...)
	default:
		s := d.section(kind)
		name, typ := arg, ""
		if f := strings.Fields(arg); len(f) == 2 && kind != "raises" && kind != "raise" {
			typ, name = f[0], f[1]
		}
		s.items = append(s.items, docItem{name: name, typ: typ, desc: text})
	}
	d.cur = nil
	return true
}

// render writes the description, then each section that has content.
func (d *docParser) render() string {
	var sb strings.Builder
	if body := strings.TrimSpace(strings.Join(d.intro, "\n")); body != "" {
		sb.WriteString(renderText(body))
	}
	for _, s := range d.secs {
		if len(s.items) == 0 && strings.TrimSpace(strings.Join(s.text, "\n")) == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		s.render(&sb)
	}
	return sb.String()
}

// render writes the section: its bold title, its items as a list, then
// its text (fenced as Python when it is an example).
func (s *docSection) render(sb *strings.Builder) {
	sb.WriteString("**" + s.title + ":**")
	for _, it := range s.items {
		sb.WriteString("\n- ")
		switch {
		case it.name != "" && it.typ != "":
			sb.WriteString("`" + it.name + "` (`" + it.typ + "`)")
		case it.name != "":
			sb.WriteString("`" + it.name + "`")
		case it.typ != "":
			sb.WriteString("`" + it.typ + "`")
		}
		if d := strings.Join(it.desc, " "); d != "" {
			if it.name != "" || it.typ != "" {
				sb.WriteString(": ")
			}
			sb.WriteString(d)
		}
	}
	if txt := strings.Trim(strings.Join(s.text, "\n"), "\n"); strings.TrimSpace(txt) != "" {
		sb.WriteString("\n")
		if s.title == "Example" || strings.Contains(txt, ">>>") {
			sb.WriteString("```python\n" + txt + "\n```")
		} else {
			sb.WriteString(txt)
		}
	}
}

func nonEmpty(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return []string{strings.TrimSpace(s)}
}

// renderText keeps prose as written, fencing doctest blocks and keeping
// indented literal blocks as code.
func renderText(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	inFence := false
	for _, ln := range lines {
		isDoctest := strings.HasPrefix(strings.TrimSpace(ln), ">>>") || strings.HasPrefix(strings.TrimSpace(ln), "...")
		switch {
		case isDoctest && !inFence:
			out = append(out, "```python", ln)
			inFence = true
		case inFence && strings.TrimSpace(ln) == "":
			out = append(out, "```", "")
			inFence = false
		default:
			out = append(out, ln)
		}
	}
	if inFence {
		out = append(out, "```")
	}
	return strings.Join(out, "\n")
}
