// Package glctx creates the OpenGL 4.5 core context that steadyframe's
// tests, stress tool and demo run on, and runs functions on the main OS
// thread where GLFW requires it.
//
// It is the module's own GLFW helper, nothing more: the public GL packages
// (lifetime/glfence, upload/glbuf, descriptors/gltex) import none of it
// and run on any context an application made (see package glcaps), and
// New checks its context with the same glcaps.Check they use.
//
// # Ownership
//
// A GL context is current on exactly one OS thread. A Context and every
// GL object made while it is current belong to the goroutine that created
// the Context; that goroutine must stay locked to its OS thread
// (runtime.LockOSThread) for the context's whole life. GLFW itself must be
// initialised from the process's main thread, so tests lock the main
// goroutine in an init function and hand GL work to it through ServeMain
// and Do:
//
//	func init() { runtime.LockOSThread() }
//
//	func TestMain(m *testing.M) { os.Exit(glctx.ServeMain(m.Run)) }
//
// and then, inside a test, glctx.Do(func() { ... GL calls ... }).
//
// # Lifetime
//
// New creates a window (hidden unless Desc.Visible) and its context, makes
// the context current and loads the GL function pointers; Close destroys
// the window and, with the last Context, terminates GLFW. GL objects made
// on a Context (fences, buffers, textures) must be closed before it.
package glctx
