//go:build race

package quads

const raceEnabled = true
