package voices

import (
	"sync/atomic"
)

// cmdKind says what a command asks the mixer to do.
type cmdKind uint8

const (
	cmdNone cmdKind = iota
	cmdPlay
	cmdStop
	cmdVolume
	cmdPan
	cmdMaster
	cmdFormatGain
)

// command is one fixed-size request from a game goroutine to the mixer.
// It holds everything the mixer needs, so nothing is allocated per
// request: a Play carries the clip pointer, the voice slot the producer
// reserved, and the voice's settings.
type command struct {
	kind      cmdKind
	flags     uint8 // cmdFlag*
	priority  int16
	slot      uint32 // voice slot (cmdPlay..cmdPan) or format index (cmdFormatGain)
	gen       uint32 // the handle's generation, so a late command for an ended voice is ignored
	value     float32
	pan       float32
	clip      *clipState
	enqueueNs int64 // engine clock at Play, for the Play-to-mix latency
}

const (
	cmdFlagLoop      = 1 << 0
	cmdFlagProtected = 1 << 1
	cmdFlagSteal     = 1 << 2 // reserved past the caps: the mixer must steal or refuse
)

// queueCell is one ring slot. seq is the Vyukov sequence number: it equals
// the cell's position when the cell is free for the producer that claims
// that position, and position+1 once the command is published.
type queueCell struct {
	seq atomic.Uint64
	cmd command
}

// queue is a bounded lock-free multi-producer queue of commands (Dmitry
// Vyukov's bounded MPMC ring, used here with one consumer at a time). It
// never allocates after construction; a full queue refuses the command and
// counts it. Any goroutine may push; pop belongs to whoever holds the
// mixer's barrier (the audio goroutine, or a StopAll that seized it).
type queue struct {
	cells []queueCell
	mask  uint64
	_     [64]byte // keep the producers' cursor off the consumer's cache line
	enq   atomic.Uint64
	_     [56]byte
	deq   atomic.Uint64
	_     [56]byte
	full  atomic.Uint64
}

// newQueue returns a queue of capacity rounded up to a power of two.
func newQueue(capacity int) *queue {
	n := 1
	for n < capacity {
		n <<= 1
	}
	q := &queue{cells: make([]queueCell, n), mask: uint64(n - 1)}
	for i := range q.cells {
		q.cells[i].seq.Store(uint64(i))
	}
	return q
}

// push publishes c, or returns false and counts it if the queue is full.
func (q *queue) push(c *command) bool {
	pos := q.enq.Load()
	for {
		cell := &q.cells[pos&q.mask]
		seq := cell.seq.Load()
		switch dif := int64(seq - pos); {
		case dif == 0:
			if q.enq.CompareAndSwap(pos, pos+1) {
				cell.cmd = *c
				cell.seq.Store(pos + 1)
				return true
			}
			pos = q.enq.Load()
		case dif < 0:
			q.full.Add(1)
			return false
		default:
			pos = q.enq.Load()
		}
	}
}

// pop takes the oldest published command into c and returns its position
// in the queue (positions count every push ever claimed). It returns false
// when the queue is empty or the oldest claimed cell is still being
// written: that command is taken at a later pop, so order is kept, and
// commands behind it wait for it.
func (q *queue) pop(c *command) (uint64, bool) {
	pos := q.deq.Load()
	cell := &q.cells[pos&q.mask]
	if cell.seq.Load() != pos+1 {
		return 0, false
	}
	q.deq.Store(pos + 1)
	*c = cell.cmd
	cell.cmd = command{} // drop the clip pointer so the ring pins no memory
	cell.seq.Store(pos + q.mask + 1)
	return pos, true
}

// claimed returns the position the next push will claim: every command
// pushed, or being pushed, so far lies below it.
func (q *queue) claimed() uint64 { return q.enq.Load() }
