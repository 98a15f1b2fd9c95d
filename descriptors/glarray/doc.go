// Package glarray is a descriptor heap a shader can index. Its slots are
// the layers of OpenGL array textures, so one draw samples any live
// texture by its slot. It is the portable stand-in for a shader-visible
// descriptor heap where ARB_bindless_texture is missing. llvmpipe, and so
// CI, has none.
//
// # Slots and layers
//
// The user declares at New one Class per texture size and format
// (64×64 RGBA8 sprites, 512×512 R8 font pages, ...). Each class is one
// GL_TEXTURE_2D_ARRAY of Class.Layers layers, allocated once at New. It
// is also one descriptors.Heap of Class.Layers slots, following the
// renderer's frame clock. Layer L of class C is slot L of class C's heap.
// So the index a shader samples is the slot, with no table in between. A
// Handle carries both (Handle.Class, Handle.Layer). A draw binds each
// class's array once (Manager.Bind). It passes the layer per sprite, in a
// vertex attribute or a storage buffer:
//
//	uniform sampler2DArray sprites;      // Manager.Bind(unit, class)
//	in vec2 uv;
//	flat in uint layer;                  // Handle.Layer(), per instance
//	out vec4 color;
//	void main() { color = texture(sprites, vec3(uv, float(layer))); }
//
// # Capacity
//
// A class holds at most Class.Layers textures, fixed at New. Array
// storage is never reallocated, so there is no Grow. Layers must lie in
// 1..GL_MAX_ARRAY_TEXTURE_LAYERS (at least 256 in OpenGL 3.3, 2048 on
// llvmpipe). The size must lie in 1..GL_MAX_TEXTURE_SIZE. New refuses a
// class outside them with descriptors.ErrInvalidConfig naming the limit.
// A class that needs more layers is declared twice. The Manager's
// capacity is the sum of its classes'. A full class refuses Create with
// its heap's descriptors.ErrHeapExhausted. The error names the class
// ("textures/64x64 rgba8"); the other classes are unaffected. The first
// refusal after a successful Create logs the heap's exhaustion record at
// Warn, naming the class's three oldest live textures.
//
// Create uploads into the slot's layer with glTextureSubImage3D (or
// glTexSubImage3D on the array bound, without DSA). The
// pixels come through the staging arena (Desc.Staging) as a pixel unpack
// buffer, or from client memory when no arena has room. Free invalidates
// the handle at once. The layer is not written again until the frame
// clock reports complete every frame that could sample it. That is how
// the heap defers any slot's reuse. No GL object is made or deleted after
// New.
//
// # Debug names
//
// Create takes a name, a string the caller keeps. The class's heap
// stores it without copying (descriptors.Heap.SetName), so Create
// allocates nothing in steady frames. Close with live textures refuses.
// Its error lists each one's name, layer, class and creation frame. Where
// the context has KHR_debug (core in 4.3), each array carries a
// glObjectLabel ("glarray textures/64x64 rgba8"). A layer is not a GL
// object and cannot carry one.
//
// A Manager needs OpenGL 3.3 core. It picks its path from the context at
// run time, as gltex does. With OpenGL 4.5, or GL_ARB_texture_storage and
// GL_ARB_direct_state_access, it makes immutable storage
// (glTextureStorage3D) and edits by DSA. Elsewhere, macOS's 4.1 among
// them, it makes each array with glTexImage3D and binds it to edit it.
// It calls go-gl's v3.3-core package, which New loads itself (package
// glcaps), whatever package the application binds. New resolves the
// unpack-buffer upload entry point itself.
//
// # Ownership
//
// A Manager, its heaps and its arrays belong to the render goroutine with
// the GL context current. None is safe for concurrent use. Handles are
// plain values and may be passed anywhere, but only that goroutine may
// resolve or free them. The Manager owns its arrays and heaps; the
// renderer owns the context, the clock and the staging arena.
//
// # Lifetime
//
// A texture's Handle is valid from Create until Free. Its layer stays
// untouched until the clock reports complete the frame that was newest
// at Free (inside BeginFrame, Poll or Drain). Pixels passed to Create are
// copied before it returns. A name passed to Create is kept until the
// layer is reused or the Manager closed. The arrays live from New until
// Close. Teardown: free every texture and Drain the clock. Then Close
// the Manager, then the staging Set and the clock, then destroy the
// context.
package glarray
