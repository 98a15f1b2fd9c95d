// Package spritegl draws the commands' sprites from texture arrays
// (descriptors/glarray). The sprite textures are layers of one array.
// Each sprite's layer is streamed with its instance through an upload
// arena. One instanced draw a frame draws every sprite, however many
// textures are live. It also times GPU work with GL timer queries, to
// compare that path with binding a texture per draw.
//
// It needs OpenGL 3.3 core, where instanced draws, texture arrays and
// timer queries are core, so it runs on macOS's 4.1 too. It calls go-gl's
// v3.3-core package, which glarray.New loads (package glcaps), with
// GLSL 3.30 shaders and OpenGL 3.3 vertex arrays.
//
// # Ownership
//
// An Array and a Timer belong to the render goroutine with the GL context
// current; neither is safe for concurrent use.
//
// # Lifetime
//
// An Array lives from New until Close, which runs after Release and after
// the frame clock has drained, and before the clock closes. A Timer's
// queries live from NewTimer until Release.
package spritegl
