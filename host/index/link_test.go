package index

import (
	"slices"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

func TestSymDefs(t *testing.T) {
	defs := []navindex.Def{{Sym: 2}, {Sym: 0}, {Sym: 2}, {Sym: -1}, {Sym: 7}}
	sd := newSymDefs(3, defs)
	tests := []struct {
		sym  int32
		want []int32
	}{
		{0, []int32{1}},
		{1, nil},
		{2, []int32{0, 2}}, // in the summary's order
		{-1, []int32{3}},   // outside the file's symbols: kept apart
		{7, []int32{4}},
		{3, nil},
		{-5, nil},
	}
	for _, tt := range tests {
		if got := sd.of(tt.sym); !slices.Equal(got, tt.want) {
			t.Errorf("of(%d) = %v, want %v", tt.sym, got, tt.want)
		}
	}
	var empty symDefs // a File not yet prepared
	if got := empty.of(0); got != nil {
		t.Errorf("unprepared of(0) = %v, want nil", got)
	}
}
