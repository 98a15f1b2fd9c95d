//go:build !unix

package voices

import "time"

// cpuTime falls back to the wall clock where getrusage does not exist.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
