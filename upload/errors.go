package upload

import (
	"errors"
	"fmt"
)

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the arena, sizes or frame involved.
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
	// ErrNoFrame is returned by Alloc outside BeginFrame/EndFrame.
	ErrNoFrame = errors.New("upload: no frame open")
	// ErrFrameOrder is returned by BeginFrame while a frame is open, by
	// EndFrame while none is, and when a shared lifetime.Frames is not in
	// step with the Set.
	ErrFrameOrder = errors.New("upload: frame begin/end out of order")
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

// fullError reports ErrArenaFull without allocating: each Arena keeps one
// and Alloc fills it in on failure. An overflowing particle system may fail
// hundreds of times a frame, and the failure path must not turn into the
// allocation it exists to prevent. The value is overwritten by the arena's
// next failure, so read it before the next Alloc.
type fullError struct {
	arena           string
	size, align     int
	used, capacity  int
	serial          uint64
	failuresInFrame int
}

func (e *fullError) Error() string {
	return fmt.Sprintf("upload: arena full: %q frame %d: %d bytes (align %d) requested, %d of %d used (%d failures this frame)",
		e.arena, e.serial, e.size, e.align, e.used, e.capacity, e.failuresInFrame)
}

func (e *fullError) Unwrap() error { return ErrArenaFull }
