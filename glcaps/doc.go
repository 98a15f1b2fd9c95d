// Package glcaps checks that the OpenGL context current on the calling
// thread can run steadyframe's GL backends (lifetime/glfence, upload/glbuf,
// descriptors/gltex), and resolves the GL entry points they call outside
// go-gl through the platform's own loader.
//
// The backends work on a context the application made with whatever
// windowing library it likes (GLFW, SDL, its own EGL code): they create
// no context and need no helper of ours to set one up. What they need is
// a context current on the calling thread, OpenGL 3.3 core or newer.
// Their constructors call Check, which loads go-gl's function table for
// that context (gl.Init from github.com/go-gl/gl/v3.3-core/gl, the package
// they are written against, whose Init needs only 3.3 and loads newer
// entry points where the context has them) and returns an error, wrapped
// with the backend's own prefix, instead of letting the first GL call
// jump through a nil function pointer. Has then says which newer
// features the context offers, and each backend picks its path from it
// (OpenGL 4.5 or its ARB extensions for the DSA and persistent-mapping
// paths; 3.3 to 4.4, macOS's 4.1 among them, for the others). The
// application binds whichever go-gl package it likes (v4.1-core on
// macOS) and runs its own gl.Init:
//
//	win.MakeContextCurrent() // or SDL_GL_MakeCurrent, eglMakeCurrent, ...
//	buf, err := glbuf.New()  // glcaps.ErrNoContext before MakeContextCurrent
//
// ProcAddress resolves through the loaders go-gl's gl.Init uses, chosen
// by the same build tags: GLX on Linux and the BSDs (through
// glXGetProcAddressARB, the name every libGL exports for
// glXGetProcAddress), eglGetProcAddress under the egl tag,
// wglGetProcAddress falling back to opengl32.dll's exports on Windows,
// dlsym on macOS. A backend that must call a GL function in a way
// go-gl's wrapper cannot (gltex passes a buffer offset where go-gl takes a
// pointer) loads it here, so nothing depends on which library made the
// context.
//
// # Ownership
//
// Check, ProcAddress and ClearErrors run on the goroutine that has the
// context current (locked to its OS thread); they keep no state and are
// safe to call from several such goroutines, each with its own context.
// Feature is a plain value.
//
// # Lifetime
//
// Nothing is cached: a function address is valid for the context it was
// resolved on (on Windows addresses may differ between contexts), so a
// backend resolves what it needs in its constructor, on the context it
// will run on, and keeps it for its own life. Check reports on the
// context current when it is called.
package glcaps
