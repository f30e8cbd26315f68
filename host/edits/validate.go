package edits

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/regularfile"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// prepare validates f (under its lock) and computes its new content. It
// opens f's place, which the write then uses.
func (e *Engine) prepare(f *file) error {
	p, err := openPlace(f.root, f.realDir, filepath.Base(f.abs))
	if errors.Is(err, errEscapes) {
		return f.denied(errEscapes.Error())
	}
	if err != nil {
		return f.ioFault(err, "open the directory")
	}
	f.place = p
	st, err := p.lstat(p.name)
	if err != nil {
		return f.ioFault(err, "stat")
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return f.denied("the path is a symbolic link; replacing it would break the link")
	case unix.S_IFREG:
	default:
		return fault.New(fault.FileNotFound, fault.Details{"uri": f.uri, "path": f.rel, "reason": "not a regular file"},
			"%s is not a regular file", f.uri)
	}
	if st.Mode&0o200 == 0 {
		return f.readonly()
	}
	// Opening read+write without O_TRUNC changes nothing and meets EACCES,
	// EPERM (immutable) and EROFS now rather than after commit.
	h, err := openAt(p, p.name, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		return f.ioFault(err, "open for writing")
	}
	defer h.Close()
	// Judge the file we opened, not the name we stat'ed.
	fi, err := h.Stat()
	if err != nil {
		return f.ioFault(err, "stat")
	}
	if !fi.Mode().IsRegular() {
		return fault.New(fault.FileNotFound, fault.Details{"uri": f.uri, "path": f.rel, "reason": "not a regular file"},
			"%s is not a regular file", f.uri)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return f.readonly()
	}
	f.mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		f.uid, f.gid = int(st.Uid), int(st.Gid)
		if st.Nlink > 1 {
			return f.denied(fmt.Sprintf("the file has %d hard links; replacing it atomically would detach the others", st.Nlink))
		}
	}
	var big *regularfile.TooLargeError
	if f.old, err = regularfile.ReadOpened(h, fi, MaxFileBytes); errors.As(err, &big) {
		return f.tooLarge(big.Size)
	} else if err != nil {
		return f.ioFault(err, "read")
	}

	body, bom, err := f.decode()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(f.old)
	if sums, ok := e.memory.lookup(fingerprint(f.abs, f.edits)); ok && !contains(sums, hex.EncodeToString(sum[:])) {
		return fault.New(fault.FileModified,
			fault.Details{"uri": f.uri, "path": f.rel, "expectedHash": sums[0], "actualHash": hex.EncodeToString(sum[:])},
			"%s changed since the edits were generated", f.uri)
	}
	out, err := f.splice(body)
	if err != nil {
		return err
	}
	if bom {
		out = append(append(make([]byte, 0, len(out)+3), utf8BOM...), out...)
	}
	f.new = out
	f.changed = !bytes.Equal(f.old, f.new)
	return nil
}

// decode checks the encoding and returns the addressable text.
func (f *file) decode() (body []byte, bom bool, err error) {
	body = f.old
	if bytes.HasPrefix(body, utf8BOM) {
		body, bom = body[3:], true
	}
	encErr := func(detected, why string) error {
		return fault.New(fault.EncodingError,
			fault.Details{"uri": f.uri, "path": f.rel, "requestedEncoding": "utf-8", "detectedEncoding": detected},
			"%s: %s; only UTF-8 files can be edited", f.uri, why)
	}
	if bytes.HasPrefix(f.old, []byte{0xFF, 0xFE}) || bytes.HasPrefix(f.old, []byte{0xFE, 0xFF}) {
		return nil, false, encErr("utf-16", "the file starts with a UTF-16 byte order mark")
	}
	cookie := codingCookie(body)
	if !utf8.Valid(body) {
		detected := "unknown"
		if cookie != "" {
			detected = cookie
		}
		return nil, false, encErr(detected, "the file is not valid UTF-8")
	}
	if cookie != "" && !isUTF8Name(cookie) {
		if bom {
			return nil, false, encErr(cookie, "the file has a UTF-8 byte order mark and a "+cookie+" coding cookie")
		}
		if !isASCII(body) {
			return nil, false, encErr(cookie, "the file declares "+cookie+" and is not pure ASCII")
		}
		for i, ed := range f.edits {
			if !isASCII([]byte(ed.NewText)) {
				return nil, false, fault.New(fault.EncodingError,
					fault.Details{"uri": f.uri, "path": f.rel, "editIndex": i, "requestedEncoding": "utf-8", "detectedEncoding": cookie},
					"%s: edit %d inserts non-ASCII text into a file that declares %s", f.uri, i, cookie)
			}
		}
	}
	return body, bom, nil
}

// cookieRE is PEP 263's regular expression.
var cookieRE = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// codingCookie returns the normalised encoding named on line 1 or 2, or "".
func codingCookie(src []byte) string {
	for i := 0; i < 2 && len(src) > 0; i++ {
		line := src
		if j := bytes.IndexByte(src, '\n'); j >= 0 {
			line, src = src[:j], src[j+1:]
		} else {
			src = nil
		}
		if m := cookieRE.FindSubmatch(line); m != nil {
			return strings.ReplaceAll(strings.ToLower(string(m[1])), "_", "-")
		}
	}
	return ""
}

func isUTF8Name(name string) bool {
	switch name {
	case "utf-8", "utf8", "u8", "utf", "cp65001", "utf-8-sig":
		return true
	}
	return strings.HasPrefix(name, "utf-8-")
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// span is one edit converted to byte offsets of the body.
type span struct {
	start, end int
	index      int
	text       string
}

// splice validates f's edits against body and returns the edited body.
func (f *file) splice(body []byte) ([]byte, error) {
	if len(f.edits) == 0 {
		return body, nil
	}
	idx := textpos.New(body)
	spans := make([]span, len(f.edits))
	grow := 0
	for i, ed := range f.edits {
		s, err := f.offset(idx, i, "start", ed.Range.Start)
		if err != nil {
			return nil, err
		}
		t, err := f.offset(idx, i, "end", ed.Range.End)
		if err != nil {
			return nil, err
		}
		if s > t {
			return nil, fault.New(fault.InvalidRange,
				fault.Details{"uri": f.uri, "path": f.rel, "editIndex": i, "start": ed.Range.Start, "end": ed.Range.End},
				"%s: edit %d: start (%d:%d) is after end (%d:%d)", f.uri, i,
				ed.Range.Start.Line, ed.Range.Start.Character, ed.Range.End.Line, ed.Range.End.Character)
		}
		spans[i] = span{start: s, end: t, index: i, text: ed.NewText}
		grow += len(ed.NewText)
	}
	sort.SliceStable(spans, func(a, b int) bool {
		if spans[a].start != spans[b].start {
			return spans[a].start < spans[b].start
		}
		return spans[a].end < spans[b].end
	})
	maxEnd, owner := -1, -1
	for _, sp := range spans {
		if sp.start < maxEnd {
			a, b := owner, sp.index
			if a > b {
				a, b = b, a
			}
			return nil, fault.New(fault.ConflictingEdits,
				fault.Details{"uri": f.uri, "path": f.rel, "editIndexes": []int{a, b}},
				"%s: edits %d and %d overlap", f.uri, a, b)
		}
		if sp.end > maxEnd {
			maxEnd, owner = sp.end, sp.index
		}
	}
	out := make([]byte, 0, len(body)+grow)
	cursor := 0
	for _, sp := range spans {
		out = append(out, body[cursor:sp.start]...)
		out = append(out, sp.text...)
		cursor = sp.end
	}
	return append(out, body[cursor:]...), nil
}

// offset converts a position of edit i, or says which bound it breaks.
func (f *file) offset(idx *textpos.Index, i int, which string, p abi.Position) (int, error) {
	details := fault.Details{"uri": f.uri, "path": f.rel, "editIndex": i, "position": which,
		"line": p.Line, "character": p.Character, "lineCount": idx.LineCount()}
	if p.Line < 0 || p.Character < 0 {
		return 0, fault.New(fault.InvalidRange, details, "%s: edit %d: %s position (%d:%d) is negative",
			f.uri, i, which, p.Line, p.Character)
	}
	if p.Line >= idx.LineCount() {
		return 0, fault.New(fault.InvalidRange, details, "%s: edit %d: %s line %d is past the last line (%d; the file has %d lines)",
			f.uri, i, which, p.Line, idx.LineCount()-1, idx.LineCount())
	}
	n := idx.LineLength(p.Line)
	details["lineLength"] = n
	if p.Character > n {
		return 0, fault.New(fault.InvalidRange, details, "%s: edit %d: %s character %d is past the end of line %d (%d UTF-16 code units)",
			f.uri, i, which, p.Character, p.Line, n)
	}
	off, err := idx.Offset(p.Line, p.Character)
	if err != nil {
		return 0, fault.New(fault.InvalidRange, details, "%s: edit %d: %s character %d of line %d falls inside a surrogate pair",
			f.uri, i, which, p.Character, p.Line)
	}
	return off, nil
}

// MaxFileBytes bounds a file the engine edits, as workspace.HardMaxBytes
// bounds a read: the old and new texts are held in memory. Unbounded, an
// edit of an 8 GiB sparse .py read 8 GiB of zeros, past the call's
// deadline and toward the process's memory limit.
const MaxFileBytes int64 = 64 << 20

func (f *file) tooLarge(size int64) error {
	return fault.New(fault.FileTooLarge, fault.Details{"uri": f.uri, "path": f.rel, "size": size, "limit": MaxFileBytes,
		"suggestion": "edit the file by other means; files above the limit are not edited"},
		"%s is %d bytes, over the %d-byte limit of an edit", f.uri, size, MaxFileBytes)
}

func (f *file) readonly() error {
	return fault.New(fault.ReadonlyFile, fault.Details{"uri": f.uri, "path": f.rel},
		"%s is read-only (no owner write permission)", f.uri)
}

func (f *file) denied(reason string) error {
	return fault.New(fault.PermissionDenied, fault.Details{"uri": f.uri, "path": f.rel, "reason": reason},
		"%s cannot be written: %s", f.uri, reason)
}

// ioFault maps an I/O error on f to a fault when the caller can act on it.
func (f *file) ioFault(err error, action string) error {
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return fault.New(fault.FileNotFound, fault.Details{"uri": f.uri, "path": f.rel}, "%s does not exist", f.uri)
	case errors.Is(err, syscall.ELOOP):
		return f.denied("the path is a symbolic link; replacing it would break the link")
	case errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.EISDIR):
		// A socket or a directory put in the file's place since fstatat.
		return fault.New(fault.FileNotFound, fault.Details{"uri": f.uri, "path": f.rel, "reason": "not a regular file"},
			"%s is not a regular file", f.uri)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM),
		errors.Is(err, syscall.EROFS), errors.Is(err, syscall.ETXTBSY):
		return f.denied(action + ": " + errnoText(err))
	}
	return fmt.Errorf("edits: %s %s: %w", action, f.abs, err)
}

func errnoText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}
