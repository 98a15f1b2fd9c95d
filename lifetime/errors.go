package lifetime

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the frame serial, name or count involved.
var (
	// ErrClosed is returned by every call on a Frames, Deferred or Barrier
	// after Close.
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
	// ErrBarrierBusy is returned by Barrier.Seize when the owner stayed
	// inside a pass for the whole timeout.
	ErrBarrierBusy = errors.New("lifetime: owner goroutine stayed inside its pass")
	// ErrInvalidConfig is returned by constructors given impossible settings.
	ErrInvalidConfig = errors.New("lifetime: invalid configuration")
)
