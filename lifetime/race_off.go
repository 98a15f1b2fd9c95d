//go:build !race

package lifetime

// raceEnabled reports that the race detector is on; allocation counts are
// meaningless under it, so zero-allocation tests skip.
const raceEnabled = false
