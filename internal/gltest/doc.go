// Package gltest runs the module's GL tests on the main OS thread, where
// GLFW must run, and gives them their one shared OpenGL context. A test
// binary locks its main goroutine in an init function and serves GL work
// from it:
//
//	func init() { runtime.LockOSThread() }
//
//	func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }
//
// and a test then calls Run (or Do) with its GL code. The shared context
// is made once per test binary, skipped on a user's machine without a
// display and failed in CI (testenv.SkipOrFail). Only _test.go files
// import this package, so no command links package testing through it.
//
// # Ownership
//
// The shared Context belongs to the ServeMain loop's goroutine (the main
// OS thread); Run and Do execute test code there.
//
// # Lifetime
//
// The shared Context is made on first use and stays open until the test
// binary exits.
package gltest
