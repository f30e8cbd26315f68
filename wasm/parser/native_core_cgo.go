//go:build pyws_native

package parser

// One translation unit per C source, as in the wasm build.

/*
#cgo CFLAGS: -O2 -std=c11 -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -w
#include "go-tree-sitter@v0.25.0/src/lib.c"
*/
import "C"
