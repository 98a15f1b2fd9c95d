package glfence

import (
	"fmt"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// Fence is a frame.Fence over a GL sync object: Signal inserts
// glFenceSync after all commands issued so far, Wait blocks in
// glClientWaitSync. Both Wait and Done pass SYNC_FLUSH_COMMANDS_BIT, so a
// fence whose commands still sit in the driver's queue is flushed rather
// than waited on forever.
//
// A Fence belongs to the goroutine that owns the current GL context (the
// render goroutine); it is not safe for concurrent use.
type Fence struct {
	sync   uintptr // 0: never signalled, or already observed complete
	closed bool
	// unproven is set by a Close that deleted a sync object not yet
	// seen complete: nothing can prove that point complete any more, so
	// Done reports false and Wait fails from then on.
	unproven bool

	signals uint64
}

// Compile-time proof that Fence satisfies the lifetime contract.
var _ frame.Fence = (*Fence)(nil)

// New returns an unsignalled fence. Its signature is the one
// frame.ClockDesc.NewFence takes:
//
//	frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
//
// It runs on the GL context current on the calling thread, which the
// application made, and checks that
// context first (glcaps.Check): OpenGL 3.2 or GL_ARB_sync. When it falls
// short, New returns an error prefixed "glfence:" that matches
// glcaps.ErrNoContext, glcaps.ErrMissingFeature or glcaps.ErrNotLoaded
// and says what to do, so NewClock fails instead of the first frame.
func New() (frame.Fence, error) {
	if err := glcaps.Check(glcaps.FeatureSync); err != nil {
		return nil, fmt.Errorf("glfence: %w", err)
	}
	return &Fence{}, nil
}

// Signal deletes the previous sync object, if any, and inserts a new one
// after every command issued so far.
func (f *Fence) Signal() error {
	if f.closed {
		return fmt.Errorf("%w: Signal on a closed fence", frame.ErrClosed)
	}
	f.drop()
	f.sync = gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
	if f.sync == 0 {
		return fmt.Errorf("glfence: glFenceSync failed (GL error 0x%x)", gl.GetError())
	}
	f.signals++
	return nil
}

// Wait blocks until the signalled commands have completed or timeout has
// passed; it returns frame.ErrFenceTimeout (wrapped) on timeout. A fence
// never signalled is complete.
func (f *Fence) Wait(timeout time.Duration) error {
	if f.closed {
		return fmt.Errorf("%w: Wait on a closed fence", frame.ErrClosed)
	}
	if f.sync == 0 {
		return nil
	}
	if timeout < 0 {
		timeout = 0
	}
	switch r := gl.ClientWaitSync(f.sync, gl.SYNC_FLUSH_COMMANDS_BIT, uint64(timeout)); r {
	case gl.ALREADY_SIGNALED, gl.CONDITION_SATISFIED:
		f.drop()
		return nil
	case gl.TIMEOUT_EXPIRED:
		return fmt.Errorf("%w: GL sync after %v", frame.ErrFenceTimeout, timeout)
	default:
		return fmt.Errorf("glfence: glClientWaitSync returned 0x%x (GL error 0x%x)", r, gl.GetError())
	}
}

// Done reports without blocking whether the signalled commands have
// completed. It flushes them so that a later Done can see them finish.
// After Close it reports true only if the fence was complete when it was
// closed: a clock that still holds the fence must not take a deleted
// sync object for a finished frame.
func (f *Fence) Done() bool {
	if f.closed {
		return !f.unproven
	}
	if f.sync == 0 {
		return true
	}
	switch gl.ClientWaitSync(f.sync, gl.SYNC_FLUSH_COMMANDS_BIT, 0) {
	case gl.ALREADY_SIGNALED, gl.CONDITION_SATISFIED:
		f.drop()
		return true
	}
	return false
}

// Signals returns how many times the fence has been signalled.
func (f *Fence) Signals() uint64 { return f.signals }

// Close deletes the sync object. Signal and Wait after Close fail with
// frame.ErrClosed. Done after Close reports false if the sync object was
// not yet seen complete, forever: no frame it fenced is ever reported
// complete on a deleted sync. Close itself is idempotent.
func (f *Fence) Close() error {
	if f.closed {
		return nil
	}
	f.unproven = f.sync != 0
	f.drop()
	f.closed = true
	return nil
}

// drop deletes the sync object once it is complete or replaced: a
// completed sync stays complete, so there is no reason to keep the GL name.
func (f *Fence) drop() {
	if f.sync != 0 {
		gl.DeleteSync(f.sync)
		f.sync = 0
	}
}
