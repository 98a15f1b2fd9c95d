// Package upload provides per-frame upload arenas: bump allocators over
// one persistently mapped buffer, triple-buffered so the CPU writes frame
// N+2 while the device still reads frame N, and fenced so it never writes
// a region the device has not finished with.
//
// A renderer makes one Set with an arena per consumer (StandardArenas: the
// renderer and the sprite batch take 4 MiB per frame each, particles
// 1 MiB, so 27 MiB is reserved at start-up and never more). Each frame:
//
//	serial, err := set.BeginFrame() // waits only for the frame InFlight ago
//	off, view, err := set.Arena(upload.StandardSprites).Alloc(n, 16)
//	copy(view, vertices)             // then bind (buffer, off, n) for a draw
//	err = set.EndFrame()             // fences the frame
//
// The core of the package holds no GL: a Backend supplies the buffer and
// the fences. CPUBackend runs everything on plain memory for tests and
// headless servers; upload/glbuf maps a GL buffer made with
// glNamedBufferStorage(MAP_WRITE | MAP_PERSISTENT | MAP_COHERENT) and
// fences with GL sync objects.
//
// # Ownership
//
// A Set, its Arenas and its Backend belong to the render goroutine (for GL,
// the one with the context current); none is safe for concurrent use.
// Other goroutines hand data to the render goroutine through a queue and
// let it copy into an arena. The Set owns the buffer and, unless
// SetDesc.Frames shares the renderer's clock, its lifetime.Frames.
//
// # Lifetime
//
// The buffer is created and mapped once by NewSet and unmapped by Close.
// A view returned by Alloc is valid for exactly the frame that allocated
// it: write it before EndFrame, never keep it. The device reads it until
// that frame's fence signals, and the region is handed out again
// InFlight frames later, after BeginFrame has waited for that fence. Debug
// mode (SetDesc.Debug or -tags steadyframe_debug) scribbles each recycled
// region with Scribble bytes and logs each allocation's frame serial, so
// Arena.CheckView catches a view used after its frame. Close the Set after
// the device is done with it: a Set that owns its clock drains it in
// Close; with a shared clock, drain it before.
package upload
