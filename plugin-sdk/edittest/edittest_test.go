package edittest

import (
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

func edit(sl, sc, el, ec int, text string) abi.TextEdit {
	return abi.TextEdit{Range: abi.Range{Start: abi.Position{Line: sl, Character: sc}, End: abi.Position{Line: el, Character: ec}}, NewText: text}
}

func TestApply(t *testing.T) {
	src := []byte("import os, sys\nx = '😀' + y\n")
	got := Apply(t, src, []abi.TextEdit{edit(1, 11, 1, 12, "z"), edit(0, 7, 0, 11, ""), edit(0, 0, 0, 0, "# head\n")})
	if want := "# head\nimport sys\nx = '😀' + z\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
