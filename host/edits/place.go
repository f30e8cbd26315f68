package edits

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// place is the directory holding a file the engine edits, held open.
//
// The directory is opened through an os.Root at the workspace, so a
// symbolic link swapped into the path after the Resolver confined it
// cannot lead outside; from then on every step (the validating open,
// the temporary file, the rename, recovery's reads) names only a last
// component relative to that descriptor. Naming the file by its path at
// each step, as this package once did, let a link put in place of a
// directory between the check and the write carry an edit out of the
// workspace.
type place struct {
	dir  *os.File
	name string // the file's own name in dir
}

// errEscapes: os.Root refused a directory whose path now leaves the root.
var errEscapes = errors.New("the path leaves the workspace through a symbolic link")

// openPlace opens dirRel (root-relative, "" for the root itself) under
// root and returns the place of name in it.
func openPlace(root, dirRel, name string) (*place, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if dirRel == "" {
		dirRel = "."
	}
	d, err := r.OpenFile(dirRel, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		// os.Root's error for a link that leaves it has no exported value.
		if strings.Contains(err.Error(), "escapes") {
			return nil, fmt.Errorf("%w: %s", errEscapes, dirRel)
		}
		return nil, err
	}
	return &place{dir: d, name: name}, nil
}

func (p *place) close() { p.dir.Close() }

// fd is the directory's descriptor; callers keep p alive past their
// system call (runtime.KeepAlive) so its finalizer cannot close it.
func (p *place) fd() int { return int(p.dir.Fd()) }

// openAt opens name in the place's directory without following a link
// there. Tests replace it to meet errors root cannot otherwise meet.
var openAt = func(p *place, name string, flag int, perm uint32) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Openat(p.fd(), name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
		runtime.KeepAlive(p)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(p.dir.Name(), name)), nil
}

// lstat is fstatat without following a link: the file's type and mode
// before it is opened, so a device is never opened for writing.
func (p *place) lstat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstatat(p.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	runtime.KeepAlive(p)
	if err != nil {
		return st, &os.PathError{Op: "fstatat", Path: name, Err: err}
	}
	return st, nil
}

// rename replaces name with from, both in the place's directory.
func (p *place) rename(from string) error {
	err := unix.Renameat(p.fd(), from, p.fd(), p.name)
	runtime.KeepAlive(p)
	if err != nil {
		return &os.LinkError{Op: "renameat", Old: from, New: p.name, Err: err}
	}
	return nil
}

// remove removes name from the place's directory; a file already gone is
// not an error.
func (p *place) remove(name string) {
	_ = unix.Unlinkat(p.fd(), name, 0)
	runtime.KeepAlive(p)
}
