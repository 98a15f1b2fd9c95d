package glarray

/*
#include <stdint.h>

// GL's calling convention: __stdcall on 32-bit Windows, the C default
// everywhere else.
#if defined(_WIN32) && !defined(_WIN64)
	#define SF_APIENTRY __stdcall
#else
	#define SF_APIENTRY
#endif

typedef void (SF_APIENTRY *sfTextureSubImage3D)(unsigned int texture, int level, int x, int y, int z,
	int width, int height, int depth, unsigned int format, unsigned int type, const void *pixels);

static void sfCallTextureSubImage3D(uintptr_t fn, unsigned int texture, int layer,
	int width, int height, unsigned int format, unsigned int type, uintptr_t offset) {
	((sfTextureSubImage3D)fn)(texture, 0, 0, 0, layer, width, height, 1, format, type, (const void *)offset);
}
*/
import "C"

import (
	"fmt"

	"github.com/steadyframe/steadyframe/glcaps"
)

// layerFromBuffer is glTextureSubImage3D, or glTexSubImage3D on a
// context without DSA, filling one layer of an array texture from the
// buffer bound to GL_PIXEL_UNPACK_BUFFER at a byte offset. The two share
// their signature: the first argument is a texture name for the one, a
// target (GL_TEXTURE_2D_ARRAY, with the array bound) for the other. It exists for the reason gltex's glTextureSubImage2D trampoline
// does: go-gl takes an unsafe.Pointer there, and a small offset turned
// into one is what checkptr (on under -race) rejects, so the offset stays
// an integer all the way to C, through an entry point resolved on the
// Manager's own context.
type layerFromBuffer uintptr

func loadLayerFromBuffer(name string) (layerFromBuffer, error) {
	fn := glcaps.ProcAddress(name)
	if fn == nil {
		return 0, fmt.Errorf("%w: the platform's GL loader does not resolve %s", glcaps.ErrMissingFeature, name)
	}
	return layerFromBuffer(fn), nil
}

// call runs the function on texture (DSA) or target (bind-to-edit).
func (fn layerFromBuffer) call(texture uint32, layer, width, height int32, format, xtype uint32, offset int) {
	C.sfCallTextureSubImage3D(C.uintptr_t(fn), C.uint(texture), C.int(layer),
		C.int(width), C.int(height), C.uint(format), C.uint(xtype), C.uintptr_t(offset))
}
