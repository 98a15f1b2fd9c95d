// Package frame is the frame clock of a renderer: it hands out frame
// serials, fences each frame on the device, and proves when a frame's
// resources may be released.
//
// Clock hands out serials (1, 2, 3, ...; 0 means "no frame") and keeps
// InFlight frames in flight (default 3). Each frame's end is marked by a
// Fence; CPUFence serves headless work and tests, and lifetime/glfence
// supplies the GL fence through ClockDesc.NewFence. BeginFrame waits only
// for the frame whose fence it reuses; Drain waits for all of them. Both
// time out with ErrFenceTimeout naming the stuck frame.
//
// Deferred runs release work scheduled in frame N once the Clock reports
// frame N complete, in scheduling order, from a ring sized at
// construction: a full ring refuses with ErrDeferredFull and the caller
// keeps the work.
//
// # Ownership
//
// A Clock, its Fences and a Deferred belong to the goroutine that runs
// frames (the render goroutine, with the GL context current when the
// fences are GL fences); none is safe for concurrent use. Other
// goroutines reach them through their owner's queue. Only
// CPUFence.Complete and CPUFence.Done may be called from any goroutine. A
// Releaser's Release is called on the goroutine that calls Deferred.Run.
//
// # Lifetime
//
// A Clock lives from NewClock until Close; call Drain first, since Close
// waits for nothing. After Close every error-returning call fails with
// ErrClosed, and Poll stops querying the closed fences and leaves
// Completed where it was, so nothing is released on their account. A
// resource referenced by frame N stays alive until frame N completes:
// schedule its release with Deferred.Schedule(N, ...) and call
// Run(clock.Completed()) each frame. Deferred.Close refuses new work; work
// still queued is reported with ErrPending and Run still releases it.
package frame
