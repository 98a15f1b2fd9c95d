// Package frame is the frame clock of a renderer. It hands out frame
// serials and fences each frame on the device. It proves when a frame's
// resources may be released. It tells the per-frame managers that follow
// it about every frame boundary.
//
// Clock hands out serials (1, 2, 3, ...; 0 means "no frame"). It keeps
// InFlight frames in flight (default 3). A Fence marks each frame's end.
// CPUFence serves headless work and tests, and lifetime/glfence supplies
// the GL fence through ClockDesc.NewFence. BeginFrame waits only for the
// frame whose fence it reuses; Drain waits for all of them. Both time out
// with ErrFenceTimeout naming the stuck frame.
//
// # The frame protocol
//
// One clock drives every per-frame manager. A manager (descriptors.Heap,
// upload.Set) takes the *Clock in its Desc and registers itself as a
// Follower. From then on the renderer opens and closes each frame in one
// place. It never passes a serial to a manager:
//
//	serial, err := clock.BeginFrame() // wait for the reused fence; followers:
//	                                  //   Retired(Completed), FrameBegun(serial)
//	... record the frame: heap.Alloc/Free, arena.Alloc ...
//	err = clock.EndFrame()            // followers: FrameEnded(serial); then the fence
//
// Poll and Drain also tell the followers what has completed. A manager
// releases an object freed while frame N was newest (Clock.Last) only in a
// Retired call whose completed is N or more. So the managers' public API
// cannot release a texture or buffer region that a frame in flight may
// read. A follower must not call back into the clock's state-changing
// methods: they return ErrReentrant.
//
// Deferred is the same rule for objects no manager owns, such as a vertex
// buffer or a program a renderer replaces. It follows the clock too. It
// keys each Schedule to the clock's newest frame (Clock.Last). It runs the
// work, in scheduling order, in the Retired call that reports that frame
// complete. Its ring is sized at construction. A full ring refuses with
// the bare ErrDeferredFull, and the caller keeps the work.
// Deferred.LastRefusal says how full it was.
//
// Histogram is the distribution of a per-frame duration: frame time, or
// the cost a manager or the allocation guard adds to a frame. It records
// without allocating and reads as quantiles within about 3%.
//
// # Ownership
//
// A Clock, its Fences, its Followers and a Deferred belong to the
// goroutine that runs frames. That is the render goroutine, with the GL
// context current when the fences are GL fences. None is safe for
// concurrent use; other goroutines reach them through their owner's queue.
// Only CPUFence.Complete and CPUFence.Done may be called from any
// goroutine.
//
// The clock calls its followers, and through a Deferred its Releasers, on
// that same goroutine. The clock owns its fences. It does not own its
// followers: the managers register and remove themselves.
//
// # Lifetime
//
// A Clock lives from NewClock until Close. Call Drain first, since Close
// waits for nothing. Close refuses with ErrFollowed while managers still
// follow the clock. Close them first (each Unfollows in its Close). So the
// teardown order is managers, then clock, then the device context the
// fences live in.
//
// After Close every error-returning call fails with ErrClosed. Poll stops
// querying the closed fences and leaves Completed where it was, so nothing
// is released on their account. A resource referenced by frame N stays
// alive until frame N completes.
//
// A Deferred follows its clock from NewDeferred until Close. Close refuses
// with ErrPending while work is queued. Drain first: the clock then runs
// the work. So nothing scheduled is lost to an early Close.
package frame
