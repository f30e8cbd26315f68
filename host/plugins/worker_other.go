//go:build !linux

package plugins

import "os/exec"

// setWorkerAttrs: elsewhere a worker notices its parent's death when its
// stdin closes, which it reads between calls.
func setWorkerAttrs(cmd *exec.Cmd) {}
