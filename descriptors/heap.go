package descriptors

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/pools"
)

// DefaultCapacity is the number of slots of a Heap made with Capacity 0:
// 1,024 slots, a start for a game's textures, not a device limit.
// Devices offer far more: a D3D12 shader-visible CBV/SRV/UAV heap holds
// up to 1,000,000 descriptors (only sampler heaps stop at 2,048). Set
// HeapDesc.Capacity, or Grow, for more.
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
// into the Heap or the clock: the heap refuses every such call with
// ErrReentrant, and the clock with frame.ErrReentrant.
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
// size until the owner calls Grow. It rests on a pools.Pool. Alloc
// creates an element, and Free destroys it with the pool's DestroyAfter.
// So the handle is stale at once, while the slot waits, pending. It waits
// until the frame clock the heap follows reports complete every frame
// that could still reference it. Then the pool reclaims it onto its free
// list.
// Reclaimed slots are reused last-in first-out before a never-used slot is
// taken, so the heap bounds the live texture count, not the number ever
// created. A slot whose generation is spent is retired for good
// (Stats.Retired).
//
// Every refusal (a full heap, a stale, zero or foreign handle, a closed
// heap, a call from the SlotReleaser) returns a bare sentinel, which
// never changes after it is returned; ==, a switch and errors.Is test it
// without allocating. LastRefusal describes the latest refusal.
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
	last      Refusal
	occupancy occupancy
	// blocked is set while the heap is closed or releasing (inside the
	// SlotReleaser's calls): every call then refuses, and the one test
	// covers both on the hot paths.
	blocked   bool
	closed    bool
	releasing bool

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
// slot pool, with its free list and pending queue.
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
// lowest never-used one. It returns ErrHeapExhausted when neither exists;
// LastRefusal then quotes live, peak, pending, retired and capacity.
// Alloc does not allocate, refused or not, even when it logs an
// occupancy warning (the Logger's handler may).
func (h *Heap) Alloc() (Handle, error) {
	if h.blocked {
		return Handle{}, h.refuseBlocked("Alloc", Handle{})
	}
	ph, _, err := h.pool.Create()
	if err != nil {
		return Handle{}, h.exhausted("Alloc", 1)
	}
	h.noted(Handle{ph})
	if h.inUse() >= h.occupancy.warnAt {
		h.occupancy.cross(h)
	}
	return Handle{ph}, nil
}

// AllocN fills dst with handles to len(dst) slots, or, if the heap cannot
// supply all of them, takes none, leaves dst untouched and returns
// ErrHeapExhausted. It does not allocate.
func (h *Heap) AllocN(dst []Handle) error {
	if h.blocked {
		return h.refuseBlocked("AllocN", Handle{})
	}
	if len(dst) > h.pool.Available() {
		return h.exhausted("AllocN", len(dst))
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
	if h.blocked {
		return 0, h.refuseBlocked("Get", hd)
	}
	i, ok := h.pool.Slot(hd.h)
	if !ok {
		return 0, h.badHandle("Get", hd)
	}
	return int(i), nil
}

// Valid reports whether hd names a live slot of this heap. It reports
// false after Close and inside the SlotReleaser's calls. It does not
// allocate, whatever the answer.
func (h *Heap) Valid(hd Handle) bool { return !h.blocked && h.pool.Valid(hd.h) }

// Free invalidates hd at once. Its slot stays pending until the frame
// clock reports complete its newest frame. That frame is Clock.Last: the
// frame being recorded, or between frames the last one submitted. Until
// then a frame in flight may still sample the slot's descriptor. A stale, zero or
// foreign handle returns an error and changes nothing. Free does not
// allocate, refused or not.
func (h *Heap) Free(hd Handle) error {
	if h.blocked {
		return h.refuseBlocked("Free", hd)
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
	if h.blocked {
		return h.refuseBlocked("FreeN", Handle{})
	}
	h.batch++
	for _, hd := range hs {
		e := h.pool.Get(hd.h)
		if e == nil {
			return h.badHandle("FreeN", hd)
		}
		if e.batch == h.batch {
			h.last = Refusal{Err: ErrInvalidHandle, Heap: h.name, Call: "FreeN", Handle: hd, Repeat: true, Capacity: h.pool.Cap()}
			return ErrInvalidHandle
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
	// instructions per slot of a Reclaim per slot (BenchmarkChurn). The
	// slots of a batch are on the free list before the first ReleaseSlot,
	// so the releaser's calls into the heap are refused (ErrReentrant):
	// an Alloc there could take a slot still to be released.
	for {
		n := h.pool.ReclaimInto(completed, h.reclaimed[:])
		if h.releaser != nil && n > 0 {
			h.releasing, h.blocked = true, true
			for _, i := range h.reclaimed[:n] {
				h.releaser.ReleaseSlot(int(i))
			}
			h.releasing, h.blocked = false, h.closed
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

// refuse records a refusal that names only its sentinel, the call and
// the handle, and returns the sentinel. It stays out of line: inlined,
// its Refusal would be built in the frame of every caller, Alloc and
// Free included, on paths that never refuse.
//
//go:noinline
func (h *Heap) refuse(kind error, op string, hd Handle) error {
	h.last = Refusal{Err: kind, Heap: h.name, Call: op, Handle: hd, Capacity: h.pool.Cap(),
		Foreign: !hd.IsZero() && !h.pool.Owns(hd.h)}
	return kind
}

// refuseBlocked is refuse for a call on a closed or releasing heap.
func (h *Heap) refuseBlocked(op string, hd Handle) error {
	if h.releasing {
		return h.refuse(ErrReentrant, op, hd)
	}
	return h.refuse(ErrClosed, op, hd)
}

// LastRefusal describes the heap's latest refused call (the zero Refusal
// if none). It does not allocate.
func (h *Heap) LastRefusal() Refusal { return h.last }

// badHandle is refuse for a handle the pool rejected: one of another
// heap's pool, or whose index is outside the heap, is invalid (the zero
// Handle belongs to no pool), others stale. It is the pool's own rule.
func (h *Heap) badHandle(op string, hd Handle) error {
	kind := ErrStaleHandle
	if !h.pool.Owns(hd.h) || uint(hd.Index()) >= uint(h.pool.Cap()) {
		kind = ErrInvalidHandle
	}
	return h.refuse(kind, op, hd)
}

// exhausted records a refused Alloc or AllocN and returns its sentinel.
func (h *Heap) exhausted(call string, want int) error {
	h.refused++
	st := h.pool.Stats()
	h.last = Refusal{Err: ErrHeapExhausted, Heap: h.name, Call: call, Want: want,
		Live: st.InUse, Peak: st.PeakInUse, Pending: st.Pending, Retired: st.Retired, Capacity: st.Capacity}
	h.logExhausted(st.TotalCreated, st.InUse)
	return ErrHeapExhausted
}

// Grow raises the heap's capacity to capacity slots. It is the only way
// the capacity changes: the heap never grows by itself, and Alloc answers
// a full heap with ErrHeapExhausted whatever the headroom Grow could add.
//
// Every handle stays valid with the same index and generation. Pending
// slots keep waiting, and are reclaimed in the order they were freed
// once their frames complete. Reclaimed slots keep their last-in
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
	if h.blocked {
		return h.refuseBlocked("Grow", Handle{})
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
	if h.releasing {
		return h.refuse(ErrReentrant, "Close", Handle{})
	}
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
	h.closed, h.blocked = true, true
	return nil
}
