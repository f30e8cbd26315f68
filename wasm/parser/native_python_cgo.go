//go:build pyws_native

package parser

/*
#cgo CFLAGS: -O2 -std=c11 -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -w
#include "tree-sitter-python@v0.25.0/src/parser.c"
*/
import "C"
