package gltex

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
)

// texOps makes, fills and binds a Manager's textures the way its context
// allows: with direct state access where it has OpenGL 4.5 or
// GL_ARB_direct_state_access and GL_ARB_texture_storage, and by binding
// the texture to edit it elsewhere (OpenGL 3.3 to 4.4, macOS's 4.1; see
// ops_bind.go). It is a struct, not an interface, so that pixel slices
// passed through it do not escape to the heap.
type texOps struct {
	dsa        bool
	fromBuffer subImageFromBuffer
}

// loadOps picks the path for the current context, which Check passed.
func loadOps() (texOps, error) {
	o := texOps{dsa: glcaps.Has(glcaps.FeatureDirectStateAccess) && glcaps.Has(glcaps.FeatureTextureStorage)}
	name := "glTextureSubImage2D"
	if !o.dsa {
		name = "glTexSubImage2D"
	}
	var err error
	o.fromBuffer, err = loadSubImageFromBuffer(name)
	return o, err
}

// create makes a width × height texture of one level into *name, with
// linear filtering.
func (o texOps) create(name *uint32, width, height int32, internal, format uint32) {
	if !o.dsa {
		createBound(name, width, height, internal, format)
		return
	}
	gl.CreateTextures(gl.TEXTURE_2D, 1, name)
	gl.TextureStorage2D(*name, 1, internal, width, height)
	gl.TextureParameteri(*name, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TextureParameteri(*name, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
}

// subImage fills the whole texture from client memory.
func (o texOps) subImage(name uint32, width, height int32, format uint32, pixels unsafe.Pointer) {
	if !o.dsa {
		subImageBound(name, width, height, format, pixels)
		return
	}
	gl.TextureSubImage2D(name, 0, 0, 0, width, height, format, gl.UNSIGNED_BYTE, pixels)
}

// subImageFromBuffer fills the whole texture from the bound
// GL_PIXEL_UNPACK_BUFFER at offset.
func (o texOps) subImageFromBuffer(name uint32, width, height int32, format uint32, offset int) {
	if !o.dsa {
		gl.BindTexture(gl.TEXTURE_2D, name)
		o.fromBuffer.call(gl.TEXTURE_2D, width, height, format, gl.UNSIGNED_BYTE, offset)
		gl.BindTexture(gl.TEXTURE_2D, 0)
		return
	}
	o.fromBuffer.call(name, width, height, format, gl.UNSIGNED_BYTE, offset)
}

// bind binds the texture to a unit for the next draws.
func (o texOps) bind(unit, name uint32) {
	if !o.dsa {
		gl.ActiveTexture(gl.TEXTURE0 + unit)
		gl.BindTexture(gl.TEXTURE_2D, name)
		return
	}
	gl.BindTextureUnit(unit, name)
}

// DirectStateAccess reports whether the Manager edits textures with
// direct state access (OpenGL 4.5, or GL_ARB_direct_state_access and
// GL_ARB_texture_storage), or, when false, binds each texture to edit it.
func (m *Manager) DirectStateAccess() bool { return m.ops.dsa }
