//go:build !race

package gltex_test

// raceEnabled is false without -race, so allocation counts are checked.
const raceEnabled = false
