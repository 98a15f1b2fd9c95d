package syncs

import (
	"fmt"
	"sync/atomic"
)

// MaxQueueCapacity is the largest capacity NewQueue accepts.
const MaxQueueCapacity = 1 << 30

// Queue is a bounded lock-free queue of fixed-size values with many
// producers and one consumer (Dmitry Vyukov's bounded ring with a sequence
// number per cell). Its cells are allocated once, by NewQueue; Push and Pop
// never allocate, so goroutines can reach an owner goroutine from inside
// a guarded frame.
//
// Push may be called from any goroutine and never blocks: a full queue
// refuses the value, counts it (Full) and leaves it with the producer,
// which decides what to drop. Pop, Head and Peak belong to the consumer:
// one goroutine at a time (the owner goroutine that drains the queue, or
// whoever has taken the owner's place under a syncs.Barrier Seize).
//
// Positions count every Push ever claimed: the n-th value pushed has
// position n-1. They are 64-bit and compared by difference, so they may
// wrap. A popped cell is cleared, so the ring holds no pointer to a value
// it has handed on.
type Queue[T any] struct {
	_ [64]byte // keep the cursors off the neighbours' cache lines
	// tail is the next position a producer claims.
	tail atomic.Uint64
	_    [56]byte
	// head is the next position the consumer takes.
	head atomic.Uint64
	_    [56]byte
	full atomic.Uint64
	peak atomic.Uint64
	mask uint64
	cell []queueCell[T]
}

// queueCell is one ring slot: seq equals the cell's position when the cell
// is free for the producer claiming that position, and position+1 once the
// value is published.
type queueCell[T any] struct {
	seq atomic.Uint64
	v   T
}

// NewQueue returns a queue holding up to capacity values, rounded up to a
// power of two; capacity must be 1..MaxQueueCapacity.
func NewQueue[T any](capacity int) (*Queue[T], error) {
	if capacity < 1 || capacity > MaxQueueCapacity {
		return nil, fmt.Errorf("%w: %d (want 1..%d)", ErrInvalidCapacity, capacity, MaxQueueCapacity)
	}
	n := 1
	for n < capacity {
		n <<= 1
	}
	q := &Queue[T]{mask: uint64(n - 1), cell: make([]queueCell[T], n)}
	for i := range q.cell {
		q.cell[i].seq.Store(uint64(i))
	}
	return q, nil
}

// Push publishes v, or returns false and counts the refusal when the
// queue is full. It never blocks and does not allocate.
//
// Push is Reserve, a copy and Publish, written out. Reserve does not
// inline into a generic method, and the call costs Push about 80% more
// instructions per op (BenchmarkQueuePushPop/impl=ours under callgrind;
// docs/notes.md has the counts).
func (q *Queue[T]) Push(v T) bool {
	pos := q.tail.Load()
	for {
		c := &q.cell[pos&q.mask]
		seq := c.seq.Load()
		switch dif := int64(seq - pos); {
		case dif == 0:
			if q.tail.CompareAndSwap(pos, pos+1) {
				c.v = v
				c.seq.Store(pos + 1)
				return true
			}
		case dif < 0:
			// The cell still holds the value pushed one lap ago.
			q.full.Add(1)
			return false
		}
		// Another producer claimed pos first; retry at the new tail.
		pos = q.tail.Load()
	}
}

// Reserve is the first half of a Push that writes the value in place. It
// claims the next cell and returns a pointer to its value. The producer
// fills it and then hands it to the consumer with Publish(pos), from the
// same goroutine, once. Between the two the consumer stops at that cell,
// with every value claimed after it, so the producer must not block
// there; a large T is written once instead of copied twice. A full queue
// returns false and counts the refusal, as Push does. It never blocks
// and does not allocate.
func (q *Queue[T]) Reserve() (v *T, pos uint64, ok bool) {
	pos = q.tail.Load()
	for {
		c := &q.cell[pos&q.mask]
		seq := c.seq.Load()
		switch dif := int64(seq - pos); {
		case dif == 0:
			if q.tail.CompareAndSwap(pos, pos+1) {
				return &c.v, pos, true
			}
		case dif < 0:
			// The cell still holds the value pushed one lap ago.
			q.full.Add(1)
			return nil, 0, false
		}
		// Another producer claimed pos first; retry at the new tail.
		pos = q.tail.Load()
	}
}

// Publish hands the value written at the position Reserve returned to the
// consumer. Call it once per successful Reserve.
//
// Publish is a release store and no more: the value is visible to the
// consumer once the cell is, but a load the producer makes after Publish
// may be ordered before it. On amd64 it is a plain MOV (release_amd64.s),
// where sync/atomic's Store is an XCHG, a full fence that cost Play about
// 5 ns. A producer whose next load must see the consumer's state (a
// Dekker-style handshake) needs a full fence between, such as any
// sync/atomic Store, Swap or CompareAndSwap. Push stays fully fenced.
func (q *Queue[T]) Publish(pos uint64) { storeRelease(&q.cell[pos&q.mask].seq, pos+1) }

// Pop takes the oldest published value. It returns false when the queue is
// empty or when the oldest claimed cell is still being written by its
// producer. A later Pop takes that value. So order is kept, and the values
// behind it wait for it. Pop belongs to the consumer and does not
// allocate.
func (q *Queue[T]) Pop() (T, bool) {
	var zero T
	pos := q.head.Load()
	c := &q.cell[pos&q.mask]
	if c.seq.Load() != pos+1 {
		return zero, false
	}
	if d := q.tail.Load() - pos; d > q.peak.Load() {
		q.peak.Store(d)
	}
	v := c.v
	c.v = zero
	c.seq.Store(pos + q.mask + 1)
	q.head.Store(pos + 1)
	return v, true
}

// Head returns the position the next Pop takes. Only the consumer may
// rely on it staying put.
func (q *Queue[T]) Head() uint64 { return q.head.Load() }

// Claimed returns the position the next Push will claim: every value
// pushed, or being pushed, so far lies below it. Any goroutine may call it.
func (q *Queue[T]) Claimed() uint64 { return q.tail.Load() }

// Len returns how many values are queued or being pushed; it is a
// snapshot, exact only when no Push or Pop runs concurrently.
func (q *Queue[T]) Len() int { return int(min(q.tail.Load()-q.head.Load(), q.mask+1)) }

// Full returns how many Push calls were refused because the queue was
// full. Any goroutine may call it.
func (q *Queue[T]) Full() uint64 { return q.full.Load() }

// Peak returns the deepest the queue was seen by a Pop (values queued or
// being pushed, the popped one included). Any goroutine may call it.
func (q *Queue[T]) Peak() int { return int(min(q.peak.Load(), q.mask+1)) }

// Cap returns the queue's capacity.
func (q *Queue[T]) Cap() int { return len(q.cell) }
