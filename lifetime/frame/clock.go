package frame

import (
	"fmt"
	"time"
)

// DefaultInFlight is how many frames the CPU may run ahead of the
// device: the CPU writes frame N+2 while the device may still read N.
const DefaultInFlight = 3

// DefaultFenceTimeout bounds every fence wait made by a Clock.
const DefaultFenceTimeout = 2 * time.Second

// ClockDesc configures a Clock. The zero value of each field picks its
// default. It is a plain value read once by NewClock; NewFence is called
// only there, on the goroutine that calls NewClock.
type ClockDesc struct {
	// InFlight is the number of frames in flight; 0 means
	// DefaultInFlight. It must be at most 16.
	InFlight int
	// NewFence makes one fence per frame in flight; nil means automatic
	// CPU fences (NewCPUFence(false)).
	NewFence func() (Fence, error)
	// Timeout bounds BeginFrame's and Drain's waits; 0 means
	// DefaultFenceTimeout.
	Timeout time.Duration
}

// Clock is the frame clock. It hands out monotonically increasing frame
// serials (the first frame is 1; serial 0 means "no frame"). It fences
// each frame at EndFrame. At BeginFrame it waits only for the frame whose
// slot is about to be reused (serial - InFlight). The per-frame managers that
// follow it (Follower) hear every frame boundary from it.
//
// A Clock belongs to one owner goroutine (the render goroutine for GPU
// fences); it is not safe for concurrent use.
type Clock struct {
	fences  []Fence
	serials []uint64 // serial fenced in each slot, 0 if none yet
	timeout time.Duration

	current   uint64 // serial of the open frame, 0 between frames
	last      uint64 // last serial begun
	completed uint64 // highest serial known complete, all below too
	ended     uint64 // last serial whose FrameEnded was delivered
	closed    bool

	// followers hear every frame boundary, in this order; notifying is
	// set while they do, so a follower calling back is refused.
	followers []Follower
	notifying bool

	waits    uint64
	waitTime time.Duration
}

// ClockStats is a snapshot of a Clock's counters: a plain value the owner
// goroutine may hand to any other goroutine.
type ClockStats struct {
	InFlight  int
	Current   uint64        // open frame serial, 0 between frames
	Last      uint64        // last serial begun
	Completed uint64        // every serial at or below this has completed
	Waits     uint64        // BeginFrame calls that had to block
	WaitTime  time.Duration // time spent blocked in BeginFrame and Drain
}

// NewClock builds a frame clock. It allocates its fences here and never
// again.
func NewClock(d ClockDesc) (*Clock, error) {
	if d.InFlight == 0 {
		d.InFlight = DefaultInFlight
	}
	if d.InFlight < 1 || d.InFlight > 16 {
		return nil, fmt.Errorf("%w: InFlight %d (want 1..16)", ErrInvalidConfig, d.InFlight)
	}
	if d.Timeout == 0 {
		d.Timeout = DefaultFenceTimeout
	}
	if d.Timeout < 0 {
		return nil, fmt.Errorf("%w: negative timeout %v", ErrInvalidConfig, d.Timeout)
	}
	f := &Clock{
		fences:  make([]Fence, d.InFlight),
		serials: make([]uint64, d.InFlight),
		timeout: d.Timeout,
	}
	for i := range f.fences {
		if d.NewFence == nil {
			f.fences[i] = NewCPUFence(false)
			continue
		}
		fence, err := d.NewFence()
		if err == nil && fence == nil {
			err = fmt.Errorf("%w: NewFence returned a nil Fence", ErrInvalidConfig)
		}
		if err != nil {
			for _, made := range f.fences[:i] {
				_ = made.Close()
			}
			return nil, fmt.Errorf("frame: making fence %d: %w", i, err)
		}
		f.fences[i] = fence
	}
	return f, nil
}

// InFlight returns the number of frames in flight.
func (f *Clock) InFlight() int { return len(f.fences) }

// Slot returns the region index (0..InFlight-1) that frame serial uses.
func (f *Clock) Slot(serial uint64) int { return int(serial % uint64(len(f.fences))) }

// BeginFrame opens the next frame and returns its serial. It first waits
// for the fence of the frame that last used the same slot; on timeout it
// returns ErrFenceTimeout naming that frame and opens nothing (the
// followers still hear what has completed). Then it tells every follower
// what has completed (Retired) and that the frame is open (FrameBegun).
func (f *Clock) BeginFrame() (uint64, error) {
	if f.closed {
		return 0, fmt.Errorf("%w: BeginFrame", ErrClosed)
	}
	if f.notifying {
		return 0, fmt.Errorf("%w: BeginFrame", ErrReentrant)
	}
	if f.current != 0 {
		return 0, fmt.Errorf("%w: BeginFrame while frame %d is open", ErrFrameOrder, f.current)
	}
	serial := f.last + 1
	slot := f.Slot(serial)
	// Poll first so a slot whose fence has already signalled is reused
	// without counting as a wait.
	f.poll()
	if prev := f.serials[slot]; prev != 0 && prev > f.completed {
		if err := f.waitSlot(slot, f.timeout); err != nil {
			// Frames the poll above found complete are still news.
			f.notify(Follower.Retired, f.completed)
			return 0, err
		}
		// Later frames may have completed during the wait; refresh so
		// the followers hear the latest Completed.
		f.poll()
	}
	f.last, f.current = serial, serial
	f.notify(Follower.Retired, f.completed)
	f.notify(Follower.FrameBegun, serial)
	return serial, nil
}

// EndFrame tells every follower the frame is ending (FrameEnded), then
// signals the open frame's fence. If the fence fails to signal, the frame
// stays open so EndFrame can be retried; the followers are not told
// twice.
func (f *Clock) EndFrame() error {
	if f.closed {
		return fmt.Errorf("%w: EndFrame", ErrClosed)
	}
	if f.notifying {
		return fmt.Errorf("%w: EndFrame", ErrReentrant)
	}
	if f.current == 0 {
		return fmt.Errorf("%w: EndFrame with no open frame", ErrFrameOrder)
	}
	if f.ended != f.current {
		f.ended = f.current
		f.notify(Follower.FrameEnded, f.current)
	}
	slot := f.Slot(f.current)
	if err := f.fences[slot].Signal(); err != nil {
		return fmt.Errorf("frame: signalling frame %d: %w", f.current, err)
	}
	f.serials[slot] = f.current
	f.current = 0
	return nil
}

// Current returns the open frame's serial, or 0 between frames.
func (f *Clock) Current() uint64 { return f.current }

// Last returns the newest serial begun: the open frame's, or between
// frames the last one submitted; 0 before the first frame. Work recorded
// now can be referenced by no frame after it.
func (f *Clock) Last() uint64 { return f.last }

// Completed returns the highest serial s such that every frame at or below
// s has completed on the device. It does not block; call Poll to refresh it.
func (f *Clock) Completed() uint64 { return f.completed }

// Poll queries the fences without blocking, tells every follower what
// has completed (Retired) and returns the refreshed Completed serial.
// After Close it queries nothing and returns Completed unchanged. A
// closed fence can no longer prove its frame complete (a closed GL fence
// reports done). A release run on that false proof would free memory the
// device may still read. Called from inside a follower it also
// returns Completed unchanged.
func (f *Clock) Poll() uint64 {
	if f.closed || f.notifying {
		return f.completed
	}
	f.poll()
	f.notify(Follower.Retired, f.completed)
	return f.completed
}

// poll refreshes Completed from the fences without telling the followers.
func (f *Clock) poll() {
	// Frames at or below last-InFlight have had their slot reused, which
	// only happens after their fence completed. Raise completed past them
	// first: the walk below only sees frames that still own their slot.
	n := uint64(len(f.fences))
	if f.last >= n && f.completed < f.last-n {
		f.completed = f.last - n
	}
	// Walk serials in order from the oldest fenced frame; stop at the first
	// that is not done, because completion is only claimed for a prefix.
	for s := f.completed + 1; s <= f.last; s++ {
		slot := f.Slot(s)
		if f.serials[slot] != s || !f.fences[slot].Done() {
			break
		}
		f.completed = s
	}
}

// Drain waits for every frame in flight, then tells every follower
// (Retired) that all of them have completed. The timeout bounds the whole
// drain, not each frame, so a drain of three slow frames still returns
// within it. On timeout it returns ErrFenceTimeout naming the stuck frame;
// the followers still hear what did complete. Drain may be called between
// frames only.
func (f *Clock) Drain() error {
	if f.closed {
		return fmt.Errorf("%w: Drain", ErrClosed)
	}
	if f.notifying {
		return fmt.Errorf("%w: Drain", ErrReentrant)
	}
	if f.current != 0 {
		return fmt.Errorf("%w: Drain while frame %d is open", ErrFrameOrder, f.current)
	}
	deadline := time.Now().Add(f.timeout)
	for s := f.completed + 1; s <= f.last; s++ {
		slot := f.Slot(s)
		if f.serials[slot] != s {
			continue
		}
		left := time.Until(deadline)
		if left < 0 {
			left = 0
		}
		if err := f.waitSlot(slot, left); err != nil {
			f.notify(Follower.Retired, f.completed)
			return err
		}
	}
	f.completed = f.last
	f.notify(Follower.Retired, f.completed)
	return nil
}

func (f *Clock) waitSlot(slot int, timeout time.Duration) error {
	start := time.Now()
	err := f.fences[slot].Wait(timeout)
	f.waits++
	f.waitTime += time.Since(start)
	if err != nil {
		return fmt.Errorf("frame: frame %d stuck after %v: %w", f.serials[slot], f.timeout, err)
	}
	if s := f.serials[slot]; s > f.completed {
		// Waiting on a fence proves its frame and, because a device
		// retires frames in order, every earlier frame too.
		f.completed = s
	}
	return nil
}

// Stats returns the clock's counters.
func (f *Clock) Stats() ClockStats {
	return ClockStats{
		InFlight: len(f.fences), Current: f.current, Last: f.last,
		Completed: f.completed, Waits: f.waits, WaitTime: f.waitTime,
	}
}

// Close drains nothing: call Drain first. It closes every fence and makes
// every later call fail with ErrClosed. While managers still follow the
// clock it refuses with ErrFollowed and changes nothing: close them first
// (each unfollows in its Close), because a manager whose clock is gone
// could never prove its pending releases safe. Close is idempotent.
func (f *Clock) Close() error {
	if f.closed {
		return nil
	}
	if f.notifying {
		return fmt.Errorf("%w: Close", ErrReentrant)
	}
	if n := len(f.followers); n > 0 {
		return fmt.Errorf("%w: %d manager(s) still follow the clock; close them first", ErrFollowed, n)
	}
	f.closed = true
	var first error
	for _, fence := range f.fences {
		if err := fence.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
