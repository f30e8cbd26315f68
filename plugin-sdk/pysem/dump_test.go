package pysem

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/markertest"
)

// TestDump pins the whole model (scopes, bindings, references and what
// they resolve to, attributes) of the files in testdata/dump, one .dump
// golden each. To see the model of some code, add a file and run with
// -update.
func TestDump(t *testing.T) {
	markertest.Run(t, []string{"testdata/dump/*.py"}, func(t *testing.T, c markertest.Case) {
		got := dump(Analyze(parse(t, string(c.Files[0].Src)), optsFor(c.Path)))
		markertest.Golden(t, strings.TrimSuffix(c.Path, ".py")+".dump", []byte(got), *update)
	})
}
