package upload

import (
	"errors"
	"fmt"
)

// Sentinel errors returned by this package. Arena.Alloc returns them bare,
// so ==, a switch and errors.Is test its refusals without allocating.
// Arena.LastRefusal has the detail. NewSet, Close, CheckView and
// ViewSerial wrap them with what was wrong: test those with errors.Is.
var (
	// ErrArenaFull is returned by Alloc when the current frame's region has
	// no room left. Nothing is overwritten and nothing grows; the failure
	// is counted in Stats.Failures.
	ErrArenaFull = errors.New("upload: arena full")
	// ErrInvalidSize is returned by Alloc for a size below 1 or above the
	// region's capacity, and by NewSet for an arena size below 1.
	ErrInvalidSize = errors.New("upload: invalid size")
	// ErrInvalidAlign is returned by Alloc for an alignment that is not a
	// power of two in [1, MaxAlign], and by NewSet for a bad backend
	// alignment.
	ErrInvalidAlign = errors.New("upload: invalid alignment")
	// ErrNoFrame is returned by Alloc between frames: outside the frame
	// clock's BeginFrame and EndFrame.
	ErrNoFrame = errors.New("upload: no frame open")
	// ErrInFlight is returned by Set.Close while a frame that may read the
	// Set's buffer is open or not yet complete on the device; the Set
	// stays usable. Drain the frame clock first.
	ErrInFlight = errors.New("upload: frames in flight")
	// ErrInvalidConfig is returned by NewSet given impossible settings.
	ErrInvalidConfig = errors.New("upload: invalid configuration")
	// ErrClosed is returned by every call after Set.Close.
	ErrClosed = errors.New("upload: closed")
	// ErrStaleView is returned by Arena.CheckView (debug mode) for a view
	// that was not allocated in the open frame.
	ErrStaleView = errors.New("upload: stale view")
	// ErrUnknownView is returned by Arena.CheckView and ViewSerial for a
	// view that is not part of this arena, or when debug mode is off.
	ErrUnknownView = errors.New("upload: view unknown to this arena")
)

// Refusal describes an Arena's refused Alloc. Arena.LastRefusal returns
// the latest one. It is a plain value, safe to keep and to hand to any
// goroutine.
type Refusal struct {
	// Err is the bare sentinel the refusal matches: ErrArenaFull,
	// ErrInvalidSize, ErrInvalidAlign, ErrNoFrame or ErrClosed. It is nil
	// while nothing has been refused.
	Err error
	// Arena is the arena's name; Size and Align are the refused request.
	Arena       string
	Size, Align int
	// Used and Capacity are the bytes the frame had used and could use.
	Used, Capacity int
	// Frame is the serial of the frame that refused (0 between frames);
	// InFrame counts the refusals of that frame so far, this one included.
	Frame, InFrame uint64
}

// String formats r as one line with advice, or "none". It allocates:
// call it when logging, not in a guarded frame.
func (r Refusal) String() string {
	switch r.Err {
	case nil:
		return "none"
	case ErrClosed:
		return fmt.Sprintf("%v: Alloc on arena %q", r.Err, r.Arena)
	case ErrNoFrame:
		return fmt.Sprintf("%v: Alloc on arena %q (Alloc between the frame clock's BeginFrame and EndFrame)", r.Err, r.Arena)
	case ErrInvalidSize:
		return fmt.Sprintf("%v: %d bytes from arena %q (want 1..%d)", r.Err, r.Size, r.Arena, r.Capacity)
	case ErrInvalidAlign:
		return fmt.Sprintf("%v: %d for arena %q (want a power of two up to %d)", r.Err, r.Align, r.Arena, MaxAlign)
	}
	return fmt.Sprintf("%v: %q frame %d: %d bytes (align %d) requested, %d of %d used (%d failures this frame)",
		r.Err, r.Arena, r.Frame, r.Size, r.Align, r.Used, r.Capacity, r.InFrame)
}

// refusal keeps an Arena's latest refusal. TryAlloc only records the
// request and counts it, which keeps it inlinable and allocation-free: an
// overflowing particle system may be refused hundreds of times a frame,
// and the refusal must not become the allocation it exists to prevent.
// What the refusal was (ErrArenaFull, ErrInvalidSize, ...) is worked out
// from the arena when it is read. Alloc reads it at once, to return the
// sentinel. The arena settles its latest refusal at each frame boundary
// and at Close, so a refusal read after its frame ended still describes
// that frame. Within a frame, a TryAlloc refusal read after a later grant
// quotes the bytes used since.
type refusal struct {
	a       *Arena
	settled uint64 // the arena's refused count when frozen was taken
	frozen  Refusal
}

// settle freezes the latest refusal if it happened since the last
// freeze, and returns its sentinel.
func (e *refusal) settle() error {
	if e.a.refused != e.settled {
		e.frozen, e.settled = e.a.classify(), e.a.refused
	}
	return e.frozen.Err
}

func (e *refusal) state() Refusal {
	if e.a.refused == e.settled {
		return e.frozen
	}
	return e.a.classify()
}

// classify says what the arena's latest refusal was, in the order a
// caller fixes them: no frame, then the request, then the room.
func (a *Arena) classify() Refusal {
	r := Refusal{Arena: a.name, Size: a.size, Align: a.align, Used: a.next - a.start, Capacity: a.capacity,
		Frame: a.set.serial, InFrame: a.refused - a.refusedOpen}
	switch {
	case a.set.closed:
		r.Err = ErrClosed
	case a.limit == 0:
		r.Err = ErrNoFrame
	case a.size < 1 || a.size > a.capacity:
		r.Err = ErrInvalidSize
	case !validAlign(a.align):
		r.Err = ErrInvalidAlign
	default:
		r.Err = ErrArenaFull
	}
	return r
}
