// Package upload provides per-frame upload arenas: bump allocators over
// one persistently mapped buffer, one region per frame in flight. So the
// CPU writes frame N+2 while the device still reads frame N. The regions
// are fenced, so the CPU never writes one the device has not finished
// with.
//
// A renderer makes one Set with an arena per consumer, in a layout of its
// own choosing (SetDesc.Arenas: names and bytes per frame). It hands the
// Set the frame clock it runs (lifetime/frame). The Set follows the
// clock, so the renderer opens and closes the arenas where it opens and
// closes the frame:
//
//	serial, err := clock.BeginFrame()  // waits only for the frame InFlight ago
//	off, view, err := sprites.Alloc(n, 16)
//	copy(view, vertices)               // then bind (buffer, off, n) for a draw
//	err = clock.EndFrame()             // closes the arenas, then fences the frame
//
// Alloc returns a refusal as a bare sentinel, with the detail in
// Arena.LastRefusal. TryAlloc is the same reservation, inlined, for the
// hottest loops; it reports a refusal as ok false.
//
// The package holds no GL: a Backend supplies the buffer and the clock
// the fences. CPUBackend runs everything on plain memory for tests and
// headless servers. upload/glbuf maps a GL buffer made with
// glNamedBufferStorage(MAP_WRITE | MAP_PERSISTENT | MAP_COHERENT), and
// lifetime/glfence fences the clock's frames with GL sync objects.
//
// # Ownership
//
// A Set, its Arenas and its Backend belong to the render goroutine: for
// GL, the one with the context current, which runs the frame clock. None
// is safe for concurrent use. Other goroutines hand data to the render
// goroutine through a queue and let it copy into an arena. The Set owns
// the buffer and its Backend. The renderer owns the clock, which the Set
// follows from NewSet until Close.
//
// # Lifetime
//
// The buffer is created and mapped once by NewSet and unmapped by Close.
// A view returned by Alloc or TryAlloc is valid for exactly the frame that
// allocated it: write it before the clock's EndFrame, never keep it. The
// device reads it until that frame's fence signals. The region is handed
// out again InFlight frames later, after the clock's BeginFrame has
// waited for that fence.
//
// Close refuses (ErrInFlight) while a frame that may read the buffer is
// open or incomplete. So the teardown is: EndFrame, Drain the clock,
// Close the Set, then Close the clock and the device context. The clock
// refuses to close while the Set still follows it. Closing the backend
// directly (set.Backend().Close()) closes the Set the same way, and
// refuses as Set.Close does.
//
// An error Alloc returns is a sentinel and never changes. LastRefusal
// returns a plain Refusal, safe to keep. Debug mode (SetDesc.Debug or
// -tags steadyframe_debug) scribbles each recycled region with Scribble
// bytes. It also logs each region's frame serial, so Arena.CheckView
// catches a view used after its frame.
package upload
