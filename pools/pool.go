package pools

import (
	"fmt"
	"reflect"
	"strconv"
	"unsafe"
)

// Slot generations. A live slot's generation is odd and a free, reserved
// or pending slot's is even; Create (or Claim) adds one, and so does
// Destroy (or DestroyAfter, or Clear). Every handle carries an odd
// generation (HandleFromBits refuses even ones, and the zero Handle fails
// the index bound first), so one comparison proves a handle live. A slot
// that reaches genRetired is never reused (a pending one retires when it
// is reclaimed): it is the one even value no free slot holds, and stopping
// there keeps the last handle issued for the slot (genRetired-1) stale
// forever, where letting the counter wrap would bring back generations
// already handed out. A slot thus lives 2^31-1 times before it retires.
const genRetired = ^uint32(0) - 1

// noSlot ends the free list. It is above MaxCapacity, so the bound check
// Create makes on the free-list head anyway is also its empty test.
const noSlot = ^uint32(0)

// slot is one slot's bookkeeping: its generation, a link, which threads
// the slot through whichever list holds it: the free list while it is
// free (next is the slot below it), the pending queue while it is pending
// (next is the slot queued after it), neither while it is live, reserved
// or retired (next is meaningless then), and while it is pending the
// device frame it waits for. A slot is never on both lists, so one link
// serves both. Threading the LIFO free list through the slots, instead of
// keeping a separate stack of indices with its own length and capacity,
// is what brought BenchmarkPoolCompare/impl=ours from 75
// to 61 instructions per op (counted under valgrind --tool=callgrind; see
// the Pool struct for the other half). The serial sits beside the link
// rather than in an array of its own: DestroyAfter and Reclaim then make
// one bound check, not two, which is part of what keeps DestroyAfter
// inlinable.
type slot struct {
	gen    uint32
	next   uint32
	serial uint64
}

// Pool is a budgeted pool of T addressed by generational handles.
// Create takes the most recently freed slot (a LIFO free list keeps
// recycling cache-local), Destroy zeroes the element and bumps the slot's
// generation, so every handle to it turns stale. DestroyAfter ends an
// element the same way but keeps its slot pending, off the free list,
// until Reclaim sees the device frame it names complete. The capacity is
// fixed until the owner calls Grow. Create, Destroy, DestroyAfter, Get and
// Valid are O(1), Reclaim O(1) per slot; Clear and Grow are O(capacity).
// Besides the elements, a pool keeps 36 bytes per slot (generation and
// list link, pending serial, reservation entry and header), all allocated
// by NewPool or Grow and counted in Stats.BytesCapacity.
//
// A Pool belongs to one owner goroutine; it is not safe for concurrent
// use.
type Pool[T any] struct {
	_ noCopy

	// slots[i] and elems[i] describe slot i; both have the pool's
	// capacity as length. The elements keep their own array: putting each
	// element next to its slot word (72-byte entries for a 64-byte element)
	// saved eight more instructions per op in BenchmarkPoolCompare but was
	// no faster, and in one heap layout ran it three times slower (11.5
	// against 3.8 ns), with elements straddling cache lines.
	slots []slot
	elems []T
	// head is the top of the LIFO free list threaded through slots[i].next,
	// or noSlot when no slot is free.
	head uint32

	// live counts live elements and peak is its maximum; the free count
	// is derived (Available). Create and Destroy sit at the inlining
	// budget (TestHotPathsInline). The peak test is a branch, not max(),
	// which stores on every Create (two instructions more per op in
	// BenchmarkPoolCompare); the hot paths copy p.slots into a local
	// because only then does the compiler drop the slot bound check
	// (-d=ssa/check_bce) once the generic method is inlined.
	live    int
	peak    int
	retired int
	created uint64
	refused uint64

	// The pending queue: a FIFO of pending slots threaded through
	// slots[i].next from pendHead (oldest) to pendTail (newest), each
	// waiting for the device frame in slots[i].serial. Reclaim looks at
	// the head only, so a slot waits for every slot ahead of it as well:
	// DestroyAfter need not raise a lower serial to the newest one, and
	// without that (and with the serial beside the link) it fits the
	// inlining budget, so Heap.Free in descriptors makes no call
	// (BenchmarkChurn there). The queue is empty when pending is 0, and
	// then pendHead, pendTail and the tail's link mean nothing: testing
	// the count instead of keeping noSlot markers up to date saves a store
	// and a branch on each end.
	pendHead uint32
	pendTail uint32
	pending  int

	// hw is a lower bound of the high-water mark (see highWater); it
	// lives off the hot paths: Create and Destroy never touch it.
	hw int

	// tag is the pool's identity, already shifted into the index's top
	// bits (see Handle). A handle carries it in notIndex, and every
	// lookup folds it out with one XOR before the bound check it makes
	// anyway: a handle of another pool lands beyond every capacity.
	tag uint32

	resv reservations
}

// NewPool returns a pool that holds at most capacity elements until Grow
// raises it. A capacity of 0 is legal: every Create fails. NewPool and
// Grow make the pool's only allocations.
func NewPool[T any](capacity int) (*Pool[T], error) {
	if err := checkCapacity("Pool", capacity); err != nil {
		return nil, err
	}
	p := &Pool[T]{
		slots: make([]slot, capacity),
		elems: make([]T, capacity),
		resv:  newReservations(capacity),
		tag:   nextTag(),
	}
	p.resetFreeList()
	return p, nil
}

// resetFreeList puts every slot that is free (neither retired nor live,
// and not marked pending by Clear) on the free list, lowest index on top,
// so a fresh or cleared pool hands out 0, 1, 2, ...
func (p *Pool[T]) resetFreeList() {
	p.head = noSlot
	for i := len(p.slots) - 1; i >= 0; i-- {
		if g := p.slots[i].gen; g&1 == 0 && g != genRetired {
			p.push(uint32(i))
		}
	}
}

// Available returns the number of slots Create can take now, the length
// of the free list: those that are neither live, pending, reserved nor
// retired. A batch that must be admitted all or nothing checks it first;
// Reserve does the same and holds the slots too.
func (p *Pool[T]) Available() int {
	return len(p.slots) - p.live - p.pending - p.resv.unclaimed - p.retired
}

// push puts free slot i on top of the free list.
func (p *Pool[T]) push(i uint32) {
	p.slots[i].next = p.head
	p.head = i
}

// Create makes a zeroed element live and returns its handle and a pointer
// to it. The pointer is valid until the element is destroyed (Destroy,
// DestroyAfter or Clear) or the pool grows. When every slot is live,
// pending, reserved or retired, Create returns ErrBudgetExhausted and
// changes nothing but Stats.Refused.
func (p *Pool[T]) Create() (Handle[T], *T, error) {
	i, slots := p.head, p.slots
	if uint(i) >= uint(len(slots)) {
		p.refused++
		return Handle[T]{}, nil, ErrBudgetExhausted
	}
	s := &slots[i]
	p.head = s.next
	s.gen++
	p.live++
	if p.live > p.peak {
		p.peak = p.live
	}
	p.created++
	return Handle[T]{notIndex: ^(i | p.tag), gen: s.gen}, &p.elems[i], nil
}

// Destroy zeroes h's element, so the garbage collector can free what it
// referenced, bumps the slot's generation and puts the slot back on the
// free list (or retires it if its generation is spent). A zero,
// out-of-range or forged handle, or one of another pool, gets
// ErrInvalidHandle, a stale one ErrStaleHandle, and nothing changes.
func (p *Pool[T]) Destroy(h Handle[T]) error {
	i, slots := ^h.notIndex^p.tag, p.slots
	if uint(i) >= uint(len(slots)) {
		return ErrInvalidHandle
	}
	s := &slots[i]
	if s.gen != h.gen {
		return ErrStaleHandle
	}
	s.gen++
	if s.gen == genRetired {
		p.retired++
	} else {
		s.next = p.head
		p.head = i
	}
	var zero T
	p.elems[i] = zero
	p.live--
	return nil
}

// Get returns a pointer to h's element, or nil when h is not live in p.
// The pointer is valid until the element is destroyed or the pool grows.
func (p *Pool[T]) Get(h Handle[T]) *T {
	i, slots := ^h.notIndex^p.tag, p.slots
	if uint(i) < uint(len(slots)) && slots[i].gen == h.gen {
		return &p.elems[i]
	}
	return nil
}

// Valid reports whether h names a live element of p; a handle of another
// pool is never valid, whatever its index and generation.
func (p *Pool[T]) Valid(h Handle[T]) bool {
	i, slots := ^h.notIndex^p.tag, p.slots
	return uint(i) < uint(len(slots)) && slots[i].gen == h.gen
}

// Slot returns the slot index of h and true when h names a live element
// of p, as Valid does, or false. It is Valid and Handle.Index in one
// lookup, for a caller that resolves a handle to its index on every draw
// (descriptors' Heap.Get, BenchmarkResolve there).
func (p *Pool[T]) Slot(h Handle[T]) (uint32, bool) {
	i, slots := ^h.notIndex^p.tag, p.slots
	return i, uint(i) < uint(len(slots)) && slots[i].gen == h.gen
}

// Clear destroys every live element and releases every outstanding
// reservation. Every handle and every Reservation turns stale. The
// capacity is unchanged (retired slots stay retired). The pool is
// immediately reusable and hands out the lowest free index first, as a
// new pool does. Pending slots stay pending, in their order and with their
// elements: a device may still reference them, so only Reclaim frees
// them. Clear is O(capacity). Per-frame workloads belong in an Arena,
// whose Reset is O(in use).
func (p *Pool[T]) Clear() {
	var zero T
	for i := range p.slots {
		s := &p.slots[i]
		if s.gen&1 == 0 {
			continue
		}
		p.elems[i] = zero
		s.gen++
		if s.gen == genRetired {
			p.retired++
		}
	}
	p.live = 0
	p.resv.clear()
	// Nothing is live now, so an odd generation can mark the pending
	// slots for resetFreeList to skip; their links, which the rebuild
	// must not overwrite, stay as they are. No handle is resolved before
	// the marks come off.
	for k, i := 0, p.pendHead; k < p.pending; k, i = k+1, p.slots[i].next {
		p.slots[i].gen++
	}
	p.resetFreeList()
	for k, i := 0, p.pendHead; k < p.pending; k, i = k+1, p.slots[i].next {
		p.slots[i].gen--
	}
}

// Grow raises the pool's capacity to capacity slots. It is the only way
// the capacity changes: Create answers a full pool with
// ErrBudgetExhausted whatever Grow could add.
//
// Every handle and every outstanding Reservation stays valid: a handle is
// a slot index and a generation, never an address. Pointers are another
// matter: Grow moves the elements into a new array, so every pointer that
// Create, Get or Claim returned before it points into the old array and
// must not be used again; resolve the handle anew. Pending slots keep
// waiting, in the same order, for the same serials. The new slots go to
// the bottom of the free list in ascending order, so slots freed or
// reclaimed earlier are still reused first and Stats.HighWater rises into
// the new slots only when nothing freed is left.
//
// A capacity not above the current one, or above MaxCapacity, returns an
// error wrapping ErrInvalidCapacity and changes nothing. Grow allocates
// the new arrays (elements, slot words, reservation table), and so does
// its error, and is O(capacity): it belongs to load time or to a
// deliberate decision, never to a steady frame.
func (p *Pool[T]) Grow(capacity int) error {
	old := len(p.slots)
	if capacity <= old || capacity > MaxCapacity {
		return fmt.Errorf("%w (Pool[%s], capacity %d): Grow takes a capacity above %d, at most %d",
			ErrInvalidCapacity, reflect.TypeFor[T](), old, old, MaxCapacity)
	}
	slots := make([]slot, capacity)
	copy(slots, p.slots)
	elems := make([]T, capacity)
	copy(elems, p.elems)
	// The new slots, ascending, linked below the current bottom of the
	// free list: the walk to it is O(free), within Grow's O(capacity).
	for i := old; i < capacity-1; i++ {
		slots[i].next = uint32(i + 1)
	}
	slots[capacity-1].next = noSlot
	if p.head == noSlot {
		p.head = uint32(old)
	} else {
		bottom := p.head
		for slots[bottom].next != noSlot {
			bottom = slots[bottom].next
		}
		slots[bottom].next = uint32(old)
	}
	p.slots, p.elems = slots, elems
	p.resv.grow(capacity)
	return nil
}

// Len returns the number of live elements.
func (p *Pool[T]) Len() int { return p.live }

// Pending returns the number of pending slots: ended by DestroyAfter and
// waiting for Reclaim.
func (p *Pool[T]) Pending() int { return p.pending }

// Cap returns the pool's capacity, fixed at construction and raised only
// by Grow.
func (p *Pool[T]) Cap() int { return len(p.elems) }

// perSlotBookkeeping is the bytes a Pool keeps per slot besides the
// element: the slot (generation, link and pending serial), the
// reservation entry and the reservation header (the table holds as many
// headers as slots, since each outstanding reservation holds at least one
// entry).
const perSlotBookkeeping = unsafe.Sizeof(slot{}) + 4 + unsafe.Sizeof(reservationHeader{})

// highWater returns 1 + the highest slot index ever made live or
// reserved. The free list hands out never-used slots in ascending order
// from its bottom (NewPool, Clear and Grow all put them there), so the
// slots ever used are exactly [0, highWater): a slot above p.hw is used
// if and only if its generation has left 0 (Create and Claim bump it, and
// it never comes back to 0), the reserved but unclaimed ones excepted,
// which Reserve counts into p.hw itself. Scanning up from p.hw keeps the
// figure off Create, which sits at the inlining budget, and costs O(1)
// amortized: each slot is passed once in the pool's lifetime.
func (p *Pool[T]) highWater() int {
	h := p.hw
	for h < len(p.slots) && p.slots[h].gen != 0 {
		h++
	}
	p.hw = h
	return h
}

// Stats returns a snapshot of the pool's counters. It is O(1) amortized
// and allocates nothing.
func (p *Pool[T]) Stats() Stats {
	var zero T
	size := unsafe.Sizeof(zero)
	return Stats{
		Capacity:      len(p.elems),
		InUse:         p.live,
		PeakInUse:     p.peak,
		Pending:       p.pending,
		HighWater:     p.highWater(),
		Reserved:      p.resv.unclaimed,
		Retired:       p.retired,
		TotalCreated:  p.created,
		Refused:       p.refused,
		BytesCapacity: uintptr(len(p.elems)) * (size + perSlotBookkeeping),
		BytesInUse:    uintptr(p.live) * size,
	}
}

// Handle names one element of a Pool[T]: the pool's tag, a slot index
// and the 32-bit generation the slot had when the element was created. A
// handle is valid while its element lives; after Destroy, DestroyAfter or
// Clear it is stale for good. The zero Handle is never valid: generation
// 0 is never issued. Handles hold no address, so they survive Grow.
//
// The tag (8 bits above the 24-bit index) names the pool that issued
// the handle: every lookup refuses a handle of another pool as
// ErrInvalidHandle, even when its index and generation match a live slot
// of its own. Pools take the tags 0 to 254 in turn as they are made. So
// two pools share one only if 254 others were made between them. A
// program that keeps more pools than that alive loses this check (not
// the generation check) between some of them.
//
// A Handle is a plain value, safe to copy and to pass between goroutines;
// only the pool's owner goroutine may resolve it. The type parameter
// makes a Handle[A] and a Handle[B] different types: neither assignment
// nor conversion compiles.
type Handle[T any] struct {
	// The zero-length array of *T makes the struct's underlying type
	// depend on T, so Handle[B](Handle[A]{}) is a compile error too; it is
	// first because a trailing zero-size field would add padding.
	_ [0]*T
	// notIndex is the slot index ORed with the pool's tag, inverted, so
	// the zero Handle names tag 0xFF, which no pool takes, and a lookup
	// that XORs its own tag out of it gets an index beyond MaxCapacity:
	// the bound check every lookup makes anyway rejects it, and no lookup
	// needs a separate zero or owner test.
	notIndex uint32
	gen      uint32
}

// handle returns p's handle for slot i at generation gen.
func (p *Pool[T]) handle(i, gen uint32) Handle[T] { return Handle[T]{notIndex: ^(i | p.tag), gen: gen} }

// Owns reports whether h carries p's tag: whether p issued it, live or
// stale. The zero Handle is no pool's.
func (p *Pool[T]) Owns(h Handle[T]) bool { return ^h.notIndex&^indexMask == p.tag }

// Index returns the handle's slot index (0xFFFFFFFF for the zero Handle).
func (h Handle[T]) Index() uint32 {
	if h.notIndex == 0 {
		return ^uint32(0)
	}
	return ^h.notIndex & indexMask
}

// Generation returns the slot generation the handle was issued with; it is
// odd for every handle a pool issues and 0 for the zero Handle.
func (h Handle[T]) Generation() uint32 { return h.gen }

// IsZero reports whether h is the zero Handle, which means "none".
func (h Handle[T]) IsZero() bool { return h.notIndex == 0 && h.gen == 0 }

// String formats h for logs and errors: "none" for the zero Handle,
// otherwise "slot N gen G" with the index and generation in decimal (the
// tag is left out), for
// instance "slot 3 gen 5". Every steadyframe handle type reads the same
// way. String allocates the string it returns; the hot paths never call
// it.
func (h Handle[T]) String() string {
	if h.IsZero() {
		return "none"
	}
	b := make([]byte, 0, len("slot 4294967295 gen 4294967295"))
	b = append(b, "slot "...)
	b = strconv.AppendUint(b, uint64(h.Index()), 10)
	b = append(b, " gen "...)
	b = strconv.AppendUint(b, uint64(h.gen), 10)
	return string(b)
}

// Bits packs the handle into an opaque uint64 for queues that carry one (a
// deferred release, a replay record); the zero Handle packs to 0.
// HandleFromBits reverses it.
func (h Handle[T]) Bits() uint64 { return uint64(h.gen)<<32 | uint64(h.notIndex) }

// HandleFromBits rebuilds a handle packed by Handle.Bits. Bits that no
// pool could have issued (an even generation) give the zero Handle; other
// bits give a handle that pools reject with ErrInvalidHandle or
// ErrStaleHandle unless it names a live element.
func HandleFromBits[T any](bits uint64) Handle[T] {
	gen := uint32(bits >> 32)
	if gen&1 == 0 {
		// Only odd generations are ever issued; lookups rely on never
		// seeing an even one besides the zero Handle's.
		return Handle[T]{}
	}
	return Handle[T]{notIndex: uint32(bits), gen: gen}
}

// String describes the pool for logs and errors, "Pool[T] of N slots"
// with T the element type: the detail its bare refusals leave out, with
// Stats. It allocates the string it returns.
func (p *Pool[T]) String() string {
	return fmt.Sprintf("Pool[%s] of %d slots", reflect.TypeFor[T](), len(p.slots))
}
