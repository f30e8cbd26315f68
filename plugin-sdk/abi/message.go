package abi

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// Version constants of plugin ABI v1.
const (
	// ModuleName is the only import module a guest may use besides the
	// WASI calls the kernel allows. A future incompatible ABI gets a new
	// name (pyws_v2), so a module built for it fails the load-time import
	// check instead of misbehaving at run time.
	ModuleName = "pyws_v1"

	// Protocol is the newest manifest protocol this code speaks. Within
	// ABI v1 changes are additive only: a host with Protocol n accepts
	// plugins declaring any protocol in 1..n.
	Protocol = 1
)

// Guest exports and host imports of ABI v1.
const (
	ExportAlloc      = "pyws_alloc"  // (size i32) -> ptr i32
	ExportHandle     = "pyws_handle" // (ptr i32, len i32) -> i64 ptr<<32|len
	ExportInitialize = "_initialize" // reactor constructor, optional
	ExportIdle       = "pyws_idle"   // () -> (), optional: tidy up after a call, off the caller's path
	ExportMemory     = "memory"
	ImportLog        = "log" // pyws_v1.log(level i32, ptr i32, len i32)
)

// Log levels passed to pyws_v1.log; they match log/slog's numbering.
const (
	LogDebug = -4
	LogInfo  = 0
	LogWarn  = 4
	LogError = 8
)

// Request message layout (all integers little-endian u32):
//
//	0   magic "PYWS"
//	4   protocol
//	8   H, length of the JSON header
//	12  N, number of blobs
//	16  N blob entries: offset, length (offset from the message start)
//	16+8N  H bytes of JSON header
//	then blob bytes, each starting at a multiple of 8
//
// Blobs carry bulk bytes (sources, trees) raw; the header refers to them
// by index. See docs/plugin-abi.md.
const (
	requestMagic     = "PYWS"
	requestFixedSize = 16
	blobEntrySize    = 8
	blobAlign        = 8
)

// NoBlob is the blob index meaning "absent" in a file header.
const NoBlob = -1

// File is one workspace file handed to a plugin.
type File struct {
	URI  string
	Path string // workspace-relative, slash-separated
	// Source is the file's bytes; nil when the kernel sends none (an empty
	// file is a non-nil empty slice).
	Source []byte
	// Tree is the flat syntax tree blob (see docs/plugin-abi.md, "Tree
	// layout"); nil when absent.
	Tree []byte
}

// Request is what the kernel sends to pyws_handle.
type Request struct {
	Tool      string
	Arguments json.RawMessage // a JSON object; nil means {}
	Files     []File
}

// header is the JSON part of a request message.
type header struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Files     []fileHeader    `json:"files"`
}

// fileHeader names a file's blobs by index; a missing index or -1 means
// absent, so later protocol versions can add blob kinds.
type fileHeader struct {
	URI    string `json:"uri"`
	Path   string `json:"path"`
	Source *int   `json:"source,omitempty"`
	Tree   *int   `json:"tree,omitempty"`
}

// ErrMalformed is wrapped by every decoding error caused by bad bytes.
var ErrMalformed = errors.New("malformed message")

// VersionError reports a message or manifest from another protocol
// version, and what to do about it.
type VersionError struct {
	What string // "request", "manifest", ...
	Got  int    // version found
	Want int    // newest version this side speaks
}

func (e *VersionError) Error() string {
	if e.Got > e.Want {
		return fmt.Sprintf("%s speaks pyws plugin protocol %d but this side speaks up to %d: "+
			"upgrade pyws, or rebuild the plugin against a plugin SDK for protocol %d", e.What, e.Got, e.Want, e.Want)
	}
	return fmt.Sprintf("%s declares pyws plugin protocol %d, which is not supported (1..%d): "+
		"rebuild the plugin against the current plugin SDK", e.What, e.Got, e.Want)
}

// EncodeRequest lays r out as a request message.
func EncodeRequest(r *Request) ([]byte, error) {
	if r.Tool == "" {
		return nil, errors.New("encode request: empty tool name")
	}
	h := header{Tool: r.Tool, Arguments: r.Arguments, Files: make([]fileHeader, len(r.Files))}
	var blobs [][]byte
	add := func(b []byte) *int {
		i := NoBlob
		if b != nil {
			blobs = append(blobs, b)
			i = len(blobs) - 1
		}
		return &i
	}
	for i, f := range r.Files {
		h.Files[i] = fileHeader{URI: f.URI, Path: f.Path, Source: add(f.Source), Tree: add(f.Tree)}
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("encode request header: %w", err)
	}
	size := uint64(requestFixedSize + blobEntrySize*len(blobs) + len(hj))
	offsets := make([]uint64, len(blobs))
	for i, b := range blobs {
		size = alignUp(size)
		offsets[i] = size
		size += uint64(len(b))
	}
	if size > 1<<32-1 {
		return nil, fmt.Errorf("encode request: message of %d bytes exceeds 4 GiB", size)
	}
	out := make([]byte, size)
	copy(out, requestMagic)
	le := binary.LittleEndian
	le.PutUint32(out[4:], Protocol)
	le.PutUint32(out[8:], uint32(len(hj)))
	le.PutUint32(out[12:], uint32(len(blobs)))
	for i, b := range blobs {
		e := out[requestFixedSize+blobEntrySize*i:]
		le.PutUint32(e, uint32(offsets[i]))
		le.PutUint32(e[4:], uint32(len(b)))
		copy(out[offsets[i]:], b)
	}
	copy(out[requestFixedSize+blobEntrySize*len(blobs):], hj)
	return out, nil
}

func alignUp(n uint64) uint64 { return (n + blobAlign - 1) &^ (blobAlign - 1) }

// DecodeRequest parses a request message. It never panics on any input and
// allocates in proportion to len(msg). Source and Tree alias msg (capacity
// clipped), so msg must stay unchanged while the request is in use.
func DecodeRequest(msg []byte) (*Request, error) {
	if len(msg) < requestFixedSize {
		return nil, fmt.Errorf("%w: request of %d bytes is shorter than its %d-byte prefix", ErrMalformed, len(msg), requestFixedSize)
	}
	if string(msg[:4]) != requestMagic {
		return nil, fmt.Errorf("%w: request does not start with %q", ErrMalformed, requestMagic)
	}
	le := binary.LittleEndian
	if v := int(le.Uint32(msg[4:])); v < 1 || v > Protocol {
		return nil, &VersionError{What: "request", Got: v, Want: Protocol}
	}
	hlen := uint64(le.Uint32(msg[8:]))
	n := uint64(le.Uint32(msg[12:]))
	tableEnd := requestFixedSize + blobEntrySize*n // no overflow: n < 2^32
	if tableEnd+hlen > uint64(len(msg)) {
		return nil, fmt.Errorf("%w: blob table and header (%d+%d bytes) overrun the %d-byte request", ErrMalformed, tableEnd, hlen, len(msg))
	}
	blobs := make([][]byte, n) // bounded: n*8 <= len(msg)
	for i := range blobs {
		e := msg[requestFixedSize+blobEntrySize*uint64(i):]
		off, ln := uint64(le.Uint32(e)), uint64(le.Uint32(e[4:]))
		if off+ln > uint64(len(msg)) {
			return nil, fmt.Errorf("%w: blob %d (%d bytes at %d) overruns the %d-byte request", ErrMalformed, i, ln, off, len(msg))
		}
		blobs[i] = msg[off : off+ln : off+ln]
	}
	var h header
	if err := json.Unmarshal(msg[tableEnd:tableEnd+hlen], &h); err != nil {
		return nil, fmt.Errorf("%w: request header: %v", ErrMalformed, err)
	}
	if h.Tool == "" {
		return nil, fmt.Errorf("%w: request header names no tool", ErrMalformed)
	}
	blob := func(i int, p *int, what string) ([]byte, error) {
		if p == nil || *p == NoBlob {
			return nil, nil
		}
		idx := *p
		if idx < 0 || idx >= len(blobs) {
			return nil, fmt.Errorf("%w: file %d: %s blob index %d out of range [0,%d)", ErrMalformed, i, what, idx, len(blobs))
		}
		return blobs[idx], nil
	}
	r := &Request{Tool: h.Tool, Arguments: h.Arguments}
	if len(h.Files) > 0 {
		r.Files = make([]File, len(h.Files))
	}
	if bytes.Equal(r.Arguments, []byte("null")) {
		r.Arguments = nil
	}
	for i, fh := range h.Files {
		src, err := blob(i, fh.Source, "source")
		if err != nil {
			return nil, err
		}
		tree, err := blob(i, fh.Tree, "tree")
		if err != nil {
			return nil, err
		}
		r.Files[i] = File{URI: fh.URI, Path: fh.Path, Source: src, Tree: tree}
	}
	return r, nil
}
