//go:build race

package descriptors_test

// raceEnabled skips allocation counts: the race detector allocates.
const raceEnabled = true
