//go:build race

package glbuf_test

// raceEnabled skips allocation counts: the race detector allocates.
const raceEnabled = true
