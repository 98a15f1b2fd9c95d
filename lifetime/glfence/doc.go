// Package glfence implements frame.Fence over OpenGL sync objects
// (glFenceSync / glClientWaitSync), so a frame.Clock can fence frames on
// the GPU: frame.NewClock(frame.ClockDesc{NewFence: glfence.New}).
//
// It works on any OpenGL 3.2+ (or GL_ARB_sync) context the application
// made, with any windowing library and whichever go-gl package the
// application binds (it calls v3.3-core and loads it itself); it creates
// no context of its own. New
// checks that context (package glcaps) and returns an error matching
// glcaps.ErrNoContext, glcaps.ErrMissingFeature or glcaps.ErrNotLoaded
// when it is not current, not loaded or too old, so a Clock built on it
// fails in NewClock rather than crashing in its first frame.
//
// # Ownership
//
// A Fence belongs to the goroutine that has the GL context current (the
// render goroutine, locked to its OS thread); it is not safe for
// concurrent use, and every method must be called with that context
// current.
//
// # Lifetime
//
// A Fence holds at most one GL sync object: Signal replaces it, a Wait or
// Done that sees it complete deletes it, and Close deletes it. Close the
// fence (a frame.Clock does, in its Close) before the context is
// destroyed.
package glfence
