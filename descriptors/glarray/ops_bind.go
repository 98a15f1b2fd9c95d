package glarray

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// The bind-to-edit path, for contexts without direct state access or
// immutable storage: each call binds the array to GL_TEXTURE_2D_ARRAY on
// the active texture unit, edits it, and binds 0 there again, so the
// Manager leaves no array of its own bound. A renderer that keeps an
// array bound on the active unit across New or Create rebinds it (Bind
// does).

// createBound makes a mutable array (glTexImage3D) of every layer at
// level 0 only, so OpenGL 3.3 needs no GL_ARB_texture_storage.
func createBound(name *uint32, width, height, layers int32, internal, format uint32) {
	gl.GenTextures(1, name)
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, *name)
	// Level 0 only: without this a mutable texture expects a mip chain
	// and samples as incomplete.
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAX_LEVEL, 0)
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	// nil is "no pixels" only with no pixel unpack buffer bound, which
	// the Manager binds just around its staged copies.
	gl.TexImage3D(gl.TEXTURE_2D_ARRAY, 0, int32(internal), width, height, layers, 0, format, gl.UNSIGNED_BYTE, nil)
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, 0)
}

// layerBound fills one layer from client memory.
func layerBound(name uint32, layer, width, height int32, format uint32, pixels unsafe.Pointer) {
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, name)
	gl.TexSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, layer, width, height, 1, format, gl.UNSIGNED_BYTE, pixels)
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, 0)
}
