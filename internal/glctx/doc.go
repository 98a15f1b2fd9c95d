// Package glctx creates the OpenGL 4.5 core context that steadyframe's GL
// code runs on, runs functions on the main OS thread where GLFW requires
// it, and implements lifetime.Fence with GL sync objects.
//
// It is the one place where GLFW is touched; upload/glbuf and
// descriptors/gltex import it for the context rules and the fence, and no
// core package imports it.
//
// # Ownership
//
// A GL context is current on exactly one OS thread. A Context and every
// Fence made while it is current belong to the goroutine that created the
// Context; that goroutine must stay locked to its OS thread
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
// the window and, with the last Context, terminates GLFW. A Fence owns one
// GL sync object at a time: Signal deletes the previous one and inserts a
// new one, Close deletes the last. Fences must be closed before their
// Context.
package glctx
