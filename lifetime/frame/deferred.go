package frame

import "fmt"

// Releaser is work that Deferred runs once a frame has retired. Release is
// called on the clock's owner goroutine, from inside the Clock call that
// proved the frame complete (BeginFrame, Poll or Drain), with the argument
// given to Schedule (a slot index, a handle's bits, a GL name). Like a
// Follower, it must not call the clock's state-changing methods.
//
// It may Schedule more work, keyed like any other to the clock's newest
// frame (Clock.Last). Inside BeginFrame that is the frame being opened, so
// the work waits for it. Inside a Poll or Drain that finds the newest
// frame complete, the same call runs the new work too. So a Release that
// always schedules more never lets that call return.
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

// Deferred is a fixed-capacity queue of release work that follows a
// Clock: work scheduled while frame N is the clock's newest (Clock.Last)
// runs, in scheduling order, when the clock reports frame N complete. The
// caller never passes a frame serial, so it cannot release an object a
// frame in flight may still read. The queue never grows: when it is
// full, Schedule returns ErrDeferredFull, counts it, and leaves the work
// with the caller.
//
// A Deferred belongs to the clock's owner goroutine; it is not safe for
// concurrent use.
type Deferred struct {
	clock  *Clock
	follow deferredFollower
	ring   []deferredItem
	// head is the next item to run and n the items queued; the ring
	// wraps by comparison, not %: a division per item cost a frame of 4
	// Schedules about 11 ns (BenchmarkScheduleRun/impl=ours).
	head   int
	n      int
	peak   int
	ran    uint64
	full   uint64
	closed bool
	// last describes the latest refused Schedule, whose error is the
	// bare sentinel.
	last DeferredRefusal
}

// DeferredRefusal describes a refused Schedule: what its bare sentinel
// leaves out. Deferred.LastRefusal returns the latest one. It is a plain
// value, safe to keep and to hand to any goroutine.
type DeferredRefusal struct {
	// Err is the sentinel Schedule returned (ErrDeferredFull or
	// ErrClosed); nil while nothing has been refused.
	Err error
	// Pending and Capacity are the queue's when it refused; Serial is the
	// frame the work would have waited for (Clock.Last).
	Pending, Capacity int
	Serial            uint64
}

// String formats r as one line, "frame: deferred release queue full: 2
// of 2 pending (frame 6)", or "none". It allocates: call it when
// logging, not in a guarded frame.
func (r DeferredRefusal) String() string {
	switch r.Err {
	case nil:
		return "none"
	case ErrClosed:
		return fmt.Sprintf("%v: Schedule on a closed Deferred", r.Err)
	}
	return fmt.Sprintf("%v: %d of %d pending (frame %d)", r.Err, r.Pending, r.Capacity, r.Serial)
}

// deferredFollower is the Deferred's Follower. It is a separate type so
// that its methods, which only the clock may call, are not part of the
// Deferred's API.
type deferredFollower struct{ d *Deferred }

func (f *deferredFollower) Retired(completed uint64) { f.d.run(completed) }
func (f *deferredFollower) FrameBegun(uint64)        {}
func (f *deferredFollower) FrameEnded(uint64)        {}

// DeferredStats is a snapshot of a Deferred queue's counters: a plain value
// the owner goroutine may hand to any other goroutine.
type DeferredStats struct {
	Capacity int
	Pending  int
	Peak     int
	Ran      uint64 // items run since construction
	Full     uint64 // Schedule calls refused because the queue was full
}

// NewDeferred returns a queue that holds up to capacity items (at least
// 1) and follows clock, which runs the work as frames complete. It
// allocates the queue here and never again.
func NewDeferred(clock *Clock, capacity int) (*Deferred, error) {
	if clock == nil {
		return nil, fmt.Errorf("%w: nil Clock (a Deferred follows the renderer's frame clock)", ErrInvalidConfig)
	}
	if capacity < 1 {
		return nil, fmt.Errorf("%w: deferred capacity %d", ErrInvalidConfig, capacity)
	}
	d := &Deferred{clock: clock, ring: make([]deferredItem, capacity)}
	d.follow.d = d
	if err := clock.Follow(&d.follow); err != nil {
		return nil, err
	}
	return d, nil
}

// Schedule queues r.Release(arg) to run once every frame that may still
// reference the object has completed: the clock's newest frame
// (Clock.Last), open or submitted. Before the first frame nothing on the
// device can reference it, so the next BeginFrame, Poll or Drain releases
// it. Schedule does not allocate, not even to refuse: a full queue
// returns the bare ErrDeferredFull and a closed one the bare ErrClosed,
// which ==, a switch and errors.Is test without allocating;
// LastRefusal describes the latest. A nil Releaser is a bug, refused
// with an error wrapping ErrInvalidConfig.
func (d *Deferred) Schedule(r Releaser, arg uint64) error {
	if d.closed {
		return d.refuse(ErrClosed)
	}
	if r == nil {
		return fmt.Errorf("%w: nil Releaser", ErrInvalidConfig)
	}
	serial := d.clock.Last()
	if d.n == len(d.ring) {
		d.full++
		return d.refuse(ErrDeferredFull)
	}
	tail := d.head + d.n
	if tail >= len(d.ring) {
		tail -= len(d.ring)
	}
	d.ring[tail] = deferredItem{serial: serial, r: r, arg: arg}
	d.n++
	if d.n > d.peak {
		d.peak = d.n
	}
	return nil
}

// refuse records a refused Schedule and returns its sentinel.
func (d *Deferred) refuse(err error) error {
	d.last = DeferredRefusal{Err: err, Pending: d.n, Capacity: len(d.ring), Serial: d.clock.Last()}
	return err
}

// LastRefusal describes the latest refused Schedule (the zero
// DeferredRefusal if none). It does not allocate.
func (d *Deferred) LastRefusal() DeferredRefusal { return d.last }

// run releases, in scheduling order, every queued item whose frame is at
// or below completed. It stops at the first item whose frame has not
// completed: every item is keyed to Clock.Last when it is scheduled (a
// Release's Schedule included), which never decreases, so the frames
// along the ring never decrease either and the items behind that one
// must wait too. An item a Release schedules lands at the tail, and runs
// in this same call if its frame is already complete.
func (d *Deferred) run(completed uint64) {
	for d.n > 0 {
		it := &d.ring[d.head]
		if it.serial > completed {
			break
		}
		r, arg := it.r, it.arg
		*it = deferredItem{}
		if d.head++; d.head == len(d.ring) {
			d.head = 0
		}
		d.n--
		d.ran++
		r.Release(arg)
	}
}

// Pending returns the number of queued items.
func (d *Deferred) Pending() int { return d.n }

// Stats returns the queue's counters.
func (d *Deferred) Stats() DeferredStats {
	return DeferredStats{Capacity: len(d.ring), Pending: d.n, Peak: d.peak, Ran: d.ran, Full: d.full}
}

// Close stops following the clock and refuses further Schedule calls. It
// runs nothing: Drain the clock first, which runs every queued item.
// While work is still queued Close refuses with ErrPending and changes
// nothing, so the clock can still release it; from inside a clock call
// (a Release) it returns ErrReentrant. Close must come before the
// clock's Close, which refuses while the Deferred follows it. Close is
// idempotent.
func (d *Deferred) Close() error {
	if d.closed {
		return nil
	}
	if d.n > 0 {
		return fmt.Errorf("%w: %d items pending (oldest for frame %d); Drain the clock first",
			ErrPending, d.n, d.ring[d.head].serial)
	}
	if err := d.clock.Unfollow(&d.follow); err != nil {
		return err
	}
	d.closed = true
	return nil
}
