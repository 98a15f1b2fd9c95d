//go:build race

package upload_test

// raceEnabled skips allocation counts: the race detector allocates.
const raceEnabled = true
