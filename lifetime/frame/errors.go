package frame

import "errors"

// Sentinel errors returned by this package. Deferred.Schedule, which runs
// in frames, returns ErrDeferredFull and ErrClosed bare (test them with
// ==, a switch or errors.Is, none of which allocates; LastRefusal holds
// the detail). The other calls, at frame boundaries and teardown, wrap
// theirs with the frame serial, name or count involved: check those with
// errors.Is.
var (
	// ErrClosed is returned by every error-returning call on a Clock,
	// Deferred or Fence after Close.
	ErrClosed = errors.New("frame: closed")
	// ErrFenceTimeout is returned when a fence did not signal in time. The
	// wrapping message names the frame serial that is stuck.
	ErrFenceTimeout = errors.New("frame: fence timeout")
	// ErrFrameOrder is returned by BeginFrame while a frame is open, or by
	// EndFrame while none is.
	ErrFrameOrder = errors.New("frame: frame begin/end out of order")
	// ErrDeferredFull is returned by Deferred.Schedule when the queue is at
	// capacity. The work is not queued; the caller still owns it.
	ErrDeferredFull = errors.New("frame: deferred release queue full")
	// ErrPending is returned by Deferred.Close while release work is still
	// queued. The Deferred stays open and following its clock, which
	// releases the work as frames complete (Drain releases all of it).
	ErrPending = errors.New("frame: release work still pending")
	// ErrFollowed is returned by Clock.Close while managers still follow
	// the clock; the clock stays open.
	ErrFollowed = errors.New("frame: clock still has followers")
	// ErrReentrant is returned by a Clock's state-changing calls made from
	// inside one of its followers' calls; nothing changes.
	ErrReentrant = errors.New("frame: clock called back from a follower")
	// ErrInvalidConfig is returned by constructors given impossible settings
	// and by calls given impossible arguments.
	ErrInvalidConfig = errors.New("frame: invalid configuration")
)
