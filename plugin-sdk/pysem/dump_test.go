package pysem

import (
	"os"
	"testing"
)

// PYSRC='...' go test -run TestDump -v prints the tree and the model.
func TestDump(t *testing.T) {
	src := os.Getenv("PYSRC")
	if src == "" {
		t.Skip()
	}
	tr := parse(t, src)
	t.Log(tr.Root().String())
	t.Log("\n" + dump(Analyze(tr, Options{})))
}
