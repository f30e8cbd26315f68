package rules

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// imports reports import-not-found. A module is found when it is a
// workspace module or package (Env.Imports, answered by the kernel from the
// workspace's files), a standard-library module of the target version
// (top level; submodules of the stdlib are not checked; in stubs and
// under TYPE_CHECKING, _typeshed and typing_extensions count too, as type
// checkers bundle their stubs), or a top-level
// module installed for the configured interpreter (Env.Installed; its
// submodules are not checked). Not reported: imports the kernel did not
// answer, third-party imports when no interpreter is known, and imports
// that are meant to fail: inside a try whose handlers catch ImportError,
// ModuleNotFoundError, Exception, BaseException or everything, inside
// `with suppress(ImportError)`, or under an if/elif/else (version and
// platform checks) other than `if TYPE_CHECKING:`, whose imports are
// checked.
func (c *checker) imports() {
	type key struct {
		stmt int
		spec string
	}
	seen := map[key]bool{}
	for _, im := range c.m.Imports {
		if im.Future {
			continue
		}
		spec := strings.Repeat(".", im.Level) + im.Module
		k := key{im.Node.Index(), spec}
		if seen[k] {
			continue
		}
		seen[k] = true
		ans, ok := c.env.Imports[spec]
		if !ok || ans == ImportFound {
			continue
		}
		if guardedImport(im.Node) {
			continue
		}
		start, end := im.Node.StartByte(), im.Node.EndByte()
		if n := len(im.ModuleNodes); n > 0 {
			start, end = im.ModuleNodes[0].StartByte(), im.ModuleNodes[n-1].EndByte()
			if im.Level > 0 {
				start -= im.Level // the dots right before the name (from .mod)
				if start < im.Node.StartByte() || strings.Trim(string(c.src[start:im.ModuleNodes[0].StartByte()]), ".") != "" {
					start = im.ModuleNodes[0].StartByte()
				}
			}
		}
		if im.Level > 0 {
			if ans == ImportTopOnly {
				c.add(ImportNotFound, start, end, "relative import '%s' cannot be resolved: no such module in the workspace", spec)
			}
			continue
		}
		top, _, _ := strings.Cut(im.Module, ".")
		if IsStdlib(top, c.cfg.PythonMinor) || c.env.Installed[top] {
			continue
		}
		if (top == "_typeshed" || top == "typing_extensions") && (im.InTypeChecking || strings.HasSuffix(c.env.Path, ".pyi")) {
			// type checkers ship these stubs with the standard library's
			continue
		}
		switch {
		case ans == ImportTopOnly:
			c.add(ImportNotFound, start, end, "module '%s' not found: the workspace package '%s' has no such module", im.Module, top)
		case c.env.Installed != nil:
			if removed := removedStdlib(top, c.cfg.PythonMinor); removed != "" {
				c.add(ImportNotFound, start, end, "module '%s' not found: it was removed from the standard library in Python %s", im.Module, removed)
			} else {
				c.add(ImportNotFound, start, end, "module '%s' not found in the workspace, the standard library of Python 3.%d or the interpreter's installed packages", im.Module, c.cfg.PythonMinor)
			}
		}
	}
}

// removedStdlib returns the version ("3.12") that removed a former
// standard-library module the target no longer has, or "".
func removedStdlib(top string, minor int) string {
	for _, d := range stdlibDiffs {
		if d.minor > minor {
			continue
		}
		for _, r := range d.removed {
			if r == top && !strings.HasPrefix(r, "_") {
				return "3." + itoa(d.minor)
			}
		}
	}
	return ""
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// guardedImport reports whether an import statement is written to
// tolerate failure (see imports).
func guardedImport(n tree.Node) bool {
	child := n
	for p := n.Parent(); !p.IsNull(); child, p = p, p.Parent() {
		switch p.Kind() {
		case "if_statement", "elif_clause", "else_clause":
			if p.Kind() == "else_clause" && p.Parent().Kind() != "if_statement" {
				// try/for/while else: the try case is handled below
				if p.Parent().Kind() == "try_statement" && catchesImport(p.Parent()) {
					return true
				}
				continue
			}
			ifs := p
			if p.Kind() != "if_statement" {
				ifs = p.Parent()
			}
			if p.Kind() == "if_statement" && child.FieldName() == "consequence" && isTypeCheckingCond(ifs.ChildByField("condition")) {
				continue
			}
			return true
		case "try_statement":
			if catchesImport(p) {
				return true
			}
		case "except_clause":
			if try := p.Parent(); try.Kind() == "try_statement" && catchesImport(try) {
				return true
			}
		case "with_statement":
			if suppressesImport(p) {
				return true
			}
		}
	}
	return false
}

func isTypeCheckingCond(c tree.Node) bool {
	switch c.Kind() {
	case "identifier":
		return text(c) == "TYPE_CHECKING"
	case "attribute":
		return text(c.ChildByField("attribute")) == "TYPE_CHECKING"
	}
	return false
}

// catchesImport: a handler of try catches ImportError (or a base of it).
func catchesImport(try tree.Node) bool {
	for cl := range try.NamedChildren() {
		if cl.Kind() != "except_clause" {
			continue
		}
		bare := true
		found := false
		for v := range cl.NamedChildren() {
			if v.Kind() == "block" || v.Kind() == "comment" {
				continue
			}
			bare = false
			v.Walk(func(x tree.Node) bool {
				if x.Kind() == "identifier" {
					switch text(x) {
					case "ImportError", "ModuleNotFoundError", "Exception", "BaseException":
						found = true
					}
				}
				return !found
			})
		}
		if bare || found {
			return true
		}
	}
	return false
}

// suppressesImport: `with suppress(ImportError):` and the like.
func suppressesImport(with tree.Node) bool {
	found := false
	for ch := range with.NamedChildren() {
		if ch.Kind() == "block" {
			continue
		}
		ch.Walk(func(x tree.Node) bool {
			if x.Kind() == "identifier" {
				switch text(x) {
				case "ImportError", "ModuleNotFoundError", "Exception", "BaseException":
					found = true
				}
			}
			return !found
		})
	}
	return found
}
