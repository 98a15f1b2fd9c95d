package pools

import "unsafe"

// Arena is per-frame scratch storage: Alloc bumps a cursor through a fixed
// block of T, and Reset, once a frame, zeroes the used prefix and rewinds
// in O(in use). There is no per-element release; Reset is the only one.
// Alloc, At and Reset allocate nothing.
//
// An Arena belongs to one owner goroutine; it is not safe for concurrent
// use.
type Arena[T any] struct {
	_ noCopy

	elems   []T
	n       int
	peak    int
	created uint64
	refused uint64
}

// NewArena returns an arena of capacity elements. A capacity of 0 is
// legal: every Alloc fails. Construction makes the arena's only
// allocations.
func NewArena[T any](capacity int) (*Arena[T], error) {
	if err := checkCapacity("Arena", capacity); err != nil {
		return nil, err
	}
	return &Arena[T]{
		elems: make([]T, capacity),
	}, nil
}

// Alloc returns the index of the next zeroed element and a pointer to it,
// both valid until the next Reset: never carry them across frames. When
// the arena is full it returns ErrBudgetExhausted and changes nothing but
// Stats.Refused.
func (a *Arena[T]) Alloc() (int, *T, error) {
	i := a.n
	if i >= len(a.elems) {
		a.refused++
		return -1, nil, ErrBudgetExhausted
	}
	a.n = i + 1
	if a.n > a.peak {
		a.peak = a.n
	}
	a.created++
	return i, &a.elems[i], nil
}

// Reset zeroes every element allocated since the last Reset, so the
// garbage collector can free what they referenced, and rewinds the cursor.
// It is O(in use) and idempotent; PeakInUse and TotalCreated survive it.
func (a *Arena[T]) Reset() {
	clear(a.elems[:a.n])
	a.n = 0
}

// At returns a pointer to element i, or nil when i was not allocated since
// the last Reset. The pointer is valid until the next Reset.
func (a *Arena[T]) At(i int) *T {
	if uint(i) >= uint(a.n) {
		return nil
	}
	return &a.elems[i]
}

// Len returns the number of elements allocated since the last Reset.
func (a *Arena[T]) Len() int { return a.n }

// Cap returns the arena's capacity, fixed at construction.
func (a *Arena[T]) Cap() int { return len(a.elems) }

// Stats returns a snapshot of the arena's counters. An arena has no
// bookkeeping beyond the cursor, so BytesCapacity is the element block.
func (a *Arena[T]) Stats() Stats {
	var zero T
	size := unsafe.Sizeof(zero)
	return Stats{
		Capacity:      len(a.elems),
		InUse:         a.n,
		PeakInUse:     a.peak,
		TotalCreated:  a.created,
		Refused:       a.refused,
		BytesCapacity: uintptr(len(a.elems)) * size,
		BytesInUse:    uintptr(a.n) * size,
	}
}
