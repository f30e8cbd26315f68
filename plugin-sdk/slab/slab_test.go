package slab

import "testing"

// Pointers handed out stay distinct and keep their values while later
// ones fill further chunks, and each comes zeroed.
func TestNew(t *testing.T) {
	var s Slab[[2]int]
	var got []*[2]int
	for i := range 5000 {
		p := s.New()
		if *p != [2]int{} {
			t.Fatalf("object %d not zeroed: %v", i, *p)
		}
		p[0], p[1] = i, -i
		got = append(got, p)
	}
	for i, p := range got {
		if p[0] != i || p[1] != -i {
			t.Fatalf("object %d = %v after later allocations", i, *p)
		}
	}
}
