//go:build !race

package quads

const raceEnabled = false
