package gltex

/*
#include <stdint.h>

// GL's calling convention: __stdcall on 32-bit Windows, the C default
// everywhere else.
#if defined(_WIN32) && !defined(_WIN64)
	#define SF_APIENTRY __stdcall
#else
	#define SF_APIENTRY
#endif

typedef void (SF_APIENTRY *sfTextureSubImage2D)(unsigned int texture, int level, int x, int y,
	int width, int height, unsigned int format, unsigned int type, const void *pixels);

static void sfCallTextureSubImage2D(uintptr_t fn, unsigned int texture, int level, int x, int y,
	int width, int height, unsigned int format, unsigned int type, uintptr_t offset) {
	((sfTextureSubImage2D)fn)(texture, level, x, y, width, height, format, type, (const void *)offset);
}
*/
import "C"

import (
	"fmt"

	"github.com/steadyframe/steadyframe/glcaps"
)

// subImageFromBuffer is glTextureSubImage2D, or glTexSubImage2D on a
// context without DSA, taking its pixels from the buffer bound to
// GL_PIXEL_UNPACK_BUFFER at a byte offset. The two share their
// signature: the first argument is a texture name for the one, a target
// (GL_TEXTURE_2D, with the texture bound) for the other.
//
// go-gl only takes an unsafe.Pointer there, and turning a small buffer
// offset into an unsafe.Pointer is what Go's checkptr (on under -race)
// rightly rejects as a bad pointer. So the offset stays an integer all the
// way to C, through an entry point the Manager resolves itself on the
// context it runs on (glcaps.ProcAddress, the loader go-gl uses): it must
// not depend on anyone else having loaded it, nor on which library made
// the context.
type subImageFromBuffer uintptr

func loadSubImageFromBuffer(name string) (subImageFromBuffer, error) {
	fn := glcaps.ProcAddress(name)
	if fn == nil {
		return 0, fmt.Errorf("%w: the platform's GL loader does not resolve %s", glcaps.ErrMissingFeature, name)
	}
	return subImageFromBuffer(fn), nil
}

// call runs the function on texture (DSA) or target (bind-to-edit).
func (fn subImageFromBuffer) call(texture uint32, width, height int32, format, xtype uint32, offset int) {
	C.sfCallTextureSubImage2D(C.uintptr_t(fn), C.uint(texture), 0, 0, 0,
		C.int(width), C.int(height), C.uint(format), C.uint(xtype), C.uintptr_t(offset))
}
