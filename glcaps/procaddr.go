package glcaps

// The loader is go-gl's (v3.3-core/gl/procaddr.go, the same in every version), with its build tags,
// so that an address resolved here comes from the same place as go-gl's
// own table: EGL when built with the egl tag, otherwise WGL on Windows,
// dlsym on macOS and GLX elsewhere. GLX uses glXGetProcAddressARB, the
// name every libGL has exported since GLX 1.3 (GLFW uses it too).

/*
#cgo windows CFLAGS: -DTAG_WINDOWS
#cgo !gles2,windows       LDFLAGS: -lopengl32
#cgo gles2,windows        LDFLAGS: -lGLESv2
#cgo darwin CFLAGS: -DTAG_DARWIN
#cgo !gles2,darwin LDFLAGS: -framework OpenGL
#cgo gles2,darwin  LDFLAGS: -framework OpenGLES
#cgo linux freebsd netbsd openbsd CFLAGS: -DTAG_POSIX
#cgo !egl,linux !egl,freebsd !egl,netbsd !egl,openbsd pkg-config: gl
#cgo egl,linux egl,freebsd egl,netbsd egl,openbsd egl,windows CFLAGS: -DTAG_EGL
#cgo egl,linux egl,freebsd egl,netbsd egl,openbsd pkg-config: egl
#cgo egl,windows LDFLAGS: -lEGL
#cgo egl,darwin  LDFLAGS: -lEGL

#include <stdint.h>
#include <stdlib.h>

#if defined(TAG_EGL)
	#include <EGL/egl.h>
	static void* sfProcAddress(const char* name) {
		return (void*)eglGetProcAddress(name);
	}
#elif defined(TAG_WINDOWS)
	#define WIN32_LEAN_AND_MEAN 1
	#include <windows.h>
	static HMODULE sfOpenGL32 = NULL;
	static void* sfProcAddress(const char* name) {
		// wglGetProcAddress knows only what opengl32.dll does not export
		// (everything after GL 1.1), and some drivers return small integers
		// instead of NULL for a failure.
		void* pf = (void*)wglGetProcAddress((LPCSTR)name);
		if (pf != NULL && pf != (void*)1 && pf != (void*)2 && pf != (void*)3 && pf != (void*)-1) {
			return pf;
		}
		if (sfOpenGL32 == NULL) {
			sfOpenGL32 = LoadLibraryA("opengl32.dll");
		}
		return (void*)GetProcAddress(sfOpenGL32, (LPCSTR)name);
	}
#elif defined(TAG_DARWIN)
	#include <dlfcn.h>
	static void* sfProcAddress(const char* name) {
		return dlsym(RTLD_DEFAULT, name);
	}
#elif defined(TAG_POSIX)
	#include <GL/glx.h>
	static void* sfProcAddress(const char* name) {
		return (void*)glXGetProcAddressARB((const GLubyte*)name);
	}
#endif

// GL's calling convention: __stdcall on 32-bit Windows, the C default
// everywhere else.
#if defined(_WIN32) && !defined(_WIN64)
	#define SF_APIENTRY __stdcall
#else
	#define SF_APIENTRY
#endif

typedef const unsigned char* (SF_APIENTRY *sfGetStringFn)(unsigned int name);
typedef const unsigned char* (SF_APIENTRY *sfGetStringiFn)(unsigned int name, unsigned int index);
typedef void (SF_APIENTRY *sfGetIntegervFn)(unsigned int name, int* data);

static const char* sfGetString(uintptr_t fn, unsigned int name) {
	return (const char*)((sfGetStringFn)fn)(name);
}

static const char* sfGetStringi(uintptr_t fn, unsigned int name, unsigned int index) {
	return (const char*)((sfGetStringiFn)fn)(name, index);
}

static int sfGetInteger(uintptr_t fn, unsigned int name) {
	int v = 0;
	((sfGetIntegervFn)fn)(name, &v);
	return v;
}
*/
import "C"

import "unsafe"

// ProcAddress returns the address of the GL function name for the
// context current on the calling thread, through the platform's loader,
// or nil when the loader does not know it. It has the signature of
// go-gl's gl.InitWithProcAddrFunc argument.
//
// A non-nil address does not prove the context supports the function:
// GLX hands out an entry point for any name. Check the version or
// extension (Check) before calling it. ProcAddress allocates; call it
// when setting up, not per frame.
func ProcAddress(name string) unsafe.Pointer {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.sfProcAddress(cname)
}

// The GL enums the check reads; they are fixed by the GL specification.
const (
	glRenderer      = 0x1F01
	glVersion       = 0x1F02
	glExtensions    = 0x1F03
	glNumExtensions = 0x821D
)

// callGetString calls glGetString through fn and copies the result, or
// returns "" for NULL (no current context, or a bad enum).
func callGetString(fn unsafe.Pointer, name uint32) string {
	return C.GoString(C.sfGetString(C.uintptr_t(uintptr(fn)), C.uint(name)))
}

func callGetStringi(fn unsafe.Pointer, name, index uint32) string {
	return C.GoString(C.sfGetStringi(C.uintptr_t(uintptr(fn)), C.uint(name), C.uint(index)))
}

func callGetInteger(fn unsafe.Pointer, name uint32) int {
	return int(C.sfGetInteger(C.uintptr_t(uintptr(fn)), C.uint(name)))
}
