package lifetime

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the frame serial, name or count involved.
var (
	// ErrClosed is returned by every error-returning call on a Frames,
	// Deferred or Fence after Close.
	ErrClosed = errors.New("lifetime: closed")
	// ErrFenceTimeout is returned when a fence did not signal in time. The
	// wrapping message names the frame serial that is stuck.
	ErrFenceTimeout = errors.New("lifetime: fence timeout")
	// ErrFrameOrder is returned by BeginFrame while a frame is open, or by
	// EndFrame while none is.
	ErrFrameOrder = errors.New("lifetime: frame begin/end out of order")
	// ErrDeferredFull is returned by Deferred.Schedule when the queue is at
	// capacity. The work is not queued; the caller still owns it.
	ErrDeferredFull = errors.New("lifetime: deferred release queue full")
	// ErrBarrierTimeout is returned by Barrier.Wait when the owner goroutine
	// did not complete a pass in time (it may be stalled).
	ErrBarrierTimeout = errors.New("lifetime: drain barrier timeout")
	// ErrBarrierBusy is returned by Barrier.Seize when the barrier could
	// not be seized in time: the owner stayed inside a pass for the whole
	// timeout, or another requester held its Seize; the wrapping message
	// says which.
	ErrBarrierBusy = errors.New("lifetime: drain barrier busy")
	// ErrBarrierOwner is wrapped, together with ErrBarrierTimeout or
	// ErrBarrierBusy, by Barrier.Wait, WaitEpoch and Seize when they time
	// out on the barrier's own owner goroutine, which can never finish a
	// pass while it waits for one.
	ErrBarrierOwner = errors.New("lifetime: drain barrier waited on from its owner goroutine")
	// ErrPending is returned by Deferred.Close while release work is still
	// queued. The work is kept; Run still releases it.
	ErrPending = errors.New("lifetime: release work still pending")
	// ErrAllocation is returned by FrameGuard.Err once an armed frame has
	// allocated; the wrapping message names the frame and its first site.
	ErrAllocation = errors.New("lifetime: heap allocation in a guarded frame")
	// ErrTeardownDuplicate is returned by Teardown.Add for a stage name
	// already registered; the first stage is kept.
	ErrTeardownDuplicate = errors.New("lifetime: teardown stage registered twice")
	// ErrTeardownUnknown is returned when a teardown stage follows, or a
	// Uses names, a stage that was never added.
	ErrTeardownUnknown = errors.New("lifetime: unknown teardown stage")
	// ErrTeardownCycle is returned when teardown stages follow each other
	// in a cycle; the wrapping message names the cycle.
	ErrTeardownCycle = errors.New("lifetime: teardown dependency cycle")
	// ErrTeardownOrder is returned when a stage releases a resource that
	// another stage still uses and is not ordered after it; the wrapping
	// message names both.
	ErrTeardownOrder = errors.New("lifetime: teardown releases a resource still in use")
	// ErrTeardownSkipped reports a stage that was not run because a
	// prerequisite failed; the wrapping message names the prerequisite.
	ErrTeardownSkipped = errors.New("lifetime: teardown stage skipped")
	// ErrTeardownTwice is returned by a Teardown's Run, Add or Uses once
	// its stages have run.
	ErrTeardownTwice = errors.New("lifetime: teardown run twice")
	// ErrInvalidConfig is returned by constructors given impossible settings
	// and by calls given impossible arguments.
	ErrInvalidConfig = errors.New("lifetime: invalid configuration")
)
