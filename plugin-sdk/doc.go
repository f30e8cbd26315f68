// Package sdk is what a Go analyzer plugin imports to serve pyws tools over
// plugin ABI v1 (docs/plugin-abi.md). A plugin is a package main built with
// GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared, whose init calls
// Serve once:
//
//	func init() { sdk.Serve(handle) }
//	func main() {}
//
// The SDK owns the exports (pyws_alloc, pyws_handle, pyws_idle), decodes requests
// (sources and trees arrive as raw bytes, never JSON), and encodes results.
// Its contract with the handler:
//
//   - Returning (v, nil) answers {"result": v}.
//   - Returning an *Error answers {"error": ...}; use a code from the service
//     spec's catalogue (NO_SYMBOL_FOUND, INVALID_POSITION, ...) and the
//     kernel passes it to the caller verbatim.
//   - Any other error, and any panic (nil dereferences included), is
//     recovered and answered as an internal plugin error, which the kernel
//     reports as SERVER_UNAVAILABLE; the instance stays usable.
//   - Request bytes (File.Source, tree data) are valid only during the
//     call: copy what must outlive it.
//
// Before each call the SDK starts a garbage collection if one would
// otherwise start during the call (gcpacing.go): in the one-threaded guest
// a collection begun mid-call makes the rest of the call pay write
// barriers.
//
// Each export yields (runtime.Gosched) before returning: a Go reactor runs
// no goroutines between calls, and without the yield its GC stops for good
// after about a hundred cycles and memory grows until the kernel kills the
// instance.
//
// Before a handler sees a file's tree, the SDK checks its nesting (package
// nesting): a file past CPython's tokenizer limits or deeper than
// nesting.MaxTreeDepth gets File.TooDeep and no tree, so no recursive walk
// in a plugin can exhaust the guest's stack or memory.
//
// The package imports only the standard library and plugin-sdk/abi,
// plugin-sdk/tree and plugin-sdk/nesting, so it builds natively too (tests
// exercise the same code paths without wasm, through HandleMessage).
package sdk
