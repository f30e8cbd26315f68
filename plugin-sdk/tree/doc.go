// Package tree decodes the flat syntax-tree blob produced by the parser
// module (wasm/parser.wasm) and navigates it. The blob is untrusted input:
// Decode checks every count, id, subtree size and byte range before it
// returns a Tree, never panics, and allocates in proportion to the blob's
// length, never to a count read from a header. Once decoded, a Tree is
// immutable and safe for concurrent readers.
//
// A Node is a small value (tree pointer and preorder index); navigation
// indexes into slices and allocates nothing. The zero Node is null:
// navigation off the edge of the tree returns it, and every method of a
// null Node returns a zero value.
//
// Nodes include anonymous tokens (keywords, punctuation) as tree-sitter
// does; NamedChildren and friends skip them. Byte offsets index the source
// passed to Decode; convert them to wire positions with package textpos.
// The byte layout is in layout.go. The package imports only the standard
// library, so guests compiled with GOOS=wasip1 use it as is.
package tree
