// Command echo is a test plugin: it reports what it received (sizes, a
// CRC-32 of each source, the tree's size when the kernel sent one) and can
// make garbage on request, to show that a Go guest's memory stays bounded
// across many calls.
package main

import (
	"hash/crc32"

	"github.com/pyws/pyws/plugin-sdk"
)

type args struct {
	Garbage int    `json:"garbage"` // bytes of garbage to allocate in small pieces
	Fail    string `json:"fail"`    // answer with this error code
}

type fileInfo struct {
	URI       string `json:"uri"`
	Path      string `json:"path"`
	SourceLen int    `json:"sourceLen"`
	SourceCRC uint32 `json:"sourceCRC"`
	TreeNodes int    `json:"treeNodes"`
	RootKind  string `json:"rootKind,omitempty"`
}

type result struct {
	Tool      string     `json:"tool"`
	Arguments string     `json:"arguments"`
	Files     []fileInfo `json:"files"`
	Garbage   int        `json:"garbage,omitempty"`
}

var sink [][]byte

func handle(r *sdk.Request) (any, error) {
	var a args
	if err := r.DecodeArguments(&a); err != nil {
		return nil, err
	}
	if a.Fail != "" {
		return nil, sdk.Errorf(a.Fail, map[string]any{"asked": true}, "failing as asked")
	}
	res := result{Tool: r.Tool, Arguments: string(r.Arguments), Files: []fileInfo{}}
	for _, f := range r.Files {
		fi := fileInfo{URI: f.URI, Path: f.Path, SourceLen: len(f.Source), SourceCRC: crc32.ChecksumIEEE(f.Source)}
		if f.Tree != nil {
			fi.TreeNodes, fi.RootKind = f.Tree.NodeCount(), f.Tree.Root().Kind()
		}
		res.Files = append(res.Files, fi)
	}
	for n := 0; n < a.Garbage; n += 4096 {
		sink = append(sink, make([]byte, 4096))
		if len(sink) > 64 {
			sink = sink[:0]
		}
		res.Garbage += 4096
	}
	sink = sink[:0]
	return res, nil
}

func init() { sdk.Serve(handle) }

func main() {}
