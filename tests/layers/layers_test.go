// Package layers holds the test that keeps the house's arrows pointing
// down (docs/architecture.md): wasm imports nothing of pyws outside
// itself; plugin-sdk imports only wasm; plugins import only plugin-sdk;
// host imports neither api, plugins, cmd nor tests; api imports neither
// plugins, cmd nor tests. Test files count.
package layers

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/pyws/pyws/"

// mayImport says whether a package in layer from may import one in layer
// to (a layer is the first path element: api, host, plugins, ...).
func mayImport(from, to string) bool {
	if from == to {
		return true // a layer may use its own packages (plugins their shared ones)
	}
	switch from {
	case "wasm":
		return false
	case "plugin-sdk":
		return to == "wasm" // parsertest runs the parser module for analyzers' tests
	case "plugins":
		return to == "plugin-sdk"
	case "host":
		return to == "plugin-sdk" || to == "wasm"
	case "api":
		return to == "host" || to == "plugin-sdk" || to == "wasm"
	}
	return true // cmd and tests sit on top
}

// knownEdges are the forbidden edges main had when this test was written
// (issue 12 removes them). The list may only shrink: an edge that is gone
// must leave the list, and no new edge may join it.
var knownEdges = []string{}

func layer(pkg string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(pkg, module), "/")
	return first
}

func TestArrowsPointDown(t *testing.T) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var found []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			if !strings.HasPrefix(imp, module) || imp == p.ImportPath {
				continue
			}
			if !mayImport(layer(p.ImportPath), layer(imp)) {
				edge := strings.TrimPrefix(p.ImportPath, module) + " -> " + strings.TrimPrefix(imp, module)
				if !slices.Contains(found, edge) {
					found = append(found, edge)
				}
			}
		}
	}
	for _, e := range found {
		if !slices.Contains(knownEdges, e) {
			t.Errorf("forbidden import %s: see docs/architecture.md for what each layer may import", e)
		}
	}
	for _, e := range knownEdges {
		if !slices.Contains(found, e) {
			t.Errorf("%s is gone: remove it from knownEdges", e)
		}
	}
}

func TestMayImport(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"api", "host", true},
		{"api", "plugins", false},
		{"host", "api", false},
		{"host", "plugin-sdk", true},
		{"host", "plugins", false},
		{"plugins", "plugin-sdk", true},
		{"plugins", "host", false},
		{"plugin-sdk", "host", false},
		{"plugin-sdk", "wasm", true},
		{"plugin-sdk", "plugins", false},
		{"plugins", "wasm", false},
		{"cmd", "api", true},
		{"tests", "plugins", true},
		{"wasm", "host", false},
		{"wasm", "plugin-sdk", false},
	} {
		if got := mayImport(c.from, c.to); got != c.ok {
			t.Errorf("mayImport(%s, %s) = %v, want %v", c.from, c.to, got, c.ok)
		}
	}
}
