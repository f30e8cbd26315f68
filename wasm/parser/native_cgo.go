//go:build pyws_native

// Native build of the same C code as wasm/parser.wasm, for benchmarks and
// for checking that wasm and native produce byte-identical blobs. Only
// built with -tags pyws_native and CGO_CFLAGS pointing at the pinned
// sources (make parser-native-bench); the normal build has no cgo.

package parser

/*
#cgo CFLAGS: -O2 -std=c11 -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -I${SRCDIR}/../csrc -w
#include "pyws_parser.c"

// pyws_result_ptr truncates to 32 bits, which is only right in wasm32.
static void *native_result(void) { return result; }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// nativeParse parses src with the native build; not goroutine-safe.
func nativeParse(src []byte) ([]byte, error) {
	if rc := C.pyws_init(); rc != 0 {
		return nil, fmt.Errorf("native init: status %d", rc)
	}
	var p *C.char
	if len(src) > 0 {
		p = (*C.char)(unsafe.Pointer(&src[0]))
	}
	if rc := C.pyws_parse(p, C.uint32_t(len(src)), 0); rc != 0 {
		return nil, fmt.Errorf("native parse: status %d", rc)
	}
	blob := C.GoBytes(C.native_result(), C.int(C.pyws_result_len()))
	C.pyws_result_free()
	return blob, nil
}
