package descriptors

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the handle, counts or heap involved.
var (
	// ErrHeapExhausted is returned by Alloc and AllocN when no slot is free.
	// Its message quotes live, peak, pending and capacity, because a full
	// heap almost always means textures are leaking (live near peak, never
	// freed) or frames are not retiring (pending high), not that the
	// capacity is too small.
	ErrHeapExhausted = errors.New("descriptors: heap exhausted")
	// ErrInvalidHandle is returned for the zero handle, a handle whose
	// index is outside the heap, or a handle repeated in one batch.
	ErrInvalidHandle = errors.New("descriptors: invalid handle")
	// ErrStaleHandle is returned for a handle whose slot has been freed
	// (and perhaps reused) since the handle was issued.
	ErrStaleHandle = errors.New("descriptors: stale handle")
	// ErrInvalidConfig is returned by NewHeap given impossible settings.
	ErrInvalidConfig = errors.New("descriptors: invalid configuration")
	// ErrInvalidCapacity is returned by Heap.Grow for a capacity that is
	// not above the current one (a heap never shrinks) or is above
	// MaxCapacity; the heap is left as it was.
	ErrInvalidCapacity = errors.New("descriptors: invalid capacity")
	// ErrClosed is returned by every call after Close.
	ErrClosed = errors.New("descriptors: closed")
	// ErrInUse is returned by Close while slots are live or waiting to
	// retire; the message counts them.
	ErrInUse = errors.New("descriptors: slots still in use")
)
