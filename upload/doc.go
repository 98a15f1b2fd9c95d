// Package upload provides per-frame upload arenas: bump allocators over
// one persistently mapped buffer, one region per frame in flight, so the
// CPU writes frame N+2 while the device still reads frame N, and fenced so
// it never writes a region the device has not finished with.
//
// A renderer makes one Set with an arena per consumer, in a layout of its
// own choosing (SetDesc.Arenas: names and bytes per frame), and hands it
// the frame clock it runs (lifetime/frame). The Set follows the clock, so
// the renderer opens and closes the arenas where it opens and closes the
// frame:
//
//	serial, err := clock.BeginFrame()  // waits only for the frame InFlight ago
//	off, view, err := sprites.Alloc(n, 16)
//	copy(view, vertices)               // then bind (buffer, off, n) for a draw
//	err = clock.EndFrame()             // closes the arenas, then fences the frame
//
// The package holds no GL: a Backend supplies the buffer and the clock the
// fences. CPUBackend runs everything on plain memory for tests and
// headless servers; upload/glbuf maps a GL buffer made with
// glNamedBufferStorage(MAP_WRITE | MAP_PERSISTENT | MAP_COHERENT), and
// lifetime/glfence fences the clock's frames with GL sync objects.
//
// # Ownership
//
// A Set, its Arenas and its Backend belong to the render goroutine (for GL,
// the one with the context current), the goroutine that runs the frame
// clock; none is safe for concurrent use. Other goroutines hand data to
// the render goroutine through a queue and let it copy into an arena. The
// Set owns the buffer and its Backend; the renderer owns the clock, which
// the Set follows from NewSet until Close.
//
// # Lifetime
//
// The buffer is created and mapped once by NewSet and unmapped by Close.
// A view returned by Alloc is valid for exactly the frame that allocated
// it: write it before the clock's EndFrame, never keep it. The device
// reads it until that frame's fence signals, and the region is handed out
// again InFlight frames later, after the clock's BeginFrame has waited for
// that fence. Close refuses (ErrInFlight) while a frame that may read the
// buffer is open or incomplete, so the teardown is: EndFrame, Drain the
// clock, Close the Set, then Close the clock (which refuses while the Set
// still follows it) and the device context. Closing the backend
// directly (set.Backend().Close()) closes the Set the same way, and
// refuses as Set.Close does. An Alloc error is the arena's own value,
// valid until its next refusal; Arena.LastRefusal copies it into a plain
// Refusal, whose Err is the bare sentinel. Debug mode (SetDesc.Debug or
// -tags steadyframe_debug) scribbles each recycled region with Scribble
// bytes and logs each region's frame serial, so Arena.CheckView catches a
// view used after its frame.
package upload
