//go:build !race

package voices

// raceEnabled is false without the race detector.
const raceEnabled = false
