//go:build unix

package voices

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time, so benchmarks can
// report cost on a machine whose wall clock is shared with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
