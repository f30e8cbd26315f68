package parser

import (
	"context"
	"os"
	"testing"

	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

// BenchmarkParseWasm: parse throughput of one wasm instance, blob copied out.
func BenchmarkParseWasm(b *testing.B) {
	_, srcs, total := stdlibcorpus.Bench(b)
	p := newParser(b)
	ctx := context.Background()
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, src := range srcs {
			if _, err := p.Parse(ctx, src, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseReadFile is the baseline: reading the same files natively.
func BenchmarkParseReadFile(b *testing.B) {
	paths, _, total := stdlibcorpus.Bench(b)
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, p := range paths {
			if _, err := os.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseEdit: the corpus parsed as the next version of each file
// (a line inserted in the middle, as an editor saves), incrementally from
// the kept tree (ParseSlot) against from scratch (Parse), in MB/s of
// source.
func BenchmarkParseEdit(b *testing.B) {
	_, srcs, total := stdlibcorpus.Bench(b)
	ctx := context.Background()
	edited := make([][]byte, len(srcs))
	for i, src := range srcs {
		mid := len(src) / 2
		for mid < len(src) && src[mid-1] != '\n' {
			mid++
		}
		edited[i] = append(append(append([]byte(nil), src[:mid]...), "# edited\n"...), src[mid:]...)
	}
	b.Run("scratch", func(b *testing.B) {
		p := newParser(b)
		b.SetBytes(total)
		for b.Loop() {
			for _, src := range edited {
				if _, err := p.Parse(ctx, src, 0); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		p := newParser(b)
		b.SetBytes(total)
		for b.Loop() {
			b.StopTimer()
			for i, src := range srcs { // the kept trees: the previous versions
				if _, err := p.ParseSlot(ctx, i%Slots, nil, src, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			for i, src := range edited {
				if _, err := p.ParseSlot(ctx, i%Slots, srcs[i], src, 0); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkParseScattered: the corpus parsed as a formatter's output
// (scatter: changes on many lines) from the kept tree of the original,
// with one edit per run of changed lines (InputEdits), with one range
// from the first change to the last (InputEdit), and from scratch; the
// kernel's check of a formatted file is this parse.
func BenchmarkParseScattered(b *testing.B) {
	_, srcs, total := stdlibcorpus.Bench(b)
	ctx := context.Background()
	edited := make([][]byte, len(srcs))
	for i, src := range srcs {
		edited[i] = scatter(src)
	}
	single := func(prev, src []byte) [][editWords]uint32 { return [][editWords]uint32{InputEdit(prev, src)} }
	for _, mode := range []struct {
		name  string
		edits func(prev, src []byte) [][editWords]uint32
	}{{"scratch", nil}, {"one-range", single}, {"per-run", InputEdits}} {
		b.Run(mode.name, func(b *testing.B) {
			if mode.edits != nil {
				defer func(saved func(prev, src []byte) [][editWords]uint32) { inputEdits = saved }(inputEdits)
				inputEdits = mode.edits
			}
			p := newParser(b)
			b.SetBytes(total)
			for b.Loop() {
				for i, src := range edited {
					b.StopTimer()
					if _, err := p.ParseSlot(ctx, i%Slots, nil, srcs[i], 0); err != nil {
						b.Fatal(err)
					}
					prev := srcs[i]
					if mode.edits == nil {
						prev = nil
					}
					b.StartTimer()
					if _, err := p.ParseSlot(ctx, i%Slots, prev, src, 0); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
