package parsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// fromImport matches the head of a from-import statement: its dots and
// module.
var fromImport = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import\b`)

// DjangoDiagnosticsRequests are get_diagnostics requests on
// DjangoSample(n) as the kernel sends them on a first pass over the
// files in order: each file with its tree and, as context files, the
// Django modules it imports names from (at most 8 a file, as
// host/service sends), a module only the first time a file imports it
// (the kernel keeps its facts afterwards and sends them instead; here
// later importers get neither). Imports are read by a pattern, not a
// parser: close enough to the kernel's for a benchmark. It also returns
// the number of context files sent.
func DjangoDiagnosticsRequests(tb testing.TB, n int) (reqs []*abi.Request, context int) {
	tb.Helper()
	paths, srcs := DjangoSample(tb, n)
	root := filepath.Dir(DjangoRoot)
	sent := map[string]bool{}
	for i, src := range srcs {
		rel := strings.TrimPrefix(paths[i], root+"/")
		isInit := filepath.Base(rel) == "__init__.py"
		mod := strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(rel, ".py"), "/__init__"), "/", ".")
		pyws := abi.DiagnosticsContext{Config: map[string]any{}, PythonVersion: "3.11", Module: mod, IsPackageInit: isInit,
			Installed: []string{}, Imports: map[string]int{}, Context: []abi.DiagnosticsContextFile{}}
		files := []abi.File{{URI: "file://" + paths[i], Path: paths[i], Source: src, Tree: mustBlob(tb, src)}}
		for _, m := range fromImport.FindAllSubmatch(src, -1) {
			abs := absoluteModule(mod, isInit, len(m[1]), string(m[2]))
			if abs != "django" && !strings.HasPrefix(abs, "django.") || len(pyws.Context) >= 8 {
				continue
			}
			p := filepath.Join(root, strings.ReplaceAll(abs, ".", "/"))
			file, init := p+".py", false
			if _, err := os.Stat(file); err != nil {
				file, init = filepath.Join(p, "__init__.py"), true
			}
			if sent[file] {
				continue
			}
			csrc, err := os.ReadFile(file)
			if err != nil {
				continue
			}
			sent[file] = true
			pyws.Context = append(pyws.Context, abi.DiagnosticsContextFile{Path: file, Module: abs, IsPackageInit: init})
			files = append(files, abi.File{URI: "file://" + file, Path: file, Source: csrc, Tree: mustBlob(tb, csrc)})
			context++
		}
		args, err := json.Marshal(map[string]any{"uri": "file://" + paths[i], "pyws": pyws})
		if err != nil {
			tb.Fatal(err)
		}
		reqs = append(reqs, &abi.Request{Tool: "get_diagnostics", Arguments: args, Files: files})
	}
	return reqs, context
}

// absoluteModule resolves a from-import of module with level leading
// dots in the module importer ("" when it climbs above the top).
func absoluteModule(importer string, isInit bool, level int, module string) string {
	if level == 0 {
		return module
	}
	parts := strings.Split(importer, ".")
	if !isInit {
		parts = parts[:len(parts)-1]
	}
	if level-1 > len(parts) {
		return ""
	}
	parts = parts[:len(parts)-(level-1)]
	if module != "" {
		parts = append(parts, module)
	}
	return strings.Join(parts, ".")
}

func mustBlob(tb testing.TB, src []byte) []byte {
	tb.Helper()
	b, err := Blob(src)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
