package voices

import (
	"math"
	"runtime"
	"sync/atomic"

	"github.com/steadyframe/steadyframe/voices/internal/spatial"
)

// A position or a listener is state, not an event: a game moves hundreds
// of emitters a frame, and only the newest move of each matters to the
// next block. So SetPosition and SetListener write a cell instead of
// queueing a command, and the mixer reads each cell once a block.

// seqLock guards one cell: seq is odd while a writer writes, and a read
// that sees seq change retries at the next block. Writers from many
// goroutines take turns; the mixer only reads, and never waits.
type seqLock struct{ seq atomic.Uint32 }

func (l *seqLock) lock() {
	for {
		s := l.seq.Load()
		if s&1 == 0 && l.seq.CompareAndSwap(s, s+1) {
			return
		}
		runtime.Gosched()
	}
}

func (l *seqLock) unlock() { l.seq.Add(1) }

// begin returns the sequence number to read under, and false while a
// write is under way or nothing is newer than seen.
func (l *seqLock) begin(seen uint32) (uint32, bool) {
	s := l.seq.Load()
	return s, s&1 == 0 && s != seen
}

// valid reports that no write began since begin returned s.
func (l *seqLock) valid(s uint32) bool { return l.seq.Load() == s }

// storeVecs stores vectors into a, three float32s each; loadVec loads
// the i-th back.
func storeVecs(a []atomic.Uint32, vs ...Vec3) {
	for i, v := range vs {
		a[3*i].Store(math.Float32bits(v.X))
		a[3*i+1].Store(math.Float32bits(v.Y))
		a[3*i+2].Store(math.Float32bits(v.Z))
	}
}

func loadVec(a []atomic.Uint32, i int) Vec3 {
	return Vec3{math.Float32frombits(a[3*i].Load()), math.Float32frombits(a[3*i+1].Load()), math.Float32frombits(a[3*i+2].Load())}
}

// posCell is one slot's latest SetPosition.
type posCell struct {
	l   seqLock
	gen atomic.Uint32    // the handle's generation the move is for
	v   [6]atomic.Uint32 // position and velocity
}

// store writes a move for the voice of generation gen.
func (c *posCell) store(gen uint32, pos, vel Vec3) {
	c.l.lock()
	c.gen.Store(gen)
	storeVecs(c.v[:], pos, vel)
	c.l.unlock()
}

// load returns the cell's move for generation gen if it is newer than
// the sequence number *seen, and records what it read. A move being
// written, or one for another generation, returns false.
func (c *posCell) load(gen uint32, seen *uint32) (pos, vel Vec3, ok bool) {
	s, ok := c.l.begin(*seen)
	if !ok {
		return pos, vel, false
	}
	g, pos, vel := c.gen.Load(), loadVec(c.v[:], 0), loadVec(c.v[:], 1)
	if !c.l.valid(s) {
		return Vec3{}, Vec3{}, false // torn: the next block reads it again
	}
	*seen = s
	return pos, vel, g == gen
}

// listenerCell is the latest SetListener.
type listenerCell struct {
	l seqLock
	v [12]atomic.Uint32 // position, forward, up, velocity
}

func (c *listenerCell) store(l Listener) {
	c.l.lock()
	storeVecs(c.v[:], l.Position, l.Forward, l.Up, l.Velocity)
	c.l.unlock()
}

// load returns the latest listener if it is newer than *seen.
func (c *listenerCell) load(seen *uint32) (Listener, bool) {
	s, ok := c.l.begin(*seen)
	if !ok {
		return Listener{}, false
	}
	l := Listener{Position: loadVec(c.v[:], 0), Forward: loadVec(c.v[:], 1), Up: loadVec(c.v[:], 2), Velocity: loadVec(c.v[:], 3)}
	if !c.l.valid(s) {
		return Listener{}, false
	}
	*seen = s
	return l, true
}

// latestPos takes slot s's newest SetPosition into p, if there is one
// for v's generation.
func (m *mixer) latestPos(s uint32, v *voice, p *voice3D) {
	if pos, vel, ok := m.sp.pos[s].load(v.gen, &p.seen); ok {
		p.pos, p.vel = pos, vel
	}
}

// latestListener takes the newest SetListener, before the block's
// commands start voices (mixer.renderBlock).
func (m *mixer) latestListener() {
	sp := &m.sp
	if l, ok := sp.lisCell.load(&sp.lisSeen); ok {
		sp.lis = l
		sp.basis = spatial.BasisOf(l.sp())
	}
}
