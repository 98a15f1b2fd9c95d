// Package verifytest runs the renderer example as a user would. It builds
// the example, runs it under the display in DISPLAY with -verify, and
// checks its report. It also checks that the example links no internal/
// package of the library. And it checks that the walk-through
// (docs/renderer.md) and the README's excerpt quote the example's code.
//
// It holds no code besides its tests. The example is a command, and its
// GLFW main thread stays out of the test binary.
package verifytest
