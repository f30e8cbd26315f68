// Package isort sorts Python imports the way isort 5.6 does with
// `--profile black` (multi_line_output 3, include_trailing_comma,
// force_grid_wrap 0, use_parentheses, ensure_newline_before_comments,
// line_length 88), so that pyws's format_document matches
// `isort --profile black` byte for byte.
//
// It is a Go port of the algorithm of isort's core.process,
// parse.file_contents and output.sorted_imports, restricted to the
// settings the black profile uses, not a new design: isort is line based
// (it does not parse Python), and its exact output - which contiguous lines
// form an import block, where comments go, how many blank lines follow the
// imports - is defined by that algorithm, quirks included. What it does:
//
//   - Every run of import lines is a block: at module level and, indented,
//     inside functions, classes, if/try bodies (an indented block is
//     sorted with line_length reduced by its indentation and one blank line
//     after it). Blank lines and comments inside a run stay in it; any other
//     line ends it. Lines inside strings are never imports.
//   - Sections FUTURE, STDLIB (isort's own py3 list, stdlib_py3.go),
//     THIRDPARTY, FIRSTPARTY (Config.KnownFirstParty patterns and the
//     workspace's top-level names, Config.SrcModules), LOCALFOLDER
//     (relative imports), one blank line between sections.
//   - In a section, `import x` lines come before `from x import y` lines
//     (force_sort_within_sections off); modules sort case-insensitively and
//     "naturally" (digit runs as numbers); names in a from-import sort
//     CONSTANTS, then Classes, then functions. Imports from one module are
//     combined and duplicates dropped; `as` imports get their own line.
//   - Comments above an import move with it; inline comments stay on its
//     line (several are joined with "; ").
//   - A from-import longer than the line length is wrapped in parentheses,
//     one name per line, with a trailing comma.
//   - After the module-level block: two blank lines when the next code is
//     def, class, async def or a decorator (one in .pyi files), else one.
//   - `# isort: skip` (or isort:skip) on an import keeps it where it is,
//     `# isort: off` ... `# isort: on` leaves a region alone,
//     `# isort: split` ends a block, `isort: skip_file` anywhere leaves the
//     file unchanged.
//
// Not supported (rare, and outside the black profile): add/remove imports,
// force_to_top, section headings, `isort: imports-SECTION` placement,
// code sorting (`# isort: list`), cimports. Sources use "\n" line endings
// (the caller converts "\r\n").
package isort

import (
	"strings"

	"github.com/pyws/pyws/plugins/formatter/pytext"
)

// Config is what can vary between projects.
type Config struct {
	// LineLength is isort's line_length (88 in the black profile).
	LineLength int
	// KnownFirstParty, KnownThirdParty and KnownLocalFolder are module
	// patterns (`*` and `?` wildcards), as in isort's known_* settings.
	KnownFirstParty, KnownThirdParty, KnownLocalFolder []string
	// SrcModules are the top-level module and package names found in the
	// project's source paths (isort's default src_paths: the root and
	// root/src); they are first party.
	SrcModules map[string]bool
	// Pyi selects the stub-file rule for blank lines after imports.
	Pyi bool
}

// DefaultLineLength is the black profile's line_length.
const DefaultLineLength = 88

var fileSkipComments = []string{"isort:" + "skip_file", "isort: " + "skip_file"}

// Sort returns src with its imports sorted. A file isort would refuse
// (isort: skip_file, or import syntax isort itself fails on) comes back
// unchanged, with a non-nil error saying why when it was a failure.
func Sort(src string, c Config) (out string, err error) {
	if c.LineLength <= 0 {
		c.LineLength = DefaultLineLength
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(errUnsupported)
			if !ok {
				panic(r)
			}
			out, err = src, e
		}
	}()
	res, skipped := process(src, &c)
	if skipped {
		return src, nil
	}
	return res, nil
}

type lineReader struct {
	lines []string
	i     int
}

func (r *lineReader) next() (string, bool) {
	if r.i >= len(r.lines) {
		return "", false
	}
	l := r.lines[r.i]
	r.i++
	return l, true
}

// readline is the stream's readline(): "" at the end.
func (r *lineReader) readline() string {
	l, _ := r.next()
	return l
}

var importStart = []string{"from ", "from.import", "import ", "import*", "cimport ", "cimport*", "from.cimport"}
var commentIndicators = []string{`"""`, `'''`, `'`, `"`, "#"}

// process is core.process. It reports skipped for isort: skip_file.
func process(src string, c *Config) (string, bool) {
	pr := &processor{
		pl:                 newPlacer(c),
		base:               profile{lineLength: c.LineLength, linesAfterImports: -1, pyi: c.Pyi},
		in:                 &lineReader{lines: strings.SplitAfter(src, "\n")},
		firstImportSection: true,
	}
	if n := len(pr.in.lines); n > 0 && pr.in.lines[n-1] == "" {
		pr.in.lines = pr.in.lines[:n-1]
	}
	for index := 0; ; index++ {
		line, ok := pr.in.next()
		if !ok {
			if index == 0 {
				return src, false
			}
			if pr.lineSep == "" {
				pr.lineSep = "\n"
			}
			pr.endSection("")
			return pr.out.String(), false
		}
		for _, skip := range fileSkipComments {
			if strings.Contains(line, skip) {
				return src, true
			}
		}
		if notImports, line := pr.readLine(index, line); notImports {
			pr.endSection(line)
		}
	}
}

// processor is one run of process: the lines read, the output so far,
// and the import section being gathered.
type processor struct {
	pl   *placer
	base profile
	in   *lineReader
	out  strings.Builder
	// lineSep is the first non-blank line's line ending.
	lineSep string
	// importSection is the import lines gathered; nextImportSection the
	// first statement of the next one, at another indentation.
	importSection, nextImportSection string
	inQuote                          string // the string literal open
	containsImports                  bool   // importSection has an import
	inTopComment, firstImportSection bool
	indent                           string // of importSection
	isortOff                         bool   // between # isort: off and on
	strippedLine                     string // the last line read, stripped
}

// readLine takes in the line at index (0-based) and reports whether it
// ends the import section, with the line (or its last line, for an import
// continued over several) to write after it.
func (pr *processor) readLine(index int, line string) (bool, string) {
	pr.strippedLine = pyStrip(line)
	if pr.strippedLine != "" && pr.lineSep == "" {
		pr.lineSep = strings.NewReplacer(" ", "", "\t", "").Replace(line[len(pyRStrip(line)):])
	}
	if pr.inQuote == "" && pr.strippedLine == "# isort: off" {
		pr.isortOff = true
	}
	if (index == 0 || ((index == 1 || index == 2) && !pr.containsImports)) && strings.HasPrefix(pr.strippedLine, "#") {
		pr.inTopComment = true
	} else if pr.inTopComment && !strings.HasPrefix(line, "#") {
		pr.inTopComment = false
	}
	wasInQuote := pr.inQuote != ""
	if ((!strings.HasPrefix(pr.strippedLine, "#") || pr.inQuote != "") && strings.Contains(line, `"`)) || strings.Contains(line, "'") {
		pr.inQuote = scanQuotes(line, pr.inQuote)
	}
	if pr.inQuote != "" || wasInQuote || pr.inTopComment {
		return true, line
	}
	switch {
	case pr.isortOff:
		if pr.strippedLine == "# isort: on" {
			pr.isortOff = false
		}
		return true, line
	case strings.HasSuffix(pr.strippedLine, "# isort: split"):
		return true, line
	case strings.HasPrefix(pr.strippedLine, "# isort: ") && isCodeSortComment(pr.strippedLine):
		return true, line
	case pr.strippedLine == "" && !pr.containsImports:
		return true, line
	case pr.strippedLine == "" || (strings.HasPrefix(pr.strippedLine, "#") && (pr.indent == "" || pr.indent+pyLStrip(line) == line)):
		pr.importSection += line
		return false, line
	case hasPrefixAny(pr.strippedLine, importStart...):
		return pr.readImport(line)
	}
	return true, line
}

// readImport adds the import statement starting with line to the
// section, or, at another indentation, keeps it for the next section
// and ends this one.
func (pr *processor) readImport(line string) (bool, string) {
	pr.containsImports = true
	newIndent := leadingWS(line)
	stmt, line := pr.readStatement(line)
	if newIndent != pr.indent && pr.importSection != "" {
		pr.nextImportSection = stmt
		pr.indent = newIndent
		return true, ""
	}
	pr.indent = newIndent
	pr.importSection += stmt
	return false, line
}

// readStatement reads the lines of a statement continued by backslashes
// or open parentheses; it returns them and the last one.
func (pr *processor) readStatement(line string) (string, string) {
	stmt := line
	sl := beforeHash(pyStrip(line))
	for strings.HasSuffix(sl, "\\") || (strings.Contains(sl, "(") && !strings.Contains(sl, ")")) {
		if strings.HasSuffix(sl, "\\") {
			for sl != "" && strings.HasSuffix(sl, "\\") {
				line = pr.in.readline()
				if line == "" {
					panic(errUnsupported{"import continues past the end of the file"})
				}
				sl = beforeHash(pyStrip(line))
				stmt += line
			}
		} else {
			for !strings.Contains(sl, ")") {
				line = pr.in.readline()
				if line == "" {
					panic(errUnsupported{"unclosed parenthesis in an import"})
				}
				sl = beforeHash(pyStrip(line))
				stmt += line
			}
		}
	}
	pr.strippedLine = sl
	return stmt, line
}

// endSection writes the import section gathered, sorted, then line; the
// next section starts.
func (pr *processor) endSection(line string) {
	if pr.nextImportSection != "" && pr.importSection == "" {
		pr.importSection, pr.nextImportSection = pr.nextImportSection, ""
	}
	if pr.importSection == "" {
		pr.out.WriteString(line)
	} else {
		if pr.indent == "" {
			pr.importSection += line
		}
		if !pr.containsImports {
			pr.out.WriteString(pr.importSection)
		} else {
			pr.writeSorted(line)
		}
		if pr.indent != "" {
			pr.out.WriteString(line)
			if pr.nextImportSection == "" {
				pr.indent = ""
			}
		}
		pr.containsImports = pr.nextImportSection != ""
		pr.importSection, pr.nextImportSection = pr.nextImportSection, ""
	}
	if pr.strippedLine != "" && pr.inQuote == "" && pr.importSection == "" && pr.nextImportSection == "" {
		pr.copyStatementRest()
	}
}

// writeSorted writes the import section sorted, at its indentation.
func (pr *processor) writeSorted(line string) {
	section := pr.importSection
	leading := leadingWS(section)
	trailing := section[len(pyRStrip(section)):]
	if pr.firstImportSection && !hasPrefixAny(strings.TrimLeft(section, pr.lineSep), commentIndicators...) {
		section = strings.TrimLeft(section, pr.lineSep)
		pr.firstImportSection = false
	}
	cfg := pr.base
	if pr.indent != "" {
		var b strings.Builder
		for _, l := range pytext.SplitLines(section, true) {
			if len(l) >= len(pr.indent) {
				b.WriteString(l[len(pr.indent):])
			}
		}
		section = b.String()
		cfg.lineLength = max(pr.base.lineLength-pyLen(pr.indent), 0)
		cfg.linesAfterImports = 1
	}
	sorted := sortedImports(fileContents(section, pr.pl), cfg)
	if pyStrip(section) != "" && sorted == "" {
		return
	}
	if pr.indent != "" {
		sorted = leading + pyStrip(textwrapIndent(sorted, pr.indent)) + trailing
	}
	pr.out.WriteString(sorted)
	if line == "" && pr.indent == "" && pr.nextImportSection != "" {
		pr.out.WriteString(pr.lineSep)
	}
}

// copyStatementRest copies the lines that continue a yield or raise
// statement, whose next lines must not start an import section.
func (pr *processor) copyStatementRest() {
	if pr.strippedLine == "yield" {
		for pr.strippedLine == "" || pr.strippedLine == "yield" {
			nl := pr.in.readline()
			if nl == "" {
				break
			}
			pr.out.WriteString(nl)
			pr.strippedLine = beforeHash(pyStrip(nl))
		}
	}
	if strings.HasPrefix(pr.strippedLine, "raise") || strings.HasPrefix(pr.strippedLine, "yield") {
		for strings.HasSuffix(pr.strippedLine, "\\") {
			nl := pr.in.readline()
			if nl == "" {
				break
			}
			pr.out.WriteString(nl)
			pr.strippedLine = beforeHash(pyStrip(nl))
		}
	}
}

func isCodeSortComment(s string) bool {
	switch s {
	case "# isort: list", "# isort: dict", "# isort: set", "# isort: unique-list", "# isort: tuple",
		"# isort: unique-tuple", "# isort: assignments":
		return true
	}
	return false
}
