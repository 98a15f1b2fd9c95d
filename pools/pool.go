package pools

import "unsafe"

// Slot generations. A live slot's generation is odd and a free or reserved
// slot's is even; Create and Destroy each add one. Every handle carries an
// odd generation (HandleFromBits refuses even ones, and the zero Handle
// fails the index bound first), so one comparison proves a handle live.
// A slot that reaches genRetired is never reused: it is the one even value
// no free slot holds, and stopping there keeps the last handle issued for
// the slot (genRetired-1) stale forever, where letting the counter wrap
// would bring back generations already handed out. A slot thus lives
// 2^31-1 times before it retires.
const genRetired = ^uint32(0) - 1

// noSlot ends the free list. It is above MaxCapacity, so the bound check
// Create makes on the free-list head anyway is also its empty test.
const noSlot = ^uint32(0)

// slot is one slot's bookkeeping in a single 8-byte word: its generation
// and, while the slot is free, the next slot down the free list (next is
// meaningless while the slot is live or reserved). Threading the LIFO free
// list through the slots, instead of keeping a separate stack of indices
// with its own length and capacity, is what brought
// BenchmarkPoolCompare/ours-pool-create-destroy from 75 to 61 instructions
// per op (counted under valgrind --tool=callgrind; see the Pool struct for
// the other half).
type slot struct {
	gen  uint32
	next uint32
}

// Pool is a fixed-budget pool of T addressed by generational handles.
// Create takes the most recently freed slot (a LIFO free list keeps
// recycling cache-local), Destroy zeroes the element and bumps the slot's
// generation, so every handle to it turns stale. Create, Destroy, Get and
// Valid are O(1); Clear is O(capacity). Besides the elements, a pool keeps
// 28 bytes per slot (generation and free-list link, reservation entry and
// header), all allocated by NewPool and counted in Stats.BytesCapacity.
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

	// live counts live elements and peak is its high-water mark; the free
	// count is derived (freeCount). Create and Destroy sit at the inlining
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

	resv reservations
	errs containerErrors
}

// NewPool returns a pool that holds at most capacity elements. A capacity
// of 0 is legal: every Create fails. Construction makes the pool's only
// allocations.
func NewPool[T any](capacity int) (*Pool[T], error) {
	if err := checkCapacity("Pool", capacity); err != nil {
		return nil, err
	}
	p := &Pool[T]{
		slots: make([]slot, capacity),
		elems: make([]T, capacity),
		resv:  newReservations(capacity),
		errs:  newContainerErrors[T]("Pool", capacity),
	}
	p.resetFreeList()
	return p, nil
}

// resetFreeList puts every slot that is not retired on the free list,
// lowest index on top, so a fresh or cleared pool hands out 0, 1, 2, ...
func (p *Pool[T]) resetFreeList() {
	p.head = noSlot
	for i := len(p.slots) - 1; i >= 0; i-- {
		if p.slots[i].gen != genRetired {
			p.push(uint32(i))
		}
	}
}

// freeCount returns the number of slots on the free list.
func (p *Pool[T]) freeCount() int {
	return len(p.slots) - p.live - p.resv.unclaimed - p.retired
}

// push puts free slot i on top of the free list.
func (p *Pool[T]) push(i uint32) {
	p.slots[i].next = p.head
	p.head = i
}

// Create makes a zeroed element live and returns its handle and a pointer
// to it. The pointer is valid until the element is destroyed (Destroy or
// Clear). When every slot is live, reserved or retired, Create returns
// ErrBudgetExhausted and changes nothing but Stats.Refused.
func (p *Pool[T]) Create() (Handle[T], *T, error) {
	i, slots := p.head, p.slots
	if uint(i) >= uint(len(slots)) {
		p.refused++
		return Handle[T]{}, nil, p.errs.exhausted
	}
	s := &slots[i]
	p.head = s.next
	s.gen++
	p.live++
	if p.live > p.peak {
		p.peak = p.live
	}
	p.created++
	return Handle[T]{notIndex: ^i, gen: s.gen}, &p.elems[i], nil
}

// Destroy zeroes h's element, so the garbage collector can free what it
// referenced, bumps the slot's generation and puts the slot back on the
// free list (or retires it if its generation is spent). A zero,
// out-of-range or forged handle gets ErrInvalidHandle, a stale one
// ErrStaleHandle, and nothing changes.
func (p *Pool[T]) Destroy(h Handle[T]) error {
	i, slots := ^h.notIndex, p.slots
	if uint(i) >= uint(len(slots)) {
		return p.errs.invalid
	}
	s := &slots[i]
	if s.gen != h.gen {
		return p.errs.stale
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

// Get returns a pointer to h's element, or nil when h is not live. The
// pointer is valid until the element is destroyed.
func (p *Pool[T]) Get(h Handle[T]) *T {
	i, slots := ^h.notIndex, p.slots
	if uint(i) < uint(len(slots)) && slots[i].gen == h.gen {
		return &p.elems[i]
	}
	return nil
}

// Valid reports whether h names a live element of p.
func (p *Pool[T]) Valid(h Handle[T]) bool {
	i, slots := ^h.notIndex, p.slots
	return uint(i) < uint(len(slots)) && slots[i].gen == h.gen
}

// Clear destroys every live element and releases every outstanding
// reservation: every handle and every Reservation turns stale, the
// capacity is unchanged (retired slots stay retired) and the pool is
// immediately reusable, handing out the lowest free index first as a new
// pool does. It is O(capacity). Per-frame workloads belong in an Arena,
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
	p.resetFreeList()
}

// Len returns the number of live elements.
func (p *Pool[T]) Len() int { return p.live }

// Cap returns the pool's capacity, fixed at construction.
func (p *Pool[T]) Cap() int { return len(p.elems) }

// perSlotBookkeeping is the bytes a Pool keeps per slot besides the
// element: the slot word, the reservation entry and the reservation header
// (the table holds as many headers as slots, since each outstanding
// reservation holds at least one entry).
const perSlotBookkeeping = unsafe.Sizeof(slot{}) + 4 + unsafe.Sizeof(reservationHeader{})

// Stats returns a snapshot of the pool's counters.
func (p *Pool[T]) Stats() Stats {
	var zero T
	size := unsafe.Sizeof(zero)
	return Stats{
		Capacity:      len(p.elems),
		InUse:         p.live,
		PeakInUse:     p.peak,
		Reserved:      p.resv.unclaimed,
		Retired:       p.retired,
		TotalCreated:  p.created,
		Refused:       p.refused,
		BytesCapacity: uintptr(len(p.elems)) * (size + perSlotBookkeeping),
		BytesInUse:    uintptr(p.live) * size,
	}
}

// Handle names one element of a Pool[T]: a 32-bit slot index and the
// 32-bit generation the slot had when the element was created. A handle is
// valid while its element lives; after Destroy or Clear it is stale for
// good. The zero Handle is never valid: generation 0 is never issued.
//
// A Handle is a plain value, safe to copy and to pass between goroutines;
// only the pool's owner goroutine may resolve it. It is meaningful only in
// the pool that issued it, and the type parameter makes a Handle[A] and a
// Handle[B] different types: neither assignment nor conversion compiles.
type Handle[T any] struct {
	// The zero-length array of *T makes the struct's underlying type
	// depend on T, so Handle[B](Handle[A]{}) is a compile error too; it is
	// first because a trailing zero-size field would add padding.
	_ [0]*T
	// notIndex is the slot index inverted, so the zero Handle names slot
	// 0xFFFFFFFF, beyond MaxCapacity: the bound check every lookup makes
	// anyway rejects it, and no lookup needs a separate zero test.
	notIndex uint32
	gen      uint32
}

// newHandle returns the handle for slot i at generation gen.
func newHandle[T any](i, gen uint32) Handle[T] { return Handle[T]{notIndex: ^i, gen: gen} }

// Index returns the handle's slot index (0xFFFFFFFF for the zero Handle).
func (h Handle[T]) Index() uint32 { return ^h.notIndex }

// Generation returns the slot generation the handle was issued with; it is
// odd for every handle a pool issues and 0 for the zero Handle.
func (h Handle[T]) Generation() uint32 { return h.gen }

// IsZero reports whether h is the zero Handle, which means "none".
func (h Handle[T]) IsZero() bool { return h.notIndex == 0 && h.gen == 0 }

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
