// Package testenv holds what the module's tests share, so that each exists
// once:
//
//   - SkipOrFail, the rule for tests that need a display or a sound
//     device: such a test skips on a user's machine without one, and fails
//     instead of skipping in CI (CI=true), so CI can never go green on a
//     skip;
//   - NoAllocs and SkipUnderRace, the allocation assertion;
//   - Go, List and Deps, the go command runner and the import-graph
//     checks built on it;
//   - FuzzSeeds, a fuzz target's committed corpus kept in step;
//   - Buffer, a bytes.Buffer several goroutines may share.
package testenv

import (
	"os"
	"testing"
)

// InCI reports whether the tests run in CI (CI=true or CI=1).
func InCI() bool {
	v := os.Getenv("CI")
	return v == "true" || v == "1"
}

// SkipOrFail skips the test with reason on a user's machine and fails it
// in CI, where every device test must run.
func SkipOrFail(t testing.TB, reason string) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI=true: device test cannot skip: %s", reason)
	}
	t.Skip(reason)
}
