package descriptors

import (
	"errors"
	"fmt"
)

// Sentinel errors returned by this package. A Heap's refusals (a full
// heap, a bad handle, a closed heap, a call from its SlotReleaser) return
// the sentinel itself, never wrapped: ==, a switch and errors.Is test it
// without allocating, and a returned error never changes. The detail of
// the latest refusal is the heap's: Heap.LastRefusal. Constructors and
// Grow, which allocate anyway, wrap their sentinel with what was wrong.
var (
	// ErrHeapExhausted is returned by Alloc and AllocN when no slot is
	// free. LastRefusal quotes live, peak, pending, retired and capacity.
	// A full heap almost always means one of three things, not that the
	// capacity is too small. Textures are leaking (live near peak, never
	// freed), frames are not completing (pending high), or slots have
	// spent their generations (retired).
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
	// ErrReentrant is returned by every Heap call a SlotReleaser makes
	// from inside ReleaseSlot; nothing changes. The heap is reclaiming
	// then, and a slot it hands back may be the next one it releases.
	ErrReentrant = errors.New("descriptors: heap called from its SlotReleaser")
)

// Refusal describes a Heap's refused call: what its bare sentinel leaves
// out. Heap.LastRefusal returns the latest one. It is a plain value,
// safe to keep and to hand to any goroutine.
type Refusal struct {
	// Err is the sentinel the call returned; nil while nothing has been
	// refused.
	Err error
	// Heap is the heap's name, Call the refused method ("Alloc", "Free",
	// ...).
	Heap, Call string
	// Handle is the handle refused (zero for Alloc and AllocN). Foreign
	// says it was issued by another heap; Repeat that it appeared twice in
	// one FreeN batch.
	Handle  Handle
	Foreign bool
	Repeat  bool
	// Want is the number of slots asked for; Live, Peak, Pending, Retired
	// and Capacity are the heap's numbers when it refused.
	Want, Live, Peak, Pending, Retired, Capacity int
}

// String formats r as one line with advice, or "none". It allocates:
// call it when logging, not in a guarded frame.
func (r Refusal) String() string {
	switch {
	case r.Err == nil:
		return "none"
	case r.Err == ErrClosed:
		return fmt.Sprintf("%v: %s on heap %q", r.Err, r.Call, r.Heap)
	case r.Err == ErrReentrant:
		return fmt.Sprintf("%v: %s on heap %q from inside ReleaseSlot (release the device object only)", r.Err, r.Call, r.Heap)
	case r.Err == ErrHeapExhausted:
		return fmt.Sprintf("%v: %q cannot supply %d slot(s): live %d, peak %d, pending %d, retired %d, capacity %d (%s)",
			r.Err, r.Heap, r.Want, r.Live, r.Peak, r.Pending, r.Retired, r.Capacity, r.advice())
	case r.Repeat:
		return fmt.Sprintf("%v: %v appears twice in one FreeN batch on heap %q", r.Err, r.Handle, r.Heap)
	case r.Handle.IsZero():
		return fmt.Sprintf("%v: zero handle passed to %s on heap %q", r.Err, r.Call, r.Heap)
	case r.Foreign:
		return fmt.Sprintf("%v: %v passed to %s was issued by another heap than %q", r.Err, r.Handle, r.Call, r.Heap)
	case r.Err == ErrInvalidHandle:
		return fmt.Sprintf("%v: %v passed to %s is outside heap %q of %d slots", r.Err, r.Handle, r.Call, r.Heap, r.Capacity)
	}
	return fmt.Sprintf("%v: %v passed to %s on heap %q (freed since it was issued; the slot may hold another texture now)",
		r.Err, r.Handle, r.Call, r.Heap)
}

// advice says what an exhaustion most likely means, largest cause first.
func (r Refusal) advice() string {
	switch {
	case r.Retired > 0 && r.Retired >= r.Live && r.Retired >= r.Pending:
		return "retired slots spent their generations and are never reused; Grow the heap to replace them"
	case r.Pending > r.Live:
		return "pending high means frames are not completing"
	}
	return "live near capacity means textures are never freed; pending high means frames are not completing"
}
