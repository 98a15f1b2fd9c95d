// Package verifytest runs the renderer example as a user would: it builds
// the example, runs it under the display in DISPLAY with -verify, and
// checks its report; it also checks that the example links no internal/
// package of the library, and that the walk-through (docs/renderer.md) and
// the README's excerpt quote the example's code. It holds no code besides its tests: the example is a
// command, and its GLFW main thread stays out of the test binary.
package verifytest
