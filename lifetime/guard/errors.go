package guard

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is.
var (
	// ErrAllocation is returned by Guard.Err and Guard.Verdict once a
	// checked span has allocated or started a goroutine; the wrapping
	// message names the frame or frames and the first site.
	ErrAllocation = errors.New("guard: heap allocation in a guarded frame")
	// ErrInvalidConfig is returned by New given impossible settings.
	ErrInvalidConfig = errors.New("guard: invalid configuration")
	// ErrTooFewFrames is returned by Guard.Verdict when fewer armed frames
	// were checked than Desc.MinFrames: a run that guarded (almost)
	// nothing proves nothing, so it is not a pass. The wrapping message
	// says how many ran, how many were required and why.
	ErrTooFewFrames = errors.New("guard: too few guarded frames for a verdict")
)

// ErrFrameOrder is recorded by Guard.Err when BeginFrame and EndFrame do
// not alternate (a frame begun twice or ended without a begin), or when
// CloseWindow, Resettle or Verdict is called inside a frame.
var ErrFrameOrder = errors.New("guard: BeginFrame/EndFrame out of order")
