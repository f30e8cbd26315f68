package plugins

import (
	"os/exec"
	"syscall"
)

// setWorkerAttrs makes the kernel kill a worker when the pyws process
// dies, even while the worker is stuck in a guest and not reading stdin.
func setWorkerAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
