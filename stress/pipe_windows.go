package main

import "syscall"

// sysWrite is syscall.Write on the handle f.Fd returned, which Windows
// types as a syscall.Handle.
func sysWrite(fd int, p []byte) (int, error) { return syscall.Write(syscall.Handle(fd), p) }
