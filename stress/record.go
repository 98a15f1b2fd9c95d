package main

import (
	"math/bits"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// histSub is the number of linear sub-buckets per power of two: values
// are kept to within 1/histSub (about 3%) of their true size, which is
// finer than frame-time jitter and lets the whole histogram live in one
// fixed array.
const (
	histSubBits = 5
	histSub     = 1 << histSubBits
	// histBuckets covers every int64 nanosecond value.
	histBuckets = (64 - histSubBits + 1) * histSub
)

// hist is a fixed-size log-linear histogram of durations. Record does not
// allocate, so it may run inside a guarded frame. The zero value is ready
// to use. A hist belongs to the goroutine that records into it.
type hist struct {
	counts [histBuckets]uint32
	n      uint64
	max    time.Duration
	min    time.Duration
	sum    time.Duration
}

func histIndex(v uint64) int {
	if v < histSub {
		return int(v)
	}
	shift := bits.Len64(v) - histSubBits - 1
	return (shift+1)*histSub + int((v>>uint(shift))&(histSub-1))
}

// histLower returns the smallest value that lands in bucket i.
func histLower(i int) uint64 {
	if i < histSub {
		return uint64(i)
	}
	shift := i/histSub - 1
	return (uint64(histSub) | uint64(i%histSub)) << uint(shift)
}

// Record adds one duration. Negative durations count as zero.
func (h *hist) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[histIndex(uint64(d))]++
	if h.n == 0 || d < h.min {
		h.min = d
	}
	h.n++
	h.sum += d
	if d > h.max {
		h.max = d
	}
}

// Count returns the number of recorded durations.
func (h *hist) Count() uint64 { return h.n }

// Max returns the largest recorded duration, exactly.
func (h *hist) Max() time.Duration { return h.max }

// Mean returns the mean recorded duration.
func (h *hist) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Quantile returns the q-quantile (0..1) as the midpoint of the bucket
// holding it, clamped to the exact min and max.
func (h *hist) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	if q <= 0 {
		return h.min
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(q*float64(h.n-1)) + 1
	var seen uint64
	for i := range h.counts {
		seen += uint64(h.counts[i])
		if seen < rank {
			continue
		}
		lo := histLower(i)
		hi := histLower(i + 1)
		mid := time.Duration(lo + (hi-lo)/2)
		if mid < h.min {
			mid = h.min
		}
		if mid > h.max {
			mid = h.max
		}
		return mid
	}
	return h.max
}

// Reset clears the histogram for reuse without allocating.
func (h *hist) Reset() { *h = hist{} }

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
