//go:build wasip1

package sdk

import (
	"runtime"
	"unsafe"
)

// The guest side of plugin ABI v1. Buffers live in package variables so the
// (non-moving) GC keeps them alive between the host's calls: the request
// from pyws_alloc until pyws_handle returns, the response until the next
// pyws_handle.
var (
	request  []byte
	response []byte
)

//go:wasmimport pyws_v1 log
func hostLog(level int32, ptr unsafe.Pointer, size uint32)

// Log sends msg to the kernel's log, tagged with the plugin's name.
func Log(level Level, msg string) {
	if len(msg) == 0 {
		return
	}
	hostLog(int32(level), unsafe.Pointer(unsafe.StringData(msg)), uint32(len(msg)))
}

//go:wasmexport pyws_alloc
func pywsAlloc(size uint32) uint32 {
	request = make([]byte, max(size, 1))[:size]
	p := addr(request[:1])
	runtime.Gosched()
	return p
}

//go:wasmexport pyws_handle
func pywsHandle(ptr, size uint32) uint64 {
	var msg []byte
	if cap(request) > 0 && ptr == addr(request[:1]) && int(size) <= len(request) {
		msg = request[:size]
	}
	request = nil
	if msg == nil {
		response = errorResponse(&Error{Code: CodeInternal, Message: "pyws_handle: buffer was not returned by pyws_alloc"})
	} else {
		response = handle(handler, msg)
	}
	out := uint64(addr(response[:1]))<<32 | uint64(len(response))
	runtime.Gosched() // lets the reactor's GC make progress; see the package comment
	return out
}

// pywsIdle runs once the answer has gone out, while the kernel reads it
// and prepares the next call: the collection the next call would begin
// with (collectIfDue) is done here instead, off the request's path.
//
//go:wasmexport pyws_idle
func pywsIdle() {
	collectIfDue()
	collectedIdle = true
}

func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(&b[0]))) }
