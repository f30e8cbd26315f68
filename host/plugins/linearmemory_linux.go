package plugins

import (
	"context"
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// withLinearMemory makes instances created under the returned context
// back their linear memory with one mmap reservation of the memory's
// maximum size, made readable and writable as the guest grows it.
//
// wazero's default backing is a Go slice that memory.grow extends with
// append, copying the whole memory each time its capacity runs out. A Go
// guest grows its heap in small steps, so one diagnostics call on a
// 5,000-line file spent about 46 ms copying memory, and the call's time
// swung between 60 and 340 ms with the copies. A reservation never moves:
// growing is one mprotect, the kernel supplies zeroed pages on first
// touch, and closing the instance returns them with one munmap instead of
// leaving a large slice to the host's GC.
//
// Views from api.Memory.Read die with the instance (munmap): callers copy
// what must outlive it, which the engine and the parser do.
func withLinearMemory(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(allocateLinearMemory))
}

func allocateLinearMemory(capacity, max uint64) experimental.LinearMemory {
	if max == 0 || max > 1<<32 {
		return &sliceMemory{buf: make([]byte, 0, capacity)}
	}
	mem, err := unix.Mmap(-1, 0, int(max), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		// Out of address space (a tight ulimit -v): copying is slower but works.
		return &sliceMemory{buf: make([]byte, 0, capacity)}
	}
	liveReservations.Add(1)
	return &reservedMemory{mem: mem}
}

// liveReservations counts reservations not yet unmapped, for tests to
// check that every discarded instance returns its memory.
var liveReservations atomic.Int64

// reservedMemory is a linear memory inside one mmap reservation.
type reservedMemory struct {
	mem       []byte // the whole reservation
	committed int    // bytes readable and writable, a multiple of the page size
}

func (m *reservedMemory) Reallocate(size uint64) []byte {
	if m.mem == nil || size > uint64(len(m.mem)) {
		return nil // wazero reports a failed memory.grow to the guest
	}
	if int(size) > m.committed {
		if err := unix.Mprotect(m.mem[m.committed:size], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		m.committed = int(size)
	}
	return m.mem[:size:size]
}

func (m *reservedMemory) Free() {
	if m.mem != nil {
		unix.Munmap(m.mem)
		m.mem = nil
		liveReservations.Add(-1)
	}
}

// sliceMemory is wazero's own strategy (a Go slice grown by append), the
// fallback where a reservation cannot be made.
type sliceMemory struct{ buf []byte }

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if n := int(size); n <= cap(m.buf) {
		m.buf = m.buf[:n]
	} else {
		m.buf = append(m.buf[:cap(m.buf)], make([]byte, n-cap(m.buf))...)
	}
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
