package plugins

import (
	"context"
	"testing"
	"unsafe"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestReservedMemoryGrowsInPlace(t *testing.T) {
	const max = 64 * pageSize
	lm := allocateLinearMemory(0, max)
	m, ok := lm.(*reservedMemory)
	if !ok {
		t.Fatalf("allocateLinearMemory gave %T, want a reservation", lm)
	}
	defer m.Free()
	buf := m.Reallocate(pageSize)
	if len(buf) != pageSize {
		t.Fatalf("len %d after the first page", len(buf))
	}
	buf[0], buf[pageSize-1] = 7, 9
	grown := m.Reallocate(10 * pageSize)
	if len(grown) != 10*pageSize || unsafe.SliceData(grown) != unsafe.SliceData(buf) {
		t.Fatalf("grow moved or mis-sized the memory: len %d", len(grown))
	}
	if grown[0] != 7 || grown[pageSize-1] != 9 {
		t.Fatal("grow lost the contents")
	}
	for _, b := range grown[pageSize:] {
		if b != 0 {
			t.Fatal("new pages are not zero")
		}
	}
	grown[10*pageSize-1] = 1 // writable up to the new end
	if got := m.Reallocate(4 * pageSize); len(got) != 4*pageSize {
		t.Fatalf("a smaller size gave len %d", len(got))
	}
	if m.Reallocate(max+pageSize) != nil {
		t.Fatal("growing past the reservation must fail, not panic")
	}
	if got := m.Reallocate(max); len(got) != max {
		t.Fatalf("growing to the maximum gave len %d", len(got))
	}
}

func TestLinearMemoryFallsBackToSlice(t *testing.T) {
	// No maximum to reserve (wazero passes one always; this is the guard).
	lm := allocateLinearMemory(pageSize, 0)
	if _, ok := lm.(*sliceMemory); !ok {
		t.Fatalf("got %T, want the slice fallback", lm)
	}
	buf := lm.Reallocate(pageSize)
	buf[0] = 3
	if got := lm.Reallocate(3 * pageSize); len(got) != 3*pageSize || got[0] != 3 {
		t.Fatal("slice fallback lost contents or size")
	}
	lm.Free()
}

// TestDiscardedInstancesUnmapMemory: an instance discarded after running
// out of memory, one recycled at its high-water mark, and the engine's
// instances shed while idle and at close all unmap their reservations (wazero calls Free when
// a module closes), so their pages go back to the system at once.
func TestDiscardedInstancesUnmapMemory(t *testing.T) {
	before := liveReservations.Load()
	e := testEngine(t, "oom", engineOptions{}, nil)
	if _, ce := e.call(context.Background(), 0, encode(t, &abi.Request{Tool: "oom"}), 0); ce == nil || !ce.trapped {
		t.Fatalf("oom call: %v, want a trap", ce)
	}
	if got := liveReservations.Load(); got != before {
		t.Fatalf("%d reservations live after the out-of-memory instance was discarded, want %d", got, before)
	}
	echo := testEngine(t, "echo", engineOptions{}, func(s *guestSpec) { s.HighWaterPages = 1 })
	if _, ce := echo.call(context.Background(), 0, encode(t, &abi.Request{Tool: "echo"}), 0); ce != nil {
		t.Fatal(ce.fault)
	}
	if got := liveReservations.Load(); got != before {
		t.Fatalf("%d reservations live after an instance recycled at its high-water mark, want %d", got, before)
	}
	keep := testEngine(t, "echo", engineOptions{}, nil)
	if _, ce := keep.call(context.Background(), 0, encode(t, &abi.Request{Tool: "echo"}), 0); ce != nil {
		t.Fatal(ce.fault)
	}
	if got := liveReservations.Load(); got != before+1 {
		t.Fatalf("%d reservations live with one kept instance, want %d", got, before+1)
	}
	// An idle worker replaces its instance by a fresh one: the old
	// reservation is unmapped, the new one serves the next call.
	old := keep.guests[0].inst
	defer func(b uint32) { shedAboveBytes = b }(shedAboveBytes)
	shedAboveBytes = 0 // echo's instance is small
	keep.shed(context.Background())
	if keep.guests[0].inst == nil || keep.guests[0].inst == old {
		t.Fatal("shedding left no fresh instance")
	}
	if got := liveReservations.Load(); got != before+1 {
		t.Fatalf("%d reservations live after shedding, want %d", got, before+1)
	}
	if _, ce := keep.call(context.Background(), 0, encode(t, &abi.Request{Tool: "echo"}), 0); ce != nil {
		t.Fatal(ce.fault)
	}
	keep.close(context.Background())
	if got := liveReservations.Load(); got != before {
		t.Fatalf("%d reservations live after the engine closed, want %d", got, before)
	}
}
