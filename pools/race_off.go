//go:build !race

package pools

// raceEnabled reports whether the race detector is built in; it
// instruments memory accesses with allocations of its own, so the
// zero-allocation tests skip under it.
const raceEnabled = false
