package frame

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// Fence marks the end of one frame's work on a device (a GPU queue, or
// nothing at all for CPU-only work). A Clock holds one Fence per frame in
// flight and reuses it every InFlight frames.
//
// A Fence belongs to the goroutine that owns the Clock using it (for GL, the
// render goroutine with the context current); it is not safe for concurrent
// use unless an implementation says otherwise.
type Fence interface {
	// Signal arms the fence after all work submitted so far. A fence that is
	// signalled again replaces its previous point.
	Signal() error
	// Wait blocks until the armed point has completed or timeout passes. A
	// fence that was never armed counts as complete. It returns
	// ErrFenceTimeout (wrapped) on timeout.
	Wait(timeout time.Duration) error
	// Done reports, without blocking, whether the armed point has completed.
	Done() bool
	// Close releases the fence's device object. Calls after Close fail.
	Close() error
}

// CPUFence is a Fence for CPU-only and headless work, and for tests that
// need a slow "GPU". In automatic mode it completes the moment it is
// signalled. In manual mode it completes only when Complete is called, from
// any goroutine, which lets a test hold a frame in flight.
//
// Signal, Wait, Done and Close belong to the owner goroutine; Complete and
// Done may be called from any goroutine.
type CPUFence struct {
	manual bool
	// armed and completed are sequence numbers: the fence is done when
	// completed >= armed.
	armed     atomic.Uint64
	completed atomic.Uint64
	closed    atomic.Bool
}

// NewCPUFence returns a CPU fence. With manual false it completes on Signal.
func NewCPUFence(manual bool) *CPUFence { return &CPUFence{manual: manual} }

// Signal arms the fence. In automatic mode it is complete at once.
func (f *CPUFence) Signal() error {
	if f.closed.Load() {
		return fmt.Errorf("%w: fence", ErrClosed)
	}
	n := f.armed.Add(1)
	if !f.manual {
		syncs.StoreMaxUint64(&f.completed, n)
	}
	return nil
}

// Complete completes every point armed so far. It is the simulated GPU.
func (f *CPUFence) Complete() { syncs.StoreMaxUint64(&f.completed, f.armed.Load()) }

// Done reports whether every armed point has completed.
func (f *CPUFence) Done() bool { return f.completed.Load() >= f.armed.Load() }

// Wait polls until Done or timeout. It does not allocate.
func (f *CPUFence) Wait(timeout time.Duration) error {
	if f.closed.Load() {
		return fmt.Errorf("%w: fence", ErrClosed)
	}
	if f.Done() {
		return nil
	}
	deadline := time.Now().Add(timeout)
	for spin := 0; ; spin++ {
		if f.Done() {
			return nil
		}
		if !time.Now().Before(deadline) {
			// Only the timeout path allocates; the caller (Clock) adds
			// the frame serial.
			return fmt.Errorf("%w: CPU fence not completed after %v", ErrFenceTimeout, timeout)
		}
		syncs.Backoff(spin)
	}
}

// Close marks the fence closed.
func (f *CPUFence) Close() error {
	f.closed.Store(true)
	return nil
}
