package parsertest

import (
	"testing"

	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

// BenchmarkParseDecode: tree.Decode of the corpus's blobs (what a guest
// pays per file before analysing), in source MB/s.
func BenchmarkParseDecode(b *testing.B) {
	_, srcs, total := stdlibcorpus.Bench(b)
	blobs := make([][]byte, len(srcs))
	nodes := 0
	for i, src := range srcs {
		blob, err := Blob(src)
		if err != nil {
			b.Fatal(err)
		}
		blobs[i] = blob
		nodes += (len(blob)) / tree.NodeSize
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for i, blob := range blobs {
			if _, err := tree.Decode(blob, srcs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
