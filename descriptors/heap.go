package descriptors

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/pools"
)

// DefaultCapacity is the number of slots of a Heap made with Capacity 0:
// the size of a typical shader-visible descriptor heap.
const DefaultCapacity = 1024

// MaxCapacity bounds HeapDesc.Capacity and Grow: 16,777,216 slots, far
// more than any shader-visible descriptor heap offers, so a capacity past
// it is a mistake, not a need.
const MaxCapacity = 1 << 24

// SlotReleaser destroys the device object behind a slot (for GL,
// glDeleteTextures) once no frame in flight can reference it. The Heap
// calls ReleaseSlot when its frame clock reports the slot's frame
// complete (inside the clock's BeginFrame, Poll or Drain), on the owner
// goroutine, as the slot returns to the free list. It must not call back
// into the Heap or the clock.
type SlotReleaser interface {
	ReleaseSlot(index int)
}

// HeapDesc configures NewHeap. The zero value of each field picks its
// default, except Clock, which is required. NewHeap reads it once, on the
// render goroutine; the Releaser, Logger and Now it names are then called
// on that goroutine only.
type HeapDesc struct {
	// Clock is the renderer's frame clock. The heap follows it: a slot
	// freed while frame N is the clock's newest is reclaimed only once the
	// clock reports frame N complete, and the periodic occupancy line is
	// ticked at each frame start. A nil Clock is ErrInvalidConfig.
	Clock *frame.Clock
	// Name appears in logs, errors and Stats; "" means "textures".
	Name string
	// Capacity is the number of slots; 0 means DefaultCapacity. The heap
	// never grows by itself: only an explicit Heap.Grow raises it.
	Capacity int
	// Releaser is told when a freed slot is reclaimed; nil means no device
	// objects to destroy.
	Releaser SlotReleaser
	// Logger receives the occupancy warnings and lines; nil means
	// slog.Default(). NewHeap binds the heap's name and capacity to it
	// once (Logger.With); each record then carries pct, live, pending,
	// peak and high_water, built without allocating. Whatever its
	// handler allocates is the handler's: inside allocation-guarded frames
	// use one that does not allocate, such as package flatlog
	// (github.com/steadyframe/steadyframe/flatlog).
	Logger *slog.Logger
	// LogInterval is how often a frame start logs an occupancy line; 0
	// turns the line off (the default, and what tests want).
	LogInterval time.Duration
	// Now is the clock for LogInterval; nil means time.Now.
	Now func() time.Time
}

// Heap is a table of descriptor slots with generational handles, fixed in
// size until the owner calls Grow. It rests on a pools.Pool: Alloc
// creates an element, Free destroys it with the pool's DestroyAfter, so
// the handle is stale at once while the slot waits, pending, until the
// frame clock the heap follows reports complete every frame that could
// still reference it; then the pool reclaims it onto its free list.
// Reclaimed slots are reused last-in first-out before a never-used slot is
// taken, so the heap bounds the live texture count, not the number ever
// created. A slot whose generation is spent is retired for good
// (Stats.Retired).
//
// Every refusal (a full heap, a stale, zero or foreign handle, a closed
// heap) returns the same error value, owned by the heap and filled in
// without allocating; its message is formatted when read. It describes
// the latest refusal and is valid until the next one: test it with
// errors.Is or read its message before calling the heap again, and copy
// the message (fmt.Errorf("%w", err)) to keep it longer.
//
// The slot table holds no device types; a backend (descriptors/gltex for
// OpenGL) keeps its objects in its own arrays indexed by slot and learns
// of reclaimed slots through SlotReleaser.
//
// A Heap belongs to the render goroutine; it is not safe for concurrent
// use.
type Heap struct {
	pool     *pools.Pool[entry]
	clock    *frame.Clock
	releaser SlotReleaser
	follow   follower

	// batch numbers FreeN calls; entry.batch holds the number of the last
	// call that checked the slot. A live slot's mark is from an earlier
	// call or 0 (Create hands out zeroed entries), and 64 bits never wrap.
	batch uint64
	// refused counts refused Alloc and AllocN calls. Every other counter
	// is the pool's or follows from the pool's, so Alloc, Free and the
	// reclaim keep none of their own (BenchmarkChurn).
	refused uint64
	// reclaimed receives the slots one pool.ReclaimInto reclaims, for the
	// SlotReleaser.
	reclaimed [64]uint32

	name      string
	err       refusal
	occupancy occupancy
	closed    bool

	// notes holds, per slot, the name, creation frame and last handle
	// the leak report and the exhaustion record read (names.go);
	// exhaustedAt is 1 + the slots handed out when the last exhaustion
	// record was logged, so a run of refusals logs once.
	notes       []note
	exhaustedAt uint64
}

// follower is the Heap's frame.Follower, a separate type so that its
// methods, which only the clock may call, are not part of the Heap's API:
// no caller can hand the heap a serial, right or wrong.
type follower struct{ h *Heap }

func (f *follower) Retired(completed uint64) { f.h.reclaim(completed) }
func (f *follower) FrameBegun(uint64)        { f.h.occupancy.tick(f.h) }
func (f *follower) FrameEnded(uint64)        {}

// NewHeap makes a heap and everything it will ever need until Grow: the
// slot pool, with its free list and pending queue, and the heap's error.
// It registers the heap with the clock.
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
	pool, err := pools.NewPool[entry](d.Capacity)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	h := &Heap{pool: pool, clock: d.Clock, releaser: d.Releaser, name: d.Name, notes: make([]note, d.Capacity)}
	h.follow.h = h
	if err := d.Clock.Follow(&h.follow); err != nil {
		return nil, fmt.Errorf("descriptors: %w", err)
	}
	h.occupancy.init(d)
	h.occupancy.levels(h)
	return h, nil
}

// Capacity returns the number of slots.
func (h *Heap) Capacity() int { return h.pool.Cap() }

// Alloc takes a slot: the most recently reclaimed one if any, else the
// lowest never-used one. It returns an error matching ErrHeapExhausted,
// quoting live, peak, pending and capacity, when neither exists. Alloc
// does not allocate, refused or not, even when it logs an occupancy
// warning (the Logger's handler may); the error is the heap's own,
// valid until its next refusal (see Heap).
func (h *Heap) Alloc() (Handle, error) {
	if h.closed {
		return Handle{}, h.refuse(ErrClosed, "Alloc", Handle{})
	}
	ph, _, err := h.pool.Create()
	if err != nil {
		return Handle{}, h.exhausted(1)
	}
	h.noted(Handle{ph})
	if h.inUse() >= h.occupancy.warnAt {
		h.occupancy.cross(h)
	}
	return Handle{ph}, nil
}

// AllocN fills dst with handles to len(dst) slots, or, if the heap cannot
// supply all of them, takes none, leaves dst untouched and returns an
// error matching ErrHeapExhausted. It does not allocate.
func (h *Heap) AllocN(dst []Handle) error {
	if h.closed {
		return h.refuse(ErrClosed, "AllocN", Handle{})
	}
	if len(dst) > h.pool.Available() {
		return h.exhausted(len(dst))
	}
	for i := range dst {
		ph, _, err := h.pool.Create()
		if err != nil {
			panic(fmt.Sprintf("descriptors: pool refused slot %d of %d it said were available: %v", i+1, len(dst), err))
		}
		dst[i] = Handle{ph}
		h.noted(dst[i])
	}
	if h.inUse() >= h.occupancy.warnAt {
		h.occupancy.cross(h)
	}
	return nil
}

// Get validates hd and returns its slot index, the number a shader or a
// binding table uses. A stale or foreign handle returns an error; every
// call checks, so a use-after-free is caught where it happens. Get does
// not allocate, refused or not.
func (h *Heap) Get(hd Handle) (int, error) {
	if h.closed {
		return 0, h.refuse(ErrClosed, "Get", hd)
	}
	if !h.pool.Valid(hd.h) {
		return 0, h.badHandle("Get", hd)
	}
	return int(hd.Index()), nil
}

// Valid reports whether hd names a live slot of this heap. It does not
// allocate, whatever the answer.
func (h *Heap) Valid(hd Handle) bool { return !h.closed && h.pool.Valid(hd.h) }

// Free invalidates hd at once and keeps its slot pending until the frame
// clock reports complete its newest frame (Clock.Last: the frame being
// recorded, or between frames the last one submitted): until then a frame
// in flight may still sample the slot's descriptor. A stale, zero or
// foreign handle returns an error and changes nothing. Free does not
// allocate, refused or not.
func (h *Heap) Free(hd Handle) error {
	if h.closed {
		return h.refuse(ErrClosed, "Free", hd)
	}
	if h.pool.DestroyAfter(hd.h, h.clock.Last()) != nil {
		return h.badHandle("Free", hd)
	}
	return nil
}

// FreeN frees every handle in hs, or, if any is invalid, stale or
// repeated, frees none and returns the first problem. It does not
// allocate.
func (h *Heap) FreeN(hs []Handle) error {
	if h.closed {
		return h.refuse(ErrClosed, "FreeN", Handle{})
	}
	h.batch++
	for _, hd := range hs {
		e := h.pool.Get(hd.h)
		if e == nil {
			return h.badHandle("FreeN", hd)
		}
		if e.batch == h.batch {
			h.err = refusal{heap: h.name, kind: ErrInvalidHandle, op: "FreeN", handle: hd, repeat: true}
			return &h.err
		}
		e.batch = h.batch
	}
	serial := h.clock.Last()
	for _, hd := range hs {
		if err := h.pool.DestroyAfter(hd.h, serial); err != nil {
			panic(fmt.Sprintf("descriptors: FreeN checked %v, then the pool refused it: %v", hd, err))
		}
	}
	return nil
}

// reclaim returns to the free list every pending slot whose frame is at
// or below completed, in the order they were freed, calling the
// SlotReleaser for each. Only the clock calls it (Follower.Retired), with
// its own Completed, and never after Close, which unfollows the clock. It
// does not allocate.
func (h *Heap) reclaim(completed uint64) {
	// Up to 64 slots a call, in one loop inside the pool: about half the
	// instructions per slot of a Reclaim per slot (BenchmarkChurn).
	for {
		n := h.pool.ReclaimInto(completed, h.reclaimed[:])
		if h.releaser != nil {
			for _, i := range h.reclaimed[:n] {
				h.releaser.ReleaseSlot(int(i))
			}
		}
		if n < len(h.reclaimed) {
			break
		}
	}
	if h.inUse() < h.occupancy.rearmAt {
		h.occupancy.rearm(h)
	}
}

// inUse returns the live plus pending slots, the figure the occupancy
// levels watch: a pending slot is as unavailable as a live one.
func (h *Heap) inUse() int { return h.pool.Len() + h.pool.Pending() }

// refuse fills the heap's error for a refusal that names only its kind,
// the call and the handle. It stays out of line: inlined, its 96-byte
// refusal would be built in the frame of every caller, Alloc and Free
// included, on paths that never refuse.
//
//go:noinline
func (h *Heap) refuse(kind error, op string, hd Handle) error {
	h.err = refusal{heap: h.name, kind: kind, op: op, handle: hd, capacity: h.pool.Cap()}
	return &h.err
}

// badHandle is refuse for a handle the pool rejected: one whose index is
// outside the heap is invalid (the zero Handle's index, 0xFFFFFFFF, is
// outside every heap, and a Handle can hold no other bits than the pool's
// or the zero Handle's), others stale. It is the pool's own rule.
func (h *Heap) badHandle(op string, hd Handle) error {
	kind := ErrStaleHandle
	if uint(hd.Index()) >= uint(h.pool.Cap()) {
		kind = ErrInvalidHandle
	}
	return h.refuse(kind, op, hd)
}

// exhausted fills the heap's error for a refused Alloc or AllocN.
func (h *Heap) exhausted(want int) error {
	h.refused++
	st := h.pool.Stats()
	h.err = refusal{heap: h.name, kind: ErrHeapExhausted, want: want,
		live: st.InUse, peak: st.PeakInUse, pending: st.Pending, capacity: st.Capacity}
	h.logExhausted(st.TotalCreated, st.InUse)
	return &h.err
}

// Grow raises the heap's capacity to capacity slots. It is the only way
// the capacity changes: the heap never grows by itself, and Alloc answers
// a full heap with ErrHeapExhausted whatever the headroom Grow could add.
//
// Every handle stays valid with the same index and generation; pending
// slots keep waiting and are reclaimed, in the order they were freed,
// once their frames complete; reclaimed slots keep their last-in
// first-out order and are still reused before the new slots, which lie
// above the high-water mark. The 75% and 90% warnings are measured
// against the new capacity, and a level the growth takes occupancy clearly
// below (Hysteresis) is re-armed. Grow logs the change at Info with the
// old and new capacity and the current live, pending and peak counts.
//
// Grow allocates the pool's new arrays, so it belongs to load time or to
// an explicit decision (a level that needs more textures), never to a
// steady frame. Call it on the owner goroutine, between frames or inside
// one. A capacity not above the current one, or above MaxCapacity,
// returns ErrInvalidCapacity and changes nothing.
func (h *Heap) Grow(capacity int) error {
	if h.closed {
		return h.refuse(ErrClosed, "Grow", Handle{})
	}
	old := h.pool.Cap()
	switch {
	case capacity <= old:
		return fmt.Errorf("%w: Grow(%d) on heap %q of %d slots (a heap never shrinks; want %d..%d)",
			ErrInvalidCapacity, capacity, h.name, old, old+1, MaxCapacity)
	case capacity > MaxCapacity:
		return fmt.Errorf("%w: Grow(%d) on heap %q is above MaxCapacity %d",
			ErrInvalidCapacity, capacity, h.name, MaxCapacity)
	}
	if err := h.pool.Grow(capacity); err != nil {
		return fmt.Errorf("%w: Grow(%d) on heap %q: %w", ErrInvalidCapacity, capacity, h.name, err)
	}
	h.notes = append(h.notes, make([]note, capacity-old)...)
	h.occupancy.grown(h, old)
	return nil
}

// Close ends the heap and stops following the clock. It fails with
// ErrInUse, changing nothing, while slots are live or pending: free them
// and Drain the clock first (pending slots are reclaimed only when the
// clock proves their frames complete), so every device object has been
// released. The error lists each live slot with its name (SetName), index
// and creation frame, formatted here, outside frames. Close is
// idempotent.
func (h *Heap) Close() error {
	if h.closed {
		return nil
	}
	if live, pending := h.pool.Len(), h.pool.Pending(); live > 0 || pending > 0 {
		return fmt.Errorf("%w: heap %q has %d live and %d pending slots (free them, then Drain the clock)%s",
			ErrInUse, h.name, live, pending, h.leaks())
	}
	if err := h.clock.Unfollow(&h.follow); err != nil {
		return fmt.Errorf("descriptors: %w", err)
	}
	h.closed = true
	return nil
}
