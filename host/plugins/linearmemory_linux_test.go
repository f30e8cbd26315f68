package plugins

import (
	"testing"
	"unsafe"
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
