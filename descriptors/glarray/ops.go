package glarray

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
)

// arrayOps makes, fills and binds a Manager's arrays the way its context
// allows, as gltex's texOps does: with immutable storage and direct state
// access where it has OpenGL 4.5 or GL_ARB_direct_state_access and
// GL_ARB_texture_storage, and elsewhere (OpenGL 3.3 to 4.4, macOS's 4.1)
// with glTexImage3D storage, each array bound to GL_TEXTURE_2D_ARRAY to
// edit it. It is a struct, not an interface, so that pixel slices passed
// through it do not escape to the heap.
type arrayOps struct {
	dsa        bool
	fromBuffer layerFromBuffer
}

// loadOps picks the path for the current context, which Check passed.
func loadOps() (arrayOps, error) {
	o := arrayOps{dsa: glcaps.Has(glcaps.FeatureDirectStateAccess) && glcaps.Has(glcaps.FeatureTextureStorage)}
	name := "glTextureSubImage3D"
	if !o.dsa {
		name = "glTexSubImage3D"
	}
	var err error
	o.fromBuffer, err = loadLayerFromBuffer(name)
	return o, err
}

// create makes an array of layers layers of width × height texels, one
// level, with linear filtering and edges clamped, into *name.
func (o arrayOps) create(name *uint32, width, height, layers int32, internal, format uint32) {
	if !o.dsa {
		createBound(name, width, height, layers, internal, format)
		return
	}
	gl.CreateTextures(gl.TEXTURE_2D_ARRAY, 1, name)
	gl.TextureStorage3D(*name, 1, internal, width, height, layers)
	gl.TextureParameteri(*name, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TextureParameteri(*name, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TextureParameteri(*name, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TextureParameteri(*name, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
}

// layer fills one layer from client memory.
func (o arrayOps) layer(name uint32, layer, width, height int32, format uint32, pixels unsafe.Pointer) {
	if !o.dsa {
		layerBound(name, layer, width, height, format, pixels)
		return
	}
	gl.TextureSubImage3D(name, 0, 0, 0, layer, width, height, 1, format, gl.UNSIGNED_BYTE, pixels)
}

// layerFromBuffer fills one layer from the bound GL_PIXEL_UNPACK_BUFFER
// at offset.
func (o arrayOps) layerFromBuffer(name uint32, layer, width, height int32, format uint32, offset int) {
	if !o.dsa {
		gl.BindTexture(gl.TEXTURE_2D_ARRAY, name)
		o.fromBuffer.call(gl.TEXTURE_2D_ARRAY, layer, width, height, format, gl.UNSIGNED_BYTE, offset)
		gl.BindTexture(gl.TEXTURE_2D_ARRAY, 0)
		return
	}
	o.fromBuffer.call(name, layer, width, height, format, gl.UNSIGNED_BYTE, offset)
}

// bind binds the array to a unit for the next draws.
func (o arrayOps) bind(unit, name uint32) {
	if !o.dsa {
		gl.ActiveTexture(gl.TEXTURE0 + unit)
		gl.BindTexture(gl.TEXTURE_2D_ARRAY, name)
		return
	}
	gl.BindTextureUnit(unit, name)
}

// DirectStateAccess reports whether the Manager made its arrays with
// immutable storage and edits them with direct state access (OpenGL 4.5,
// or GL_ARB_direct_state_access and GL_ARB_texture_storage), or, when
// false, made them with glTexImage3D and binds each to edit it.
func (m *Manager) DirectStateAccess() bool { return m.ops.dsa }
