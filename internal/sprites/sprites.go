package sprites

import (
	"errors"
	"fmt"

	"github.com/steadyframe/steadyframe/internal/quads"
)

// ErrInvalid is returned for an impossible sprite count or size.
var ErrInvalid = errors.New("sprites: invalid argument")

// Sim is a set of bouncing sprites.
type Sim struct {
	x, y, vx, vy []float32
	tint         []uint32
	size         float32
	events       []int
	bounces      uint64
	rng          uint64
}

// New makes n sprites of size pixels, spread over a w×h area with
// velocities derived from seed.
func New(n int, size, w, h float32, seed uint64) (*Sim, error) {
	if n < 0 || n > quads.MaxQuads {
		return nil, fmt.Errorf("%w: %d sprites (want 0..%d)", ErrInvalid, n, quads.MaxQuads)
	}
	if !(size > 0) || !(w > size) || !(h > size) {
		return nil, fmt.Errorf("%w: size %v in a %vx%v area", ErrInvalid, size, w, h)
	}
	s := &Sim{
		x: make([]float32, n), y: make([]float32, n), vx: make([]float32, n), vy: make([]float32, n),
		tint: make([]uint32, n), size: size, events: make([]int, 0, n), rng: seed | 1,
	}
	for i := 0; i < n; i++ {
		s.x[i] = s.unit() * (w - size)
		s.y[i] = s.unit() * (h - size)
		s.vx[i] = (s.unit()*2 - 1) * 240
		s.vy[i] = (s.unit()*2 - 1) * 240
		s.tint[i] = 0x808080ff | uint32(s.unit()*127)<<24 | uint32(s.unit()*127)<<16 | uint32(s.unit()*127)<<8
	}
	return s, nil
}

func (s *Sim) unit() float32 {
	s.rng ^= s.rng << 13
	s.rng ^= s.rng >> 7
	s.rng ^= s.rng << 17
	return float32(s.rng>>40) / float32(1<<24)
}

// Len returns the number of sprites.
func (s *Sim) Len() int { return len(s.x) }

// Bounces returns the wall hits since New.
func (s *Sim) Bounces() uint64 { return s.bounces }

// Events returns the sprites that hit a wall in the last Step; valid until
// the next Step.
func (s *Sim) Events() []int { return s.events }

// Position returns sprite i's top-left corner.
func (s *Sim) Position(i int) (x, y float32) { return s.x[i], s.y[i] }

// Step advances every sprite by dt seconds inside a w×h area, reflecting
// it off the edges. It does not allocate.
func (s *Sim) Step(dt, w, h float32) {
	s.events = s.events[:0]
	maxX, maxY := w-s.size, h-s.size
	for i := range s.x {
		s.x[i] += s.vx[i] * dt
		s.y[i] += s.vy[i] * dt
		hit := false
		if s.x[i] < 0 {
			s.x[i], s.vx[i], hit = 0, -s.vx[i], true
		} else if s.x[i] > maxX {
			s.x[i], s.vx[i], hit = maxX, -s.vx[i], true
		}
		if s.y[i] < 0 {
			s.y[i], s.vy[i], hit = 0, -s.vy[i], true
		} else if s.y[i] > maxY {
			s.y[i], s.vy[i], hit = maxY, -s.vy[i], true
		}
		if hit {
			s.events = append(s.events, i)
			s.bounces++
		}
	}
}

// Write appends one quad per sprite to b, textured with texture(i). Give
// consecutive sprites the same texture to keep the draw runs few. It
// returns the number of quads that did not fit.
func (s *Sim) Write(b *quads.Writer, texture func(i int) uint32) int {
	missed := 0
	for i := range s.x {
		r := quads.Rect{X0: s.x[i], Y0: s.y[i], X1: s.x[i] + s.size, Y1: s.y[i] + s.size, U1: 1, V1: 1}
		if !b.Quad(texture(i), r, s.tint[i]) {
			missed++
		}
	}
	return missed
}
