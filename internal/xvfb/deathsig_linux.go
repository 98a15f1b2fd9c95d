package xvfb

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel terminate Xvfb if this process dies
// without calling Stop (a crash, a kill), so no server is left behind.
// The signal is tied to the starting OS thread; the demo and the stress
// tool start Xvfb from the main thread, which lives as long as the process.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
