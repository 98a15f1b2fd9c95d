// Package gltest gives the module's GL tests their one shared OpenGL
// context: made once per test binary on the glctx.ServeMain loop, skipped
// on a user's machine without a display and failed in CI
// (testenv.SkipOrFail). Only _test.go files import it, so no command
// links package testing through it.
//
// # Ownership
//
// The shared Context belongs to the ServeMain loop's goroutine (the main
// OS thread); Run executes test code there.
//
// # Lifetime
//
// The shared Context is made on first use and stays open until the test
// binary exits.
package gltest
