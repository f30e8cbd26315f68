// Package wasm carries the tree-sitter-python parser module: parser.wasm,
// built from pinned C sources by `make parser` (wasm/parser.mk) and
// committed, with its SHA-256 beside it. Importing this package needs no C
// toolchain. The module's exports and status codes are documented in
// csrc/pyws_parser.c; the tree it produces is described in docs/plugin-abi.md ("Tree layout") and
// decoded by plugin-sdk/tree. This package only embeds; wasm/parser runs it.
package wasm

import (
	_ "embed"
	"strings"
)

// ParserWasm is the parser module's bytes. Do not modify it.
//
//go:embed parser.wasm
var ParserWasm []byte

//go:embed parser.wasm.sha256
var parserSHA256 string

// ParserSHA256 is the lowercase hex SHA-256 recorded when ParserWasm was
// built. wasm/parser refuses to compile a module that does not match it.
var ParserSHA256 = strings.TrimSpace(parserSHA256)
