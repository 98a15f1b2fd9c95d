package voices

import (
	"math"
	"runtime"
	"sync/atomic"
)

// posCell is one slot's latest SetPosition. A position is state, not an
// event: a game moves hundreds of emitters a frame, and only the newest
// move of each matters to the next block. So SetPosition writes the cell
// instead of queueing a command, and the mixer reads it once a block.
// The cell is a sequence lock: seq is odd while a writer writes, and a
// read that sees seq change retries at the next block.
type posCell struct {
	seq atomic.Uint32
	gen atomic.Uint32    // the handle's generation the move is for
	v   [6]atomic.Uint32 // position and velocity, as float32 bits
}

// store writes a move for the voice of generation gen. Writers from many
// goroutines take turns; each holds the cell for six stores.
func (c *posCell) store(gen uint32, pos, vel Vec3) {
	for {
		s := c.seq.Load()
		if s&1 == 0 && c.seq.CompareAndSwap(s, s+1) {
			break
		}
		runtime.Gosched()
	}
	c.gen.Store(gen)
	for i, f := range [6]float32{pos.X, pos.Y, pos.Z, vel.X, vel.Y, vel.Z} {
		c.v[i].Store(math.Float32bits(f))
	}
	c.seq.Add(1)
}

// load returns the cell's move for generation gen if it is newer than
// the sequence number *seen, and records what it read. A move being
// written, or one for another generation, returns false.
func (c *posCell) load(gen uint32, seen *uint32) (pos, vel Vec3, ok bool) {
	s := c.seq.Load()
	if s&1 != 0 || s == *seen {
		return pos, vel, false
	}
	g := c.gen.Load()
	var f [6]float32
	for i := range f {
		f[i] = math.Float32frombits(c.v[i].Load())
	}
	if c.seq.Load() != s {
		return pos, vel, false // torn: the next block reads it again
	}
	*seen = s
	if g != gen {
		return pos, vel, false
	}
	return Vec3{f[0], f[1], f[2]}, Vec3{f[3], f[4], f[5]}, true
}

// latestPos takes slot s's newest SetPosition into p, if there is one
// for v's generation.
func (m *mixer) latestPos(s uint32, v *voice, p *voice3D) {
	if pos, vel, ok := m.sp.pos[s].load(v.gen, &p.seen); ok {
		p.pos, p.vel = pos, vel
	}
}
