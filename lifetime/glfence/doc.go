// Package glfence implements frame.Fence over OpenGL sync objects
// (glFenceSync / glClientWaitSync). So a frame.Clock can fence frames on
// the GPU: frame.NewClock(frame.ClockDesc{NewFence: glfence.New}).
//
// It works on any OpenGL 3.2+ (or GL_ARB_sync) context the application
// made, with any windowing library and whichever go-gl package the
// application binds. It calls v3.3-core and loads it itself. The package
// creates no context of its own.
//
// New checks that context (package glcaps). It returns an error matching
// glcaps.ErrNoContext, glcaps.ErrMissingFeature or glcaps.ErrNotLoaded
// when the context is not current, not loaded or too old. So a Clock built
// on it fails in NewClock rather than crashing in its first frame.
//
// # Ownership
//
// A Fence belongs to the goroutine that has the GL context current (the
// render goroutine, locked to its OS thread). It is not safe for
// concurrent use. Every method must be called with that context current.
//
// # Lifetime
//
// A Fence holds at most one GL sync object. Signal replaces it. A Wait or
// Done that sees it complete deletes it, and so does Close. A fence closed
// before its sync object was seen complete never reports done again. So a
// clock that still holds it keeps its frame in flight. Close the fence
// before the context is destroyed; a frame.Clock does, in its Close.
package glfence
