//go:build !wasip1

package sdk

import (
	"fmt"
	"os"
)

// Log writes msg to stderr when the plugin runs natively (in tests); in a
// wasm guest it goes to the kernel's log.
func Log(level Level, msg string) {
	fmt.Fprintf(os.Stderr, "sdk log level=%d: %s\n", level, msg)
}
