//go:build !linux

package xvfb

import "os/exec"

// dieWithParent has no portable equivalent off Linux: Stop must run.
func dieWithParent(*exec.Cmd) {}
