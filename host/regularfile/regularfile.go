// Package regularfile reads a file judged by the descriptor opened, never
// by the name stat'ed: a FIFO, a socket or a device put in a file's place
// (a workspace, a virtual environment and a crashed edit's directory are
// all writable by someone else) is refused instead of blocking the reader
// or streaming without end, and nothing past a bound is read.
package regularfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// OpenFlags opens for reading without blocking on a FIFO with no writer,
// without taking a terminal as the controlling one, and without leaking
// the descriptor into a child process.
const OpenFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_CLOEXEC

// ErrNotRegular: the path names a directory, FIFO, socket or device.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError: the file holds more than Limit bytes (Size is what stat
// reported, or what was read once it grew past Limit).
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes, over the %d-byte limit", e.Size, e.Limit)
}

// Read opens path with OpenFlags plus extra (syscall.O_NOFOLLOW, say) and
// reads it as ReadOpened does. Opening a socket fails with ENXIO, which
// Read reports as ErrNotRegular; other open errors come back as they are.
func Read(path string, extra int, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, OpenFlags|extra, 0)
	if errors.Is(err, syscall.ENXIO) {
		return nil, ErrNotRegular
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return ReadOpened(f, fi, limit)
}

// ReadOpened reads the opened file f, whose Stat is fi: ErrNotRegular
// unless it is a regular file, TooLargeError if it has more than limit
// bytes (by stat, or by reading, for a file that grew since), else its
// bytes, read into one buffer of the stat'ed size.
func ReadOpened(f io.Reader, fi fs.FileInfo, limit int64) ([]byte, error) {
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Size: fi.Size(), Limit: limit}
	}
	b, err := readAtMost(f, fi.Size(), limit+1)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Size: int64(len(b)), Limit: limit}
	}
	return b, nil
}

// readAtMost reads r to its end or to limit bytes, into a buffer sized
// for the size stat reported: io.ReadAll starts at 512 bytes and grows,
// about seven buffers of garbage for a 20 KB file, on every request that
// reads a file (get_diagnostics reads the file and its context modules).
// The MinRead spare is what bytes.Buffer wants free to read the EOF
// without growing; a file that grew since stat grows the buffer as usual.
func readAtMost(r io.Reader, size, limit int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(min(max(size, 0), limit)) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(r, limit)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
