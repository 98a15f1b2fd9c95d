// Package glbuf is upload's OpenGL backend: one buffer object made with
// glNamedBufferStorage(MAP_WRITE | MAP_PERSISTENT | MAP_COHERENT), mapped
// once with glMapNamedBufferRange for the buffer's whole life. The frames
// that write it are fenced by the frame clock the Set follows, with GL
// sync objects: frame.NewClock(frame.ClockDesc{NewFence: glfence.New}).
//
// It runs on the context the application made, with any windowing
// library, and loaded with gl.Init from github.com/go-gl/gl/v4.5-core/gl:
// OpenGL 4.5, or GL_ARB_buffer_storage and GL_ARB_direct_state_access.
// New checks that context (package glcaps) and returns an error matching
// glcaps.ErrNoContext, glcaps.ErrMissingFeature or glcaps.ErrNotLoaded
// instead of calling GL through an unloaded function pointer.
//
// Coherent mapping means a CPU write is visible to commands issued after
// it without glFlushMappedBufferRange or a client barrier; the fences are
// what keep the CPU from writing a region while commands that read it are
// still queued or running.
//
// # Ownership
//
// A Backend belongs to the render goroutine with the GL context current;
// it is not safe for concurrent use, and every method needs the context.
//
// # Lifetime
//
// upload.NewSet calls Map once; the mapping and the buffer name stay valid
// until Set.Close calls Close, which unmaps and deletes the buffer. Set.Close
// refuses while a frame that may read the buffer is in flight, so the
// order is: drain the clock, close the Set, close the clock, destroy the
// context.
package glbuf
