// Command stuckdiag is a faulty operator analyzer for the soak test: it
// serves get_diagnostics, answers "no findings" at once for most files,
// and spins forever, without yielding, on a file whose name contains
// "stuck" — a plugin with a bug on one input, which the kernel can stop
// only by killing its worker.
package main

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk"
)

var x uint64

func handle(r *sdk.Request) (any, error) {
	if len(r.Files) > 0 && strings.Contains(r.Files[0].URI, "stuck") {
		for {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return map[string]any{"diagnostics": []any{}}, nil
}

func init() { sdk.Serve(handle) }

func main() {}
