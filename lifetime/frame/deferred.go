package frame

import "fmt"

// Releaser is work that Deferred runs once a frame has retired. Release is
// called on the goroutine that calls Deferred.Run, with the argument given
// to Schedule (a slot index, a handle's bits, a GL name).
//
// Store a pointer in a Releaser (a *Heap, a *textureTable): putting a
// pointer in an interface does not allocate, so Schedule stays
// allocation-free.
type Releaser interface {
	Release(arg uint64)
}

type deferredItem struct {
	serial uint64
	r      Releaser
	arg    uint64
}

// Deferred is a fixed-capacity queue of release work keyed by frame serial.
// Work scheduled for frame N runs in Run(completed) once completed >= N, in
// scheduling order. The queue never grows: when it is full, Schedule returns
// ErrDeferredFull, counts it, and leaves the work with the caller.
//
// A Deferred belongs to one owner goroutine (the one that owns the frames);
// it is not safe for concurrent use.
type Deferred struct {
	ring   []deferredItem
	head   int // next item to run
	n      int // items queued
	peak   int
	ran    uint64
	full   uint64
	closed bool
}

// DeferredStats is a snapshot of a Deferred queue's counters: a plain value
// the owner goroutine may hand to any other goroutine.
type DeferredStats struct {
	Capacity int
	Pending  int
	Peak     int
	Ran      uint64 // items run since construction
	Full     uint64 // Schedule calls refused because the queue was full
}

// NewDeferred returns a queue that holds up to capacity items. capacity
// must be at least 1.
func NewDeferred(capacity int) (*Deferred, error) {
	if capacity < 1 {
		return nil, fmt.Errorf("%w: deferred capacity %d", ErrInvalidConfig, capacity)
	}
	return &Deferred{ring: make([]deferredItem, capacity)}, nil
}

// Schedule queues r.Release(arg) to run after frame serial retires. It
// does not allocate. Serial 0 ("no frame") means nothing on the device
// references the resource, so the next Run releases it.
func (d *Deferred) Schedule(serial uint64, r Releaser, arg uint64) error {
	if d.closed {
		return fmt.Errorf("%w: Schedule", ErrClosed)
	}
	if r == nil {
		return fmt.Errorf("%w: nil Releaser", ErrInvalidConfig)
	}
	if d.n == len(d.ring) {
		d.full++
		return fmt.Errorf("%w: %d of %d pending (frame %d)", ErrDeferredFull, d.n, len(d.ring), serial)
	}
	tail := (d.head + d.n) % len(d.ring)
	d.ring[tail] = deferredItem{serial: serial, r: r, arg: arg}
	d.n++
	if d.n > d.peak {
		d.peak = d.n
	}
	return nil
}

// Run releases, in scheduling order, every queued item whose frame is at
// or below completed, and returns how many ran. It stops at the first item
// whose frame has not completed, so order is never broken: an item
// scheduled for an older frame behind a newer one waits for the newer one.
// Run works after Close so that pending work can still be released.
func (d *Deferred) Run(completed uint64) int {
	ran := 0
	for d.n > 0 {
		it := &d.ring[d.head]
		if it.serial > completed {
			break
		}
		r, arg := it.r, it.arg
		*it = deferredItem{}
		d.head = (d.head + 1) % len(d.ring)
		d.n--
		d.ran++
		ran++
		r.Release(arg)
	}
	return ran
}

// Pending returns the number of queued items.
func (d *Deferred) Pending() int { return d.n }

// Stats returns the queue's counters.
func (d *Deferred) Stats() DeferredStats {
	return DeferredStats{Capacity: len(d.ring), Pending: d.n, Peak: d.peak, Ran: d.ran, Full: d.full}
}

// Close refuses further Schedule calls; it runs nothing, so drain the
// frames and call Run first. Work still queued is not dropped: Close
// reports it with ErrPending, and Run keeps releasing it after Close, so a
// teardown that closed too early can still drain and run it.
func (d *Deferred) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	if d.n > 0 {
		return fmt.Errorf("%w: deferred queue closed with %d items pending (oldest for frame %d)",
			ErrPending, d.n, d.ring[d.head].serial)
	}
	return nil
}
