//go:build !race

package font

const raceEnabled = false
