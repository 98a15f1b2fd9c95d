// Package glctx creates the OpenGL 4.5 core context that steadyframe's
// tests, stress tool and demo run on.
//
// It is the module's own GLFW helper, nothing more. The public GL packages
// (lifetime/glfence, upload/glbuf, descriptors/gltex) import none of it.
// They run on any context an application made (see package glcaps). New
// checks its context with the same glcaps.Check they use.
//
// # Ownership
//
// A GL context is current on exactly one OS thread. A Context, and every
// GL object made while it is current, belong to the goroutine that created
// the Context. That goroutine must stay locked to its OS thread
// (runtime.LockOSThread) for the context's whole life.
//
// GLFW itself must be initialised from the process's main thread. The
// commands call New on their locked main goroutine. Tests run GL work
// there through internal/gltest (ServeMain, Do, Run).
//
// # Lifetime
//
// New creates a window (hidden unless Desc.Visible) and its context. It
// makes the context current and loads the GL function pointers. Close
// destroys the window and, with the last Context, terminates GLFW. GL
// objects made on a Context (fences, buffers, textures) must be closed
// before it.
package glctx
