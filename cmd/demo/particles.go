package main

import (
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/pools"
)

// spark is one short-lived particle.
type spark struct {
	x, y, vx, vy, life float32
}

// particles are the sparks sprayed where a sprite hits a wall, in a
// pools.Slots: a burst acquires slots, a full pool drops new sparks (an
// ordinary outcome, counted in Stats.Refused), and each frame's walk
// releases the dead spark it stands on, which Slots allows mid-walk.
// Their quads are streamed through the particles arena. Nothing here
// allocates after construction. particles belong to the render goroutine.
type particles struct {
	slots *pools.Slots[spark]
}

const particleLife = 0.6 // seconds

func newParticles(capacity int) (*particles, error) {
	s, err := pools.NewSlots[spark](capacity)
	if err != nil {
		return nil, err
	}
	return &particles{slots: s}, nil
}

func (p *particles) capacity() int { return p.slots.Cap() }

// burst adds up to count sparks at (x, y), their directions derived from
// seed.
func (p *particles) burst(x, y float32, count int, seed uint64) {
	s := seed*0x9e3779b97f4a7c15 | 1
	for range count {
		_, sp, ok := p.slots.Acquire()
		if !ok {
			return
		}
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		a := float32(s>>40)/float32(1<<24)*2 - 1
		b := float32((s>>16)&0xffffff)/float32(1<<24)*2 - 1
		*sp = spark{x: x, y: y, vx: a * 160, vy: b * 160, life: particleLife}
	}
}

// step moves the sparks and releases the dead ones.
func (p *particles) step(dt float32) {
	for i, sp := range p.slots.All() {
		sp.life -= dt
		if sp.life <= 0 {
			_ = p.slots.ReleaseAt(i) // i is live: the walk stands on it
			continue
		}
		sp.x += sp.vx * dt
		sp.y += sp.vy * dt
	}
}

// write draws each spark as a small square fading with its life.
func (p *particles) write(w *quads.Writer, white uint32) {
	for _, sp := range p.slots.All() {
		alpha := uint32(255 * sp.life / particleLife)
		w.Fill(white, sp.x-2, sp.y-2, sp.x+2, sp.y+2, 0xffe08000|alpha)
	}
}
