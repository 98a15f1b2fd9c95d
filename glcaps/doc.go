// Package glcaps checks that the OpenGL context current on the calling
// thread can run steadyframe's GL backends (lifetime/glfence,
// upload/glbuf, descriptors/gltex). It also resolves the GL entry points
// they call outside go-gl, through the platform's own loader.
//
// The backends work on a context the application made, with whatever
// windowing library it likes (GLFW, SDL, its own EGL code). They create
// no context and need no helper of ours to set one up. What they need is
// a context current on the calling thread, OpenGL 3.3 core or newer.
//
// Their constructors call Check, which loads go-gl's function table for
// that context. It runs gl.Init from github.com/go-gl/gl/v3.3-core/gl, the
// package the backends are written against. That Init needs only 3.3 and
// loads newer entry points where the context has them. Check returns an
// error, wrapped with the backend's own prefix, instead of letting the
// first GL call jump through a nil function pointer. Has then says which
// newer features the context offers, and each backend picks its path
// from it. The DSA and persistent-mapping paths need OpenGL 4.5 or its
// ARB extensions. The others run on 3.3 to 4.4, macOS's 4.1 among them.
// The application binds whichever go-gl package it likes (v4.1-core on
// macOS) and runs its own gl.Init:
//
//	win.MakeContextCurrent() // or SDL_GL_MakeCurrent, eglMakeCurrent, ...
//	buf, err := glbuf.New()  // glcaps.ErrNoContext before MakeContextCurrent
//
// ProcAddress resolves through the loaders go-gl's gl.Init uses, chosen
// by the same build tags:
//
//   - GLX on Linux and the BSDs, through glXGetProcAddressARB: the name
//     every libGL exports for glXGetProcAddress.
//   - eglGetProcAddress under the egl tag.
//   - wglGetProcAddress on Windows, falling back to opengl32.dll's
//     exports.
//   - dlsym on macOS.
//
// A backend may need to call a GL function in a way go-gl's wrapper
// cannot: gltex passes a buffer offset where go-gl takes a pointer. It
// loads that function here, so nothing depends on which library made the
// context.
//
// # Ownership
//
// Check, ProcAddress and ClearErrors run on the goroutine that has the
// context current (locked to its OS thread). They keep no state. They are
// safe to call from several such goroutines, each with its own context.
// Feature is a plain value.
//
// # Lifetime
//
// Nothing is cached: a function address is valid for the context it was
// resolved on. On Windows, addresses may differ between contexts. So a
// backend resolves what it needs in its constructor, on the context it
// will run on, and keeps it for its own life. Check reports on the
// context current when it is called.
package glcaps
