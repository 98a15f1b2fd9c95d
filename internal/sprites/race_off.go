//go:build !race

package sprites

const raceEnabled = false
