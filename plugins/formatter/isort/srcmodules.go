package isort

import (
	"os"
	"path/filepath"
	"strings"
)

// extensionSuffixes are importlib.machinery.EXTENSION_SUFFIXES on Linux
// CPython, minus the interpreter tag, which isort checks next to ".py".
var extensionSuffixes = []string{".py", ".so", ".abi3.so"}

// FindSrcModules lists what isort's default src_paths (root/src, then
// root) make first party: every directory (a package or a namespace
// package), every module file, and the names of the source directories
// themselves. Unreadable directories contribute nothing.
func FindSrcModules(root string) map[string]bool {
	names := map[string]bool{}
	for _, dir := range []string{filepath.Join(root, "src"), root} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		names[filepath.Base(dir)] = true
		for _, e := range entries {
			n := e.Name()
			if strings.HasPrefix(n, ".") {
				continue
			}
			if e.IsDir() {
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
