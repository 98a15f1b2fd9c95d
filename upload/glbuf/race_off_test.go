//go:build !race

package glbuf_test

// raceEnabled is false without -race, so allocation counts are checked.
const raceEnabled = false
