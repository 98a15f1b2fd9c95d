package main

import (
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// arenaCount is the number of upload consumers of the scene's layout:
// renderer, sprites, particles, in that order everywhere in this program.
const arenaCount = scene.ArenaCount

var arenaNames = func() (names [arenaCount]string) {
	for i, a := range scene.Arenas() {
		names[i] = a.Name
	}
	return names
}()

// sample is one point of the occupancy plot.
type sample struct {
	At        time.Duration // since the run started
	Frame     uint64
	Live      int // descriptor slots in use
	Pending   int // descriptor slots retired but not yet reusable
	HighWater int
	ArenaUsed [arenaCount]int // bytes used in the frame sampled
	FrameTime time.Duration   // the previous frame's time
	Warnings  uint64          // heap occupancy warnings so far
	Refusals  uint64          // heap and arena refusals so far
	Phase     int             // the -scenario phase running (1-based), 0 for none
}

// series keeps a bounded time series for the report plot. Its buffer is
// allocated once; when it fills up, neighbouring samples are merged in
// place and the sampling interval doubles, so a run of any length fits and
// Offer never allocates. The merge keeps each pair's larger values, because
// the plot is there to show peaks. A series belongs to the render
// goroutine.
type series struct {
	buf   []sample
	every uint64 // one kept sample per this many Offers
	acc   sample // the Offers of the current interval, merged
	accN  uint64
}

func newSeries(capacity int) *series {
	if capacity < 2 {
		capacity = 2
	}
	return &series{buf: make([]sample, 0, capacity&^1), every: 1}
}

// Offer records p. Offers within one sampling interval are merged, so a
// one-frame spike survives however long the run.
func (s *series) Offer(p sample) {
	if s.accN == 0 {
		s.acc = p
	} else {
		s.acc = merge(s.acc, p)
	}
	s.accN++
	if s.accN < s.every {
		return
	}
	if len(s.buf) == cap(s.buf) {
		s.halve()
	}
	s.buf = append(s.buf, s.acc)
	s.accN = 0
}

// merge keeps b's time and frame and the larger of each value.
func merge(a, b sample) sample {
	m := b
	m.Live = max(a.Live, b.Live)
	m.Pending = max(a.Pending, b.Pending)
	m.HighWater = max(a.HighWater, b.HighWater)
	m.FrameTime = max(a.FrameTime, b.FrameTime)
	for k := range m.ArenaUsed {
		m.ArenaUsed[k] = max(a.ArenaUsed[k], b.ArenaUsed[k])
	}
	return m
}

func (s *series) halve() {
	n := len(s.buf) / 2
	for i := 0; i < n; i++ {
		s.buf[i] = merge(s.buf[2*i], s.buf[2*i+1])
	}
	s.buf = s.buf[:n]
	s.every *= 2
}

// Samples returns the kept samples (the last interval's partial merge is
// not among them); valid until the next Offer.
func (s *series) Samples() []sample { return s.buf }
