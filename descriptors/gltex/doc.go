// Package gltex binds the descriptors slot table to OpenGL textures. A
// Manager creates a texture (glCreateTextures, glTextureStorage2D, pixels
// uploaded through an upload arena bound as the PIXEL_UNPACK buffer, or
// straight from client memory when no arena has room) and gives it a
// slot; freeing it invalidates the handle at once and deletes the GL
// texture only when the slot retires, after every frame that could sample
// it has completed.
//
// A shader reaches a slot by unit, not by index: there is no bindless
// texturing here, so Bind(unit, handle) calls glBindTextureUnit before a
// draw and the shader's sampler names the unit (layout(binding = unit)).
//
// The Manager's table of GL texture names is sized by the heap. A full
// heap refuses Create with descriptors.ErrHeapExhausted; Manager.Grow, at
// load time, raises the heap's capacity and the table together. Nothing
// else in GL depends on the capacity, because shaders bind per draw.
//
// # Ownership
//
// A Manager, its Heap and its textures belong to the render goroutine with
// the GL context current; none is safe for concurrent use. Other
// goroutines send pixel data to that goroutine and receive Handles.
//
// # Lifetime
//
// A texture lives from Create until the Retire after its Free's frame has
// completed; its Handle is valid from Create until Free. Pixels passed to
// Create are copied before Create returns (into the staging arena, or by
// the driver), so the caller may reuse them at once. Close the Manager
// after freeing every texture, draining the frames and retiring; then
// close the GL context.
package gltex
