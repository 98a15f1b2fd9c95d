package lifetime

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// Fence marks the end of one frame's work on a device (a GPU queue, or
// nothing at all for CPU-only work). Frames holds one Fence per frame in
// flight and reuses it every FramesInFlight frames.
//
// A Fence belongs to the goroutine that owns the Frames using it (for GL, the
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
		storeMax(&f.completed, n)
	}
	return nil
}

// Complete completes every point armed so far. It is the simulated GPU.
func (f *CPUFence) Complete() { storeMax(&f.completed, f.armed.Load()) }

// storeMax raises v to n unless it is already higher. Two Complete calls
// racing with a Signal could otherwise store their armed snapshots out of
// order and move completion backwards, un-completing a frame.
func storeMax(v *atomic.Uint64, n uint64) {
	for {
		old := v.Load()
		if old >= n || v.CompareAndSwap(old, n) {
			return
		}
	}
}

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
			// Only the timeout path allocates; the caller (Frames) adds
			// the frame serial.
			return fmt.Errorf("%w: CPU fence not completed after %v", ErrFenceTimeout, timeout)
		}
		backoff(spin)
	}
}

// Close marks the fence closed.
func (f *CPUFence) Close() error {
	f.closed.Store(true)
	return nil
}

// backoff yields, then sleeps for growing intervals capped at 200µs, so a
// poll loop costs little CPU and reacts within a fraction of a millisecond.
func backoff(spin int) {
	switch {
	case spin < 16:
		// A tight re-check: the other side is usually a few ns away.
	case spin < 64:
		// time.Sleep(0) returns at once without yielding; Gosched lets
		// the goroutine being waited for run when it shares this P.
		runtime.Gosched()
	default:
		d := time.Duration(spin-63) * 10 * time.Microsecond
		if d > 200*time.Microsecond {
			d = 200 * time.Microsecond
		}
		time.Sleep(d)
	}
}
