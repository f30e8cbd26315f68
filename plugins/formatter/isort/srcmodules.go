package isort

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// extensionSuffixes are importlib.machinery.EXTENSION_SUFFIXES on Linux
// CPython, minus the interpreter tag, which isort checks next to ".py".
var extensionSuffixes = []string{".py", ".so", ".abi3.so"}

// SrcModules lists what isort's default src_paths (root/src, then root)
// make first party, given those directories' listings (the kernel sends
// them; a directory that could not be read is absent): every directory
// (a package or a namespace package), every module file, and the names of
// the source directories themselves.
func SrcModules(dirs []abi.DirListing) map[string]bool {
	names := map[string]bool{}
	for _, d := range dirs {
		names[d.Name] = true
		for _, e := range d.Entries {
			n := e.Name
			if strings.HasPrefix(n, ".") {
				continue
			}
			if e.Dir {
				names[n] = true
				continue
			}
			for _, suf := range extensionSuffixes {
				if base, ok := strings.CutSuffix(n, suf); ok && base != "" && !strings.Contains(base, ".") {
					names[base] = true
				}
			}
			if strings.HasSuffix(n, ".so") && strings.Contains(n, ".cpython-") {
				names[n[:strings.Index(n, ".")]] = true
			}
		}
	}
	return names
}

// FindSrcModules is SrcModules of the directories as found on disk under
// root, for tests and tools that run isort outside the kernel.
// Unreadable directories contribute nothing.
func FindSrcModules(root string) map[string]bool {
	var dirs []abi.DirListing
	for _, dir := range []string{filepath.Join(root, "src"), root} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		l := abi.DirListing{Name: filepath.Base(dir)}
		for _, e := range entries {
			l.Entries = append(l.Entries, abi.DirEntry{Name: e.Name(), Dir: e.IsDir()})
		}
		dirs = append(dirs, l)
	}
	return SrcModules(dirs)
}
