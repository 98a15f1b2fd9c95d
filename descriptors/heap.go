package descriptors

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// DefaultCapacity is the number of slots of a Heap made with Capacity 0:
// the size of a typical shader-visible descriptor heap.
const DefaultCapacity = 1024

// MaxCapacity bounds HeapDesc.Capacity and Grow: 16,777,216 slots, far
// below what a handle's 32-bit index could name, and already 512 MiB of
// retirement queue, so a capacity past it is a mistake, not a need.
const MaxCapacity = 1 << 24

// SlotReleaser destroys the device object behind a slot (for GL,
// glDeleteTextures) once no frame in flight can reference it. The Heap
// calls ReleaseSlot when its frame clock reports the slot's frame
// complete (inside the clock's BeginFrame, Poll or Drain), on the owner
// goroutine, just before the slot joins the free list. It must not call
// back into the Heap or the clock.
type SlotReleaser interface {
	ReleaseSlot(index int)
}

// HeapDesc configures NewHeap. The zero value of each field picks its
// default, except Clock, which is required. NewHeap reads it once, on the
// render goroutine; the Releaser, Logger and Now it names are then called
// on that goroutine only.
type HeapDesc struct {
	// Clock is the renderer's frame clock. The heap follows it: a slot
	// freed while frame N is the clock's newest retires only once the
	// clock reports frame N complete, and the periodic occupancy line is
	// ticked at each frame start. A nil Clock is ErrInvalidConfig.
	Clock *frame.Clock
	// Name appears in logs, errors and Stats; "" means "textures".
	Name string
	// Capacity is the number of slots; 0 means DefaultCapacity. The heap
	// never grows by itself: only an explicit Heap.Grow raises it.
	Capacity int
	// Releaser is told when a freed slot retires; nil means no device
	// objects to destroy.
	Releaser SlotReleaser
	// Logger receives the occupancy warnings and lines; nil means
	// slog.Default(). NewHeap binds the heap's name and capacity to it
	// once (Logger.With); each record then carries pct, live, pending,
	// peak and high_water, built without allocating. Whatever its
	// handler allocates is the handler's: a handler that must run inside
	// allocation-guarded frames has to avoid allocating itself.
	Logger *slog.Logger
	// LogInterval is how often a frame start logs an occupancy line; 0
	// turns the line off (the default, and what tests want).
	LogInterval time.Duration
	// Now is the clock for LogInterval; nil means time.Now.
	Now func() time.Time
}

type slotState uint8

const (
	slotFree    slotState = iota // never used, or retired and on the free list
	slotLive                     // allocated; its handle is valid
	slotPending                  // freed; waiting for its frames to complete
	slotMarked                   // live, and already seen in the batch FreeN is checking
)

// Heap is a table of descriptor slots with generational handles, fixed in
// size until the owner calls Grow. Free does not make a slot reusable at
// once: the slot becomes free only when the frame clock the heap follows
// reports complete every frame that could still reference it. Retired
// slots are reused last-in first-out before the high-water mark is
// bumped, so the heap bounds the live texture count, not the number ever
// created.
//
// The slot table holds no device types; a backend (descriptors/gltex for
// OpenGL) keeps its objects in its own arrays indexed by slot and learns
// of retirements through SlotReleaser.
//
// A Heap belongs to the render goroutine; it is not safe for concurrent
// use.
type Heap struct {
	name     string
	clock    *frame.Clock
	follow   follower
	gen      []uint32
	state    []slotState
	free     []int32 // retired slots; the top is reused first
	releaser SlotReleaser
	deferred *frame.Deferred
	// older holds the queues Grow replaced while they still held slots
	// freed before it, oldest first; retireThrough drains them before deferred.
	older  []*frame.Deferred
	retire retirer

	highWater, live, pending, peak int

	allocs, recycled, frees, retired, refused uint64

	occupancy occupancy
	closed    bool
}

// retirer is the Heap's frame.Releaser. It is a separate type so that
// Release, which only the Deferred queue may call, is not a Heap method.
type retirer struct{ h *Heap }

func (r *retirer) Release(arg uint64) { r.h.retireSlot(int(arg)) }

// follower is the Heap's frame.Follower, a separate type so that its
// methods, which only the clock may call, are not part of the Heap's API:
// no caller can hand the heap a serial, right or wrong.
type follower struct{ h *Heap }

func (f *follower) Retired(completed uint64) { f.h.retireThrough(completed) }
func (f *follower) FrameBegun(uint64)        { f.h.occupancy.tick(f.h) }
func (f *follower) FrameEnded(uint64)        {}

// NewHeap makes a heap and everything it will ever need: slot arrays, the
// free list and a deferred queue as large as the heap, so Free can never
// find the queue full. It registers the heap with the clock.
func NewHeap(d HeapDesc) (*Heap, error) {
	if d.Clock == nil {
		return nil, fmt.Errorf("%w: nil Clock (the heap follows the renderer's frame clock)", ErrInvalidConfig)
	}
	if d.Capacity == 0 {
		d.Capacity = DefaultCapacity
	}
	if d.Capacity < 1 || d.Capacity > MaxCapacity {
		return nil, fmt.Errorf("%w: capacity %d (want 1..%d)", ErrInvalidConfig, d.Capacity, MaxCapacity)
	}
	if d.LogInterval < 0 {
		return nil, fmt.Errorf("%w: negative LogInterval %v", ErrInvalidConfig, d.LogInterval)
	}
	if d.Name == "" {
		d.Name = "textures"
	}
	deferred, err := frame.NewDeferred(d.Capacity)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	h := &Heap{
		name:     d.Name,
		clock:    d.Clock,
		gen:      make([]uint32, d.Capacity),
		state:    make([]slotState, d.Capacity),
		free:     make([]int32, 0, d.Capacity),
		releaser: d.Releaser,
		deferred: deferred,
	}
	h.retire.h = h
	h.follow.h = h
	if err := d.Clock.Follow(&h.follow); err != nil {
		return nil, fmt.Errorf("descriptors: %w", err)
	}
	h.occupancy.init(d)
	return h, nil
}

// Capacity returns the number of slots.
func (h *Heap) Capacity() int { return len(h.gen) }

// Alloc takes a slot: the most recently retired one if any, else the
// next never-used one. It returns ErrHeapExhausted, quoting live, peak,
// pending and capacity, when neither exists. Alloc does not allocate,
// even when it logs an occupancy warning (the Logger's handler may).
func (h *Heap) Alloc() (Handle, error) {
	if h.closed {
		return 0, fmt.Errorf("%w: Alloc on heap %q", ErrClosed, h.name)
	}
	if len(h.free) == 0 && h.highWater == len(h.gen) {
		h.refused++
		return 0, h.exhausted(1)
	}
	return h.take(), nil
}

// AllocN fills dst with handles to len(dst) slots, or, if the heap cannot
// supply all of them, takes none, leaves dst untouched and returns
// ErrHeapExhausted. It does not allocate.
func (h *Heap) AllocN(dst []Handle) error {
	if h.closed {
		return fmt.Errorf("%w: AllocN on heap %q", ErrClosed, h.name)
	}
	if len(dst) > len(h.free)+len(h.gen)-h.highWater {
		h.refused++
		return h.exhausted(len(dst))
	}
	for i := range dst {
		dst[i] = h.take()
	}
	return nil
}

func (h *Heap) take() Handle {
	var index int
	if n := len(h.free); n > 0 {
		index = int(h.free[n-1])
		h.free = h.free[:n-1]
		h.recycled++
	} else {
		index = h.highWater
		h.highWater++
	}
	if h.gen[index] == 0 {
		h.gen[index] = 1
	}
	h.state[index] = slotLive
	h.live++
	h.allocs++
	if h.live > h.peak {
		h.peak = h.live
	}
	h.occupancy.rise(h)
	return makeHandle(index, h.gen[index])
}

func (h *Heap) exhausted(want int) error {
	return fmt.Errorf("%w: %q cannot supply %d slot(s): live %d, peak %d, pending %d, capacity %d "+
		"(live near capacity means textures are never freed; pending high means frames are not retiring)",
		ErrHeapExhausted, h.name, want, h.live, h.peak, h.pending, len(h.gen))
}

// isLive reports whether hd names a live slot, without building an error,
// so Valid costs no allocation on a stale handle.
func (h *Heap) isLive(hd Handle) bool {
	i := hd.Index()
	return hd != 0 && i < len(h.gen) && h.gen[i] == hd.Generation() && h.state[i] == slotLive
}

// check validates h against the slot table: the error names the handle
// and whether it is foreign or stale.
func (h *Heap) check(hd Handle) (int, error) {
	i := hd.Index()
	switch {
	case h.isLive(hd):
		return i, nil
	case hd == 0:
		return 0, fmt.Errorf("%w: zero handle on heap %q", ErrInvalidHandle, h.name)
	case i >= len(h.gen):
		return 0, fmt.Errorf("%w: %v is outside heap %q of %d slots", ErrInvalidHandle, hd, h.name, len(h.gen))
	}
	return 0, fmt.Errorf("%w: %v on heap %q (slot is at gen %d, %s)", ErrStaleHandle, hd, h.name, h.gen[i], h.state[i])
}

func (s slotState) String() string {
	return [...]string{"free", "live", "pending retirement", "live"}[s]
}

// Get validates hd and returns its slot index, the number a shader or a
// binding table uses. A stale or foreign handle returns an error; every
// call checks, so a use-after-free is caught where it happens.
func (h *Heap) Get(hd Handle) (int, error) {
	if h.closed {
		return 0, fmt.Errorf("%w: Get on heap %q", ErrClosed, h.name)
	}
	return h.check(hd)
}

// Valid reports whether hd names a live slot of this heap. It does not
// allocate, whatever the answer.
func (h *Heap) Valid(hd Handle) bool { return !h.closed && h.isLive(hd) }

// Free invalidates hd at once and schedules its slot to retire once the
// clock's newest frame (Clock.Last: the frame being recorded, or between
// frames the last one submitted) completes: until then a frame in flight
// may still sample the slot's descriptor. A stale, zero or foreign handle
// returns an error and changes nothing. Free does not allocate.
func (h *Heap) Free(hd Handle) error {
	if h.closed {
		return fmt.Errorf("%w: Free on heap %q", ErrClosed, h.name)
	}
	i, err := h.check(hd)
	if err != nil {
		return err
	}
	h.free1(i)
	return nil
}

// FreeN frees every handle in hs, or, if any is invalid, stale or
// repeated, frees none and returns the first problem. It does not
// allocate.
func (h *Heap) FreeN(hs []Handle) error {
	if h.closed {
		return fmt.Errorf("%w: FreeN on heap %q", ErrClosed, h.name)
	}
	for k, hd := range hs {
		i, err := h.check(hd)
		if err == nil {
			h.state[i] = slotMarked
			continue
		}
		repeated := hd != 0 && hd.Index() < len(h.gen) && h.state[hd.Index()] == slotMarked &&
			h.gen[hd.Index()] == hd.Generation()
		for _, done := range hs[:k] {
			h.state[done.Index()] = slotLive
		}
		if repeated {
			return fmt.Errorf("%w: %v appears twice in one FreeN batch on heap %q", ErrInvalidHandle, hd, h.name)
		}
		return err
	}
	for _, hd := range hs {
		h.free1(hd.Index())
	}
	return nil
}

func (h *Heap) free1(i int) {
	h.gen[i]++
	if h.gen[i] == 0 {
		h.gen[i] = 1 // generation 0 is reserved for "never issued"
	}
	h.state[i] = slotPending
	h.live--
	h.pending++
	h.frees++
	// The queue is as large as the heap and holds only pending slots, so
	// it cannot be full; if it is, the accounting above is already wrong.
	if err := h.deferred.Schedule(h.clock.Last(), &h.retire, uint64(i)); err != nil {
		panic(fmt.Sprintf("descriptors: deferred queue refused slot %d with %d pending: %v", i, h.pending, err))
	}
}

// retireThrough returns to the free list every freed slot whose frame is at or
// below completed, in the order they were freed, calling the SlotReleaser
// for each first. Only the clock calls it (Follower.Retired), with the
// clock's own Completed. It does not allocate.
func (h *Heap) retireThrough(completed uint64) {
	n := 0
	for len(h.older) > 0 {
		q := h.older[0]
		n += q.Run(completed)
		if q.Pending() > 0 {
			break
		}
		_ = q.Close() // empty, so Close cannot fail
		h.older[0] = nil
		h.older = h.older[1:]
	}
	// A queue Grow replaced holds only slots freed before everything in
	// the newer queues, in frames no later than theirs: while it still
	// waits, nothing behind it can retire, and retirement stays in the
	// order slots were freed.
	if len(h.older) == 0 {
		n += h.deferred.Run(completed)
	}
	if n > 0 {
		h.occupancy.fall(h)
	}
}

func (h *Heap) retireSlot(i int) {
	if h.state[i] != slotPending {
		panic(fmt.Sprintf("descriptors: retiring slot %d in state %s", i, h.state[i]))
	}
	if h.releaser != nil {
		h.releaser.ReleaseSlot(i)
	}
	h.state[i] = slotFree
	h.free = append(h.free, int32(i)) // within capacity: never reallocates
	h.pending--
	h.retired++
}

// Grow raises the heap's capacity to capacity slots. It is the only way
// the capacity changes: the heap never grows by itself, and Alloc answers
// a full heap with ErrHeapExhausted whatever the headroom Grow could add.
//
// Every handle stays valid with the same index and generation; slots
// waiting to retire keep waiting and retire, in the order they were freed,
// once their frames complete; retired slots keep their last-in first-out
// order and are still reused before the high-water mark rises into the new
// slots. The 75% and 90% warnings are measured against the new capacity,
// and a level the growth takes occupancy clearly below (Hysteresis) is
// re-armed. Grow logs the change at Info with the old and new capacity and
// the current live, pending and peak counts.
//
// Grow allocates new slot arrays and a new retirement queue, so it belongs
// to load time or to an explicit decision (a level that needs more
// textures), never to a steady frame. Call it on the owner goroutine,
// between frames or inside one. A capacity not above the current one, or
// above MaxCapacity, returns ErrInvalidCapacity and changes nothing.
func (h *Heap) Grow(capacity int) error {
	if h.closed {
		return fmt.Errorf("%w: Grow on heap %q", ErrClosed, h.name)
	}
	old := len(h.gen)
	switch {
	case capacity <= old:
		return fmt.Errorf("%w: Grow(%d) on heap %q of %d slots (a heap never shrinks; want %d..%d)",
			ErrInvalidCapacity, capacity, h.name, old, old+1, MaxCapacity)
	case capacity > MaxCapacity:
		return fmt.Errorf("%w: Grow(%d) on heap %q is above MaxCapacity %d",
			ErrInvalidCapacity, capacity, h.name, MaxCapacity)
	}
	// The new queue is as large as the new heap, so Free still cannot
	// find it full. The old one keeps the slots already scheduled on it:
	// moving them would mean running their Release early.
	deferred, err := frame.NewDeferred(capacity)
	if err != nil {
		return fmt.Errorf("%w: Grow(%d) on heap %q: %w", ErrInvalidCapacity, capacity, h.name, err)
	}
	gen := make([]uint32, capacity)
	copy(gen, h.gen)
	state := make([]slotState, capacity) // new slots start slotFree, above the high-water mark
	copy(state, h.state)
	free := make([]int32, len(h.free), capacity) // same order: the top is still reused first
	copy(free, h.free)
	h.gen, h.state, h.free = gen, state, free
	if h.deferred.Pending() > 0 {
		h.older = append(h.older, h.deferred)
	} else {
		_ = h.deferred.Close() // empty, so Close cannot fail
	}
	h.deferred = deferred
	h.occupancy.grown(h, old)
	return nil
}

// Close ends the heap and stops following the clock. It fails with
// ErrInUse, changing nothing, while slots are live or pending: free them
// and Drain the clock first (pending slots retire only when the clock
// proves their frames complete), so every device object has been
// released. Close is idempotent.
func (h *Heap) Close() error {
	if h.closed {
		return nil
	}
	if h.live > 0 || h.pending > 0 {
		return fmt.Errorf("%w: heap %q has %d live and %d pending slots (free them, then Drain the clock)",
			ErrInUse, h.name, h.live, h.pending)
	}
	if err := h.clock.Unfollow(&h.follow); err != nil {
		return fmt.Errorf("descriptors: %w", err)
	}
	h.closed = true
	for _, q := range h.older { // retireThrough drops each queue it empties; kept for safety
		_ = q.Close()
	}
	h.older = nil
	return h.deferred.Close()
}
