package testenv

import "testing"

// SkipUnderRace skips t when the race detector is on: it allocates for
// its own bookkeeping, so allocation counts are not meaningful under it.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
}

// NoAllocs is the one allocation assertion of the module's tests: it
// fails t unless f, run runs times (after one warm-up call, as
// testing.AllocsPerRun does), allocates nothing on average, counted over
// the whole process. It skips under the race detector, which allocates
// for itself. what names the path in the failure message.
func NoAllocs(t testing.TB, what string, runs int, f func()) {
	t.Helper()
	SkipUnderRace(t)
	if n := testing.AllocsPerRun(runs, f); n != 0 {
		t.Errorf("%s allocates %v times per run, want 0", what, n)
	}
}
