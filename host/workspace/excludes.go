package workspace

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultExcludedDirs are directory names never scanned, listed, counted or
// watched, hidden or not, at any depth. Directories holding a pyvenv.cfg
// file or a conda-meta directory (virtual environments under any name) and
// names ending in ".egg-info" are excluded too, and "build" and "dist" at
// the top level of the workspace only (setuptools' output, which copies the
// sources; a nested package called build is kept).
var DefaultExcludedDirs = []string{
	".git", ".hg", ".svn", "__pycache__", "node_modules",
	"venv", ".venv", ".tox", ".nox", ".eggs",
	".mypy_cache", ".pytest_cache", ".ruff_cache", ".pytype",
}

var excludedNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range DefaultExcludedDirs {
		m[n] = true
	}
	return m
}()

// excludedDir reports whether a directory called name is a default exclude;
// top says it sits directly in the workspace root.
func excludedDir(name string, top bool) bool {
	return excludedNames[name] || strings.HasSuffix(name, ".egg-info") ||
		top && (name == "build" || name == "dist")
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}

// Language returns the spec's language identifier for a file name:
// "python" for .py, "python-stub" for .pyi, "" otherwise.
func Language(name string) string {
	switch {
	case strings.HasSuffix(name, ".py"):
		return "python"
	case strings.HasSuffix(name, ".pyi"):
		return "python-stub"
	}
	return ""
}

// IsPythonSource reports whether a file is Python source the analyzers
// take: a .py, .pyi or .pyw file, or an extensionless script whose shebang
// names python; text with NUL bytes never is.
func IsPythonSource(path string, text []byte) bool {
	if bytes.IndexByte(text, 0) >= 0 {
		return false
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".py", ".pyi", ".pyw":
		return true
	case "":
		first, _, _ := bytes.Cut(text, []byte("\n"))
		return bytes.HasPrefix(first, []byte("#!")) && bytes.Contains(first, []byte("python"))
	}
	return false
}

// IsTest applies the spec's rule to a base name: it contains "test_" or
// "_test.py".
func IsTest(name string) bool {
	return strings.Contains(name, "test_") || strings.Contains(name, "_test.py")
}
