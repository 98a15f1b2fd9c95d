package guard

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is.
var (
	// ErrAllocation is returned by Guard.Err once an armed frame has
	// allocated; the wrapping message names the frame and its first site.
	ErrAllocation = errors.New("guard: heap allocation in a guarded frame")
	// ErrInvalidConfig is returned by New given impossible settings.
	ErrInvalidConfig = errors.New("guard: invalid configuration")
)

// ErrFrameOrder is recorded by Guard.Err when BeginFrame and EndFrame do
// not alternate: a frame begun twice or ended without a begin.
var ErrFrameOrder = errors.New("guard: BeginFrame/EndFrame out of order")
