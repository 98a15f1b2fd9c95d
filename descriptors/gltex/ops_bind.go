package gltex

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// The bind-to-edit path, for contexts without direct state access: each
// call binds the texture to GL_TEXTURE_2D on the active texture unit,
// edits it, and binds 0 there again, so the Manager leaves no texture of
// its own bound. A renderer that keeps a texture bound on the active unit
// across Create rebinds it (Bind does).

// createBound makes a mutable texture (glTexImage2D) of one level, so
// OpenGL 3.3 needs no GL_ARB_texture_storage.
func createBound(name *uint32, width, height int32, internal, format uint32) {
	gl.GenTextures(1, name)
	gl.BindTexture(gl.TEXTURE_2D, *name)
	// Level 0 only: without this a mutable texture expects a mip chain.
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, 0)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	// nil is "no pixels" only with no pixel unpack buffer bound, which
	// the Manager binds just around its staged copies.
	gl.TexImage2D(gl.TEXTURE_2D, 0, int32(internal), width, height, 0, format, gl.UNSIGNED_BYTE, nil)
	gl.BindTexture(gl.TEXTURE_2D, 0)
}

// subImageBound fills the whole texture from client memory.
func subImageBound(name uint32, width, height int32, format uint32, pixels unsafe.Pointer) {
	gl.BindTexture(gl.TEXTURE_2D, name)
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, format, gl.UNSIGNED_BYTE, pixels)
	gl.BindTexture(gl.TEXTURE_2D, 0)
}
