package parser

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// benchFiles is a fixed corpus of stdlib modules of different styles
// (~1.4 MB), so figures compare across machines with the same Python.
var benchFiles = []string{
	"argparse.py", "typing.py", "inspect.py", "dataclasses.py", "json/decoder.py",
	"asyncio/base_events.py", "email/_header_value_parser.py", "collections/__init__.py",
	"pydoc_data/topics.py", "tkinter/__init__.py", "unittest/mock.py", "ast.py",
}

func benchCorpus(b *testing.B) (paths []string, srcs [][]byte, total int64) {
	dir, err := stdlibOnce()
	if err != nil || dir == "" {
		b.Skipf("no python3 stdlib: %v", err)
	}
	for _, f := range benchFiles {
		p := filepath.Join(dir, f)
		src, err := os.ReadFile(p)
		if err != nil {
			b.Skip(err)
		}
		paths = append(paths, p)
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	return paths, srcs, total
}

// BenchmarkParseWasm: parse throughput of one wasm instance, blob copied out.
func BenchmarkParseWasm(b *testing.B) {
	_, srcs, total := benchCorpus(b)
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
	paths, _, total := benchCorpus(b)
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

// BenchmarkParseDecode: tree.Decode of the corpus's blobs (what a guest
// pays per file before analysing), in source MB/s.
func BenchmarkParseDecode(b *testing.B) {
	_, srcs, total := benchCorpus(b)
	p := newParser(b)
	blobs := make([][]byte, len(srcs))
	nodes := 0
	for i, src := range srcs {
		blob, err := p.Parse(context.Background(), src, 0)
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

// BenchmarkParseEdit: the corpus parsed as the next version of each file
// (a line inserted in the middle, as an editor saves), incrementally from
// the kept tree (ParseSlot) against from scratch (Parse), in MB/s of
// source.
func BenchmarkParseEdit(b *testing.B) {
	_, srcs, total := benchCorpus(b)
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
