//go:build !windows

package main

import "syscall"

// sysWrite is syscall.Write on a descriptor.
func sysWrite(fd int, p []byte) (int, error) { return syscall.Write(fd, p) }
