// Package lifetime holds the machinery that makes every resource lifetime in
// steadyframe explicit and keeps steady-state frames free of heap
// allocation: a frame clock with device fences, a deferred release queue
// keyed by frame serial, drain barriers between goroutines, an ordered and
// logged teardown, and an allocation guard that names the sites it catches.
//
// Frames hands out frame serials (1, 2, 3, ...; 0 means "no frame") and
// keeps InFlight frames in flight (default 3). Each frame's end is marked
// by a Fence; CPUFence serves headless work and tests, and the GL fence is
// supplied through FramesDesc.NewFence by the packages that own a context.
// BeginFrame waits only for the frame whose slot it reuses; Drain waits for
// all of them. Both time out with ErrFenceTimeout naming the stuck frame.
//
// Deferred runs release work scheduled in frame N once Frames reports frame
// N complete, in scheduling order, from a ring sized at construction: a full
// ring refuses with ErrDeferredFull and the caller keeps the work.
//
// Barrier lets an owner goroutine (the audio mixer) prove to another that
// nothing it owns still references something, by finishing a whole pass
// after the request. When the owner is stalled, Seize locks it out so the
// requester can do the owner's pass itself.
//
// Teardown runs named shutdown stages in declared order, logs each with its
// duration, joins their errors, skips stages whose prerequisite failed, and
// rejects cycles, unknown or duplicate stages, and a resource released
// before a stage that still uses it (Uses), before anything runs.
//
// FrameGuard counts heap allocations per frame with runtime.ReadMemStats
// once it has settled (120 frames by default). With EnableSiteProfiling and
// GuardDesc.Sites it names each violation's call sites from
// runtime.MemProfile and logs each unique site once. Allow tolerates named
// third-party sites, each with a reason; nothing else is exempt except
// allocations with no caller outside the runtime (RuntimeReason), which are
// reported as tolerated. AllocPoke is the deliberate violation that guard
// self-tests must catch. The guard's steady path costs two ReadMemStats
// calls per frame, each a brief stop-the-world: 20 to 70 µs per frame on
// the shared 2-core development machine depending on load
// (BenchmarkGuardFrame), and a violation in site mode costs a forced GC and
// a profile read, about 4 ms (BenchmarkGuardViolationSites). It belongs in
// test and stress runs, not in a shipped frame loop. Mallocs is process
// wide, so every goroutine is guarded, not only the frame goroutine; and a
// violation is per frame, not per worker tick.
//
// # Ownership
//
// Frames, Deferred, FrameGuard and Teardown each belong to one goroutine
// and are not safe for concurrent use: Frames, Deferred and FrameGuard to
// the goroutine that runs frames (the render goroutine, with the GL context
// current when its fences are GL fences), Teardown to the goroutine that
// shuts the program down. Other goroutines reach them through their
// owner's queues. A Fence belongs to its Frames' owner; only
// CPUFence.Complete and CPUFence.Done may be called from any goroutine.
// A Barrier's Enter and Exit belong to its owner goroutine, identified at
// its first Enter or by SetOwner; Request, Reached, Wait, WaitEpoch, Seize, Unseize and
// Stats may be called from any goroutine, with one Seize held at a time.
// A Releaser's Release is called on the goroutine that calls Deferred.Run.
// GuardReport and StageResult values and their slices are copies owned by
// the caller.
//
// # Lifetime
//
// A Frames lives from NewFrames until Close; call Drain first, since Close
// waits for nothing, and every later error-returning call fails with
// ErrClosed, while Poll stops querying the closed fences and leaves
// Completed where it was, so nothing is released on their account. A resource referenced by frame N stays alive until frame N
// completes: schedule its release with Deferred.Schedule(N, ...) and call
// Run(frames.Completed()) each frame. Deferred.Close refuses new work;
// work still queued is reported with ErrPending and Run still releases it.
// A Barrier needs no construction (its zero value is ready) and no Close;
// an epoch returned by Request stays valid for the Barrier's life. A
// FrameGuard lives for a session: it arms after Settle frames, Resettle
// disarms it across knowingly unsteady frames (a level load), and each
// unique site is logged once per guard. A Teardown runs once: Add and Uses
// build it, Validate checks it at startup, and Run executes it at exit,
// after which every call returns ErrTeardownTwice.
package lifetime
