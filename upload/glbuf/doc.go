// Package glbuf is upload's OpenGL backend: one buffer object made with
// glNamedBufferStorage(MAP_WRITE | MAP_PERSISTENT | MAP_COHERENT), mapped
// once with glMapNamedBufferRange for the buffer's whole life, and GL sync
// object fences (lifetime/glfence).
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
// until Set.Close calls Close, which unmaps and deletes the buffer. Close
// the Set before destroying the context.
package glbuf
