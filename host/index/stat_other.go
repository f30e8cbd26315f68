//go:build !linux

package index

import "os"

// unchangedOnDisk reports whether abs still has the size and
// modification time f was indexed with.
func unchangedOnDisk(abs string, f *File) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.Size() == f.Size && fi.ModTime().Equal(f.MTime)
}
