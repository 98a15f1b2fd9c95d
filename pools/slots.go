package pools

import (
	"iter"
	"math/bits"
	"unsafe"
)

// Slots is a fixed-capacity pool of T addressed by slot index, with one
// liveness bit per slot. Acquire takes the lowest free slot; a full pool
// is an ordinary outcome (ok=false, counted in Stats.Refused), never a
// panic or an error. The live set is a set, not a prefix: walk it with
// NextLive or All, which both allow releasing the current slot mid-walk.
// Acquire, ReleaseAt, NextLive, All, IsLive, At and IndexOf allocate
// nothing.
//
// A Slots belongs to one owner goroutine; it is not safe for concurrent
// use.
type Slots[T any] struct {
	_ noCopy

	elems []T
	// live has one bit per slot; the bits past the capacity in the last
	// word stay 0, so walks need no bound check per word.
	live []uint64
	// hint is the lowest word that may hold a free bit; only Acquire
	// reads it, so moving it never disturbs a walk.
	hint int
	n    int
	// peak is the high-water mark of n as of the last release; Stats
	// takes the max with n. Recording it where n falls, not where it
	// rises, keeps Acquire within the inlining budget.
	peak    int
	created uint64
	refused uint64
}

// NewSlots returns a pool of capacity slots. A capacity of 0 is legal:
// every Acquire reports full. Construction makes its only allocations.
func NewSlots[T any](capacity int) (*Slots[T], error) {
	if err := checkCapacity("Slots", capacity); err != nil {
		return nil, err
	}
	return &Slots[T]{
		elems: make([]T, capacity),
		live:  make([]uint64, (capacity+63)/64),
	}, nil
}

// Acquire makes the lowest free slot live and returns its index and a
// pointer to its zeroed element, valid until the slot is released. When
// every slot is live it returns (-1, nil, false) and counts the refusal.
func (s *Slots[T]) Acquire() (int, *T, bool) {
	if s.n == len(s.elems) {
		s.refused++
		return -1, nil, false
	}
	// Every word below hint is full and n < capacity, so a free bit
	// exists at or above hint, below the capacity.
	w := s.hint
	word := s.live[w]
	for word == ^uint64(0) {
		w++
		word = s.live[w]
	}
	s.hint = w
	s.live[w] = word | (word + 1) // word+1 carries into the lowest clear bit
	i := w<<6 | bits.TrailingZeros64(^word)
	s.n++
	s.created++
	return i, &s.elems[i], true
}

// ReleaseAt zeroes slot i's element and frees the slot. It touches only
// bit i, so a NextLive or All walk standing on i may call it: the walk
// goes on from i+1, skipping nothing and visiting nothing twice. A slot
// outside the pool gets ErrOutOfRange, a free one ErrNotLive, and nothing
// changes.
func (s *Slots[T]) ReleaseAt(i int) error {
	if uint(i) >= uint(len(s.elems)) {
		return ErrOutOfRange
	}
	w, bit := i>>6, uint64(1)<<(i&63)
	if s.live[w]&bit == 0 {
		return ErrNotLive
	}
	var zero T
	s.elems[i] = zero
	s.live[w] &^= bit
	s.peak = max(s.peak, s.n)
	s.n--
	if w < s.hint {
		s.hint = w
	}
	return nil
}

// NextLive returns the lowest live slot at or above from, or -1 when there
// is none. It reads only bits at or above from, so releasing the slot a
// walk stands on never disturbs the walk:
//
//	for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) { ... }
//
// A slot acquired during a walk is visited only if it lies above the
// current one; acquire outside walks to avoid the surprise.
func (s *Slots[T]) NextLive(from int) int {
	if from < 0 {
		from = 0
	}
	if from >= len(s.elems) {
		return -1
	}
	w := from >> 6
	word := s.live[w] & (^uint64(0) << (from & 63))
	for word == 0 {
		w++
		if w >= len(s.live) {
			return -1
		}
		word = s.live[w]
	}
	return w<<6 | bits.TrailingZeros64(word)
}

// All returns an iterator over the live slots in ascending order, with the
// same guarantee as a NextLive walk: the loop body may ReleaseAt the slot
// it is given. Each pointer is valid until its slot is released.
func (s *Slots[T]) All() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		// The NextLive walk, unrolled per word: after each yield the word
		// is read again and masked to the bits above the current slot, so
		// the body's releases are seen exactly as NextLive(i+1) sees them.
		for w := range s.live {
			word := s.live[w]
			for word != 0 {
				b := bits.TrailingZeros64(word)
				i := w<<6 | b
				if !yield(i, &s.elems[i]) {
					return
				}
				word = s.live[w] & (^uint64(0) << (b + 1))
			}
		}
	}
}

// IsLive reports whether slot i holds a live element.
func (s *Slots[T]) IsLive(i int) bool {
	return uint(i) < uint(len(s.elems)) && s.live[i>>6]&(1<<(i&63)) != 0
}

// At returns a pointer to slot i's element, or nil when the slot is not
// live. The pointer is valid until the slot is released.
func (s *Slots[T]) At(i int) *T {
	if !s.IsLive(i) {
		return nil
	}
	return &s.elems[i]
}

// IndexOf maps a pointer returned by Acquire, At or All back to its slot.
// It returns (-1, false) for a pointer into no slot of s, into a free
// slot, or when T has size zero (all its elements share one address).
func (s *Slots[T]) IndexOf(e *T) (int, bool) {
	var zero T
	size := unsafe.Sizeof(zero)
	if e == nil || size == 0 || len(s.elems) == 0 {
		return -1, false
	}
	// The arithmetic stays in uintptr and never becomes a pointer again,
	// which keeps it within the unsafe rules.
	off := uintptr(unsafe.Pointer(e)) - uintptr(unsafe.Pointer(&s.elems[0]))
	if off%size != 0 || off/size >= uintptr(len(s.elems)) {
		return -1, false
	}
	i := int(off / size)
	if !s.IsLive(i) {
		return -1, false
	}
	return i, true
}

// Reset zeroes every live element and frees every slot. It is
// O(capacity/64 + in use); PeakInUse, TotalCreated and Refused survive it.
func (s *Slots[T]) Reset() {
	s.peak = max(s.peak, s.n)
	var zero T
	for w, word := range s.live {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			s.elems[w<<6|b] = zero
			word &= word - 1
		}
		s.live[w] = 0
	}
	s.n = 0
	s.hint = 0
}

// Len returns the number of live slots.
func (s *Slots[T]) Len() int { return s.n }

// Cap returns the pool's capacity, fixed at construction.
func (s *Slots[T]) Cap() int { return len(s.elems) }

// Stats returns a snapshot of the pool's counters. BytesCapacity counts
// the element block and the liveness words.
func (s *Slots[T]) Stats() Stats {
	var zero T
	size := unsafe.Sizeof(zero)
	return Stats{
		Capacity:      len(s.elems),
		InUse:         s.n,
		PeakInUse:     max(s.peak, s.n),
		TotalCreated:  s.created,
		Refused:       s.refused,
		BytesCapacity: uintptr(len(s.elems))*size + uintptr(len(s.live))*8,
		BytesInUse:    uintptr(s.n) * size,
	}
}
