package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/regularfile"
	"github.com/pyws/pyws/host/workspace/textenc"
)

// Size limits for reads.
const (
	// HardMaxBytes bounds a whole-file read when the caller gives no cap
	// (MaxBytes 0); it is above the largest tier cap (50 MB).
	HardMaxBytes int64 = 64 << 20
	// StreamCeiling bounds the file a lineRange read may stream through.
	// Only the requested lines are kept (at most the tier's cap); the rest
	// is read once for the line count and the hash.
	StreamCeiling int64 = 1 << 30
)

// LineRange is an inclusive range of 0-based lines.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// ReadOptions are the parameters of the read file resource. The zero value
// asks for the spec's defaults.
type ReadOptions struct {
	Path         string     // the {path} of svc://file/{path}: root-relative, see Resolve
	Encoding     string     // requested encoding, "" for utf-8; aliases accepted
	OmitMetadata bool       // includeMetadata=false
	LineRange    *LineRange // nil: the whole file
	MaxBytes     int64      // the tier's size cap, 0: HardMaxBytes
}

// FileContent is the file content record.
type FileContent struct {
	Content      string        `json:"content"`
	Path         string        `json:"path"`
	RelativePath string        `json:"relativePath"`
	Metadata     *FileMetadata `json:"metadata,omitempty"`
}

// FileMetadata describes the whole file even when only a range is read.
type FileMetadata struct {
	Size          int64      `json:"size"`
	Lines         int        `json:"lines"`
	Encoding      string     `json:"encoding"`
	Language      string     `json:"language,omitempty"` // absent for non-Python files
	LastModified  string     `json:"lastModified"`
	Hash          string     `json:"hash"` // SHA-256 of the raw bytes, hex
	LinesReturned *int       `json:"linesReturned,omitempty"`
	TotalLines    *int       `json:"totalLines,omitempty"`
	LineRange     *LineRange `json:"lineRange,omitempty"` // effective (end clamped)
}

// ReadFile reads one file of the workspace. See the package doc for
// encodings, line counting and size limits.
func (w *Workspace) ReadFile(ctx context.Context, o ReadOptions) (*FileContent, error) {
	if o.Encoding != "" {
		if _, ok := textenc.Canonical(o.Encoding); !ok {
			return nil, fault.New(fault.InvalidParameter,
				fault.Details{"parameter": "encoding", "value": o.Encoding, "allowed": textenc.Supported()},
				"unknown encoding %q; allowed: %s", o.Encoding, strings.Join(textenc.Supported(), ", "))
		}
	}
	if lr := o.LineRange; lr != nil && (lr.Start < 0 || lr.End < 0 || lr.Start > lr.End) {
		return nil, badRange(*lr, "start and end must be non-negative and start must not exceed end", -1)
	}
	r, err := w.resolve(o.Path, o.Path, false)
	if err != nil {
		return nil, err
	}
	f, fi, err := w.openRegular(o.Path, r)
	if err != nil {
		return nil, err
	}
	defer f.Close()

	limit := o.MaxBytes
	if limit <= 0 || limit > HardMaxBytes {
		limit = HardMaxBytes
	}
	if fi.Size() > limit && (o.LineRange == nil || fi.Size() > StreamCeiling) {
		return nil, tooLarge(fi.Size(), limit, o.LineRange != nil)
	}
	var rd *readout
	if fi.Size() > limit {
		rd, err = streamRange(ctx, f, o, limit)
	} else {
		rd, err = readWhole(f, fi, o, limit)
	}
	if err != nil {
		var de *textenc.DecodeError
		if errors.As(err, &de) {
			return nil, encodingError(o, de)
		}
		return nil, err
	}
	out := &FileContent{Content: rd.content, Path: r.abs, RelativePath: r.rel}
	if !o.OmitMetadata {
		m := &FileMetadata{
			Size:         rd.size,
			Lines:        rd.lines,
			Encoding:     rd.encoding,
			Language:     Language(fi.Name()),
			LastModified: formatTime(fi.ModTime()),
			Hash:         rd.hash,
		}
		if o.LineRange != nil {
			m.LinesReturned = new(rd.returned)
			m.TotalLines = new(rd.lines)
			m.LineRange = new(rd.rng)
		}
		out.Metadata = m
	}
	return out, nil
}

type readout struct {
	content  string
	encoding string
	size     int64
	lines    int
	hash     string
	returned int
	rng      LineRange
}

func readWhole(f *os.File, fi fs.FileInfo, o ReadOptions, limit int64) (*readout, error) {
	raw, err := readOpened(f, fi, o.Path, limit, o.LineRange != nil)
	if err != nil {
		return nil, err
	}
	text, enc, err := textenc.Decode(raw, o.Encoding)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	rd := &readout{encoding: enc, size: int64(len(raw)), lines: countLines(text), hash: hex.EncodeToString(sum[:])}
	if o.LineRange == nil {
		rd.content = string(text)
		return rd, nil
	}
	rng, err := clampRange(*o.LineRange, rd.lines)
	if err != nil {
		return nil, err
	}
	rd.rng = rng
	rd.content, rd.returned = sliceLines(text, rng, rd.lines)
	return rd, nil
}

// countLines counts lines as Python's readlines does: a final line
// terminator does not start another line, and an empty text has none.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// clampRange checks r against a text of total lines: start must name a
// line (start 0 of an empty file is allowed and returns nothing); end is
// clamped to the last line.
func clampRange(r LineRange, total int) (LineRange, error) {
	if total == 0 && r.Start == 0 {
		return LineRange{Start: 0, End: 0}, nil
	}
	if r.Start >= total {
		return LineRange{}, badRange(r, fmt.Sprintf("start is beyond the last line (the file has %d lines, numbered from 0)", total), total-1)
	}
	r.End = min(r.End, total-1)
	return r, nil
}

// sliceLines returns lines [r.Start, r.End] of text, terminators included.
func sliceLines(text []byte, r LineRange, total int) (string, int) {
	if total == 0 {
		return "", 0
	}
	off, line := 0, 0
	for line < r.Start {
		i := bytes.IndexByte(text[off:], '\n')
		off += i + 1
		line++
	}
	end := off
	for line <= r.End {
		i := bytes.IndexByte(text[end:], '\n')
		if i < 0 {
			end = len(text)
			break
		}
		end += i + 1
		line++
	}
	return string(text[off:end]), r.End - r.Start + 1
}

// streamRange serves a lineRange read of a file above the whole-read
// limit: one pass hashes and counts everything and keeps the raw bytes of
// the requested lines, at most limit of them, which are then decoded.
func streamRange(ctx context.Context, f *os.File, o ReadOptions, limit int64) (*readout, error) {
	h := sha256.New()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	name, bomLen, from, err := textenc.Plan(head, o.Encoding)
	if err != nil {
		return nil, err
	}
	width, be := textenc.LineUnit(name)
	want := *o.LineRange
	var kept []byte
	over := false
	var size int64
	sc := lineScanner{width: width, bigEndian: be}
	feed := func(chunk []byte) {
		h.Write(chunk)
		size += int64(len(chunk))
		sc.scan(chunk, func(line int, piece []byte) {
			if line < want.Start || line > want.End || over {
				return
			}
			if int64(len(kept)+len(piece)) > limit {
				over = true
				return
			}
			kept = append(kept, piece...)
		})
	}
	feed(head)
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := io.ReadFull(f, buf)
		feed(buf[:n])
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			return nil, err
		}
		if size > StreamCeiling {
			return nil, tooLarge(size, StreamCeiling, true)
		}
	}
	total := sc.total()
	rng, err := clampRange(want, total)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fault.New(fault.FileTooLarge, fault.Details{"size": size, "limit": limit,
			"suggestion": "the requested lines exceed the size limit; request a narrower lineRange"},
			"lines %d-%d are larger than the %d-byte limit", rng.Start, rng.End, limit)
	}
	if rng.Start == 0 && bomLen > 0 && len(kept) >= bomLen {
		kept = kept[bomLen:]
	}
	text, err := textenc.DecodeAs(kept, name)
	if err != nil {
		var de *textenc.DecodeError
		if errors.As(err, &de) {
			de.From = from
			de.Offset = -1 // relative to the range, not the file
			de.Guess = textenc.Guess(head)
		}
		return nil, err
	}
	returned := 0
	if total > 0 {
		returned = rng.End - rng.Start + 1
	}
	return &readout{
		content:  string(text),
		encoding: textenc.Public(name),
		size:     size,
		lines:    total,
		hash:     hex.EncodeToString(h.Sum(nil)),
		returned: returned,
		rng:      rng,
	}, nil
}

// lineScanner splits a raw byte stream into lines on the newline unit of
// its encoding (one 0x0A byte, or a UTF-16 unit 0x000A at an even offset).
// Chunks after the first must keep unit alignment (even lengths).
type lineScanner struct {
	width     int
	bigEndian bool
	line      int
	partial   bool // the current line has bytes
}

func (s *lineScanner) scan(chunk []byte, fn func(line int, piece []byte)) {
	for i := 0; i < len(chunk); {
		j := s.next(chunk, i)
		if j < 0 {
			fn(s.line, chunk[i:])
			s.partial = true
			return
		}
		fn(s.line, chunk[i:j+s.width])
		s.line++
		s.partial = false
		i = j + s.width
	}
}

func (s *lineScanner) next(b []byte, i int) int {
	if s.width == 1 {
		if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
			return i + j
		}
		return -1
	}
	for k := i; k+1 < len(b); k += 2 {
		if s.bigEndian && b[k] == 0 && b[k+1] == '\n' || !s.bigEndian && b[k] == '\n' && b[k+1] == 0 {
			return k
		}
	}
	return -1
}

func (s *lineScanner) total() int {
	if s.partial {
		return s.line + 1
	}
	return s.line
}

// ReadSource reads the file at abs (a path Resolve or ResolveURI returned,
// or any path inside the workspace) for an analyzer: it returns the text
// decoded to UTF-8 by the same detection as ReadFile (BOM, coding cookie,
// else utf-8), with any BOM stripped, so byte offsets are offsets into the
// returned text. maxBytes 0 means HardMaxBytes.
func (w *Workspace) ReadSource(abs string, maxBytes int64) ([]byte, string, error) {
	raw, err := w.ReadBytes(abs, maxBytes)
	if err != nil {
		return nil, "", err
	}
	text, enc, err := textenc.Decode(raw, "")
	if err != nil {
		var de *textenc.DecodeError
		if errors.As(err, &de) {
			return nil, enc, encodingError(ReadOptions{Path: abs}, de)
		}
		return nil, enc, err
	}
	return text, enc, nil
}

// ReadBytes reads the file at abs as ReadSource does (confined, a regular
// file, at most maxBytes, 0 meaning HardMaxBytes) but returns its bytes as
// they are on disk: what the edit engine hashes to notice a change, and
// files that are not Python source.
func (w *Workspace) ReadBytes(abs string, maxBytes int64) ([]byte, error) {
	r, err := w.resolve(abs, abs, true)
	if err != nil {
		return nil, err
	}
	f, fi, err := w.openRegular(abs, r)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if maxBytes <= 0 || maxBytes > HardMaxBytes {
		maxBytes = HardMaxBytes
	}
	return readOpened(f, fi, abs, maxBytes, false)
}

// readOpened reads the file openRegular opened, at most limit bytes, and
// answers in the workspace's faults; hadRange says the caller asked for a
// line range, for FILE_TOO_LARGE's suggestion.
func readOpened(f *os.File, fi fs.FileInfo, display string, limit int64, hadRange bool) ([]byte, error) {
	raw, err := regularfile.ReadOpened(f, fi, limit)
	var big *regularfile.TooLargeError
	switch {
	case errors.As(err, &big):
		return nil, tooLarge(big.Size, limit, hadRange)
	case errors.Is(err, regularfile.ErrNotRegular):
		return nil, denied(display, ReasonNotRegular)
	case err != nil:
		return nil, deniedErr(display, ReasonUnreadable, err)
	}
	return raw, nil
}

// openRegular opens a resolved path through an os.Root at the workspace,
// so a symbolic link swapped in after Resolve still cannot leave it, and
// refuses directories and non-regular files without blocking on a FIFO.
func (w *Workspace) openRegular(display string, r resolved) (*os.File, fs.FileInfo, error) {
	root, err := os.OpenRoot(w.root)
	if err != nil {
		return nil, nil, notFoundRoot(w.root, "cannot be opened")
	}
	defer root.Close()
	name := r.realRel
	if name == "" {
		name = "."
	}
	f, err := root.OpenFile(name, regularfile.OpenFlags, 0)
	if err != nil {
		return nil, nil, w.openError(display, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, w.openError(display, err)
	}
	switch {
	case fi.IsDir():
		f.Close()
		return nil, nil, fault.New(fault.FileNotFound,
			fault.Details{"path": clip(display), "workspaceRoot": w.root, "reason": "is a directory"},
			"%s is a directory, not a file", quote(display))
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, nil, denied(display, ReasonNotRegular)
	}
	return f, fi, nil
}

func (w *Workspace) openError(display string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fault.New(fault.FileNotFound, fault.Details{"path": clip(display), "workspaceRoot": w.root},
			"file %s not found in workspace %s", quote(display), w.root)
	case errors.Is(err, syscall.ELOOP):
		return denied(display, ReasonSymlinkLoop)
	case errors.Is(err, syscall.ENXIO):
		// open(2) of a socket: not a file to read, as a FIFO is not.
		return denied(display, ReasonNotRegular)
	case errors.Is(err, fs.ErrPermission):
		return deniedErr(display, ReasonUnreadable, err)
	case strings.Contains(err.Error(), "escapes"):
		// os.Root refused a link changed after Resolve.
		return denied(display, ReasonSymlinkEscape)
	}
	return deniedErr(display, ReasonUnreadable, err)
}

func tooLarge(size, limit int64, hadRange bool) *fault.Error {
	sugg := "use lineRange to read part of the file"
	if hadRange {
		sugg = fmt.Sprintf("files above %d bytes cannot be read, even by lineRange", limit)
	}
	return fault.New(fault.FileTooLarge, fault.Details{"size": size, "limit": limit, "suggestion": sugg},
		"file is %d bytes, over the %d-byte limit", size, limit)
}

func badRange(r LineRange, reason string, maxLine int) *fault.Error {
	d := fault.Details{"parameter": "lineRange", "value": r, "min": 0, "reason": reason}
	if maxLine >= 0 {
		d["max"] = maxLine
	}
	return fault.New(fault.InvalidParameter, d, "lineRange {%d, %d} is invalid: %s", r.Start, r.End, reason)
}

func encodingError(o ReadOptions, de *textenc.DecodeError) *fault.Error {
	req := textenc.UTF8
	if o.Encoding != "" {
		req, _ = textenc.Canonical(o.Encoding)
	}
	detected := de.Encoding
	hint := ""
	if de.From == textenc.FromRequest {
		detected = de.Guess
		hint = "; the file has no byte order mark or coding cookie"
		if de.Guess != "" && de.Guess != de.Encoding {
			hint += fmt.Sprintf(" and its bytes decode as %s: retry with encoding %q", de.Guess, de.Guess)
		}
	} else {
		hint = fmt.Sprintf("; the encoding was declared by its %s", map[textenc.Source]string{textenc.FromBOM: "byte order mark", textenc.FromCookie: "coding cookie"}[de.From])
	}
	return fault.New(fault.EncodingError,
		fault.Details{"path": clip(o.Path), "requestedEncoding": req, "detectedEncoding": detected},
		"cannot decode %s: %v%s", quote(o.Path), de, hint)
}
