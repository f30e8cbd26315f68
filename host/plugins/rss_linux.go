package plugins

import (
	"bytes"
	"os"
	"strconv"
)

const rssSupported = true

var pageBytes = int64(os.Getpagesize())

// residentBytes reads a process's resident set size from /proc/<pid>/statm
// (its second field, in pages).
func residentBytes(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * pageBytes, true
}
