package glctx

/*
#include <stdint.h>

typedef void (*textureSubImage2D)(unsigned int texture, int level, int x, int y,
	int width, int height, unsigned int format, unsigned int type, const void *pixels);

static void callTextureSubImage2D(uintptr_t fn, unsigned int texture, int level, int x, int y,
	int width, int height, unsigned int format, unsigned int type, uintptr_t offset) {
	((textureSubImage2D)fn)(texture, level, x, y, width, height, format, type, (const void *)offset);
}
*/
import "C"

import (
	"fmt"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// textureSubImage2D is glTextureSubImage2D's address, loaded by New.
var textureSubImage2D uintptr

func loadOffsetCalls() error {
	textureSubImage2D = uintptr(glfw.GetProcAddress("glTextureSubImage2D"))
	if textureSubImage2D == 0 {
		return fmt.Errorf("%w: glTextureSubImage2D", ErrMissingFeature)
	}
	return nil
}

// TextureSubImage2DFromBuffer calls glTextureSubImage2D with pixels read
// from the buffer bound to GL_PIXEL_UNPACK_BUFFER at byte offset.
//
// go-gl only takes an unsafe.Pointer there, and turning a small buffer
// offset into an unsafe.Pointer is what Go's checkptr (on under -race)
// rightly rejects as a bad pointer. The offset stays an integer all the way
// to C here.
func TextureSubImage2DFromBuffer(texture uint32, level, x, y, width, height int32, format, xtype uint32, offset int) {
	C.callTextureSubImage2D(C.uintptr_t(textureSubImage2D), C.uint(texture), C.int(level), C.int(x), C.int(y),
		C.int(width), C.int(height), C.uint(format), C.uint(xtype), C.uintptr_t(offset))
}
