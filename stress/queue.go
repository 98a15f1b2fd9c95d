package main

import (
	"sync/atomic"
)

// queue is a bounded lock-free multi-producer single-consumer queue of
// fixed-size values (Vyukov's bounded queue with per-cell sequence
// numbers). Its cells are allocated once; Push and Pop never allocate, so
// worker goroutines can reach an owner goroutine from inside a guarded
// frame.
//
// Push may be called from any goroutine; Pop belongs to the owner
// goroutine that drains the queue. A full queue refuses the value and
// counts it: the producer keeps it and decides (the workers drop it, and
// the report shows the count).
type queue[T any] struct {
	_     [64]byte // keep the hot indices off the neighbours' cache lines
	tail  atomic.Uint64
	_     [56]byte
	head  atomic.Uint64
	_     [56]byte
	full  atomic.Uint64
	peak  atomic.Uint64
	mask  uint64
	cells []cell[T]
}

type cell[T any] struct {
	seq atomic.Uint64
	v   T
}

// newQueue returns a queue holding up to size values; size is rounded up
// to a power of two.
func newQueue[T any](size int) *queue[T] {
	n := 1
	for n < size {
		n <<= 1
	}
	q := &queue[T]{mask: uint64(n - 1), cells: make([]cell[T], n)}
	for i := range q.cells {
		q.cells[i].seq.Store(uint64(i))
	}
	return q
}

// Push appends v, or returns false (and counts it) when the queue is full.
func (q *queue[T]) Push(v T) bool {
	for {
		pos := q.tail.Load()
		c := &q.cells[pos&q.mask]
		seq := c.seq.Load()
		switch {
		case seq == pos:
			if q.tail.CompareAndSwap(pos, pos+1) {
				c.v = v
				c.seq.Store(pos + 1)
				q.notePeak(pos + 1)
				return true
			}
		case seq < pos:
			q.full.Add(1)
			return false
		}
		// Another producer claimed pos first; retry with the new tail.
	}
}

func (q *queue[T]) notePeak(tail uint64) {
	// The consumer frees a cell before it advances head, so depth may
	// read one high for a moment; capacity is the true bound.
	depth := min(tail-q.head.Load(), uint64(len(q.cells)))
	for {
		p := q.peak.Load()
		if depth <= p || q.peak.CompareAndSwap(p, depth) {
			return
		}
	}
}

// Pop removes the oldest value. It returns false when the queue is empty
// or the oldest producer has claimed its cell but not finished writing it.
func (q *queue[T]) Pop() (T, bool) {
	pos := q.head.Load()
	c := &q.cells[pos&q.mask]
	if c.seq.Load() != pos+1 {
		var zero T
		return zero, false
	}
	v := c.v
	c.seq.Store(pos + q.mask + 1)
	q.head.Store(pos + 1)
	return v, true
}

// Full returns how many Push calls were refused.
func (q *queue[T]) Full() uint64 { return q.full.Load() }

// Peak returns the deepest the queue has been.
func (q *queue[T]) Peak() uint64 { return q.peak.Load() }

// Cap returns the queue's capacity.
func (q *queue[T]) Cap() int { return len(q.cells) }
