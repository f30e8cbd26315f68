//go:build !linux

package plugins

const rssSupported = false

// residentBytes is not measured off Linux: memory recycling is off there.
func residentBytes(pid int) (int64, bool) { return 0, false }
