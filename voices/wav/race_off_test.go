//go:build !race

package wav

// raceEnabled is false without the race detector.
const raceEnabled = false
