//go:build race

package font

const raceEnabled = true
