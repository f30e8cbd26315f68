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

func TestSymIndex(t *testing.T) {
	local, member, attr := navindex.SymLocal, navindex.SymMember, navindex.SymAttr
	f := &File{S: &navindex.Summary{Syms: []navindex.Sym{
		0: {Kind: local, Scope: 0, Name: "C", Qual: "C"},
		1: {Kind: local, Scope: 1, Name: "m", Qual: "C.m"},
		2: {Kind: member, Class: 0, Name: "x", Qual: "C.x"},
		3: {Kind: local, Scope: 2, Name: "x"},            // a function's local: no qualified name
		4: {Kind: attr, Name: "x", Recv: -1},             // not a binding: indexed by neither
		5: {Kind: local, Scope: 0, Name: "C", Qual: "C"}, // the same key again
		6: {Kind: local, Scope: 0, Name: "f(", Qual: "f("},
	}}}
	var unprepared File // no summary yet
	if s, ok := unprepared.local(0, "C"); ok {
		t.Errorf("unprepared local = %d", s)
	}
	if s, ok := unprepared.qual("C"); ok {
		t.Errorf("unprepared qual = %d", s)
	}
	f.prepare()
	locals := []struct {
		scope int32
		name  string
		want  int32 // -1 none
	}{
		{0, "C", 5}, // the last symbol of a key wins, as the map it replaced
		{1, "m", 1},
		{-2, "x", 2}, // class 0's instance attribute
		{2, "x", 3},
		{0, "x", -1},
		{1, "C", -1},
		{-2, "m", -1},
		{0, "f(", 6},
	}
	for _, tt := range locals {
		got, ok := f.local(tt.scope, tt.name)
		if !ok {
			got = -1
		}
		if got != tt.want {
			t.Errorf("local(%d, %q) = %d, want %d", tt.scope, tt.name, got, tt.want)
		}
	}
	quals := []struct {
		qual string
		want int32
	}{
		{"C", 0}, // the first symbol of a qualified name wins
		{"C.m", 1},
		{"C.x", 2},
		{"x", -1},
		{"f(", 6},
		{"", -1},
	}
	for _, tt := range quals {
		got, ok := f.qual(tt.qual)
		if !ok {
			got = -1
		}
		if got != tt.want {
			t.Errorf("qual(%q) = %d, want %d", tt.qual, got, tt.want)
		}
	}
}
