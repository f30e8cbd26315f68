package summarize

import (
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

func BenchmarkZZFlowCount(b *testing.B) {
	trees, opts, _ := benchCorpus(b)
	var flow, preds, reads, flowExprs, exprs, syms, size int
	for i, t := range trees {
		s := Summarize(t, opts[i])
		flow += len(s.Flow)
		preds += len(s.FlowPreds)
		reads += len(s.Reads)
		exprs += len(s.Exprs)
		syms += len(s.Syms)
		for _, x := range s.Exprs {
			if x.Op == navindex.ExprSym && x.B >= 0 {
				flowExprs++
			}
		}
		size += len(navindex.Encode(s))
	}
	b.Logf("files %d flow %d preds %d reads %d flowExprs %d exprs %d syms %d encoded %d", len(trees), flow, preds, reads, flowExprs, exprs, syms, size)
	for b.Loop() {
	}
}
