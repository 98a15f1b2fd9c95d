package main

import (
	"github.com/steadyframe/steadyframe/internal/quads"
)

// particles is a fixed pool of short-lived sparks sprayed where a sprite
// hits a wall; their quads are streamed through the particles arena. The
// arrays are allocated once and a full pool drops new sparks. It belongs
// to the render goroutine.
type particles struct {
	x, y, vx, vy, life []float32
	n                  int
}

const particleLife = 0.6 // seconds

func newParticles(capacity int) *particles {
	return &particles{
		x: make([]float32, capacity), y: make([]float32, capacity),
		vx: make([]float32, capacity), vy: make([]float32, capacity), life: make([]float32, capacity),
	}
}

func (p *particles) capacity() int { return len(p.x) }

// burst adds up to count sparks at (x, y), their directions derived from
// seed.
func (p *particles) burst(x, y float32, count int, seed uint64) {
	s := seed*0x9e3779b97f4a7c15 | 1
	for i := 0; i < count && p.n < len(p.x); i++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		a := float32(s>>40)/float32(1<<24)*2 - 1
		b := float32((s>>16)&0xffffff)/float32(1<<24)*2 - 1
		k := p.n
		p.x[k], p.y[k], p.vx[k], p.vy[k], p.life[k] = x, y, a*160, b*160, particleLife
		p.n++
	}
}

// step moves the sparks and removes the dead ones by swapping in the last.
func (p *particles) step(dt float32) {
	for i := 0; i < p.n; {
		p.life[i] -= dt
		if p.life[i] <= 0 {
			last := p.n - 1
			p.x[i], p.y[i], p.vx[i], p.vy[i], p.life[i] = p.x[last], p.y[last], p.vx[last], p.vy[last], p.life[last]
			p.n--
			continue
		}
		p.x[i] += p.vx[i] * dt
		p.y[i] += p.vy[i] * dt
		i++
	}
}

// write draws each spark as a small square fading with its life.
func (p *particles) write(w *quads.Writer, white uint32) {
	for i := 0; i < p.n; i++ {
		alpha := uint32(255 * p.life[i] / particleLife)
		w.Fill(white, p.x[i]-2, p.y[i]-2, p.x[i]+2, p.y[i]+2, 0xffe08000|alpha)
	}
}
