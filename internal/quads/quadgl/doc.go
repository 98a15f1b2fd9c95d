// Package quadgl draws what a quads.Writer wrote into an upload arena with
// OpenGL 4.5 core. It uses one program and one vertex array, whose vertex
// buffer binding is pointed at the frame's arena offset. It adds one
// shared index buffer and one draw per texture run.
//
// Textures are bound by name to unit 0 per run. llvmpipe has no bindless
// textures, so that is how a shader reaches a descriptor slot here.
//
// # Ownership
//
// A Renderer belongs to the render goroutine with the GL context current.
// It is not safe for concurrent use.
//
// # Lifetime
//
// New creates the program, vertex array and index buffer. Release deletes
// them and must run before the context is destroyed. Draw only reads the
// arena range it is given. That range must stay untouched until the
// frame's fence signals, which the upload arena guarantees.
package quadgl
