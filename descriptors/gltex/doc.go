// Package gltex binds the descriptors slot table to OpenGL textures. A
// Manager creates a texture and gives it a slot. It makes the texture
// with glCreateTextures and glTextureStorage2D. The pixels go through an
// upload arena bound as the PIXEL_UNPACK buffer, or straight from client
// memory when no arena has room. Freeing a texture invalidates the handle
// at once. The GL texture is deleted only when the slot is reclaimed,
// after every frame that could sample it has completed.
//
// A shader reaches a slot by unit, not by index: there is no bindless
// texturing here. So Bind(unit, handle) calls glBindTextureUnit before a
// draw, and the shader's sampler names the unit (layout(binding = unit)).
//
// The Manager's table of GL texture names is sized by the heap. A full
// heap refuses Create with descriptors.ErrHeapExhausted. Manager.Grow, at
// load time, raises the heap's capacity and the table together. Nothing
// else in GL depends on the capacity, because shaders bind per draw.
//
// A Manager runs on the context the application made, with any windowing
// library and whichever go-gl package the application binds. It calls
// go-gl's v3.3-core package and loads its table itself. It uses direct
// state access (glCreateTextures, glTextureStorage2D, glBindTextureUnit)
// on OpenGL 4.5, or with GL_ARB_direct_state_access and
// GL_ARB_texture_storage. On OpenGL 3.3 to 4.4 (macOS's 4.1) it binds
// each texture to GL_TEXTURE_2D on the active unit to make and fill it
// (glTexImage2D, glTexSubImage2D). Then it binds 0 there again.
// Manager.DirectStateAccess says which path it took.
//
// New checks the context (package glcaps). It returns an error matching
// glcaps.ErrNoContext, glcaps.ErrMissingFeature or glcaps.ErrNotLoaded
// instead of crashing later. The staged upload passes a buffer offset
// where go-gl's wrapper takes a pointer. So the Manager resolves
// glTextureSubImage2D or glTexSubImage2D itself, through the loader
// go-gl uses (glcaps.ProcAddress). It flushes the staging arena
// (upload.Arena.Flush) before GL reads it.
//
// The Manager's heap follows the renderer's frame clock (Desc.Heap.Clock,
// usually fenced with lifetime/glfence). The clock also drives the
// staging upload Set, so the renderer opens and closes each frame on the
// clock alone.
//
// # Ownership
//
// A Manager, its Heap and its textures belong to the render goroutine
// with the GL context current. None is safe for concurrent use. Other
// goroutines send pixel data to that goroutine and receive Handles. The
// Manager owns its GL textures. The renderer owns the context, the clock
// and the staging Set.
//
// # Lifetime
//
// A texture lives from Create until the clock reports complete the frame
// that was newest when it was freed. glDeleteTextures runs inside that
// clock call (BeginFrame, Poll or Drain). Its Handle is valid from Create
// until Free. Pixels passed to Create are copied before Create returns,
// into the staging arena or by the driver. So the caller may reuse them at
// once. Teardown: free every texture, Drain the clock, Close the Manager
// (it refuses while textures are live or pending) and the staging Set,
// Close the clock, then destroy the GL context.
package gltex
