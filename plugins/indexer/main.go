// Command indexer is the plugin behind the workspace symbol index. Its
// one tool, index_files, receives a batch of Python files with their
// syntax trees and returns one navigation summary per file
// (plugin-sdk/navindex, binary, base64 in the JSON result), in request
// order. The kernel (host/index) caches summaries by content hash and
// links them; the Python semantics live here and in plugin-sdk/pysem.
package main

import (
	pathpkg "path"
	"runtime/debug"
	"strings"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/navindex"

	"github.com/pyws/pyws/plugins/indexer/summarize"
)

func init() {
	// A call allocates trees, semantic models and summaries, then the
	// instance idles until the next save: collecting less often is
	// cheaper in wasm, whose collector is not concurrent (the instance's
	// memory cap still holds). The soft limit collects sooner once the
	// heap nears 32 MiB: linear memory never shrinks, and a 256 KiB
	// batch at 400% grew it to 52-71 MiB in every worker (32 MiB with the
	// limit, the index build no slower).
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(32 << 20)
	sdk.Serve(handle)
}

func main() {}

type args struct {
	PythonMinor int `json:"pythonMinor,omitempty"`
	// Platform is sys.platform of the target ("linux", "win32",
	// "darwin"; "" is linux), for static conditions.
	Platform string `json:"platform,omitempty"`
}

type result struct {
	Summaries [][]byte `json:"summaries"`
}

func handle(req *sdk.Request) (any, error) {
	var a args
	if err := req.DecodeArguments(&a); err != nil {
		return nil, err
	}
	res := result{Summaries: make([][]byte, len(req.Files))}
	for i, f := range req.Files {
		if f.TooDeep != nil {
			// Too deep to walk (the SDK withheld the tree): indexed with
			// no symbols, as CPython would not import it either.
			res.Summaries[i] = navindex.Encode(&navindex.Summary{})
			continue
		}
		if f.Tree == nil {
			continue
		}
		res.Summaries[i] = navindex.Encode(summarize.Summarize(f.Tree, optionsFor(f.Path, a)))
	}
	return res, nil
}

// optionsFor is how the file at path (slash-separated) is summarized.
func optionsFor(path string, a args) summarize.Options {
	base := pathpkg.Base(path)
	return summarize.Options{
		IsStub:        strings.HasSuffix(base, ".pyi"),
		IsPackageInit: base == "__init__.py" || base == "__init__.pyi",
		PythonMinor:   a.PythonMinor,
		Platform:      a.Platform,
	}
}
