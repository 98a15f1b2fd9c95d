package main

import (
	"os"
	"syscall"
)

// signalSelf sends sig to this process, where Windows can: it delivers
// only a kill, so the signal tests do not run there.
func signalSelf(sig syscall.Signal) {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Signal(sig)
	}
}
