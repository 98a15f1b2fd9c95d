// Package glbuf is upload's OpenGL backend: one buffer object behind a
// Set. The frames that write it are fenced by the frame clock the Set
// follows, with GL sync objects:
// frame.NewClock(frame.ClockDesc{NewFence: glfence.New}).
//
// New picks one of two modes from the context. ModePersistent needs
// OpenGL 4.5, or GL_ARB_buffer_storage and GL_ARB_direct_state_access.
// It makes the buffer with glNamedBufferStorage(MAP_WRITE |
// MAP_PERSISTENT | MAP_COHERENT) and maps it once for its whole life. A
// CPU write is then visible to commands issued after it, and Arena.Flush
// costs nothing. Elsewhere (OpenGL 3.3 to 4.4; macOS stops at 4.1)
// ModeMapRange hands out a CPU copy. Arena.Flush then maps just the range
// written since the last flush with glMapBufferRange(WRITE |
// UNSYNCHRONIZED | INVALIDATE_RANGE), copies it in and unmaps. Either
// way the fences keep the CPU from writing a region while commands that
// read it are still queued or running. A renderer that calls Flush
// before its draws runs unchanged on both.
//
// It runs on the context the application made, with any windowing
// library. The application may bind whichever go-gl package it likes
// (v4.1-core on macOS, v4.5-core elsewhere). The backend calls go-gl's
// v3.3-core package, whose gl.Init needs only OpenGL 3.3, and loads its
// table itself. New checks the context (package glcaps). It returns an
// error matching glcaps.ErrNoContext, glcaps.ErrMissingFeature or
// glcaps.ErrNotLoaded instead of calling GL through an unloaded function
// pointer.
//
// # Ownership
//
// A Backend belongs to the render goroutine with the GL context current.
// It is not safe for concurrent use, and every method needs the context.
//
// # Lifetime
//
// upload.NewSet calls Map once. The mapping and the buffer name stay
// valid until Set.Close calls Close, which unmaps and deletes the buffer.
// Set.Close refuses while a frame that may read the buffer is in flight.
// So the order is: drain the clock, close the Set, close the clock,
// destroy the context.
package glbuf
