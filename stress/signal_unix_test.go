//go:build !windows

package main

import (
	"os"
	"syscall"
)

// signalSelf sends sig to this process.
func signalSelf(sig syscall.Signal) { _ = syscall.Kill(os.Getpid(), sig) }
