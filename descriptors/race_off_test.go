//go:build !race

package descriptors_test

// raceEnabled is false without -race, so allocation counts are checked.
const raceEnabled = false
