package main

import (
	"github.com/pyws/pyws/plugin-sdk/tree"

	"github.com/pyws/pyws/plugins/formatter/black"
)

// formatBlack runs the Black engine on src, whose tree is t. It is a
// variable so tests can swap in broken engines (and the identity, which
// isolates isort) to exercise the safety check.
var formatBlack = realBlack

func realBlack(src []byte, t *tree.Tree, c Config) ([]byte, error) {
	return black.Format(src, t, black.Options{
		LineLength:              c.LineLength,
		SkipStringNormalization: c.SkipStringNormalization,
		SkipMagicTrailingComma:  c.SkipMagicTrailingComma,
		IsPyi:                   c.Pyi,
		SkipSelfCheck:           true, // the kernel compares trees and comments (Result.Comments)
	})
}
