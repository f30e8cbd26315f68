// Package abi holds what the kernel and the guests must agree on: the wire
// records of the service (positions, ranges, edits, diagnostics), the
// request and response messages that cross the wasm boundary, and the
// version constants of plugin ABI v1. It imports only the standard library,
// so it can be linked into the host and into every guest. The byte-level
// description, for plugins written in other languages, is docs/plugin-abi.md.
package abi
