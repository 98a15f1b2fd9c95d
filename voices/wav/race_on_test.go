//go:build race

package wav

// raceEnabled is true under the race detector, which allocates on its own
// and so voids allocation counts.
const raceEnabled = true
