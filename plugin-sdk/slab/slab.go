// Package slab hands out many small objects of one type from chunks: one
// allocation per chunk instead of one per object, since an allocation is
// far dearer in a wasm guest than natively. pysem's model and the
// indexer's summaries take their small records from it.
package slab

// Slab hands out zeroed Ts from chunks that grow with use (16 to 1,024
// Ts), so a small file does not pay for a big chunk. The zero value is
// ready to use; a pointer it gave stays valid for the chunk's life.
type Slab[T any] struct{ buf []T }

// New returns a pointer to a fresh zeroed T.
func (s *Slab[T]) New() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, min(max(2*cap(s.buf), 16), 1024))
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}
