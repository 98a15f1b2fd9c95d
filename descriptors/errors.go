package descriptors

import (
	"errors"
	"fmt"
)

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the handle, counts or heap involved.
var (
	// ErrHeapExhausted is returned by Alloc and AllocN when no slot is free.
	// Its message quotes live, peak, pending and capacity, because a full
	// heap almost always means textures are leaking (live near peak, never
	// freed) or frames are not completing (pending high), not that the
	// capacity is too small.
	ErrHeapExhausted = errors.New("descriptors: heap exhausted")
	// ErrInvalidHandle is returned for the zero handle, a handle of
	// another heap, a handle whose index is outside the heap, or a handle
	// repeated in one batch.
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
	// ErrInUse is returned by Close while slots are live or waiting for
	// their frames; the message counts them.
	ErrInUse = errors.New("descriptors: slots still in use")
)

// refusal is the error a Heap returns for every refused call, one struct
// owned by the heap: Alloc on a full heap and Free of a stale handle sit
// on frame paths, and their refusal must not allocate. The call fills in
// what it knows (plain values only) and returns a pointer to it; the
// message is formatted only when Error is called. Each refusal overwrites
// the previous one, so read the error (Error, errors.Is) before the heap's
// next refusal, and copy the message out if it must outlive that.
type refusal struct {
	heap    string
	kind    error // the sentinel: ErrHeapExhausted, ErrInvalidHandle, ErrStaleHandle or ErrClosed
	op      string
	handle  Handle
	repeat  bool // the handle appeared twice in one FreeN batch
	foreign bool // the handle was issued by another heap
	// Exhaustion: slots asked for, and the heap's numbers when refused.
	want, live, peak, pending, capacity int
}

func (e *refusal) Error() string {
	switch {
	case e.kind == ErrClosed:
		return fmt.Sprintf("%v: %s on heap %q", e.kind, e.op, e.heap)
	case e.kind == ErrHeapExhausted:
		return fmt.Sprintf("%v: %q cannot supply %d slot(s): live %d, peak %d, pending %d, capacity %d "+
			"(live near capacity means textures are never freed; pending high means frames are not completing)",
			e.kind, e.heap, e.want, e.live, e.peak, e.pending, e.capacity)
	case e.repeat:
		return fmt.Sprintf("%v: %v appears twice in one FreeN batch on heap %q", e.kind, e.handle, e.heap)
	case e.handle.IsZero():
		return fmt.Sprintf("%v: zero handle passed to %s on heap %q", e.kind, e.op, e.heap)
	case e.kind == ErrInvalidHandle && e.foreign:
		return fmt.Sprintf("%v: %v passed to %s was issued by another heap than %q", e.kind, e.handle, e.op, e.heap)
	case e.kind == ErrInvalidHandle:
		return fmt.Sprintf("%v: %v passed to %s is outside heap %q of %d slots", e.kind, e.handle, e.op, e.heap, e.capacity)
	}
	return fmt.Sprintf("%v: %v passed to %s on heap %q (freed since it was issued; the slot may hold another texture now)",
		e.kind, e.handle, e.op, e.heap)
}

// Unwrap returns the sentinel the refusal matches.
func (e *refusal) Unwrap() error { return e.kind }
