//go:build race

package gltex_test

// raceEnabled skips allocation counts: the race detector allocates.
const raceEnabled = true
