package summarize

import (
	"slices"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

func slicesSortFunc(os []navindex.Occ) {
	slices.SortFunc(os, func(a, b navindex.Occ) int {
		if a.Line != b.Line {
			return int(a.Line - b.Line)
		}
		return int(a.Col - b.Col)
	})
}
