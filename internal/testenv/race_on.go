//go:build race

package testenv

// Race reports whether the race detector is on; allocation counts are
// not meaningful under it.
const Race = true
