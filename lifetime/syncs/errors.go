package syncs

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is.
var (
	// ErrBarrierTimeout is returned by Barrier.Wait when the owner goroutine
	// did not complete a pass in time (it may be stalled).
	ErrBarrierTimeout = errors.New("syncs: drain barrier timeout")
	// ErrBarrierBusy is returned by Barrier.Seize when the barrier could
	// not be seized in time: the owner stayed inside a pass for the whole
	// timeout, or another requester held its Seize; the wrapping message
	// says which.
	ErrBarrierBusy = errors.New("syncs: drain barrier busy")
	// ErrBarrierOwner is wrapped, together with ErrBarrierTimeout or
	// ErrBarrierBusy, by Barrier.Wait, WaitEpoch and Seize when they time
	// out on the barrier's own owner goroutine, which can never finish a
	// pass while it waits for one.
	ErrBarrierOwner = errors.New("syncs: drain barrier waited on from its owner goroutine")
	// ErrInvalidCapacity is returned by NewQueue for a capacity outside
	// 1..MaxQueueCapacity.
	ErrInvalidCapacity = errors.New("syncs: invalid queue capacity")
)
