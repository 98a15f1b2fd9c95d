//go:build race

package main

// raceEnabled skips zero-allocation assertions: the race detector
// allocates on its own.
const raceEnabled = true
