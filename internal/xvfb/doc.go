// Package xvfb starts a virtual X server for the demo and the stress tool
// when they run without a display. So real OpenGL (Mesa llvmpipe) works on
// a headless machine with nothing but Xvfb installed.
//
// # Ownership
//
// A Server belongs to the goroutine that started it. Start changes the
// process environment (DISPLAY), so call it before any GL or GLFW code.
//
// # Lifetime
//
// Start returns once the server accepts connections. Stop, run after the
// GL context is destroyed, terminates it and removes its socket.
package xvfb
