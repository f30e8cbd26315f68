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
	"fmt"
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
	pl := newPlacer(c)
	base := profile{lineLength: c.LineLength, linesAfterImports: -1, pyi: c.Pyi}
	in := &lineReader{lines: strings.SplitAfter(src, "\n")}
	if n := len(in.lines); n > 0 && in.lines[n-1] == "" {
		in.lines = in.lines[:n-1]
	}
	var out strings.Builder
	lineSep := ""
	importSection, nextImportSection := "", ""
	inQuote := ""
	containsImports, inTopComment, firstImportSection := false, false, true
	indent := ""
	isortOff := false
	strippedLine := ""
	for index := 0; ; index++ {
		line, ok := in.next()
		var notImports bool
		endOfFile := false
		if !ok {
			if index == 0 {
				return src, false
			}
			notImports, endOfFile, line = true, true, ""
			if lineSep == "" {
				lineSep = "\n"
			}
		} else {
			strippedLine = pyStrip(line)
			if strippedLine != "" && lineSep == "" {
				lineSep = strings.NewReplacer(" ", "", "\t", "").Replace(line[len(pyRStrip(line)):])
			}
			for _, skip := range fileSkipComments {
				if strings.Contains(line, skip) {
					return src, true
				}
			}
			if inQuote == "" && strippedLine == "# isort: off" {
				isortOff = true
			}
			if (index == 0 || ((index == 1 || index == 2) && !containsImports)) && strings.HasPrefix(strippedLine, "#") {
				inTopComment = true
			} else if inTopComment && !strings.HasPrefix(line, "#") {
				inTopComment = false
			}
			wasInQuote := inQuote != ""
			if ((!strings.HasPrefix(strippedLine, "#") || inQuote != "") && strings.Contains(line, `"`)) || strings.Contains(line, "'") {
				inQuote = scanQuotes(line, inQuote)
			}
			notImports = inQuote != "" || wasInQuote || inTopComment || isortOff
			if !(inQuote != "" || wasInQuote || inTopComment) {
				switch {
				case isortOff:
					if strippedLine == "# isort: on" {
						isortOff = false
					}
				case strings.HasSuffix(strippedLine, "# isort: split"):
					notImports = true
				case strings.HasPrefix(strippedLine, "# isort: ") && isCodeSortComment(strippedLine):
					notImports = true
				case strippedLine == "" && !containsImports:
					notImports = true
				case strippedLine == "" || (strings.HasPrefix(strippedLine, "#") && (indent == "" || indent+pyLStrip(line) == line)):
					importSection += line
				case hasPrefixAny(strippedLine, importStart...):
					containsImports = true
					newIndent := leadingWS(line)
					stmt := line
					sl := beforeHash(pyStrip(line))
					for strings.HasSuffix(sl, "\\") || (strings.Contains(sl, "(") && !strings.Contains(sl, ")")) {
						if strings.HasSuffix(sl, "\\") {
							for sl != "" && strings.HasSuffix(sl, "\\") {
								line = in.readline()
								if line == "" {
									panic(errUnsupported{"import continues past the end of the file"})
								}
								sl = beforeHash(pyStrip(line))
								stmt += line
							}
						} else {
							for !strings.Contains(sl, ")") {
								line = in.readline()
								if line == "" {
									panic(errUnsupported{"unclosed parenthesis in an import"})
								}
								sl = beforeHash(pyStrip(line))
								stmt += line
							}
						}
					}
					strippedLine = sl
					if newIndent != indent && importSection != "" {
						nextImportSection = stmt
						stmt = ""
						notImports = true
						line = ""
					}
					indent = newIndent
					importSection += stmt
				default:
					notImports = true
				}
			}
		}

		if notImports {
			rawImportSection := importSection
			if nextImportSection != "" && importSection == "" {
				rawImportSection, importSection = nextImportSection, nextImportSection
				nextImportSection = ""
			}
			_ = rawImportSection
			if importSection != "" {
				if indent == "" {
					importSection += line
				}
				if !containsImports {
					out.WriteString(importSection)
				} else {
					leading := leadingWS(importSection)
					trailing := importSection[len(pyRStrip(importSection)):]
					if firstImportSection && !hasPrefixAny(strings.TrimLeft(importSection, lineSep), commentIndicators...) {
						importSection = strings.TrimLeft(importSection, lineSep)
						firstImportSection = false
					}
					section := importSection
					if indent != "" {
						var b strings.Builder
						for _, l := range pytext.SplitLines(section, true) {
							if len(l) >= len(indent) {
								b.WriteString(l[len(indent):])
							}
						}
						section = b.String()
					}
					cfg := base
					if indent != "" {
						cfg.lineLength = max(base.lineLength-pyLen(indent), 0)
						cfg.linesAfterImports = 1
					}
					sorted := sortedImports(fileContents(section, pl), cfg)
					if !(pyStrip(section) != "" && sorted == "") {
						if indent != "" {
							sorted = leading + pyStrip(textwrapIndent(sorted, indent)) + trailing
						}
						out.WriteString(sorted)
						if line == "" && indent == "" && nextImportSection != "" {
							out.WriteString(lineSep)
						}
					}
				}
				if indent != "" {
					out.WriteString(line)
					if nextImportSection == "" {
						indent = ""
					}
				}
				containsImports = nextImportSection != ""
				importSection, nextImportSection = nextImportSection, ""
			} else {
				out.WriteString(line)
			}
			if strippedLine != "" && inQuote == "" && importSection == "" && nextImportSection == "" {
				if strippedLine == "yield" {
					for strippedLine == "" || strippedLine == "yield" {
						nl := in.readline()
						if nl == "" {
							break
						}
						out.WriteString(nl)
						strippedLine = beforeHash(pyStrip(nl))
					}
				}
				if strings.HasPrefix(strippedLine, "raise") || strings.HasPrefix(strippedLine, "yield") {
					for strings.HasSuffix(strippedLine, "\\") {
						nl := in.readline()
						if nl == "" {
							break
						}
						out.WriteString(nl)
						strippedLine = beforeHash(pyStrip(nl))
					}
				}
			}
		}
		if endOfFile {
			break
		}
	}
	return out.String(), false
}

func isCodeSortComment(s string) bool {
	switch s {
	case "# isort: list", "# isort: dict", "# isort: set", "# isort: unique-list", "# isort: tuple",
		"# isort: unique-tuple", "# isort: assignments":
		return true
	}
	return false
}

// String renders a Config for test names and logs.
func (c Config) String() string {
	return fmt.Sprintf("isort{line_length=%d first_party=%v src=%d pyi=%v}", c.LineLength, c.KnownFirstParty, len(c.SrcModules), c.Pyi)
}
